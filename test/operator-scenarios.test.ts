/**
 * The operator scenarios (test/operator-scenarios/<area>/<name>.yaml): facts from the Dynamo
 * operator's Go unit tests, each run as its own test named by the Go test it comes from.
 *
 * A scenario marked `knownMismatch` is where the engine differs from the operator today: its test
 * expects the scenario to fail and fails once it passes, so that the mark gets removed.
 */
import {
  findScenarioFiles, getPath, includes, OperatorScenario, parsePath, readScenario, runScenario, scenarioTitle, summarize,
} from './support/operator-scenarios';

const files = findScenarioFiles();
const scenarios: OperatorScenario[] = files.map((f) => readScenario(f));

describe('operator scenarios: the files', () => {
  test('at least 40 scenarios, each naming the Go test its facts come from', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(40);
    for (const s of scenarios) {
      expect(s.source.file).toMatch(/^deploy\/operator\/.+_test\.go$/);
      expect(s.source.test).toMatch(/^Test/);
    }
  });

  test('scenario ids are unique and areas are folders', () => {
    const ids = scenarios.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id.split('/')).toHaveLength(2);
  });
});

describe('operator scenarios: the runner', () => {
  test('paths: keys, indexes, list elements by field, quoted keys', () => {
    expect(parsePath('spec.template.spec.containers[name=main].env[0]')).toEqual([
      { key: 'spec' }, { key: 'template' }, { key: 'spec' }, { key: 'containers' }, { field: 'name', value: 'main' }, { key: 'env' }, { index: 0 },
    ]);
    expect(parsePath('metadata.labels["nvidia.com/dynamo-component"]')).toEqual([
      { key: 'metadata' }, { key: 'labels' }, { key: 'nvidia.com/dynamo-component' },
    ]);
    const obj = { a: { 'list': [{ name: 'x', v: 1 }, { name: 'y', v: 2 }], 'k.j/l': 3 } };
    expect(getPath(obj, 'a.list[name=y].v')).toBe(2);
    expect(getPath(obj, 'a["k.j/l"]')).toBe(3);
    expect(getPath(obj, 'a.list[name=z].v')).toBeUndefined();
    expect(() => parsePath('a[')).toThrow(/no closing/);
  });

  test('includes: maps by the given keys, other values by equality', () => {
    expect(includes({ name: 'A', valueFrom: { fieldRef: { fieldPath: 'x', apiVersion: 'v1' } } }, { name: 'A', valueFrom: { fieldRef: { fieldPath: 'x' } } })).toBe(true);
    expect(includes({ name: 'A', value: '1' }, { name: 'A', value: '2' })).toBe(false);
    expect(includes(['a', 'b'], ['a'])).toBe(false);
  });

  test('a scenario whose assertion does not hold fails with what was rendered', () => {
    const s = scenarios.find((x) => x.output === 'components');
    expect(s).toBeDefined();
    const broken: OperatorScenario = { ...s!, knownMismatch: undefined, expect: [{ object: { kind: 'NoSuchKind' }, count: 1 }] };
    const result = runScenario(broken);
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toContain('NoSuchKind: expected 1 object(s), got 0');
    expect(summarize([result])).toEqual({ passed: 0, failed: 1, knownMismatches: 0, unexpectedlyPassing: 0 });
    expect(summarize([{ scenario: { ...broken, knownMismatch: 'x' }, failures: [] }]).unexpectedlyPassing).toBe(1);
  });
});

describe('operator scenarios', () => {
  for (const s of scenarios) {
    const title = scenarioTitle(s);
    if (s.knownMismatch) {
      // expected to fail (the engine differs from the operator); passing fails the test: remove the mark
      test.failing(`${title} [known mismatch: ${s.knownMismatch}]`, () => {
        expect(runScenario(s).failures).toEqual([]);
      });
    } else {
      test(title, () => {
        expect(runScenario(s).failures).toEqual([]);
      });
    }
  }
});
