/**
 * Compiles a generated CRD structural schema (`imports/*.schema.ts`) to the JSON schema ajv
 * validates with, the way the API server reads the CRD:
 *
 * - `type` (+ `nullable`: a null field is an absent one), `x-kubernetes-int-or-string` (an integer
 *   or a string), `enum`, `pattern`, `minLength`/`maxLength` (code points), `minimum`/`maximum`,
 *   `minItems`/`maxItems`, `format` `int32`/`int64` (ranges; other formats are not checked). The
 *   API server itself validates only string formats in CRDs (its list has no integer formats); an
 *   int32 field holding 2^31 is stored, then refused when the operator decodes it into Go: the
 *   check reports it at admission;
 * - `required` (null counts as missing), `x-kubernetes-list-type` `map`/`set`, null list items;
 * - unknown fields: an object node without `x-kubernetes-preserve-unknown-fields` or
 *   `additionalProperties` refuses every field it does not declare (what the API server prunes, and
 *   strict field validation rejects); `additionalProperties` maps check every value;
 * - embedded Kubernetes types (`{ k8sType }` markers): either the overlay's node of the type (see
 *   dynamo-schema.ts: the parts Dynamo rules speak about), with `completeEmbedded` completed with
 *   the Kubernetes OpenAPI definition of the type where the overlay keeps unknown fields
 *   (embedded-overlay.ts), or the Kubernetes OpenAPI definition alone (k8s-json-schema.ts); below
 *   a marker with `x-kubernetes-preserve-unknown-fields`, only the JSON type of the embedded type;
 * - `default`s are left out unless asked for (`defaults`, see ajv-defaults.ts).
 *
 * Every node gets `x-rule`: the row id the overlay gives its schema path (see schema-node.ts), else
 * its parent's. An object's `x-pruned` names the row of each field the CRD post-processing removed.
 *
 * Internal module.
 */
import { completeWithDefinition } from './embedded-overlay';
import { JsonSchema, StructuralNode } from './json-schema';
import { k8sJsonSchema, k8sRef, typeLabel } from './k8s-json-schema';

/** The Kubernetes definition (or compact scalar) each `k8sType` marker stands for. */
export const K8S_TYPE_DEFINITIONS: Readonly<Record<string, string>> = {
  ConfigMapKeySelector: 'CoreV1ConfigMapKeySelector',
  EnvVar: 'CoreV1EnvVar',
  IntOrString: 'ios',
  KubePersistentVolumeClaimProps: 'CoreV1PersistentVolumeClaim',
  MetricSpecV2: 'AutoscalingV2MetricSpec',
  PodSpec: 'CoreV1PodSpec',
  PodTemplateSpec: 'CoreV1PodTemplateSpec',
  Quantity: 'q',
  ResourceClaimTemplateSpec: 'ResourceV1ResourceClaimTemplateSpec',
};

/** How to compile one CRD schema. */
export interface CrdCompileOptions {
  /** Row id of the node at each schema path (inherited below). */
  readonly rules?: Readonly<Record<string, string>>;
  /** Row of each field the CRD post-processing removed, by schema path. */
  readonly prunedFields?: Readonly<Record<string, string>>;
  /** Nodes that take the place of the CRD's at a schema path (`metadata`, `status`). */
  readonly apiServerFields?: Readonly<Record<string, StructuralNode | JsonSchema>>;
  /**
   * The embedded Kubernetes types: the overlay's partial node of each `k8sType`, or `kubernetes`
   * for the Kubernetes OpenAPI definitions.
   */
  readonly embedded: Readonly<Record<string, StructuralNode>> | 'kubernetes';
  /**
   * Complete the overlay's embedded object types with their Kubernetes definitions where they keep
   * unknown fields (embedded-overlay.ts); else such a node accepts any field.
   */
  readonly completeEmbedded?: boolean;
  /** Row id of the root (and of every node no rule names). */
  readonly rootRule: string;
  /**
   * Keep the schema `default`s (for ajv's `useDefaults`), except below a node with
   * `x-kubernetes-preserve-unknown-fields`, which the API server neither prunes nor defaults.
   */
  readonly defaults?: boolean;
}

