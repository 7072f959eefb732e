/**
 * Environment variables as cdk8s-plus `EnvValue`s and whole secrets or config maps as
 * `kplus.Env.fromSecret` / `fromConfigMap`, each only where the constructs write back exactly the
 * entry of the input (`envVarJson`, `EnvFrom._toKube`); secrets and config maps as references
 * (`kplus.Secret.fromSecretName`, ...).
 */
import { bool, Code, enumValue, kplus, map, staticCall, str, struct, variable } from './code';
import { ChartReferences } from './program';
import { isMap } from '../model/json';

const ENV_VALUE = kplus('EnvValue');

const FIELD_PATHS: { readonly [fieldPath: string]: string } = {
  'metadata.name': 'POD_NAME',
  'metadata.namespace': 'POD_NAMESPACE',
  'metadata.uid': 'POD_UID',
  'status.podIP': 'POD_IP',
  'spec.serviceAccountName': 'SERVICE_ACCOUNT_NAME',
  'spec.nodeName': 'NODE_NAME',
  'status.hostIP': 'NODE_IP',
  'status.podIPs': 'POD_IPS',
};

const RESOURCE_FIELDS: { readonly [resource: string]: string } = {
  'limits.cpu': 'CPU_LIMIT',
  'limits.memory': 'MEMORY_LIMIT',
  'requests.cpu': 'CPU_REQUEST',
  'requests.memory': 'MEMORY_REQUEST',
  'limits.ephemeral-storage': 'STORAGE_LIMIT',
  'requests.ephemeral-storage': 'STORAGE_REQUEST',
};

/** Whether `value` is a map with only (some of) the keys `allowed`. */
function only(value: unknown, allowed: readonly string[]): value is Record<string, unknown> {
  return isMap(value) && Object.keys(value).every(k => allowed.includes(k));
}

/** The options struct `type` of an `optional` flag (undefined without one, false when not a boolean). */
function optionalFlag(value: Record<string, unknown>, type: string): Code | undefined | false {
  if (value.optional === undefined) return undefined;
  return typeof value.optional === 'boolean' ? struct(kplus(type), [['optional', bool(value.optional)]]) : false;
}

/** The `EnvValue` of one `env` entry, or undefined when none gives back exactly this entry. */
export function envValue(entry: unknown, refs: ChartReferences): Code | undefined {
  if (!only(entry, ['name', 'value', 'valueFrom']) || typeof entry.name !== 'string') return undefined;
  if (entry.valueFrom === undefined) return typeof entry.value === 'string' ? staticCall(ENV_VALUE, 'fromValue', 1, str(entry.value)) : undefined;
  if (entry.value !== undefined) return undefined;
  const from = entry.valueFrom;
  if (only(from, ['secretKeyRef']) && only(from.secretKeyRef, ['name', 'key', 'optional'])) {
    const ref = from.secretKeyRef;
    const options = optionalFlag(ref, 'EnvValueFromSecretOptions');
    if (typeof ref.name !== 'string' || typeof ref.key !== 'string' || options === false) return undefined;
    const secretValue = struct(kplus('SecretValue'), [['secret', variable(refs.secret(ref.name))], ['key', str(ref.key)]]);
    return staticCall(ENV_VALUE, 'fromSecretValue', 2, secretValue, options);
  }
  if (only(from, ['configMapKeyRef']) && only(from.configMapKeyRef, ['name', 'key', 'optional'])) {
    const ref = from.configMapKeyRef;
    const options = optionalFlag(ref, 'EnvValueFromConfigMapOptions');
    if (typeof ref.name !== 'string' || typeof ref.key !== 'string' || options === false) return undefined;
    return staticCall(ENV_VALUE, 'fromConfigMap', 3, variable(refs.configMap(ref.name)), str(ref.key), options);
  }
  if (only(from, ['fieldRef']) && only(from.fieldRef, ['fieldPath', 'apiVersion'])) {
    const ref = from.fieldRef;
    if (typeof ref.fieldPath !== 'string') return undefined;
    if (ref.apiVersion !== undefined && (typeof ref.apiVersion !== 'string' || ref.apiVersion === '')) return undefined;
    const apiVersion = ref.apiVersion === undefined ? [] : [['apiVersion', str(ref.apiVersion)] as const];
    const member = FIELD_PATHS[ref.fieldPath];
    const options = kplus('EnvValueFromFieldRefOptions');
    if (member !== undefined) return staticCall(ENV_VALUE, 'fromFieldRef', 2, enumValue(kplus('EnvFieldPaths'), member), apiVersion.length ? struct(options, apiVersion) : undefined);
    // a label or annotation: fromFieldRef writes `metadata.labels['KEY']`
    const keyed = /^metadata\.(labels|annotations)\['([^']*)'\]$/.exec(ref.fieldPath);
    if (keyed === null) return undefined;
    const path = keyed[1] === 'labels' ? 'POD_LABEL' : 'POD_ANNOTATION';
    return staticCall(ENV_VALUE, 'fromFieldRef', 2, enumValue(kplus('EnvFieldPaths'), path), struct(options, [['key', str(keyed[2])], ...apiVersion]));
  }
  if (only(from, ['resourceFieldRef']) && only(from.resourceFieldRef, ['resource', 'divisor'])) {
    const ref = from.resourceFieldRef;
    const member = typeof ref.resource === 'string' ? RESOURCE_FIELDS[ref.resource] : undefined;
    if (member === undefined) return undefined;
    if (ref.divisor !== undefined && (typeof ref.divisor !== 'string' || ref.divisor === '')) return undefined;
    return staticCall(ENV_VALUE, 'fromResource', 2, enumValue(kplus('ResourceFieldPaths'), member),
      ref.divisor === undefined ? undefined : struct(kplus('EnvValueFromResourceOptions'), [['divisor', str(ref.divisor)]]));
  }
  return undefined;
}

