/**
 * JSON values as the API server hands them to CEL, typed by their structural schema: objects with
 * properties are objects whose declared fields are reachable by their escaped CEL names, maps
 * (`additionalProperties`) are maps with the original keys, `integer` is CEL `int`, `number` is
 * `double`, `x-kubernetes-int-or-string` is `int` or `string`. Below an embedded Kubernetes type
 * every field is reachable (the real schema declares them all).
 *
 * Conversion also notes whether the value fits its schema (types and required fields): the API
 * server does not run CEL rules on such an object, so an evaluation error there is not reported.
 *
 * Internal module.
 */
import type { CelInput } from '@bufbuild/cel';
import { CelSchemaNode, mapValueSchema } from './schema';

/** A converted value and whether it (with everything below it) fits its schema. */
export interface CelConverted {
  readonly value: CelInput;
  readonly fits: boolean;
}

const CEL_RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import',
  'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

const ESCAPABLE = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

/**
 * The CEL name of an object property, as Kubernetes escapes it (`__dash__`, `__dot__`, `__slash__`,
 * `__underscores__`, `__<keyword>__`), or undefined for names CEL cannot reach.
 */
export function celPropertyName(name: string): string | undefined {
  if (CEL_RESERVED.has(name)) return `__${name}__`;
  if (!ESCAPABLE.test(name)) return undefined;
  return name.replace(/__/g, '__underscores__').replace(/\./g, '__dot__').replace(/-/g, '__dash__').replace(/\//g, '__slash__');
}

/** Converts JSON values to CEL values; keeps the conversion of every object and list it made. */
export class CelValueConverter {
  /** Made on the first conversion of an object or list (a check whose rules all pass on values kept as passed converts none). */
  private cache?: WeakMap<object, { node: CelSchemaNode | undefined; open: boolean; converted: CelConverted }>;

  /**
   * @param embedded the schemas of embedded Kubernetes types, by `k8sType`, where CEL rules or
   *   typing below a marker node matter; other marker nodes are converted without a schema.
   */
  public constructor(private readonly embedded: Readonly<Record<string, CelSchemaNode>> = {}) {}

  /**
   * The schema a node stands for: for a marker node, the embedded type's schema if one is given and
   * the CRD has a schema there (not for `x-kubernetes-preserve-unknown-fields` markers).
   */
  public resolve(node: CelSchemaNode | undefined): { node: CelSchemaNode | undefined; embedded: boolean } {
    if (node?.k8sType === undefined) return { node, embedded: false };
    // a preserve-unknown-fields marker has no schema in the CRD, hence no rules
    const schemaKnown = node['x-kubernetes-preserve-unknown-fields'] !== true && Object.prototype.hasOwnProperty.call(this.embedded, node.k8sType);
    const schema = schemaKnown ? this.embedded[node.k8sType] : undefined;
    return { node: schema ?? EMBEDDED_WITHOUT_SCHEMA[node.k8sType], embedded: true };
  }

  /**
   * The CEL value of `value` at a node of the schema. `open`: below an embedded Kubernetes type,
   * where undeclared fields are reachable too.
   */
  public convert(value: unknown, schemaNode: CelSchemaNode | undefined, open = false): CelConverted {
    const { node, embedded } = this.resolve(schemaNode);
    const isOpen = open || embedded;
    if (typeof value !== 'object' || value === null) return convertScalar(value, node);
    const kept = this.cache?.get(value);
    if (kept !== undefined && kept.node === node && kept.open === isOpen) return kept.converted;
    const converted = Array.isArray(value)
      ? this.convertList(value, node, isOpen)
      : this.convertObject(value as Record<string, unknown>, node, isOpen);
    (this.cache ??= new WeakMap()).set(value, { node, open: isOpen, converted });
    return converted;
  }

  private convertList(value: readonly unknown[], node: CelSchemaNode | undefined, open: boolean): CelConverted {
    let fits = node === undefined || node.type === undefined || node.type === 'array';
    const itemNode = node?.type === 'array' ? node.items : undefined;
    const items = value.map((item) => {
      const converted = this.convert(item, itemNode, open);
      fits = fits && converted.fits;
      return converted.value;
    });
    return { value: items, fits };
  }

  private convertObject(value: Record<string, unknown>, node: CelSchemaNode | undefined, open: boolean): CelConverted {
    if (node === undefined || node.type === undefined || node.type !== 'object') {
      const dynamic = this.convertDynamicObject(value, open);
      return { value: dynamic.value, fits: dynamic.fits && (node === undefined || node.type === undefined) };
    }
    const valueSchema = mapValueSchema(node);
    const entries = new Map<string, CelInput>();
    let fits = (node.required ?? []).every((name) => value[name] !== undefined && value[name] !== null);
    if (valueSchema !== undefined) {
      for (const [key, item] of Object.entries(value)) {
        const converted = this.convert(item, valueSchema, open);
        fits = fits && converted.fits;
        entries.set(key, converted.value);
      }
      return { value: entries, fits };
    }
    const properties = node.properties ?? {};
    const reachesAll = open || (node.properties === undefined && node['x-kubernetes-preserve-unknown-fields'] === true);
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || item === null) continue;
      const declared = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
      if (declared === undefined && !reachesAll) continue;
      const name = declared === undefined ? key : celPropertyName(key);
      if (name === undefined) continue;
      const converted = this.convert(item, declared, open);
      fits = fits && converted.fits;
      entries.set(name, converted.value);
    }
    return { value: entries, fits };
  }

  private convertDynamicObject(value: Record<string, unknown>, open: boolean): CelConverted {
    const entries = new Map<string, CelInput>();
    let fits = true;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      const converted = this.convert(item, undefined, open);
      fits = fits && converted.fits;
      entries.set(key, converted.value);
    }
    return { value: entries, fits };
  }
}

/** Embedded types known without a schema: the int-or-string ones. */
const EMBEDDED_WITHOUT_SCHEMA: Readonly<Record<string, CelSchemaNode | undefined>> = {
  Quantity: { 'x-kubernetes-int-or-string': true },
  IntOrString: { 'x-kubernetes-int-or-string': true },
};

function dynamicScalar(value: unknown): CelInput {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  return null;
}

function convertScalar(value: unknown, node: CelSchemaNode | undefined): CelConverted {
  if (node === undefined) return { value: dynamicScalar(value), fits: true };
  if (node['x-kubernetes-int-or-string'] === true) {
    const fits = typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
    return { value: dynamicScalar(value), fits };
  }
  switch (node.type) {
    case 'integer':
      return { value: dynamicScalar(value), fits: typeof value === 'number' && Number.isInteger(value) };
    case 'number':
      return typeof value === 'number' ? { value, fits: true } : { value: dynamicScalar(value), fits: false };
    case 'string':
      return { value: dynamicScalar(value), fits: typeof value === 'string' };
    case 'boolean':
      return { value: dynamicScalar(value), fits: typeof value === 'boolean' };
    case undefined:
      return { value: dynamicScalar(value), fits: true };
    default:
      return { value: dynamicScalar(value), fits: false };
  }
}
