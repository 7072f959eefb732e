/**
 * The DCDs of a graph generated once and given the worker hash afterwards equal the DCDs
 * generated with the worker hash from the start (key order included).
 */
import { DgdJson, storedGraph } from './support/facade';
import { CORPUS_DIR, corpusFiles, describeNeeding, withVersionedImages } from './support/shared';
import { generateComponentDcds, generateHashedComponentDcds, graphWorkerHash, replaceWorkerHash } from '../src/engine';

const SETTINGS = { version: '1.6.0' };
const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

function graph(spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'llm', namespace: 'team-a' }): DgdJson {
  return storedGraph({ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata, spec }, SETTINGS);
}

const worker = (name: string, extra: Record<string, unknown> = {}) => ({
  name, type: 'decode', replicas: 1, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } }, ...extra,
});

const GRAPHS: Array<[string, DgdJson]> = [
  ['frontend and workers', graph({ backendFramework: 'vllm', components: [{ name: 'Frontend', type: 'frontend' }, worker('decode'), worker('prefill', { type: 'prefill' })] })],
  ['the worker-hash label written by the user', graph({
    backendFramework: 'vllm',
    labels: { 'nvidia.com/dynamo-worker-hash': 'graph', 'team': 'a' },
    components: [worker('decode', { podTemplate: { metadata: { labels: { 'nvidia.com/dynamo-worker-hash': 'mine', 'z': '1' } }, spec: { containers: [{ name: 'main', image: IMAGE }] } } })],
  })],
  ['a KV transfer policy', graph({
    backendFramework: 'vllm',
    experimental: { kvTransferPolicy: { labelKey: 'topology.kubernetes.io/zone', domain: 'zone' } },
    components: [{ name: 'Frontend', type: 'frontend' }, worker('decode')],
  })],
  ['a sequential restart', graph({ backendFramework: 'vllm', restart: { id: 'r1' }, components: [worker('decode'), worker('prefill', { type: 'prefill' })] })],
  ['a parallel restart', graph({ backendFramework: 'vllm', restart: { id: 'r2', strategy: { type: 'Parallel' } }, components: [worker('decode')] })],
  ['no namespace', graph({ backendFramework: 'vllm', components: [worker('decode')] }, { name: 'llm' })],
];

describe('DCDs generated once, then given the worker hash', () => {
  test.each(GRAPHS)('%s', (_name, dgd) => {
    const expected = generateComponentDcds(dgd, graphWorkerHash(dgd));
    expect(JSON.stringify(generateHashedComponentDcds(dgd))).toBe(JSON.stringify(expected));
  });

  test('the worker hash replaces the one a DCD was generated with, and only in worker DCDs', () => {
    const [frontend, decode] = generateComponentDcds(GRAPHS[0][1], 'aaaaaaaa');
    replaceWorkerHash(frontend, 'aaaaaaaa', 'bbbbbbbb');
    replaceWorkerHash(decode, 'aaaaaaaa', 'bbbbbbbb');
    expect(frontend.metadata.name).toBe('llm-frontend');
    expect(JSON.stringify(frontend)).not.toContain('bbbbbbbb');
    expect(decode.metadata.name).toBe('llm-decode-bbbbbbbb');
    expect(JSON.stringify(decode)).not.toContain('aaaaaaaa');
    expect(() => replaceWorkerHash(decode, 'aaaaaaaa', 'cccccccc')).toThrow(/does not end with the worker hash/);
  });
});

const describeCorpus = describeNeeding('corpus');

describeCorpus('every corpus graph', () => {
  const graphs: DgdJson[] = [];
  if (CORPUS_DIR) {
    for (const { docs } of corpusFiles()) {
      for (const doc of docs.filter((d: any) => d?.kind === 'DynamoGraphDeployment')) {
        try {
          graphs.push(storedGraph(withVersionedImages(doc), SETTINGS));
        } catch {
          // graphs the API server refuses have no DCDs
        }
      }
    }
  }

  test('gets the same DCDs', () => {
    expect(graphs.length).toBeGreaterThan(20);
    for (const dgd of graphs) {
      let expected: string;
      try {
        expected = JSON.stringify(generateComponentDcds(dgd, graphWorkerHash(dgd)));
      } catch (e) {
        expect(() => generateHashedComponentDcds(dgd)).toThrow((e as Error).message);
        continue;
      }
      expect(JSON.stringify(generateHashedComponentDcds(dgd))).toBe(expected);
    }
  });
});
