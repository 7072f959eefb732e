/**
 * Kubernetes values handed to the constructs (a pod template, a container, resources, a volume, an
 * environment variable source), written either as cdk8s-plus-34's typed structs (`kplus.k8s.*`:
 * `hostIpc`, `k8s.Quantity`, `k8s.IntOrString`, `Date`) or as plain JSON in Kubernetes shape (from
 * `yaml.parse`, a manifest, another language's map): both become the plain JSON the same value
 * written in YAML is, field by field, along the Kubernetes OpenAPI schema of the type
 * (imports/k8s-openapi.schema.ts). Nothing is dropped: a field the type does not have, or a value of
 * the wrong kind, is an error naming its path, the value and what the field takes (as kubectl's
 * strict field validation refuses an unknown field rather than pruning it).
 *
 * `null` stays `null` (a YAML document may hold it; the pipeline reads it as the API server does)
 * and `undefined` is no value (a field left out), as in JSON.
 */
import type { IConstruct } from 'constructs';
import type { K8sSchemaNode } from '../../imports/k8s-openapi.schema';
import { kubernetesSchemas as schemas, kubernetesTypes as typedStructs } from '../lazy-modules';
import { editDistance } from '../model/did-you-mean';
import { isMap } from '../model/json';
import type { KubernetesField } from '../model/kubernetes-types';
import { JsonObject } from '../model/v1beta1';

/** A value that cannot be taken as it is; `path` is relative to the prop. */
export class KubernetesValueError extends Error {
  constructor(public readonly path: string, public readonly problem: string) {
    super(`${path}: ${problem}`);
  }
}

/** The path messages name for `scope`: a construct's path, or the path given (a component's). */
export function pathOf(scope: IConstruct | string): string {
  return typeof scope === 'string' ? scope : scope.node.path;
}

/**
 * Runs `build` (which reads props) and, when it refuses a value, throws the error as the construct's
 * (or the component's, `scope` then being its path): `<construct path>: <prop path>: <problem>`.
 */
export function propsOf<T>(scope: IConstruct | string, build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (e instanceof KubernetesValueError) throw new Error(`${pathOf(scope)}: ${e.message}`);
    throw e;
  }
}

/** The Kubernetes types the constructs take, by their OpenAPI definition and their cdk8s-plus-34 struct. */
export const KUBERNETES_TYPE = {
  podTemplateSpec: { definition: 'CoreV1PodTemplateSpec', struct: 'PodTemplateSpec' },
  container: { definition: 'CoreV1Container', struct: 'Container' },
  volume: { definition: 'CoreV1Volume', struct: 'Volume' },
  envVarSource: { definition: 'CoreV1EnvVarSource', struct: 'EnvVarSource' },
  envFromSource: { definition: 'CoreV1EnvFromSource', struct: 'EnvFromSource' },
  resourceRequirements: { definition: 'CoreV1ResourceRequirements', struct: 'ResourceRequirements' },
  objectMeta: { definition: 'MetaV1ObjectMeta', struct: 'ObjectMeta' },
} as const;

/** One of KUBERNETES_TYPE. */
export type KubernetesType = typeof KUBERNETES_TYPE[keyof typeof KUBERNETES_TYPE];

/** `value`, a `type` in typed or plain form, as plain Kubernetes JSON; throws KubernetesValueError. */
export function kubernetesJson(value: unknown, type: KubernetesType, path: string): JsonObject {
  return convert(value, type.definition, type.struct, path) as JsonObject;
}

/**
 * The metadata of a Dynamo resource (cdk8s's `ApiObjectMetadata`) as plain ObjectMeta: a field
 * ObjectMeta does not have is an error (cdk8s would write it, and the API server refuse it).
 */
export function objectMetaJson(metadata: unknown): JsonObject {
  return metadata === undefined ? {} : kubernetesJson(metadata, KUBERNETES_TYPE.objectMeta, 'metadata');
}

/** A quantity given as a `k8s.Quantity` or as in Kubernetes (a string or a number): its value. */
export function quantityJson(value: unknown, path: string): string | number {
  return convertScalar(value, 'q', path) as string | number;
}

/** A value as it appears in a message: JSON where it has one (shortened), else its type. */
export function shownValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) return typeof value;
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** What kind of JSON value `value` is, as a message says it. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function invalid(path: string, value: unknown, expected: string): KubernetesValueError {
  return new KubernetesValueError(path, `Invalid value: ${shownValue(value)}: must be ${expected}, not ${kindOf(value)}`);
}

/** A cdk8s `k8s.Quantity` / `k8s.IntOrString` (an object whose one field is `value`): its value. */
function wrappedScalar(value: unknown): unknown {
  if (!isMap(value)) return value;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'value' && (typeof value.value === 'string' || typeof value.value === 'number') ? value.value : value;
}

const INT_RANGE: { readonly [format: string]: readonly [number, number] } = {
  i32: [-(2 ** 31), 2 ** 31 - 1],
  i64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  i: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

function convertScalar(value: unknown, node: string, path: string): unknown {
  switch (node) {
    case 's':
      if (typeof value === 'string') return value;
      throw invalid(path, value, 'a string');
    case 'b':
      if (typeof value === 'boolean') return value;
      throw invalid(path, value, 'true or false');
    case 'n':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      throw invalid(path, value, 'a number');
    case 'i': case 'i32': case 'i64': {
      const [min, max] = INT_RANGE[node];
      if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
      throw invalid(path, value, node === 'i32' ? 'a 32-bit integer' : 'an integer');
    }
    case 'ios': {
      const v = wrappedScalar(value);
      if (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v))) return v;
      throw invalid(path, value, 'an integer or a string (or a k8s.IntOrString)');
    }
    case 'q': {
      const v = wrappedScalar(value);
      if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return v;
      throw invalid(path, value, 'a quantity: a string such as "1", "500m" or "4Gi", or a number (or a k8s.Quantity)');
    }
    case 'time':
      if (typeof value === 'string') return value;
      if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
      throw invalid(path, value, 'an RFC 3339 time (a string or a Date)');
    default:
      // 'o' (any object), and any node this table does not describe: the value as written, if it is JSON
      return plainJson(value, path);
  }
}

