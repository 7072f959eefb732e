import { runScenario, scenarioInput, scenarioRenderOptions, ScenarioOutcome } from './support/conformance/scenario';
import { CONFORMANCE_NAMESPACE, DEFERRED_SCENARIOS, SUPPORTED_SCENARIOS } from './support/conformance/supported';
import { RenderError } from './support/facade';
import { describeNeeding, goldenScenario, goldenScenarioIds } from './support/shared';
import { renderDocuments } from '../src/pipeline/check-and-render';

/** The differences of an outcome (a render failure is one difference). */
function differencesOf(outcome: ScenarioOutcome): string[] {
  if (outcome.kind === 'error') return [outcome.message];
  return outcome.kind === 'different' ? outcome.differences : [];
}

function kindsOf(docs: readonly unknown[]): string[] {
  return docs.map(d => `${(d as any).apiVersion} ${(d as any).kind}`);
}

function render(id: string): any[] {
  return renderDocuments(scenarioInput(goldenScenario(id).input), scenarioRenderOptions(id)) as any[];
}

describe('docs/design/render-core.md §16 how the golden scenarios are rendered', () => {
  test('namespace clusterenv-conformance, operator 1.5.0 with Grove and LWS, namespace-restricted to the test namespace', () => {
    expect(scenarioRenderOptions('dgd/components')).toEqual({
      output: 'workloads',
      namespace: CONFORMANCE_NAMESPACE,
      operator: { version: '1.5.0', groveAvailable: true, lwsAvailable: true, restrictedNamespace: 'clusterenv-conformance', groveTerminationDelay: '15m' },
    });
    expect(CONFORMANCE_NAMESPACE).toMatch(/^clusterenv-.*$/);
  });

  test('every known scenario is rendered in workloads output', () => {
    for (const id of [...SUPPORTED_SCENARIOS, ...Object.keys(DEFERRED_SCENARIOS)]) {
      expect(scenarioRenderOptions(id).output).toBe('workloads');
    }
  });

  test('a scenario whose render fails is an error outcome, not a throw', () => {
    const outcome = runScenario('dgd/components', { input: [], expected: [] }, () => {
      throw new RenderError('DynamoGraphDeployment/x', 'spec', 'boom');
    });
    expect(outcome).toEqual({ kind: 'error', mode: 'workloads', message: 'render failed: DynamoGraphDeployment/x: spec: boom' });
  });
});

const describeGolden = describeNeeding('conformance');

describeGolden('docs/design/render-core.md §16 golden scenarios (shared conformance folder)', () => {
  test('the folder holds every supported and every deferred scenario', () => {
    expect(goldenScenarioIds()).toEqual(expect.arrayContaining([...SUPPORTED_SCENARIOS, ...Object.keys(DEFERRED_SCENARIOS)]));
  });

  test.each([...SUPPORTED_SCENARIOS])('%s matches its output.yaml in workloads output', id => {
    const outcome = runScenario(id, goldenScenario(id));
    expect(differencesOf(outcome)).toEqual([]);
    expect(outcome.kind).toBe('matched');
  });

  test('docs/design/render-core.md §16.1 dcd/deployment: the golden asserts the Deployment of a standalone DCD', () => {
    expect(kindsOf(goldenScenario('dcd/deployment').expected)).toEqual(['apps/v1 Deployment']);
    const deployments = render('dcd/deployment').filter(o => o.kind === 'Deployment');
    expect(deployments.map(d => d.metadata.name)).toEqual(['deployment-manifest']);
  });

  test('docs/design/render-core.md §16.2 dgd/components: both the DCDs and their Deployments are asserted', () => {
    expect(kindsOf(goldenScenario('dgd/components').expected).sort()).toEqual([
      'apps/v1 Deployment', 'apps/v1 Deployment',
      'nvidia.com/v1beta1 DynamoComponentDeployment', 'nvidia.com/v1beta1 DynamoComponentDeployment',
    ]);
    const rendered = render('dgd/components');
    // annotated enable-grove "false": the component provider although the Grove gate is on
    expect(rendered.filter(o => o.kind === 'DynamoComponentDeployment')).toHaveLength(2);
    expect(rendered.filter(o => o.kind === 'Deployment')).toHaveLength(2);
  });

  test('docs/design/render-core.md §8.2 namespace-restricted operator: no planner or EPP RBAC in the goldens\' rendering', () => {
    const names = render('dgd/components').map(o => `${o.kind}/${o.metadata?.name}`);
    expect(names.filter(n => n.includes('planner-serviceaccount') || n.includes('epp-serviceaccount'))).toEqual([]);
  });
});
