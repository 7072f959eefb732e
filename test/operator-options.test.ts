/**
 * Every OperatorOptions prop, given through the public API, shows in what is rendered: the scenario
 * table test/fixtures/operator-options/cases.json (shared with the Python, Java and Go suites) names
 * for each prop a value, a graph and where the value must appear; each case is rendered by a
 * DynamoGraph in WORKLOADS output and by DynamoDocuments.renderYaml, and read back from an operator
 * configuration file by OperatorConfiguration.fromYaml. Invalid values are refused when the options
 * are given, naming the prop.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { settings } from './support/facade';
import { DynamoDocuments, DynamoGraph, OperatorConfiguration, OperatorOptions, OutputMode } from '../src/index';

/** The settings of a default platform install. */
const DEFAULT_SETTINGS = settings();

const DIR = path.join(__dirname, 'fixtures', 'operator-options');

type Step = string | number | { readonly name: string };
interface Expectation {
  readonly kind: string;
  readonly name?: string;
  readonly path?: Step[];
  readonly value?: unknown;
  readonly absent?: boolean;
}
interface Case {
  readonly prop: keyof OperatorOptions;
  readonly value: unknown;
  readonly graph: string;
  readonly with?: OperatorOptions;
  readonly config: string;
  readonly helm?: string;
  readonly expect?: Expectation[];
  readonly refused?: string;
  readonly noEffect?: string;
}
interface Invalid {
  readonly prop: keyof OperatorOptions;
  readonly value: unknown;
  readonly with?: OperatorOptions;
  readonly error: string;
}

const FIXTURE: { cases: Case[]; invalid: Invalid[] } = JSON.parse(fs.readFileSync(path.join(DIR, 'cases.json'), 'utf8'));
const graphText = (file: string): string => fs.readFileSync(path.join(DIR, file), 'utf8');
const optionsOf = (c: Case): OperatorOptions => ({ ...c.with, [c.prop]: c.value });
const title = (c: { prop: string; value: unknown }): string => `${c.prop} = ${JSON.stringify(c.value)}`;

/** The objects a DynamoGraph imported from the graph file synthesizes in WORKLOADS output. */
function synthesized(file: string, operator: OperatorOptions): any[] {
  const app = new App();
  const chart = new Chart(app, 'llm');
  DynamoGraph.fromYaml(chart, 'Graph', graphText(file), { output: OutputMode.WORKLOADS, operator });
  return parseAllDocuments(app.synthYaml()).map(d => d.toJSON()).filter(d => d !== null);
}

/** The objects DynamoDocuments.renderYaml renders from the graph file in WORKLOADS output. */
function rendered(file: string, operator: OperatorOptions): any[] {
  const text = DynamoDocuments.renderYaml(graphText(file), { output: OutputMode.WORKLOADS, operator });
  return parseAllDocuments(text).map(d => d.toJSON());
}

/** As `rendered`, but no objects when the graph cannot be rendered. */
function renderedOrNothing(file: string, operator: OperatorOptions): any[] {
  try {
    return rendered(file, operator);
  } catch {
    return [];
  }
}

/** The object an expectation names: by kind and name, or the only object of its kind. */
function objectOf(objects: any[], e: Expectation): any {
  const found = objects.filter(o => o.kind === e.kind && (e.name === undefined || o.metadata?.name === e.name));
  if (e.name === undefined && found.length > 1) throw new Error(`${found.length} objects of kind ${e.kind}`);
  return found[0];
}

/** The value at a path of keys, indexes and `{ name }` (the entry of a named list). */
function valueAt(value: any, steps: Step[]): unknown {
  for (const step of steps) {
    if (value === undefined || value === null) return undefined;
    value = typeof step === 'object' ? (Array.isArray(value) ? value.find(v => v?.name === step.name) : undefined) : value[step];
  }
  return value;
}

/** What the objects show where the expectation looks (`absent` when its object is not rendered). */
function seen(objects: any[], e: Expectation): unknown {
  const object = objectOf(objects, e);
  if (object === undefined) return 'absent';
  return e.absent ? 'present' : valueAt(object, e.path ?? []);
}

/** The message of the error `fn` throws (undefined when it throws none). */
function messageOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return undefined;
}

const wanted = (e: Expectation): unknown => (e.absent ? 'absent' : e.value);