/** Compiles `root` to a JSON schema (a fresh tree: nodes shared in the CRD schema are copied per path). */
export function crdJsonSchema(root: StructuralNode, options: CrdCompileOptions): JsonSchema {
  return new CrdCompiler(options).node(root, '', options.rootRule);
}

class CrdCompiler {
  /** The apiServerFields below each schema path, by field name. */
  private readonly addedFields = new Map<string, Array<[string, StructuralNode | JsonSchema]>>();
  /** The pruned fields below each schema path, by field name. */
  private readonly pruned = new Map<string, Record<string, string>>();

  constructor(private readonly options: CrdCompileOptions) {
    for (const [at, node] of Object.entries(options.apiServerFields ?? {})) {
      const [parent, name] = splitPath(at);
      const list = this.addedFields.get(parent) ?? [];
      list.push([name, node]);
      this.addedFields.set(parent, list);
    }
    for (const [at, rule] of Object.entries(options.prunedFields ?? {})) {
      const [parent, name] = splitPath(at);
      this.pruned.set(parent, { ...this.pruned.get(parent), [name]: rule });
    }
  }

  public node(input: StructuralNode, at: string, inherited: string, defaults = this.options.defaults === true): JsonSchema {
    const rule = own(this.options.rules ?? {}, at) ?? inherited;
    const completed = this.completedMarker(input, at, rule, defaults);
    if (completed) return completed;
    const node = this.resolveMarker(input, rule);
    if (!isStructural(node)) return node;
    const out: JsonSchema = { 'x-rule': rule };
    if (defaults && input.default !== undefined) out.default = input.default;
    const below = defaults && input['x-kubernetes-preserve-unknown-fields'] !== true && node['x-kubernetes-preserve-unknown-fields'] !== true;
    const intOrString = node['x-kubernetes-int-or-string'] === true;
    if (intOrString) {
      out.type = ['integer', 'string'];
      out['x-type-label'] = 'integer or string';
    } else if (node.type !== undefined) {
      out.type = node.type;
    }
    if (out.type !== undefined) out.nullable = true;
    if (node.enum) out.enum = [...node.enum, null];
    for (const keyword of ['pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const) {
      if (node[keyword] !== undefined) out[keyword] = node[keyword];
    }
    if ((node.format === 'int32' || node.format === 'int64') && (node.type === 'integer' || intOrString)) out.format = node.format;
    if (node.items) {
      const items = this.node(node.items, `${at}[]`, rule, below);
      out.items = items;
      out['x-items-not-null'] = typeLabel(items);
    }
    const listType = node['x-kubernetes-list-type'];
    if (listType === 'map' || listType === 'set') {
      out['x-kubernetes-list-type'] = listType;
      if (listType === 'map') out['x-kubernetes-list-map-keys'] = [...(node['x-kubernetes-list-map-keys'] ?? [])];
    }
    this.objectKeywords(node, out, at, rule, below);
    return out;
  }

  private objectKeywords(node: StructuralNode, out: JsonSchema, at: string, rule: string, defaults: boolean): void {
    const properties: Record<string, JsonSchema> = {};
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const childAt = fieldAt(at, name);
      const replaced = own(this.options.apiServerFields ?? {}, childAt);
      properties[name] = replaced ? this.field(replaced, childAt, rule) : this.node(child, childAt, rule, defaults);
    }
    for (const [name, replacement] of this.addedFields.get(at) ?? []) {
      if (!(name in properties)) properties[name] = this.field(replacement, fieldAt(at, name), rule);
    }
    if (Object.keys(properties).length > 0) out.properties = properties;
    if (node.required && node.required.length > 0) out['x-required'] = [...node.required];
    const values = typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
    const keepsUnknown = node['x-kubernetes-preserve-unknown-fields'] === true || node.additionalProperties === true;
    if (values) {
      out.additionalProperties = this.node(values, `${at}[*]`, rule, defaults);
    } else if (!keepsUnknown && (node.type === 'object' || node.properties !== undefined)) {
      out.additionalProperties = false;
      const pruned = this.pruned.get(at);
      if (pruned) out['x-pruned'] = pruned;
    }
  }

