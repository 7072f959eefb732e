/**
 * A graph converted from v1alpha1 on the Grove path: the labels, annotations and subComponentType
 * its `nvidia.com/dgd-spec` keeps for a service reach the service's cliques and Services, a kept
 * ingress gives the frontend's Ingress, and kept PVCs to create become claims (on the component
 * path too), as the operator renders them (src/import/v1alpha1/dgd-alpha-view.ts). The expected values are the
 * operator's own output for the same inputs (test/fixtures/dgd-spec-grove/oracle-grove.json, see
 * the README there).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { runCliOn } from './support/cli-in-process';

const FIXTURES = path.join(__dirname, 'fixtures');
const DIR = path.join(FIXTURES, 'dgd-spec-grove');

interface Meta {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
}
interface OracleRender {
  readonly objects: string[];
  readonly cliques: Record<string, Meta>;
  readonly services: Record<string, Meta>;
  /** The Ingress and PersistentVolumeClaim objects, Grove mode. */
  readonly other: Record<string, any>;
  /** The same, non-Grove mode. */
  readonly nonGroveOther: Record<string, any>;
}
const ORACLE: Record<string, OracleRender> = JSON.parse(fs.readFileSync(path.join(DIR, 'oracle-grove.json'), 'utf8')).inputs;

const INPUTS: Record<string, string> = {
  'legacy-v1alpha1.yaml': path.join(FIXTURES, 'dcd-spec', 'legacy-v1alpha1.yaml'),
  'legacy-labels-v1alpha1.yaml': path.join(FIXTURES, 'dcd-spec', 'legacy-labels-v1alpha1.yaml'),
  'multinode-v1alpha1.yaml': path.join(DIR, 'multinode-v1alpha1.yaml'),
};

/** Kept only by the operator for reasons the README lists (the copied MPI SSH Secret). */
const NOT_RENDERED = new Set(['Secret/mpi-run-ssh-secret']);

/** `cdk8s-dynamo convert` of the v1alpha1 input. */
function converted(file: string): string {
  const run = runCliOn({ 'in.yaml': fs.readFileSync(INPUTS[file], 'utf8') }, ['convert', 'in.yaml']);
  if (run.code !== 0) throw new Error(`convert failed (${run.code}): ${run.stderr}`);
  return run.stdout;
}

/** The objects `render --output workloads` writes for `graph` on the Grove path (or the component path). */
function renderGrove(graph: string, grove = true): any[] {
  const run = runCliOn({ 'graph.yaml': graph, 'op.yaml': fs.readFileSync(path.join(DIR, 'operator-config.yaml'), 'utf8') },
    ['render', '--output', 'workloads', '--namespace', 'dynamo', '--operator-config', 'op.yaml', grove ? '--grove' : '--no-grove', 'graph.yaml']);
  if (run.code !== 0) throw new Error(`render failed (${run.code}): ${run.stderr}`);
  return parseAllDocuments(run.stdout).map(d => d.toJSON()).filter(d => d);
}

function meta(m: any): Meta {
  const annotations = { ...(m?.annotations ?? {}) };
  delete annotations['nvidia.com/last-applied-generation'];
  return { labels: m?.labels ?? {}, annotations };
}

function cliques(objects: readonly any[]): Record<string, Meta> {
  const out: Record<string, Meta> = {};
  for (const o of objects.filter(x => x.kind === 'PodCliqueSet')) {
    for (const c of o.spec.template.cliques) out[c.name] = meta(c);
  }
  return out;
}

function services(objects: readonly any[]): Record<string, Meta> {
  const out: Record<string, Meta> = {};
  for (const o of objects.filter(x => x.kind === 'Service')) out[o.metadata.name] = meta(o.metadata);
  return out;
}

function others(objects: readonly any[]): Record<string, any> {
  const out: Record<string, any> = {};
  for (const o of objects.filter(x => x.kind === 'Ingress' || x.kind === 'PersistentVolumeClaim')) {
    const { name, namespace, labels, annotations } = o.metadata;
    out[`${o.kind}/${name}`] = { ...o, metadata: JSON.parse(JSON.stringify({ name, namespace, labels, annotations })) };
  }
  return out;
}

describe.each(Object.keys(INPUTS))('%s converted from v1alpha1, on the Grove path', (file) => {
  const oracle = ORACLE[file];
  let objects: any[];
  beforeAll(() => {
    objects = renderGrove(converted(file));
  });

  test('every clique has the labels and annotations the operator gives it', () => {
    expect(cliques(objects)).toEqual(oracle.cliques);
  });

  test('every Service has the labels and annotations the operator gives it', () => {
    expect(services(objects)).toEqual(oracle.services);
  });

  test('the operator\'s objects, and no other', () => {
    const names = objects.map(o => `${o.kind}/${o.metadata.name}`).sort();
    expect(names).toEqual(oracle.objects.filter(n => !NOT_RENDERED.has(n)));
  });

  test('the Ingress and PersistentVolumeClaim objects are the operator\'s, on both paths', () => {
    expect(others(objects)).toEqual(oracle.other);
    expect(others(renderGrove(converted(file), false))).toEqual(oracle.nonGroveOther);
  });

  test('the v1alpha1 graph itself renders the same', () => {
    const direct = renderGrove(fs.readFileSync(INPUTS[file], 'utf8'));
    expect(cliques(direct)).toEqual(oracle.cliques);
    expect(services(direct)).toEqual(oracle.services);
  });
});

