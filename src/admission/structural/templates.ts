/**
 * Pod templates checked once per distinct template. The objects of the `workloads` output hold
 * pod templates (a Deployment's, a LeaderWorkerSet's leader and worker templates, the pod specs of
 * a PodCliqueSet's cliques, a DCD's), often the same template more than once. The schema of an
 * emitted object is checked with its pod templates (Kubernetes `PodTemplateSpec`, `PodSpec`)
 * deferred (`deferTemplates`): a deferred node accepts any value, and each value found there is
 * checked against its Kubernetes definition (`checkDeferred`). The outcome of a template (valid,
 * or the errors of its full check) is kept by content, so a template seen again is not validated
 * again; its errors are reported at each place's own path, exactly as a check of the whole object
 * reports them (the same errors, each below its place, with the row the place inherits).
 *
 * Internal module.
 */
import type { ErrorObject } from 'ajv';
import { compileFull } from './ajv-instance';
import { CompiledSchema, checkCompiled } from './crd';
import { absolute } from './embedded-overlay';
import { JsonSchema } from './json-schema';
import { k8sDefinition } from './k8s-json-schema';
import { compiledDefinition } from './kubernetes';
import { reportErrors } from './report';
import { FieldPath } from '../field-path';
import { ViolationSink } from '../violation';

/** The Kubernetes definitions checked once per distinct value. */
const TEMPLATE_DEFINITIONS: ReadonlySet<string> = new Set(['CoreV1PodTemplateSpec', 'CoreV1PodSpec']);

/** Marks a deferred node: the definition its value is checked against. */
const DEFERRED = 'x-deferred';
/** Of a deferred node: the row its place inherits (the `x-rule` of the nearest node above that has one). */
const DEFERRED_ROW = 'x-deferred-rule';

const DEFINITIONS = '#/definitions/';

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ownRule(node: JsonSchema): string | undefined {
  return typeof node['x-rule'] === 'string' ? node['x-rule'] : undefined;
}

/** The definition a node refers to (`k8s-openapi#/definitions/X`, `#/definitions/X`). */
function refName(node: JsonSchema): string | undefined {
  if (typeof node.$ref !== 'string') return undefined;
  const at = node.$ref.indexOf(DEFINITIONS);
  return at < 0 ? undefined : node.$ref.slice(at + DEFINITIONS.length);
}

const holdsTemplate = new Map<string, boolean>();

/** Whether a definition holds a pod template somewhere below it. */
function definitionHoldsTemplate(name: string): boolean {
  let holds = holdsTemplate.get(name);
  if (holds === undefined) {
    holdsTemplate.set(name, false); // a definition that refers to itself
    const definition = k8sDefinition(`${DEFINITIONS}${name}`);
    holds = TEMPLATE_DEFINITIONS.has(name) || (definition !== undefined && nodeHoldsTemplate(definition));
    holdsTemplate.set(name, holds);
  }
  return holds;
}

const nodeHolds = new WeakMap<object, boolean>();

function nodeHoldsTemplate(node: JsonSchema): boolean {
  let holds = nodeHolds.get(node);
  if (holds === undefined) {
    const ref = refName(node);
    holds = ref !== undefined ? definitionHoldsTemplate(ref) : children(node).some(nodeHoldsTemplate);
    nodeHolds.set(node, holds);
  }
  return holds;
}

function children(node: JsonSchema): JsonSchema[] {
  const out: JsonSchema[] = [];
  if (isSchema(node.properties)) out.push(...Object.values(node.properties).filter(isSchema));
  if (isSchema(node.items)) out.push(node.items);
  if (isSchema(node.additionalProperties)) out.push(node.additionalProperties);
  return out;
}

/** Nodes of deferred schemas with a deferred node at or below them (the places to look for templates). */
const leadsToTemplate = new WeakSet<object>();

/**
 * The schema with every pod template deferred: a node referring to a template definition becomes
 * a deferred node; a node referring to a definition that holds one is replaced by a copy of the
 * definition (its references made absolute) with its templates deferred. Other nodes are kept (the
 * same objects where nothing below them changes).
 */
export function deferTemplates(schema: JsonSchema): JsonSchema {
  return defer(schema, undefined);
}

function defer(node: JsonSchema, inherited: string | undefined): JsonSchema {
  const rule = ownRule(node) ?? inherited;
  const ref = refName(node);
  if (ref !== undefined) {
    if (TEMPLATE_DEFINITIONS.has(ref)) {
      const own = ownRule(node);
      const deferred: JsonSchema = { ...(own === undefined ? {} : { 'x-rule': own }), [DEFERRED]: ref };
      if (rule !== undefined) deferred[DEFERRED_ROW] = rule;
      leadsToTemplate.add(deferred);
      return deferred;
    }
    if (!definitionHoldsTemplate(ref)) return node;
    const { $ref: _ref, ...rest } = node;
    return defer({ ...absolute(k8sDefinition(`${DEFINITIONS}${ref}`)!), ...rest }, inherited);
  }
  if (!nodeHoldsTemplate(node)) return node;
  const out: JsonSchema = { ...node };
  if (isSchema(node.properties)) {
    out.properties = Object.fromEntries(Object.entries(node.properties).map(([name, child]) => [name, isSchema(child) ? defer(child, rule) : child]));
  }
  if (isSchema(node.items)) out.items = defer(node.items, rule);
  if (isSchema(node.additionalProperties)) out.additionalProperties = defer(node.additionalProperties, rule);
  leadsToTemplate.add(out);
  return out;
}

