/**
 * Admission rules that read a Grove ClusterTopologyBinding (rows 31, 32, 39, 105): the binding is
 * taken from the documents given with the graph; without it the rules are not checked, and
 * `uncheckedClusterRules` / the CLI say which.
 */
import { DynamoDocuments, OperatorOptions, OutputMode } from '../src';
import { component, graphDocument } from './support/documents';
import { admissionRefusals, AdmitOptions, cli, readDocuments, Refusal, uncheckedRules, writeDocuments } from './support/facade';

type JsonObject = Record<string, any>;

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0';

function binding(name: string, domains: string[]): JsonObject {
  return {
    apiVersion: 'grove.io/v1alpha1',
    kind: 'ClusterTopologyBinding',
    metadata: { name },
    spec: { levels: domains.map(domain => ({ domain, key: `example.com/${domain}` })) },
  };
}

/** A graph on Grove with a graph-level constraint and a component constraint on `decode`. */
function graph(packDomain: string | undefined, componentDomain: string | undefined, extra: JsonObject = {}): JsonObject {
  return graphDocument({ name: 'llm', namespace: 'ns' }, [
    component('Frontend', 'frontend', { main: { image: IMAGE } }),
    component('decode', 'decode', { main: { image: IMAGE } }, componentDomain ? { topologyConstraint: { packDomain: componentDomain } } : {}),
  ], { topologyConstraint: { clusterTopologyName: 'gb200', ...(packDomain ? { packDomain } : {}) }, ...extra });
}

const LEVELS = ['zone', 'block', 'rack', 'host'];
const GROVE = { groveAvailable: true };

/** What admission refuses the document by, for the operator fields and cluster objects of `options`. */
function validateDocument(doc: unknown, options: { readonly groveAvailable: boolean; readonly clusterObjects?: readonly unknown[] }): Refusal[] {
  return admissionRefusals(doc, admitOptions(options));
}

/** The rules left unchecked on a new graph for want of cluster objects. */
function uncheckedClusterRules(doc: unknown, options: { readonly groveAvailable: boolean; readonly clusterObjects?: readonly unknown[] }) {
  return uncheckedRules(doc, admitOptions(options));
}

function admitOptions(options: { readonly groveAvailable: boolean; readonly clusterObjects?: readonly unknown[] }): AdmitOptions {
  return { operator: { groveAvailable: options.groveAvailable }, cluster: options.clusterObjects };
}

/** `DynamoDocuments.renderYaml` of the documents, read back. */
function renderDocuments(docs: unknown[], options: { output: OutputMode; namespace?: string; operator?: OperatorOptions }): JsonObject[] {
  return readDocuments(DynamoDocuments.renderYaml(writeDocuments(docs), options));
}

function rules(violations: readonly Refusal[]): string[] {
  return violations.map(v => `${v.path}: ${v.message} (rule ${v.rule})`);
}

describe('rows 31, 32, 105 with the ClusterTopologyBinding given', () => {
  test('domains of the binding pass', () => {
    expect(rules(validateDocument(graph('block', 'rack'), { ...GROVE, clusterObjects: [binding('gb200', LEVELS)] }))).toEqual([]);
  });

  test('row 32: the graph pack domain must be a level of the binding (domains listed sorted)', () => {
    expect(rules(validateDocument(graph('datacenter', undefined), { ...GROVE, clusterObjects: [binding('gb200', LEVELS)] }))).toEqual([
      'spec.topologyConstraint.packDomain: Invalid value: "datacenter": does not exist in ClusterTopologyBinding "gb200"; available domains: [block host rack zone] (rule 32)',
    ]);
  });

  test('row 105: a component pack domain must be a level, as narrow as the graph\'s or narrower', () => {
    expect(rules(validateDocument(graph('rack', 'zone'), { ...GROVE, clusterObjects: [binding('gb200', LEVELS)] }))).toEqual([
      'spec.components[1].topologyConstraint.packDomain: Invalid value: "zone": must be equal to or narrower than the deployment-level domain "rack" (rule 105)',
    ]);
    expect(rules(validateDocument(graph(undefined, 'numa'), { ...GROVE, clusterObjects: [binding('gb200', LEVELS)] }))).toEqual([
      'spec.components[1].topologyConstraint.packDomain: Invalid value: "numa": does not exist in ClusterTopology "gb200"; available domains: [block host rack zone] (rule 105)',
    ]);
  });

  test('row 39: the KV transfer policy domain must be a level of its binding', () => {
    const policy = { experimental: { kvTransferPolicy: { clusterTopologyName: 'gb200', domain: 'numa' } } };
    expect(rules(validateDocument(graph('block', undefined, policy), { ...GROVE, clusterObjects: [binding('gb200', LEVELS)] }))).toEqual([
      'spec.experimental.kvTransferPolicy.domain: Invalid value: "numa": does not exist in ClusterTopologyBinding "gb200"; available domains: [block host rack zone] (rule 39)',
    ]);
  });

  test('the binding is read only for a new graph on the Grove pathway', () => {
    const bad = graph('datacenter', undefined);
    expect(validateDocument(bad, { groveAvailable: false, clusterObjects: [binding('gb200', LEVELS)] }).filter(v => v.rule === '32')).toEqual([]);
    const old = { ...bad, metadata: { ...(bad.metadata as JsonObject), generation: 2 } };
    expect(validateDocument(old, { ...GROVE, clusterObjects: [binding('gb200', LEVELS)] }).filter(v => v.rule === '32')).toEqual([]);
  });
});

