/**
 * The nvidia.com/v1beta1 types drop, when they serialise, a field of a value-struct type whose JSON
 * is `{}`; the hashes of the objects the operator stores reproduce that clean-up.
 */
import { GoType, GoTypeRegistry, STRUCT_PRIMITIVES } from './struct-layout';
import { isMap } from '../model/json';

/**
 * The nvidia.com/v1beta1 serialisation clean-up, in place: walking the JSON together with its Go
 * type, an object member is deleted when its value is `{}` (after cleaning its own members) and
 * its Go field is a non-pointer struct. Members unknown to the layout are left alone.
 */
export function stripEmptyValueStructs(registry: GoTypeRegistry, type: GoType, value: unknown): void {
  let t = type;
  while (t.kind === 'ptr') t = t.elem;
  if (isMap(value)) {
    if (t.kind === 'struct') {
      const layout = registry.struct(t.name);
      for (const key of Object.keys(value)) {
        const p = layout.positions.get(key);
        if (p === undefined) continue;
        const f = layout.fields[p];
        stripEmptyValueStructs(registry, f.type, value[key]);
        const child = value[key];
        const valueStruct = f.type.kind === 'struct' || (f.type.kind === 'prim' && STRUCT_PRIMITIVES.has(f.type.prim));
        if (valueStruct && isMap(child) && Object.keys(child).length === 0) delete value[key];
      }
    } else if (t.kind === 'map') {
      for (const key of Object.keys(value)) stripEmptyValueStructs(registry, t.elem, value[key]);
    }
  } else if (Array.isArray(value) && t.kind === 'slice') {
    for (const item of value) stripEmptyValueStructs(registry, t.elem, item);
  }
}