/** A pod template of a value: where it is, what it is checked against, the row its place inherits. */
interface TemplatePlace {
  readonly value: unknown;
  readonly definition: string;
  readonly rule: string | undefined;
  readonly path: FieldPath;
}

/**
 * The values at the deferred nodes, found as ajv walks a value (`properties` of an object, else
 * its `additionalProperties` map values; `items` of a list) and at the paths report.ts names them.
 */
function templatePlaces(value: unknown, node: JsonSchema, path: FieldPath, out: TemplatePlace[]): void {
  if (!leadsToTemplate.has(node) || value === undefined) return;
  if (typeof node[DEFERRED] === 'string') {
    out.push({ value, definition: node[DEFERRED], rule: node[DEFERRED_ROW] as string | undefined, path });
    return;
  }
  if (Array.isArray(value)) {
    if (isSchema(node.items)) value.forEach((item, index) => templatePlaces(item, node.items as JsonSchema, path.index(index), out));
    return;
  }
  if (!isSchema(value)) return;
  for (const [name, declared] of propertiesToTemplates(node)) {
    if (Object.prototype.hasOwnProperty.call(value, name)) templatePlaces(value[name], declared, path.child(name), out);
  }
  const values = node.additionalProperties;
  if (!isSchema(values) || !leadsToTemplate.has(values)) return;
  const properties = isSchema(node.properties) ? node.properties : {};
  for (const [name, child] of Object.entries(value)) {
    if (!Object.prototype.hasOwnProperty.call(properties, name)) templatePlaces(child, values, path.key(name), out);
  }
}

/** The declared properties of a deferred schema node that lead to templates, by node. */
const templateProperties = new WeakMap<JsonSchema, ReadonlyArray<readonly [string, JsonSchema]>>();

/**
 * The declared properties of a node below which templates lie: the only ones `templatePlaces`
 * looks into (the places are reported in document order, whatever order they are found in).
 */
function propertiesToTemplates(node: JsonSchema): ReadonlyArray<readonly [string, JsonSchema]> {
  let properties = templateProperties.get(node);
  if (properties === undefined) {
    properties = isSchema(node.properties)
      ? Object.entries(node.properties).filter((entry): entry is [string, JsonSchema] => isSchema(entry[1]) && leadsToTemplate.has(entry[1]))
      : [];
    templateProperties.set(node, properties);
  }
  return properties;
}

/** The outcome of each distinct template: null (valid) or the errors of its full check. */
const outcomes = new Map<string, readonly ErrorObject[] | null>();
/** Outcomes kept at most (then the cache starts anew). */
const MAX_OUTCOMES = 512;

let templateValidations = 0;

/** How many templates were validated (not found among the outcomes kept), for tests. */
export function templateValidationCount(): number {
  return templateValidations;
}

function outcomeOf(place: TemplatePlace, compiled: CompiledSchema, keep: boolean): readonly ErrorObject[] | null {
  const key = keep ? `${place.definition}\n${JSON.stringify(place.value)}` : undefined;
  let outcome = key === undefined ? undefined : outcomes.get(key);
  if (outcome === undefined) {
    templateValidations++;
    if (compiled.validate(place.value)) {
      outcome = null;
    } else {
      const full = compileFull(compiled.json);
      outcome = full(place.value) ? null : [...full.errors ?? []];
    }
    if (key !== undefined) {
      if (outcomes.size >= MAX_OUTCOMES) outcomes.clear();
      outcomes.set(key, outcome);
    }
  }
  return outcome;
}

/**
 * Validates `value` with a compiled schema whose templates are deferred (`deferTemplates`), then
 * each of its templates, reporting to `sink` what `checkCompiled` with the whole schema reports.
 * With `keep` false, the outcomes of its templates are neither looked up nor kept (for templates
 * that cannot come again, whose text would only be written to be missed).
 */
export function checkDeferred(value: unknown, compiled: CompiledSchema, sink: ViolationSink, keep = true): void {
  checkCompiled(value, compiled, sink);
  const places: TemplatePlace[] = [];
  templatePlaces(value, compiled.json, FieldPath.root(), places);
  for (const place of places) {
    const definition = compiledDefinition(place.definition);
    const errors = outcomeOf(place, definition, keep);
    if (errors === null) continue;
    const schema = place.rule === undefined ? definition.json : { ...definition.json, 'x-rule': place.rule };
    reportErrors(errors, place.value, schema, sink, place.path);
  }
}
