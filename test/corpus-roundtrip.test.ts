import { ApiObject, Chart, Testing } from 'cdk8s';
import { ComponentDeployment, DynamoGraph } from '../src';
import { corpusFiles, describeNeeding, withVersionedImages } from './support/shared';

const files = corpusFiles();
const dynamoDocs = files.flatMap(({ file, docs }) => docs
  .filter(d => d?.apiVersion === 'nvidia.com/v1beta1' && (d.kind === 'DynamoGraphDeployment' || d.kind === 'DynamoComponentDeployment'))
  .map((doc, i) => ({ id: `${file}#${i}`, doc: withVersionedImages(doc) })));

const describeCorpus = describeNeeding('corpus');

describeCorpus('corpus round trip (import, then synth gives the input back)', () => {
  test('the corpus holds the 73 v1beta1 files', () => {
    expect(files.length).toBe(73);
    expect(dynamoDocs.length).toBeGreaterThanOrEqual(73);
  });

  test.each(dynamoDocs.map(d => [d.id, d.doc]))('%s', (_id, doc) => {
    const chart = new Chart(Testing.app(), 'test');
    const construct = doc.kind === 'DynamoGraphDeployment'
      ? DynamoGraph.fromObject(chart, 'Imported', doc)
      : ComponentDeployment.fromObject(chart, 'Imported', doc, { operator: groveOperator });
    const resource = construct.node.findChild('Resource') as ApiObject;
    expect(resource.toJson()).toEqual(doc);
    // the graph as the render engine sees it is the same document
    expect(construct.toJson()).toEqual(doc);
  });

  /** Corpus documents the operator itself rejects on create, and the rule that rejects them. */
  const REJECTED: Record<string, RegExp> = {
    // its main containers name no image
    'examples__power-aware-budget__dgd.yaml#0': /podTemplate\.spec\.containers\[0\]\.image \(component "[^"]+"\): Required value: is required \(rule 46\)$/,
  };

  // the corpus targets the full Dynamo platform, Grove and checkpointing included (as the operator goldens do)
  const groveOperator = { groveAvailable: true, checkpointEnabled: true };

  test.each(dynamoDocs.map(d => [d.id, d.doc]))('%s synthesizes with no violation (with semantic-version images)', (id, doc) => {
    const chart = new Chart(Testing.app(), 'test');
    const construct = doc.kind === 'DynamoGraphDeployment'
      ? DynamoGraph.fromObject(chart, 'Imported', doc, { operator: groveOperator })
      : ComponentDeployment.fromObject(chart, 'Imported', doc, { operator: groveOperator });
    const errors = construct.node.validate();
    const expected = REJECTED[id];
    if (expected) {
      expect(errors.length).toBeGreaterThan(0);
      for (const e of errors) expect(e).toMatch(expected);
    } else {
      expect(errors).toEqual([]);
    }
  });

  test.each(['deploy__operator__samples__dgd-gms-failover.yaml#0', 'examples__backends__vllm__deploy__gms-failover.yaml#0'])(
    '%s (inter-pod GMS) is rejected by an operator without Grove', id => {
      const doc = dynamoDocs.find(d => d.id === id)!.doc;
      const graph = DynamoGraph.fromObject(new Chart(Testing.app(), 'test'), 'Imported', doc);
      expect(graph.node.validate()).toEqual([
        'test/Imported: DynamoGraphDeployment/llm-serving-mn: spec.components[0].experimental.gpuMemoryService.mode (component "agg"): '
        + 'Forbidden: requires the Grove pathway, but workload provider "component" is selected (rule 117)',
      ]);
    });
});

describe('checkpointing is off in the Helm defaults', () => {
  test('a graph with checkpointing enabled is rejected by rule 140 unless the operator enables it', () => {
    const doc = dynamoDocs.find(d => d.id === 'examples__backends__trtllm__deploy__snapshot-restore.yaml#0')?.doc;
    if (!doc) return;
    const errors = DynamoGraph.fromObject(new Chart(Testing.app(), 'test'), 'Imported', doc, { operator: { groveAvailable: true } }).node.validate();
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e).toMatch(/checkpoint functionality is disabled in the operator configuration \(rule 140\)$/);
  });
});
