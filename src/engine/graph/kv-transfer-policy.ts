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

/**
 * The preferred weight as the operator writes it: the field is a 32-bit float, so the value is
 * first rounded to single precision and then written with the fewest significant digits that read
 * back as the same single-precision value (0.123456789 is written `0.12345679`), never in exponent
 * notation.
 */
export function shortestFloat(value: number): string {
  const single = Math.fround(value);
  let digits = String(single);
  for (let precision = 1; precision <= 9; precision++) {
    const candidate = single.toPrecision(precision);
    if (Math.fround(Number(candidate)) === single) {
      digits = candidate;
      break;
    }
  }
  return positional(digits);
}

/**
 * A decimal from `toPrecision` without exponent notation (`1e-7` is `0.0000001`, `1e+2` is `100`).
 * The shortest form has no trailing zeros after its point.
 */
function positional(digits: string): string {
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(digits);
  if (!match) return digits;
  const [, sign, lead, rest = '', exp] = match;
  const mantissa = lead + rest;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${mantissa}`;
  if (point >= mantissa.length) return `${sign}${mantissa}${'0'.repeat(point - mantissa.length)}`;
  return `${sign}${mantissa.slice(0, point)}.${mantissa.slice(point)}`;
}

/**
 * Every env name the KV transfer policy owns on a worker's `main` container. The operator removes
 * all of them before it adds the policy's own, so a value the user wrote for any of them (in the
 * graph's env or the container's) never survives, even one the policy does not set (the preferred
 * weight under a `required` policy).
 */
export const KV_TRANSFER_POLICY_ENV_NAMES: readonly string[] = [
  'DYN_KV_TRANSFER_DOMAIN',
  'DYN_KV_TRANSFER_ENFORCEMENT',
  'DYN_KV_TRANSFER_PREFERRED_WEIGHT',
  'DYN_TOPOLOGY_ENABLED',
  'DYN_TOPOLOGY_MOUNT_PATH',
];

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
  const owned = new Set(KV_TRANSFER_POLICY_ENV_NAMES);
  main.env = [...(main.env ?? []).filter((e: JsonObject) => !owned.has(e?.name)), ...kvTransferEnv(policy)]
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