describe('what the kept service data gives', () => {
  const objects = () => renderGrove(converted('multinode-v1alpha1.yaml'));

  test('a kept subComponentType labels the cliques of a multinode worker, leader and worker alike', () => {
    const labels = Object.entries(cliques(objects())).filter(([name]) => name.startsWith('vllmworker-'));
    expect(labels.map(([name]) => name).sort()).toEqual(['vllmworker-ldr', 'vllmworker-wkr']);
    for (const [, m] of labels) {
      expect(m.labels['nvidia.com/dynamo-sub-component-type']).toBe('custom-sub');
      expect(m.labels.pool).toBe('gpu-a');
      expect(m.annotations.owner).toBe('team-x');
    }
  });

  test('kept labels and annotations win over the graph-wide ones, on cliques and Services', () => {
    const frontendClique = cliques(objects()).frontend;
    const frontendService = services(objects())['alpha-mn-frontend'];
    for (const m of [frontendClique, frontendService]) {
      expect(m.labels['graph-wide']).toBe('overridden');
      expect(m.annotations['graph-note']).toBe('overridden');
    }
    expect(cliques(objects()).vllmprefill.labels['graph-wide']).toBe('g1');
  });

  test('the kept ingress replaces the one from the settings; a claim not marked create is not rendered', () => {
    const alpha = fs.readFileSync(INPUTS['multinode-v1alpha1.yaml'], 'utf8')
      .replace('      volumeAccessMode: ReadWriteMany\n', '      volumeAccessMode: ReadWriteMany\n    - name: existing-cache\n');
    const withSettings = (grove: boolean) => {
      const run = runCliOn({
        'graph.yaml': alpha,
        'op.yaml': fs.readFileSync(path.join(DIR, 'operator-config.yaml'), 'utf8').replace('controllerClassName: ""', 'controllerClassName: traefik'),
      }, ['render', '--output', 'workloads', '--namespace', 'dynamo', '--operator-config', 'op.yaml', grove ? '--grove' : '--no-grove', 'graph.yaml']);
      expect(run.code).toBe(0);
      return parseAllDocuments(run.stdout).map(d => d.toJSON()).filter(d => d);
    };
    for (const grove of [true, false]) {
      const rendered = withSettings(grove);
      const ingresses = rendered.filter(o => o.kind === 'Ingress');
      expect(ingresses.map(o => [o.metadata.name, o.spec.ingressClassName, o.spec.rules[0].host])).toEqual([['alpha-mn-frontend', 'nginx', 'llm..example.com']]);
      expect(rendered.filter(o => o.kind === 'PersistentVolumeClaim').map(o => o.metadata.name)).toEqual(['model-cache']);
    }
  });
});

describe('a kept ingress, with a VirtualService gateway in the settings', () => {
  const ROUTES: Record<string, Record<'grove' | 'nogrove', Record<string, any>>> =
    JSON.parse(fs.readFileSync(path.join(DIR, 'oracle-routes.json'), 'utf8')).inputs;

  function routes(file: string, grove: boolean): Record<string, any> {
    const run = runCliOn({ 'in.yaml': fs.readFileSync(path.join(DIR, file), 'utf8') }, ['convert', 'in.yaml']);
    expect(run.code).toBe(0);
    const render = runCliOn({ 'graph.yaml': run.stdout, 'op.yaml': fs.readFileSync(path.join(DIR, 'operator-config-vs.yaml'), 'utf8') },
      ['render', '--output', 'workloads', '--namespace', 'dynamo', '--operator-config', 'op.yaml', grove ? '--grove' : '--no-grove', 'graph.yaml']);
    expect(render.code).toBe(0);
    const out: Record<string, any> = {};
    for (const o of parseAllDocuments(render.stdout).map(d => d.toJSON()).filter(d => d?.kind === 'Ingress' || d?.kind === 'VirtualService')) {
      const { name, namespace, labels, annotations } = o.metadata;
      out[`${o.kind}/${name}`] = { ...o, metadata: JSON.parse(JSON.stringify({ name, namespace, labels, annotations })) };
    }
    return out;
  }

  test.each([
    ['routes-v1alpha1.yaml', true, 'Grove: the frontend\'s kept ingress (prefix, TLS, its own gateway) gives its Ingress and VirtualService; a worker\'s kept ingress gives nothing'],
    ['routes-v1alpha1.yaml', false, 'component path: the frontend\'s Ingress and VirtualService, and an Ingress for the worker too'],
    ['dcd-v1alpha1.yaml', true, 'a standalone DCD (worker) with a kept ingress'],
    ['dcd-v1alpha1.yaml', false, 'a standalone DCD (worker) with a kept ingress'],
  ])('%s (grove %s): %s', (file, grove) => {
    expect(routes(file, grove)).toEqual(ROUTES[file][grove ? 'grove' : 'nogrove']);
  });
});

describe('a v1beta1 graph whose dgd-spec keeps edge values', () => {
  const EDGE: OracleRender = JSON.parse(fs.readFileSync(path.join(DIR, 'oracle-edge.json'), 'utf8'));
  const graph = () => fs.readFileSync(path.join(DIR, 'edge-v1beta1.yaml'), 'utf8');

  test('an empty kept label or annotation replaces the graph-wide one; a kept empty subComponentType leaves decode; a kept service with no component is ignored', () => {
    const objects = renderGrove(graph());
    expect(cliques(objects)).toEqual(EDGE.cliques);
    expect(services(objects)).toEqual(EDGE.services);
    expect(cliques(objects).frontend.labels.empty).toBe('');
    expect(cliques(objects).worker.labels['nvidia.com/dynamo-sub-component-type']).toBe('decode');
  });

  test('an empty ingress class and an empty TLS block are kept as the operator writes them; claim sizes as given', () => {
    expect(others(renderGrove(graph()))).toEqual(EDGE.other);
    expect(others(renderGrove(graph(), false))).toEqual(EDGE.nonGroveOther);
  });
});
