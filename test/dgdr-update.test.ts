/**
 * The operator's DGDR validating webhook on update (ai-dynamo/dynamo `deploy/operator/internal/
 * webhook/validation/dynamographdeploymentrequest.go`; the cases mirror its envtest
 * `dynamographdeploymentrequest_validation_envtest_test.go`): only what the update introduces is
 * refused, and no spec change once profiling has started, except choosing the runtime version of a
 * request created with autoApply off. Through the pipeline with stored objects, and `validate --old`.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { admissionLines, OperatorFields } from './support/facade';

function request(spec: Record<string, unknown> = {}, phase?: string): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeploymentRequest',
    metadata: { name: 'r', namespace: 'ns' },
    spec: { model: 'Qwen/Qwen3-0.6B', backend: 'vllm', image: 'nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.5.0', hardware: { gpuSku: 'h100_sxm' }, ...spec },
    ...(phase ? { status: { phase } } : {}),
  };
}

/** GPU discovery off: namespace-restricted with `gpu.discoveryEnabled: false` (a field the DGDR rules read from the settings). */
/** A default install. */
const DEFAULT_OPERATOR_SETTINGS: OperatorFields = {};
const DISCOVERY_OFF = { restrictedNamespace: 'ns', gpuDiscoveryEnabled: false } as OperatorFields;

function update(old: any, doc: any, operator: OperatorFields = DISCOVERY_OFF): string[] {
  return admissionLines(doc, { operator, old });
}

const forbidden = (phase: string) =>
  `DynamoGraphDeploymentRequest/r: spec: Forbidden: updates are forbidden while the resource is in phase "${phase}"; delete and recreate the resource to change its spec (rule dgdr-immutable)`;
const overrideRequired = 'DynamoGraphDeploymentRequest/r: spec.runtimeVersionOverride: Required value: is required when spec.image has no parseable semantic-version tag (rule dgdr-runtime-version-override)';

test.each([
  ['unchanged spec during profiling', request({}, 'Profiling'), request(), []],
  ['a spec change during profiling', request({}, 'Profiling'), request({ model: 'other' }), [forbidden('Profiling')]],
  ['a spec change while deploying', request({}, 'Deploying'), request({ model: 'other' }), [forbidden('Deploying')]],
  ['a spec change while deployed', request({}, 'Deployed'), request({ model: 'other' }), [forbidden('Deployed')]],
  ['a spec change after failure', request({}, 'Failed'), request({ model: 'other' }), []],
  ['autoApply turned on once Ready', request({ autoApply: false }, 'Ready'), request({ autoApply: true }), []],
  ['autoApply turned on while profiling', request({ autoApply: false }, 'Profiling'), request({ autoApply: true }), [forbidden('Profiling')]],
  ['the runtime version chosen while profiling with autoApply off', request({ autoApply: false }, 'Profiling'), request({ autoApply: false, runtimeVersionOverride: '1.2.0' }), []],
  ['another change while Ready with autoApply off', request({ autoApply: false }, 'Ready'), request({ autoApply: false, model: 'other' }), [forbidden('Ready')]],
  ['an unchanged thorough + auto request (ratcheted)', request({ backend: 'auto', searchStrategy: 'thorough' }), request({ backend: 'auto', searchStrategy: 'thorough', model: 'other' }), []],
  ['a newly thorough + auto request', request({ backend: 'auto' }), request({ backend: 'auto', searchStrategy: 'thorough' }),
    ['DynamoGraphDeploymentRequest/r: spec.searchStrategy: Invalid value: "thorough": is incompatible with spec.backend "auto"; set spec.backend to a specific backend (sglang, trtllm, or vllm) (rule dgdr-search-strategy)']],
  ['an unchanged custom image without a version (ratcheted)', request({ image: 'test-profiler:custom' }), request({ image: 'test-profiler:custom', model: 'other' }), []],
  ['a newly custom image without a version', request(), request({ image: 'test-profiler:custom' }), [overrideRequired]],
  ['autoApply turned on with a custom image and no override', request({ image: 'test-profiler:custom', autoApply: false }, 'Ready'), request({ image: 'test-profiler:custom', autoApply: true }), [overrideRequired]],
  ['hardware removed', request(), request({ hardware: undefined }),
    ['DynamoGraphDeploymentRequest/r: spec.hardware: Required value: GPU hardware configuration is required when GPU discovery is disabled (rule dgdr-hardware)']],
  ['hardware removed, already missing (ratcheted)', request({ hardware: undefined }), request({ hardware: undefined, model: 'other' }), []],
])('%s', (_name, old, doc, expected) => {
  expect(update(old, doc)).toEqual(expected);
});

test('with GPU discovery on (a default install; always cluster-wide) hardware may be left out', () => {
  expect(update(request(), request({ hardware: undefined }), DEFAULT_OPERATOR_SETTINGS)).toEqual([]);
  expect(update(request(), request({ hardware: undefined }), { restrictedNamespace: 'ns' })).toEqual([]);
});

test('validate --old refuses a spec change of a request that is profiling', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dgdr-update-'));
  fs.writeFileSync(path.join(dir, 'old.yaml'), YAML.stringify(request({}, 'Profiling')));
  fs.writeFileSync(path.join(dir, 'new.yaml'), YAML.stringify(request({ model: 'other' })));
  const r = spawnSync('node', [path.join(__dirname, '..', 'bin', 'cdk8s-dynamo'), 'validate', '--old', path.join(dir, 'old.yaml'), path.join(dir, 'new.yaml')], { encoding: 'utf8' });
  expect(r.status).toBe(1);
  expect(r.stdout + r.stderr).toContain('spec: Forbidden: updates are forbidden while the resource is in phase "Profiling"');
});
