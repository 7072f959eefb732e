/**
 * A quick run of the fuzzing properties (scripts/fuzz.ts runs them at length): 200 cases each.
 * Set FUZZ_SEED to replay a run; a failure prints fast-check's seed and path.
 */
import * as fc from 'fast-check';
import { anyFuzzGraph } from './support/fuzz-graphs';
import { MUTATION_NAMES, MUTATIONS } from './support/fuzz-mutations';
import {
  admissibleGraphProperty, checkAdmissibleGraph, checkMutatedGraph, FindingTally, KNOWN_FINDINGS, mutatedGraphProperty, PropertyFailure,
} from './support/fuzz-properties';
import { parseFuzzArgs } from '../scripts/fuzz';
import { admissionRefusals } from './support/facade';

/** A generated graph, as far as these tests read it. */
type DgdJson = any;

const RUNS = 200;
const SEED = process.env.FUZZ_SEED !== undefined ? { seed: Number(process.env.FUZZ_SEED) } : {};

describe('fuzz (a): admissible graphs validate cleanly and render in every output', () => {
  test(`${RUNS} generated graphs`, () => {
    const tally = new FindingTally();
    fc.assert(admissibleGraphProperty(tally), { numRuns: RUNS, ...SEED });
    for (const id of tally.counts.keys()) expect(Object.keys(KNOWN_FINDINGS)).toContain(id);
  }, 120_000);
});

describe('fuzz (b): mutated graphs are rejected, never crash validation', () => {
  test(`${RUNS} mutated graphs`, () => {
    fc.assert(mutatedGraphProperty(), { numRuns: RUNS, ...SEED });
  }, 120_000);

  test('every mutation, on a few generated graphs each', () => {
    const bases = fc.sample(anyFuzzGraph, { numRuns: 3, seed: 42 });
    for (const mutation of MUTATION_NAMES) {
      bases.forEach((base, i) => {
        const graph = JSON.parse(JSON.stringify(base.graph)) as DgdJson;
        const result = MUTATIONS[mutation](graph, { index: i, amount: i + 1, grove: i % 2 === 0 });
        const grove = result.grove ?? (base.groveOnly || i % 2 === 0);
        checkMutatedGraph({ mutation, graph: JSON.parse(JSON.stringify(graph)), grove, expectRules: result.rules });
      });
    }
    expect(MUTATION_NAMES.length).toBeGreaterThanOrEqual(60);
  }, 60_000);
});

describe('fuzz properties: how failures and known findings are reported', () => {
  const graph: DgdJson = {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'g' },
    spec: { components: [{ name: 'w', type: 'worker', podTemplate: { spec: { containers: [{ name: 'main', image: 'nvcr.io/x/y:1.4.0' }] } } }] },
  };

  test('row 59: an inadmissible graph fails property (a) naming the violation', () => {
    const bad = JSON.parse(JSON.stringify(graph)) as DgdJson;
    bad.spec.components![0].replicas = -1;
    expect(() => checkAdmissibleGraph({ graph: bad, groveOnly: false })).toThrow(PropertyFailure);
    expect(() => checkAdmissibleGraph({ graph: bad, groveOnly: false })).toThrow(/expected no violation, got: .*spec\.components\[0\]\.replicas.*\(rule 59\)/);
  });

  test('row 59: a mutation whose rule is not reported fails property (b)', () => {
    expect(() => checkMutatedGraph({ mutation: 'replicas-negative', graph, grove: false, expectRules: ['59'] }))
      .toThrow('mutation replicas-negative, operator without Grove: expected a violation of rule 59, got no violation');
  });

  test('a known finding is counted, or fails when strict', () => {
    const tally = new FindingTally();
    tally.seen('native-epp-workloads', 'first');
    tally.seen('native-epp-workloads', 'second');
    expect([...tally.counts]).toEqual([['native-epp-workloads', 2]]);
    expect(() => new FindingTally(true).seen('native-epp-workloads', 'workloads output: expected rendering'))
      .toThrow(new PropertyFailure('workloads output: expected rendering [known finding native-epp-workloads]'));
  });

  test('row 89: a container env that is a string (mutation container-env-string) is rejected', () => {
    const envString = JSON.parse(JSON.stringify(graph)) as DgdJson;
    (envString.spec.components![0].podTemplate!.spec!.containers![0] as any).env = 'A=1';
    expect(() => checkMutatedGraph({ mutation: 'container-env-string', graph: envString, grove: false, expectRules: ['89', 'schema'] })).not.toThrow();
    const env = admissionRefusals(envString).filter(v => v.path === 'spec.components[0].podTemplate.spec.containers[0].env');
    expect(env.length).toBeGreaterThan(0);
    expect(env.every(v => v.rule === '89' || v.rule === 'schema')).toBe(true);
  });

  test('the script reads --runs, --seed, --path, --only and --strict', () => {
    expect(parseFuzzArgs(['--runs', '10000', '--seed', '-5', '--path', '3:1', '--only', 'b', '--strict']))
      .toEqual({ runs: 10000, seed: -5, path: '3:1', only: 'b', strict: true });
    expect(parseFuzzArgs([])).toEqual({ runs: 1000, seed: undefined, path: undefined, only: undefined, strict: false });
    expect(() => parseFuzzArgs(['--runs', '0'])).toThrow('--runs must be a positive integer, got "0"');
    expect(() => parseFuzzArgs(['--runs'])).toThrow('--runs needs a value');
    expect(() => parseFuzzArgs(['--bogus', '1'])).toThrow('unknown option "--bogus"');
  });
});
