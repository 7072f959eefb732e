/**
 * A DynamoComponentDeployment the graph controller creates, as the cluster stores it: the operator
 * builds the DCD as its Go type and sends that type's JSON, and the API server then drops the
 * `null` fields its schema does not mark nullable (the Dynamo CRDs mark none).
 *
 * The Go JSON of the spec (`DynamoComponentDeploymentSpec`, see src/go/types.ts) differs from the
 * spec the renderer builds only in empty values:
 * - `omitempty` fields holding an empty value are dropped (`args: []`, an env `value: ""`);
 * - value-struct fields whose JSON is `{}` are dropped by the v1beta1 types' own serialisation
 *   (`resources: {}`, `podTemplate.metadata: {}`), see src/go/empty-structs.ts;
 * - fields without `omitempty` are written with their zero value (an EPP plugin's `name: ""`);
 *   a zero that is `null` is then dropped by the API server (a plugin's `parameters: null`);
 * - quantities are written in canonical form.
 * The keys the renderer wrote keep their order; fields the Go type adds come after them.
 */
import { stripEmptyValueStructs } from '../../go/empty-structs';
import { GoType, goTypeRegistry, GoTypeRegistry } from '../../go/struct-layout';
import { goJsonValue } from '../../go/value';
import { isMap } from '../../model/json';
import { assignOwn } from '../../model/json-copy';
import { DcdJson, DcdSpecJson } from '../../model/v1beta1';

const DCD_SPEC_TYPE = 'DynamoComponentDeploymentSpec';

/** The DCD with its spec in stored form (see the module comment); `dcd` itself is not changed. */
export function storedGeneratedDcd(dcd: DcdJson): DcdJson {
  const registry = goTypeRegistry();
  const type = registry.type(DCD_SPEC_TYPE);
  const typed = goJsonValue(dcd.spec, DCD_SPEC_TYPE);
  stripEmptyValueStructs(registry, type, typed);
  const stored = withoutNullFields(registry, type, typed);
  return { ...dcd, spec: inOrderOf(dcd.spec, stored) as DcdSpecJson };
}

/**
 * The value without `null` object members, except inside values the schema keeps as written (raw
 * JSON such as a provider override's `value` or an EPP plugin's `parameters`).
 */
function withoutNullFields(registry: GoTypeRegistry, type: GoType | undefined, value: unknown): unknown {
  let t = type;
  while (t?.kind === 'ptr') t = t.elem;
  if (t?.kind === 'prim' && (t.prim === 'raw' || t.prim === 'rawmsg' || t.prim === 'any')) return value;
  if (Array.isArray(value)) return value.map(item => withoutNullFields(registry, t?.kind === 'slice' ? t.elem : undefined, item));
  if (!isMap(value)) return value;
  const layout = t?.kind === 'struct' ? registry.struct(t.name) : undefined;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === null || member === undefined) continue;
    let memberType: GoType | undefined;
    if (layout) {
      const p = layout.positions.get(key);
      // a key the Go type does not know is kept as written
      if (p === undefined) {
        setOwn(out, key, member);
        continue;
      }
      memberType = layout.fields[p].type;
    } else if (t?.kind === 'map') {
      memberType = t.elem;
    }
    setOwn(out, key, withoutNullFields(registry, memberType, member));
  }
  return out;
}

/** `stored` with its object keys in the order `original` has them (new keys last), recursively. */
function inOrderOf(original: unknown, stored: unknown): unknown {
  if (Array.isArray(original) && Array.isArray(stored) && original.length === stored.length) {
    return stored.map((item, i) => inOrderOf(original[i], item));
  }
  if (!isMap(original) || !isMap(stored)) return stored;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(original)) {
    if (Object.prototype.hasOwnProperty.call(stored, key)) setOwn(out, key, inOrderOf(original[key], stored[key]));
  }
  for (const key of Object.keys(stored)) {
    if (!Object.prototype.hasOwnProperty.call(out, key)) setOwn(out, key, stored[key]);
  }
  return out;
}

/** `obj[key] = value` as a data property, also for the key `__proto__`. */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') assignOwn(obj, { [key]: value });
  else obj[key] = value;
}
