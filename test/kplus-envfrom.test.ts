/**
 * `envFrom` with the cdk8s-plus-34 releases in the peer range: an `EnvFrom` renders itself (its
 * internal `_toKube()`) as one EnvFromSource up to 2.0.59 and as a list of them (one per source) from
 * 2.0.60 on (cdk8s-team/cdk8s-plus#8140). The development dependency is an older release, so the
 * list form is made here by giving an EnvFrom the newer rendering; test-python/test_kplus_props.py
 * runs the same props against the newest release itself.
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-34';
import { DynamoGraph } from '../src';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

/** The rendering of cdk8s-plus-34 2.0.60 and later: one entry per source, each with the prefix. */
function asNewerRelease(envFrom: kplus.EnvFrom, configMap?: string, secret?: string, prefix?: string): kplus.EnvFrom {
  const sources: kplus.k8s.EnvFromSource[] = [];
  if (configMap !== undefined) sources.push({ configMapRef: { name: configMap }, prefix });
  if (secret !== undefined) sources.push({ secretRef: { name: secret }, prefix });
  (envFrom as any)._toKube = () => sources;
  return envFrom;
}

function mainEnvFrom(envFrom: kplus.EnvFrom[]): unknown {
  const c = new Chart(Testing.app(), 'test');
  const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'g' } });
  graph.addWorker('worker', { image: IMAGE, envFrom });
  return c.toJson()[0].spec.components[0].podTemplate.spec.containers[0].envFrom;
}

test('an EnvFrom rendered as a list (cdk8s-plus-34 2.0.60 and later) keeps every entry', () => {
  const c = new Chart(Testing.app(), 'refs');
  const secret = kplus.Secret.fromSecretName(c, 'Hf', 'hf-token');
  const configMap = kplus.ConfigMap.fromConfigMapName(c, 'Cm', 'settings');
  expect(mainEnvFrom([
    asNewerRelease(kplus.Env.fromSecret(secret), undefined, 'hf-token'),
    asNewerRelease(kplus.Env.fromConfigMap(configMap, 'APP_'), 'settings', undefined, 'APP_'),
    asNewerRelease(new kplus.EnvFrom(configMap, 'BOTH_', secret), 'settings', 'hf-token', 'BOTH_'),
  ])).toEqual([
    { secretRef: { name: 'hf-token' } },
    { configMapRef: { name: 'settings' }, prefix: 'APP_' },
    { configMapRef: { name: 'settings' }, prefix: 'BOTH_' },
    { secretRef: { name: 'hf-token' }, prefix: 'BOTH_' },
  ]);
});

test('an EnvFrom rendered as one entry (the installed cdk8s-plus-34) is kept', () => {
  const c = new Chart(Testing.app(), 'refs');
  expect(mainEnvFrom([
    kplus.Env.fromSecret(kplus.Secret.fromSecretName(c, 'Hf', 'hf-token')),
    kplus.Env.fromConfigMap(kplus.ConfigMap.fromConfigMapName(c, 'Cm', 'settings'), 'APP_'),
  ])).toEqual([
    { secretRef: { name: 'hf-token' } },
    { configMapRef: { name: 'settings' }, prefix: 'APP_' },
  ]);
});