  /** An apiServerFields node: a structural node, or a JSON schema given as is. */
  private field(node: StructuralNode | JsonSchema, at: string, inherited: string): JsonSchema {
    if (isJsonSchema(node)) return { ...node, 'x-rule': own(this.options.rules ?? {}, at) ?? inherited };
    return this.node(node, at, inherited);
  }

  /**
   * A marker node of an embedded object type the overlay describes in part: the overlay's node
   * completed with the Kubernetes definition of the type (embedded-overlay.ts), when asked for
   * (`completeEmbedded`). Not when defaulting, nor below `x-kubernetes-preserve-unknown-fields`,
   * nor for scalar types.
   */
  private completedMarker(input: StructuralNode, at: string, rule: string, defaults: boolean): JsonSchema | undefined {
    const embedded = this.options.embedded;
    if (input.k8sType === undefined || embedded === 'kubernetes' || this.options.completeEmbedded !== true) return undefined;
    if (this.options.defaults === true) return undefined;
    if (input['x-kubernetes-preserve-unknown-fields'] === true) return undefined;
    const partial = own(embedded, input.k8sType);
    const definition = own(K8S_TYPE_DEFINITIONS, input.k8sType);
    if (!partial || definition === undefined || definition === 'q' || definition === 'ios') return undefined;
    return completeWithDefinition(this.node(partial, at, rule, defaults), definition);
  }

  /** A marker node: the embedded type it stands for (a structural node to compile, or a JSON schema). */
  private resolveMarker(node: StructuralNode, rule: string): StructuralNode | JsonSchema {
    if (node.k8sType === undefined) return node;
    const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
    const embedded = this.options.embedded;
    if (embedded !== 'kubernetes') {
      const partial = embedded[node.k8sType];
      if (!partial) {
        // defaulting: an embedded type without defaults
        if (this.options.defaults === true) return { 'x-kubernetes-preserve-unknown-fields': true };
        throw new Error(`no overlay for the embedded Kubernetes type ${node.k8sType}`);
      }
      if (!preserve) return partial;
      return { 'type': partial.type, 'x-kubernetes-int-or-string': partial['x-kubernetes-int-or-string'], 'x-kubernetes-preserve-unknown-fields': true };
    }
    const definition = K8S_TYPE_DEFINITIONS[node.k8sType];
    if (definition === undefined) throw new Error(`no Kubernetes definition for the embedded type ${node.k8sType}`);
    if (definition === 'q' || definition === 'ios') return { ...k8sJsonSchema(definition), 'x-rule': rule };
    if (preserve) return { 'type': 'object', 'nullable': true, 'x-rule': rule };
    return { ...k8sRef(definition), 'x-rule': rule };
  }
}

/** JSON schemas are marked by the keywords a structural node never has. */
function isJsonSchema(node: StructuralNode | JsonSchema): node is JsonSchema {
  return '$ref' in node || 'x-rule' in node;
}

function isStructural(node: StructuralNode | JsonSchema): node is StructuralNode {
  return !isJsonSchema(node);
}

function fieldAt(at: string, name: string): string {
  return at === '' ? name : `${at}.${name}`;
}

/** `a.b[].c` → [`a.b[]`, `c`]; `metadata` → [``, `metadata`]. */
function splitPath(at: string): [string, string] {
  const dot = at.lastIndexOf('.');
  return dot < 0 ? ['', at] : [at.slice(0, dot), at.slice(dot + 1)];
}

function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
