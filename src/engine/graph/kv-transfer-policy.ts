/**
 * Topology-aware KV transfer (graph `spec.experimental.kvTransferPolicy`): env, mount and the
 * downward-API volume that worker-class components receive when the policy names a label key or a
 * cluster topology.
 */
import { compareStrings } from '../../model/json';
import { JsonObject, KvTransferPolicyJson } from '../../model/v1beta1';
import { MAIN_CONTAINER } from '../../model/well-known';

export const TOPOLOGY_VOLUME = 'topology-labels';
export const TOPOLOGY_MOUNT_PATH = '/etc/dynamo/topology';

/** A float in its shortest decimal form, never in exponent notation. */
export function shortestFloat(value: number): string {
  const s = String(value);
  if (!/e/i.test(s)) return s;
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

export function kvTransferEnv(policy: KvTransferPolicyJson): JsonObject[] {
  const env: JsonObject[] = [
    { name: 'DYN_KV_TRANSFER_DOMAIN', value: policy.domain },
    { name: 'DYN_KV_TRANSFER_ENFORCEMENT', value: policy.enforcement || 'required' },
    { name: 'DYN_TOPOLOGY_ENABLED', value: 'true' },
    { name: 'DYN_TOPOLOGY_MOUNT_PATH', value: TOPOLOGY_MOUNT_PATH },
  ];
  if (policy.preferredWeight !== undefined) {
    env.push({ name: 'DYN_KV_TRANSFER_PREFERRED_WEIGHT', value: shortestFloat(policy.preferredWeight) });
  }
  return env;
}

export function applyKvTransferPolicy(podTemplate: JsonObject, policy: KvTransferPolicyJson): void {
  podTemplate.spec = podTemplate.spec ?? {};
  const spec = podTemplate.spec;
  spec.containers = spec.containers ?? [];
  let main = spec.containers.find((c: JsonObject) => c?.name === MAIN_CONTAINER);
  if (!main) {
    main = { name: MAIN_CONTAINER };
    spec.containers.unshift(main);
  }
  const added = kvTransferEnv(policy);
  const addedNames = new Set(added.map(e => e.name));
  main.env = [...(main.env ?? []).filter((e: JsonObject) => !addedNames.has(e.name)), ...added]
    .sort((a, b) => compareStrings(a.name, b.name));
  main.volumeMounts = [
    ...(main.volumeMounts ?? []).filter((m: JsonObject) => m.name !== TOPOLOGY_VOLUME && m.mountPath !== TOPOLOGY_MOUNT_PATH),
    { name: TOPOLOGY_VOLUME, mountPath: TOPOLOGY_MOUNT_PATH, readOnly: true },
  ];
  const items = policy.labelKey
    ? [{ path: policy.domain, fieldRef: { fieldPath: `metadata.labels['${policy.labelKey}']` } }]
    : undefined;
  const volume: JsonObject = { name: TOPOLOGY_VOLUME, downwardAPI: items ? { items } : {} };
  spec.volumes = [...(spec.volumes ?? []).filter((v: JsonObject) => v.name !== TOPOLOGY_VOLUME), volume];
}