describe('without the binding: not checked, and said so', () => {
  test('no violation; uncheckedClusterRules names the rules and the field', () => {
    expect(rules(validateDocument(graph('datacenter', 'numa'), GROVE))).toEqual([]);
    expect(uncheckedClusterRules(graph('datacenter', 'numa'), GROVE)).toEqual([{
      rules: ['31', '32', '105'],
      path: 'spec.topologyConstraint.clusterTopologyName',
      message: 'ClusterTopologyBinding "gb200" is not among the input documents, so the rules that read its levels were not checked '
        + '(pass it as the cluster returns it: kubectl get clustertopologybinding gb200 -o yaml)',
    }]);
    expect(uncheckedClusterRules(graph('block', undefined), { ...GROVE, clusterObjects: [binding('gb200', LEVELS)] })).toEqual([]);
    // not read off the Grove pathway
    expect(uncheckedClusterRules(graph('block', undefined), { groveAvailable: false })).toEqual([]);
  });

  test('the CLI notice on stderr; with the binding in the file, the rule is checked', () => {
    const files: Record<string, string> = {
      'graph.yaml': writeDocuments([graph('datacenter', undefined)]),
      'with-binding.yaml': writeDocuments([graph('datacenter', undefined), binding('gb200', LEVELS)]),
    };
    const run = (...argv: string[]) => cli(files, ...argv);
    const without = run('validate', '--grove', 'graph.yaml');
    expect(without.code).toBe(0);
    expect(without.stderr).toBe('graph.yaml:24:5: nvidia.com/v1beta1 DynamoGraphDeployment/llm: spec.topologyConstraint.clusterTopologyName: rules 31, 32 not checked: '
      + 'ClusterTopologyBinding "gb200" is not among the input documents, so the rules that read its levels were not checked '
      + '(pass it as the cluster returns it: kubectl get clustertopologybinding gb200 -o yaml)\n'
      + 'validated 1 object in 1 file: ok\n');
    const checked = run('validate', '--grove', 'with-binding.yaml');
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain('(rule 32)');
    expect(checked.stderr).toContain('grove.io/v1alpha1 ClusterTopologyBinding/gb200: not checked (no schema for this kind)');
  });

  test('rendering reads the binding as cluster state and does not write it out', () => {
    const out = renderDocuments([graph('block', undefined), binding('gb200', LEVELS)], { output: OutputMode.WORKLOADS, operator: { groveAvailable: true } });
    expect(out.some(o => o.kind === 'ClusterTopologyBinding')).toBe(false);
    expect(() => renderDocuments([graph('datacenter', undefined), binding('gb200', LEVELS)], { output: OutputMode.WORKLOADS, operator: { groveAvailable: true } }))
      .toThrow(/\(rule 32\)/);
    // graph output passes it through, without a namespace (cluster-scoped)
    const passed = renderDocuments([binding('gb200', LEVELS)], { output: OutputMode.GRAPH, namespace: 'ns' });
    expect(passed[0].metadata).toEqual({ name: 'gb200' });
  });
});