/** A copy of `value` checked to be JSON (objects, lists, strings, finite numbers, booleans, null). */
export function plainJson(value: unknown, path: string): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    throw invalid(path, value, 'a finite number');
  }
  if (Array.isArray(value)) {
    return value.map((item, i) => {
      if (item === undefined) throw invalid(`${path}[${i}]`, item, 'a JSON value');
      return plainJson(item, `${path}[${i}]`);
    });
  }
  if (isMap(value) && isPlainRecord(value)) {
    const out: JsonObject = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = plainJson(v, `${path}.${key}`);
    return out;
  }
  throw invalid(path, value, 'a JSON value');
}

/** A plain object or a struct from another jsii language (not a class instance such as a Date or a construct). */
function isPlainRecord(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype;
}

/** The property names the typed struct spells differently from the wire (`hostIpc` for `hostIPC`), by struct. */
const typedNames = new Map<string, ReadonlyMap<string, string>>();
function typedNamesOf(struct: string | undefined): ReadonlyMap<string, string> | undefined {
  if (struct === undefined) return undefined;
  let names = typedNames.get(struct);
  if (!names) {
    const fields = typedStructs()[struct] ?? {};
    names = new Map(Object.entries(fields).filter(([wire, [prop]]) => prop !== wire).map(([wire, [prop]]) => [prop, wire]));
    typedNames.set(struct, names);
  }
  return names;
}

function typedField(struct: string | undefined, wire: string): KubernetesField | undefined {
  if (struct === undefined) return undefined;
  const fields = typedStructs()[struct];
  return fields && Object.prototype.hasOwnProperty.call(fields, wire) ? fields[wire] : undefined;
}

/** The closest known field name to `key` (a different case, or one or two letters off), if any. */
function closest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const sameCase = known.find(k => k.toLowerCase() === lower);
  if (sameCase) return sameCase;
  let best: string | undefined;
  let bestDistance = 3;
  for (const k of known) {
    if (Math.abs(k.length - key.length) >= bestDistance) continue;
    const d = editDistance(lower, k.toLowerCase(), bestDistance - 1, false);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

/** A schema node of an object type: its properties. */
type ObjectNode = { readonly p?: { readonly [name: string]: K8sSchemaNode } };

function convertObject(value: unknown, type: string, node: ObjectNode, struct: string | undefined, path: string): JsonObject {
  if (!isMap(value) || !isPlainRecord(value)) throw invalid(path, value, `an object (${type})`);
  const properties = node.p ?? {};
  const renamed = typedNamesOf(struct);
  const out: JsonObject = {};
  const givenAs = new Map<string, string>();
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    let wire = key;
    if (!Object.prototype.hasOwnProperty.call(properties, key)) {
      const alias = renamed?.get(key);
      if (alias === undefined || !Object.prototype.hasOwnProperty.call(properties, alias)) {
        const suggestion = closest(key, Object.keys(properties));
        const hint = suggestion ? ` (did you mean "${suggestion}"?)` : '';
        throw new KubernetesValueError(`${path}.${key}`, `unknown field "${key}" of ${type}${hint}`);
      }
      wire = alias;
    }
    const earlier = givenAs.get(wire);
    if (earlier !== undefined) {
      throw new KubernetesValueError(`${path}.${key}`, `field "${wire}" given twice (as "${earlier}" and "${key}"): give it once`);
    }
    givenAs.set(wire, key);
    out[wire] = convertNode(v, properties[wire], typedField(struct, wire)?.[2], `${path}.${wire}`);
  }
  return out;
}

function convertNode(value: unknown, node: K8sSchemaNode, struct: string | undefined, path: string, definitionName?: string): unknown {
  if (value === null) return null;
  if (typeof node === 'string') {
    const definition = schemas()[node];
    if (definition === undefined) return convertScalar(value, node, path);
    return convertNode(value, definition, struct, path, node);
  }
  if (Array.isArray(node)) {
    if (!Array.isArray(value)) throw invalid(path, value, 'a list');
    return value.map((item, i) => {
      if (item === undefined) throw invalid(`${path}[${i}]`, item, 'a list item');
      return convertNode(item, node[0], struct, `${path}[${i}]`);
    });
  }
  const shape = node as Exclude<K8sSchemaNode, string | readonly [K8sSchemaNode]>;
  if (shape.m !== undefined) {
    if (!isMap(value) || !isPlainRecord(value)) throw invalid(path, value, 'a map');
    const out: JsonObject = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = convertNode(v, shape.m, struct, `${path}.${key}`);
    return out;
  }
  if (shape.e !== undefined || shape.t !== undefined) {
    if (typeof value === 'string') return value;
    throw invalid(path, value, shape.e ? `a string (one of ${shape.e.map(e => JSON.stringify(e)).join(', ')})` : 'a string');
  }
  return convertObject(value, typeName(definitionName ?? 'object'), shape, struct, path);
}

/** The name of a definition as users know the type: `PodSpec` for `CoreV1PodSpec`. */
function typeName(definition: string): string {
  return definition.replace(/^[A-Z][a-z]+V\d+/, '');
}

function convert(value: unknown, definition: string, struct: string, path: string): unknown {
  if (value === null || value === undefined) throw invalid(path, value, `an object (${typeName(definition)})`);
  return convertNode(value, definition, struct, path);
}
