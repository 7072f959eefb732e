/**
 * The operator's DynamoGraphDeploymentRequest goldens (`dgdr/<scenario>`): their input is a request,
 * their output what the operator created after its profiling Job ran. They are planned with
 * `cdk8s-dynamo plan`'s code (the real profiler, in the Python environment of docs/plan.md), then
 * rendered and matched like the other scenarios. Shared by the conformance runner and
 * test/plan.test.ts.
 *
 * Internal module: plain TypeScript, not part of the jsii API.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { ScenarioRenderer } from './scenario';
import { CONFORMANCE_NAMESPACE } from './supported';
import { planFile, withStoredGraphs } from '../../../src/cli/plan-command';
import { supportedOperatorSettings } from '../../../src/engine/render';
import { deepClone, isMap } from '../../../src/model/json';

/** The DGDR scenarios; they need the profiler's environment. */
export const PLANNED_SCENARIOS: readonly string[] = ['dgdr/deployment', 'dgdr/grove', 'dgdr/lws'];

/**
 * The runtime version the goldens' harness sets on each request before profiling
 * (deploy/operator/internal/controller/clusterenv_test.go: `dgdr.Spec.RuntimeVersionOverride = "1.4.0"`).
 */
export const GOLDEN_RUNTIME_VERSION = '1.4.0';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The interpreter of a Python environment with the profiler ($CDK8S_DYNAMO_PYTHON, else .tmp/plan-venv), or why there is none. */
export function profilerPython(): { python?: string; reason?: string } {
  const candidates = [process.env.CDK8S_DYNAMO_PYTHON, path.join(ROOT, '.tmp', 'plan-venv', 'bin', 'python')].filter((p): p is string => !!p);
  const python = candidates.find(p => fs.existsSync(p));
  if (python) return { python };
  return {
    reason: 'needs a Python environment with the Dynamo profiler: create one with scripts/plan-env.sh DYNAMO_SOURCE '
      + '(.tmp/plan-venv) or name its interpreter in $CDK8S_DYNAMO_PYTHON (docs/plan.md)',
  };
}

/**
 * The objects the operator created for the scenario's request, as `plan` computes them: the request
 * as the harness applied it (in the conformance namespace, with GOLDEN_RUNTIME_VERSION), profiled
 * with `python`. Throws an Error with the problems when planning fails.
 */
export function plannedScenarioInput(id: string, input: readonly unknown[], python: string): unknown[] {
  const requests = input.map(doc => {
    const request = deepClone(doc);
    if (isMap(request) && isMap(request.metadata) && isMap(request.spec)) {
      request.metadata.namespace = CONFORMANCE_NAMESPACE;
      request.spec.runtimeVersionOverride = GOLDEN_RUNTIME_VERSION;
    }
    return request;
  });
  const problems: string[] = [];
  const planned = planFile(`${id}/input.yaml`, requests.map(r => JSON.stringify(r)).join('\n---\n'), { python }, problems, []);
  if (planned === undefined) throw new Error(problems.join('\n'));
  return planned.docs;
}

/**
 * The renderer of a DGDR scenario: the generated graph is itself one of the objects the operator
 * created (its golden lists it), so it comes first, as stored, then what `render` makes of the
 * planned objects, as `plan` writes them.
 */
export function withPlannedGraph(render: ScenarioRenderer): ScenarioRenderer {
  return (docs, options) => withStoredGraphs(docs, render(docs, options), supportedOperatorSettings(options.operator));
}
