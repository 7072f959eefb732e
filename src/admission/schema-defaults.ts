/**
 * Structural defaults that the API server applies when it stores an object: every `default` of the
 * CRD schema whose parent object is present and whose field is absent or null.
 */
import { isMap } from '../model/json';
import { copyJson } from '../model/json-copy';

/** The subset of a CRD schema node that defaulting needs. */
export interface DefaultingSchemaNode {
  readonly 'default'?: unknown;
  readonly 'properties'?: { readonly [name: string]: DefaultingSchemaNode };
  readonly 'items'?: DefaultingSchemaNode;
  readonly 'additionalProperties'?: DefaultingSchemaNode | boolean;
  /** Marks an embedded Kubernetes type; its defaults come from `embedded`. */
  readonly 'k8sType'?: string;
  /** Set on embedded templates the API server neither prunes nor defaults. */
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** The embedded types when the caller gives none. */
const NO_EMBEDDED: { readonly [k8sType: string]: DefaultingSchemaNode } = {};

/**
 * Mutates `value` in place, adding schema defaults below it. Only the parts of the schema that hold
 * a default at or below them are walked (`DefaultingPlan`); a value's other fields get nothing.
 */
export function applySchemaDefaults(
  value: unknown,
  schema: DefaultingSchemaNode,
  embedded: { readonly [k8sType: string]: DefaultingSchemaNode } = NO_EMBEDDED,
): void {
  applyPlanned(value, schema, embedded, plansFor(embedded));
}

function applyPlanned(value: unknown, schema: DefaultingSchemaNode, embedded: EmbeddedTypes, plans: Plans): void {
  const plan = planOf(schema, embedded, plans);
  if (plan === undefined) return;
  if (Array.isArray(value)) {
    if (plan.items !== undefined) for (const item of value) applyPlanned(item, plan.items, embedded, plans);
    return;
  }
  if (!isMap(value)) return;
  // the properties in schema order, as a walk of them all would add their defaults
  for (const [name, child] of plan.properties) {
    if (value[name] == null && child.default !== undefined) {
      value[name] = copyJson(child.default);
    }
    if (value[name] !== undefined) applyPlanned(value[name], child, embedded, plans);
  }
  if (plan.values !== undefined) {
    for (const [name, child] of Object.entries(value)) {
      if (!plan.declared.has(name)) applyPlanned(child, plan.values, embedded, plans);
    }
  }
}

type EmbeddedTypes = { readonly [k8sType: string]: DefaultingSchemaNode };

/**
 * What defaulting visits below a schema node (the node itself: an embedded type's marker resolved):
 * the declared properties that have a default or lead to one, in schema order; the node for list
 * items and for undeclared map values, when they lead to one; the declared property names. A node
 * that leads to no default has no plan: the value there is left alone, as a walk of it would leave it.
 */
interface DefaultingPlan {
  readonly properties: ReadonlyArray<readonly [string, DefaultingSchemaNode]>;
  readonly items?: DefaultingSchemaNode;
  readonly values?: DefaultingSchemaNode;
  readonly declared: ReadonlySet<string>;
}

/** Plans by schema node (null: leads to no default; `IN_PROGRESS` while a node is being planned). */
type Plans = WeakMap<DefaultingSchemaNode, DefaultingPlan | null>;

/**
 * The plans by embedded-type table: the table says what a marker node stands for. The schemas and
 * tables are the library's generated constants, so what is learnt of a node holds for the process.
 */
const plansByEmbedded = new WeakMap<EmbeddedTypes, Plans>();

function plansFor(embedded: EmbeddedTypes): Plans {
  let plans = plansByEmbedded.get(embedded);
  if (plans === undefined) {
    plans = new WeakMap();
    plansByEmbedded.set(embedded, plans);
  }
  return plans;
}

/** A plan that visits everything below a node: for a schema that refers back to itself while planned. */
function walkAll(node: DefaultingSchemaNode): DefaultingPlan {
  const properties = Object.entries(node.properties ?? {});
  return {
    properties,
    items: node.items,
    values: isMap(node.additionalProperties) ? node.additionalProperties as DefaultingSchemaNode : undefined,
    declared: new Set(properties.map(([name]) => name)),
  };
}

const IN_PROGRESS = new WeakSet<DefaultingSchemaNode>();

function planOf(schema: DefaultingSchemaNode, embedded: EmbeddedTypes, plans: Plans): DefaultingPlan | undefined {
  if (schema['x-kubernetes-preserve-unknown-fields']) return undefined;
  const node = schema.k8sType ? embedded[schema.k8sType] : schema;
  if (!node) return undefined;
  const known = plans.get(node);
  if (known !== undefined) return known ?? undefined;
  // a node met again below itself is walked in full (what the walk of every property would do)
  if (IN_PROGRESS.has(node)) return walkAll(node);
  IN_PROGRESS.add(node);
  let plan: DefaultingPlan | null;
  try {
    const declared = Object.entries(node.properties ?? {});
    const properties = declared.filter(([, child]) => child.default !== undefined || planOf(child, embedded, plans) !== undefined);
    const items = node.items !== undefined && planOf(node.items, embedded, plans) !== undefined ? node.items : undefined;
    const additional = isMap(node.additionalProperties) ? node.additionalProperties as DefaultingSchemaNode : undefined;
    const values = additional !== undefined && planOf(additional, embedded, plans) !== undefined ? additional : undefined;
    plan = properties.length === 0 && items === undefined && values === undefined
      ? null
      : { properties, items, values, declared: new Set(declared.map(([name]) => name)) };
  } finally {
    IN_PROGRESS.delete(node);
  }
  plans.set(node, plan);
  return plan ?? undefined;
}
