/**
 * The DynamoGraphDeploymentRequest goldens (dgdr/{deployment,grove,lws}) in the conformance
 * runner when they cannot be planned (no profiler environment and no recorded profiler output):
 * asserted up to profiling (PARTIAL_SCENARIOS), reported as partial, and failing the run when the
 * stage before profiling fails. Planned, they are matched whole (conformance-runner.test.ts).
 */
import { runConformance } from '../scripts/conformance';
import { runPartialStage } from './support/conformance/scenario';
import { PARTIAL_SCENARIOS, SUPPORTED_SCENARIOS } from './support/conformance/supported';
import { CONFORMANCE_DIR, describeNeeding, goldenScenario, goldenScenarioIds } from './support/shared';

const DGDR = ['dgdr/deployment', 'dgdr/grove', 'dgdr/lws'];

test('the DGDR goldens are partial scenarios, not supported ones', () => {
  expect(Object.keys(PARTIAL_SCENARIOS).sort()).toEqual(DGDR);
  for (const id of DGDR) expect(SUPPORTED_SCENARIOS).not.toContain(id);
});

test('a request the operator refuses fails the stage with the refusal', () => {
  const input = [{
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeploymentRequest',
    metadata: { name: 'r' },
    spec: { model: 'm', searchStrategy: 'thorough', image: 'example.com/planner:1.5.0', hardware: { gpuSku: 'h100_sxm' } },
  }];
  const stage = runPartialStage({ input, expected: [] });
  expect(stage.ok).toBe(false);
  expect(stage.message).toContain('spec.searchStrategy: Invalid value: "thorough": is incompatible with spec.backend "auto"');
});

describeNeeding('conformance')('DGDR goldens (shared conformance folder)', () => {
  test.each(DGDR)('%s: the request is admitted and its profiling Job rendered', id => {
    expect(goldenScenarioIds()).toContain(id);
    const stage = runPartialStage(goldenScenario(id));
    expect(stage).toEqual({ ok: true, message: expect.stringMatching(/^admitted; Job\/profile-aic-[a-z]+ rendered$/) });
  });

  test('the runner reports them as partial when they cannot be planned, and passes', () => {
    const lines: string[] = [];
    const summary = runConformance(CONFORMANCE_DIR!, { log: line => lines.push(line), supported: SUPPORTED_SCENARIOS, partial: PARTIAL_SCENARIOS });
    expect(summary.failed).toBe(0);
    expect(summary.partial).toBe(3);
    for (const id of DGDR) {
      expect(lines.find(l => l.startsWith(`partial   ${id}: `))).toMatch(/stage passed \(admitted; Job\/profile-aic-[a-z]+ rendered\); golden output \(workloads output\): /);
    }
    expect(lines[lines.length - 1]).toMatch(/, 3 partial$/);
  });

  test('a partial scenario whose stage fails fails the run', () => {
    const lines: string[] = [];
    const summary = runConformance(CONFORMANCE_DIR!, {
      log: line => lines.push(line),
      supported: SUPPORTED_SCENARIOS,
      partial: PARTIAL_SCENARIOS,
      render: () => [],
    });
    expect(summary.failed).toBeGreaterThanOrEqual(3);
    expect(lines).toContain('    no profiling Job clusterenv-conformance/profile-aic-deployment rendered');
  });
});
