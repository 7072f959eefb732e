/**
 * Every prop of DynamoGraphDeploymentRequestProps and of its nested props reaches the synthesized
 * request, value for value. The table test/fixtures/dgdr-props/cases.json (shared with the Python,
 * Java and Go suites) gives the props and the request synthesized in GRAPH output; here, besides
 * the whole object, each value given is found at its place in the request, and the table is checked
 * to set every prop of the jsii assembly (`.jsii`, written by `npx projen compile`).
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { DynamoGraphDeploymentRequest, GpuSku, OptimizationType, RequestBackend, SearchStrategy } from '../src';

const ROOT = path.resolve(__dirname, '..');
const FIXTURE = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'dgdr-props', 'cases.json'), 'utf8'));
const CASES: Array<{ title: string; props: any; expected: any }> = FIXTURE.cases;
const ENUM_TYPES: Record<string, Record<string, string>> = {
  RequestBackend, SearchStrategy, GpuSku, OptimizationType,
} as any;
/** Props whose values are plain JSON (or cdk8s's metadata), given as they are. */
const PLAIN = new Set(['metadata', 'planner', 'profilingJob', 'dgd']);

/** The props as the typed API takes them: enum values from their member names. */
function typed(value: any, key = ''): any {
  const enumType = FIXTURE.enums[key];
  if (enumType !== undefined) return ENUM_TYPES[enumType][value];
  if (PLAIN.has(key) || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typed(v, k)]));
}

function synthesized(props: any): any[] {
  const chart = new Chart(Testing.app(), 'test');
  new DynamoGraphDeploymentRequest(chart, 'Request', typed(props));
  return Testing.synth(chart);
}

/** Each value the props give (plain JSON maps as wholes), with the path of the request where it belongs. */
function placed(props: any): Array<{ path: string[]; value: unknown }> {
  const out: Array<{ path: string[]; value: unknown }> = [];
  const walk = (value: any, at: string[]) => {
    const key = at[at.length - 1];
    if (key === 'mocker' && at.length === 3) {
      out.push({ path: [...at, 'enabled'], value });
    } else if (FIXTURE.enums[key] !== undefined) {
      out.push({ path: at, value: (ENUM_TYPES[FIXTURE.enums[key]] as any)[value] });
    } else if (!PLAIN.has(key) && value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) {
      // props given empty: present, with the CRD's defaults when it has some
      out.push({ path: at, value: expect.any(Object) });
    } else if (PLAIN.has(key) || value === null || typeof value !== 'object' || Array.isArray(value)) {
      out.push({ path: at, value });
    } else {
      for (const [k, v] of Object.entries(value)) walk(v, [...at, k]);
    }
  };
  for (const [key, value] of Object.entries(props)) walk(value, key === 'metadata' ? ['metadata'] : ['spec', key]);
  return out;
}

const at = (object: any, keys: readonly string[]) => keys.reduce((v, k) => (v === undefined || v === null ? undefined : v[k]), object);

describe('every DynamoGraphDeploymentRequest prop reaches the request', () => {
  test.each(CASES.map(c => [c.title, c] as const))('%s', (_title, c) => {
    const objects = synthesized(c.props);
    expect(objects).toEqual([c.expected]);
    // nothing lost: each value given is where it belongs, exactly (nested maps, numbers, booleans)
    for (const { path: keys, value } of placed(c.props)) {
      if (keys[0] === 'metadata') expect(at(objects[0], keys)).toEqual(value);
      else expect([keys.join('.'), at(objects[0], keys)]).toEqual([keys.join('.'), value]);
    }
  });

  test('the table sets every prop of the jsii assembly, nested props too, but those it says are tested elsewhere', () => {
    const assemblyFile = path.join(ROOT, '.jsii');
    expect(fs.existsSync(assemblyFile) ? 'found' : 'no .jsii: run npx projen compile').toBe('found');
    const types = JSON.parse(fs.readFileSync(assemblyFile, 'utf8')).types;
    const propsOf = (fqn: string): Array<{ name: string; type: any }> =>
      [...(types[fqn].interfaces ?? []).flatMap(propsOf), ...types[fqn].properties];
    const given = new Set<string>();
    const collect = (value: any, prefix: string) => {
      for (const [key, v] of Object.entries(value)) {
        given.add(`${prefix}${key}`);
        if (!PLAIN.has(key) && v !== null && typeof v === 'object' && !Array.isArray(v)) collect(v, `${prefix}${key}.`);
      }
    };
    for (const c of CASES) collect(c.props, '');
    const missing: string[] = [];
    const check = (fqn: string, prefix: string) => {
      for (const prop of propsOf(fqn)) {
        const name = `${prefix}${prop.name}`;
        if (prefix === '' && FIXTURE.notHere[prop.name] !== undefined) continue;
        if (!given.has(name)) missing.push(name);
        const nested = prop.type.fqn;
        if (nested?.startsWith('cdk8s-dynamo.') && types[nested].datatype) check(nested, `${name}.`);
      }
    };
    check('cdk8s-dynamo.DynamoGraphDeploymentRequestProps', '');
    expect(missing).toEqual([]);
    // and what is left out is a prop
    expect(Object.keys(FIXTURE.notHere).filter(p => !propsOf('cdk8s-dynamo.DynamoGraphDeploymentRequestProps').some(q => q.name === p))).toEqual([]);
  });
});