/** `kplus.Env.fromSecret(...)` / `fromConfigMap(...)` of one `envFrom` entry, or undefined when neither gives it back. */
export function envFromSource(entry: unknown, refs: ChartReferences): Code | undefined {
  if (only(entry, ['secretRef']) && only(entry.secretRef, ['name']) && typeof entry.secretRef.name === 'string') {
    return staticCall(kplus('Env'), 'fromSecret', 1, variable(refs.secret(entry.secretRef.name)));
  }
  if (only(entry, ['configMapRef', 'prefix']) && only(entry.configMapRef, ['name']) && typeof entry.configMapRef.name === 'string') {
    if (entry.prefix !== undefined && typeof entry.prefix !== 'string') return undefined;
    return staticCall(kplus('Env'), 'fromConfigMap', 2, variable(refs.configMap(entry.configMapRef.name)), entry.prefix === undefined ? undefined : str(entry.prefix));
  }
  return undefined;
}

/**
 * The `env` prop of a list of entries: the longest tail of entries (at most `limit`) each an
 * EnvValue (names unique and not integers, which an object literal would reorder); `kept` is the
 * head the pod template keeps. undefined when no tail can be a prop.
 */
export function envProp(
  entries: readonly unknown[], refs: ChartReferences, limit = Infinity,
): { readonly prop: Code; readonly kept: unknown[] } | undefined {
  const names = entries.map(e => (isMap(e) && typeof e.name === 'string' ? e.name : undefined));
  const unique = new Set(names).size === names.length && names.every(n => n !== undefined && !/^(0|[1-9]\d*)$/.test(n));
  if (!unique) return undefined;
  let start = entries.length;
  // referenced secrets are declared only for the entries that become props: try without declaring first
  while (start > 0 && entries.length - start < limit && envValue(entries[start - 1], DRY_RUN) !== undefined) start--;
  if (start === entries.length) return undefined;
  const values = entries.slice(start).map(e => envValue(e, refs)!);
  return {
    prop: map({ class: ENV_VALUE }, values.map((value, i) => [names[start + i]!, value] as const)),
    kept: entries.slice(0, start),
  };
}

/** The `envFrom` prop: the longest tail of entries `kplus.Env` gives back; `kept` the head. */
export function envFromProp(entries: readonly unknown[], refs: ChartReferences): { readonly prop: Code[]; readonly kept: unknown[] } | undefined {
  let start = entries.length;
  while (start > 0 && envFromSource(entries[start - 1], DRY_RUN) !== undefined) start--;
  if (start === entries.length) return undefined;
  return { prop: entries.slice(start).map(e => envFromSource(e, refs)!), kept: entries.slice(0, start) };
}

/** References that declare nothing (to ask whether an entry can be a prop). */
const DRY_RUN = { secret: () => 'secret', configMap: () => 'configMap' } as unknown as ChartReferences;