describe('the scenario table', () => {
  test('covers every operator option, each with a value other than its default', () => {
    // the props the platform chart has no value for (derived from the release, or not the chart's)
    expect(FIXTURE.cases.filter(c => !c.helm).map(c => c.prop)).toEqual(
      ['version', 'lwsAvailable', 'lwsAvailable', 'plannerClusterRoleName', 'eppClusterRoleName', 'mpiSshSecretNamespace', 'draAvailable', 'draAvailable', 'registrySecrets']);
    const props = new Set(FIXTURE.cases.map(c => c.prop));
    expect([...props].sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort());
    for (const c of FIXTURE.cases) {
      expect(c.expect?.length || c.refused || c.noEffect).toBeTruthy();
      const defaultValue = (DEFAULT_SETTINGS as any)[c.prop];
      // a case may set a boolean to its default when another case of the prop sets the other value
      const other = FIXTURE.cases.some(o => o !== c && o.prop === c.prop && JSON.stringify(o.value) !== JSON.stringify(defaultValue));
      if (!other) expect(c.value).not.toEqual(defaultValue);
    }
  });

  test('each expectation depends on its prop: the render without it shows something else', () => {
    for (const c of FIXTURE.cases.filter(x => x.expect?.length)) {
      const without = renderedOrNothing(c.graph, c.with ?? {});
      // a value that keeps the graph from rendering (LeaderWorkerSet off) renders nothing
      const other = typeof c.value === 'boolean' ? renderedOrNothing(c.graph, { ...c.with, [c.prop]: !c.value }) : undefined;
      const baseline = JSON.stringify(c.value) === JSON.stringify((DEFAULT_SETTINGS as any)[c.prop]) ? other : without;
      if (baseline === undefined) continue;
      const differs = c.expect!.some(e => JSON.stringify(seen(baseline, e)) !== JSON.stringify(wanted(e)));
      expect({ case: title(c), differs }).toEqual({ case: title(c), differs: true });
    }
  });
});

describe.each(FIXTURE.cases.map(c => [title(c), c] as const))('%s', (_title, c) => {
  if (c.expect?.length) {
    test('shows in the objects a DynamoGraph synthesizes and renderYaml renders', () => {
      const fromConstruct = synthesized(c.graph, optionsOf(c));
      const fromDocuments = rendered(c.graph, optionsOf(c));
      for (const e of c.expect!) {
        expect({ where: e, seen: seen(fromConstruct, e) }).toEqual({ where: e, seen: wanted(e) });
        expect({ where: e, seen: seen(fromDocuments, e) }).toEqual({ where: e, seen: wanted(e) });
      }
      expect(fromConstruct).toEqual(fromDocuments);
    });
  }

  if (c.refused) {
    test('makes the graph one the operator refuses, and rendering says why', () => {
      expect(() => synthesized(c.graph, optionsOf(c))).toThrow(c.refused);
      expect(() => rendered(c.graph, optionsOf(c))).toThrow(c.refused);
    });
  }

  if (c.noEffect) {
    test('is accepted and leaves the rendered objects as they are', () => {
      expect(rendered(c.graph, optionsOf(c))).toEqual(rendered(c.graph, c.with ?? {}));
      expect(synthesized(c.graph, optionsOf(c))).toEqual(rendered(c.graph, c.with ?? {}));
    });
  }

  test('is read back from an operator configuration file', () => {
    const options = OperatorConfiguration.fromYaml(c.config, 'config.yaml');
    expect(options[c.prop]).toEqual(c.value);
  });

  if (c.helm) {
    test('is derived from the values of the platform chart', () => {
      expect(OperatorConfiguration.fromHelmValues(c.helm!)[c.prop]).toEqual(c.value);
    });
  }
});

describe.each(FIXTURE.invalid.map(i => [title(i), i] as const))('%s', (_title, i) => {
  const operator: OperatorOptions = { ...i.with, [i.prop]: i.value };

  test('is refused when a construct is given it, naming the construct and the prop', () => {
    const chart = new Chart(new App(), 'llm');
    expect(() => new DynamoGraph(chart, 'Graph', { operator })).toThrow(`llm/Graph: ${i.error}`);
    expect(() => DynamoGraph.fromYaml(chart, 'Imported', graphText('graph.yaml'), { operator })).toThrow(`llm/Imported: ${i.error}`);
  });

  test('is refused by validateYaml and renderYaml with the prop and the value', () => {
    expect(messageOf(() => DynamoDocuments.validateYaml(graphText('graph.yaml'), { operator }))).toBe(i.error);
    expect(messageOf(() => DynamoDocuments.renderYaml(graphText('graph.yaml'), { operator }))).toBe(i.error);
  });
});

describe('an operator configuration file the operator would not start with', () => {
  const mesh = (istio: string): string => `serviceMesh:\n  enabled: true\n  provider: istio\n  istio:\n${istio}`;

  test.each([
    [mesh('    tlsMode: STRICT\n'), 'serviceMesh.istio.tlsMode: Unsupported value: "STRICT": supported values: "DISABLE", "SIMPLE", "ISTIO_MUTUAL", "MUTUAL"'],
    [mesh('    tlsMode: MUTUAL\n    privateKey: /k.pem\n'), 'serviceMesh.istio.clientCertificate: Required value: tlsMode "MUTUAL" needs a client certificate'],
    [mesh('    tlsMode: MUTUAL\n    clientCertificate: /c.pem\n'), 'serviceMesh.istio.privateKey: Required value: tlsMode "MUTUAL" needs a private key'],
  ])('is refused naming the file and the field: %j', (text, message) => {
    expect(messageOf(() => OperatorConfiguration.fromYaml(text, 'config.yaml'))).toBe(`config.yaml: ${message}`);
  });

  test('is read when the mesh is off, as the operator reads it', () => {
    expect(OperatorConfiguration.fromYaml('serviceMesh:\n  enabled: false\n  istio:\n    tlsMode: STRICT\n', 'config.yaml').istioTlsMode).toBe('STRICT');
  });
});
