/**
 * Evaluates the CEL rules (`x-kubernetes-validations`) of a structural CRD schema on an object, as
 * the API server does on create and update: every node of the object that has rules is checked with
 * `self` bound to the value there (typed by the schema) and, for a transition rule (one that reads
 * `oldSelf`), `oldSelf` bound to the correlated value of the old object. Failures are reported
 * like the API server reports them (`Invalid value: "object": <message>`, or the field error the
 * rule's `reason` names, at the rule's `fieldPath`).
 *
 * Kubernetes semantics kept here:
 * - a transition rule is skipped when there is no correlated old value, unless it has
 *   `optionalOldSelf`, in which case `oldSelf` is `optional.none()` (create) or `optional.of(old)`;
 * - old values correlate through object fields, map entries and the items of
 *   `x-kubernetes-list-type: map` lists with the same keys (not through other lists);
 * - ratcheting: a rule that does not read `oldSelf` is not re-checked on a value that is unchanged
 *   from the old object;
 * - `messageExpression` gives the message when it evaluates to a non-empty one-line string, else
 *   `message`, else `failed rule: <rule>`;
 * - no rule runs below a node the object has no value for.
 *
 * One deliberate difference: the API server skips all CEL rules of an object once its schema check
 * found a wrong type, an unsupported enum value, a missing required field or a too long/large
 * value; here every rule runs (so that one pass reports everything), except that a rule whose
 * evaluation fails on a value that does not fit its schema is not reported.
 *
 * Never throws: a rule that does not compile, or fails to evaluate on an object that fits its
 * schema, is reported as an `internal` violation quoting the rule.
 *
 * Internal module.
 */
import { CelBindings, CompiledExpression, compileExpression, isCompileError } from './compile';
import { optionalNone, optionalOf } from './optional';
import { CelRule, CelSchemaNode, mapValueSchema, schemaTypeName } from './schema';
import { CelConverted, CelValueConverter } from './values';
import { jsonEqual } from '../../model/json';
import { cel } from '../engines';
import { FieldPath } from '../field-path';
import { jsonTypeName, ViolationSink } from '../violation';

/** Rule id of a failed CEL rule that no row of the caller's catalogue covers. */
export const CEL_RULE = 'cel';

/** Rule id of a CEL rule that could not be compiled or evaluated. */
export const INTERNAL_RULE = 'internal';

/** How to check one object. */
export interface CelCheckOptions {
  /**
   * The object as stored before this update. Without it the object is checked as created: transition
   * rules without `optionalOldSelf` are skipped.
   */
  readonly old?: unknown;
  /** Path of the object in the reports (default: the root). */
  readonly path?: FieldPath;
  /**
   * Schemas of embedded Kubernetes types (by the `k8sType` of their marker nodes) carrying rules the
   * compact schema leaves out; marker nodes without one have no rules.
   */
  readonly embedded?: Readonly<Record<string, CelSchemaNode>>;
  /** The rule id a failure of `rule` is reported under (default: `cel`). */
  readonly ruleId?: (rule: CelRule) => string;
}

/** Checks every CEL rule of `root` (the schema of the whole object) on `doc`; reports into `sink`. */
export function checkCelRules(doc: unknown, root: CelSchemaNode, sink: ViolationSink, options: CelCheckOptions = {}): void {
  const embedded = options.embedded ?? NO_EMBEDDED;
  const walk = new CelRuleWalk(
    sink, new CelValueConverter(embedded), options.ruleId ?? (() => CEL_RULE), passedOnCreateFor(embedded), schemaFactsFor(embedded),
  );
  const old = options.old === undefined || options.old === null ? undefined : { value: options.old };
  walk.visit(doc, root, old, options.path ?? FieldPath.root(), false);
}

const NO_EMBEDDED: Readonly<Record<string, CelSchemaNode>> = {};

/**
 * The values every rule of a schema node passed on when an object was created (no old object), by
 * the embedded-type schemas of the check, the node and the key of the value (`passKey`: the fields
 * the rules read, or the whole value; with whether it sat below an embedded type). On create, what
 * the rules of a node report depends only on these (the rules and the typing of the value come from
 * the schema; the field path only says where a failure is reported), so a node whose value passed
 * before is not evaluated again: an app's graphs repeat the same components, containers and
 * annotations. Failures are not kept.
 */
const passedOnCreate = new WeakMap<object, WeakMap<CelSchemaNode, Set<string>>>();

/** Passed values kept per node at most (then that node's set starts anew). */
const MAX_PASSED = 2048;

function passedOnCreateFor(embedded: object): WeakMap<CelSchemaNode, Set<string>> {
  let byNode = passedOnCreate.get(embedded);
  if (byNode === undefined) {
    byNode = new WeakMap();
    passedOnCreate.set(embedded, byNode);
  }
  return byNode;
}

/**
 * What the walk learns about the nodes of a schema: whether a node or anything below it has rules,
 * and which properties of an object node lead to rules. Both depend only on the node and the
 * embedded-type schemas of the check (which say what a marker node stands for), so every check
 * with the same embedded types shares them instead of working them out again per object.
 */
interface SchemaFacts {
  /** Whether a node or anything below it has rules, by node. */
  readonly rulesBelow: WeakMap<CelSchemaNode, boolean>;
  /** The properties (name and node, in schema order) of an object node below which rules lie, by node. */
  readonly ruledProperties: WeakMap<CelSchemaNode, ReadonlyArray<readonly [string, CelSchemaNode]>>;
}

const factsByEmbedded = new WeakMap<object, SchemaFacts>();

function schemaFactsFor(embedded: object): SchemaFacts {
  let facts = factsByEmbedded.get(embedded);
  if (facts === undefined) {
    facts = { rulesBelow: new WeakMap(), ruledProperties: new WeakMap() };
    factsByEmbedded.set(embedded, facts);
  }
  return facts;
}

/**
 * A text that tells JSON values apart exactly as the CEL conversion does (unlike `JSON.stringify`,
 * it keeps `undefined`, `-0`, `NaN` and the infinities apart from `null` and `0`), or undefined for
 * a value holding anything but strings, numbers, booleans, null, undefined, arrays and plain objects.
 */
function valueKey(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'undefined';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let text = '[';
        for (let i = 0; i < value.length; i++) {
          const item = i in value ? valueKey(value[i]) : 'hole';
          if (item === undefined) return undefined;
          text += i === 0 ? item : `,${item}`;
        }
        return `${text}]`;
      } else {
        const proto = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) return undefined;
        let text = '{';
        let first = true;
        for (const key of Object.keys(value)) {
          const item = valueKey((value as Record<string, unknown>)[key]);
          if (item === undefined) return undefined;
          text += `${first ? '' : ','}${JSON.stringify(key)}:${item}`;
          first = false;
        }
        return `${text}}`;
      }
    default:
      return undefined;
  }
}

/** The old value correlated with a node of the new object (absent: none). */
interface OldValue {
  readonly value: unknown;
}

/** The old value of a field or map entry of an old object (none where it has none, or null). */
function oldEntry(oldObject: Record<string, unknown> | undefined, key: string): OldValue | undefined {
  if (oldObject === undefined) return undefined;
  const previous = oldObject[key];
  return previous === undefined || previous === null ? undefined : { value: previous };
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own<T>(record: { readonly [key: string]: T } | undefined, key: string): T | undefined {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isJsonObject(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The fields of `self` the rules of a node read, by the node's rules (null: `self` is read otherwise). */
const FIELDS_READ = new WeakMap<readonly CelRule[], readonly string[] | null>();

/**
 * The fields of `self` every rule of a node reads, when each reads `self` only through fields (see
 * `CompiledExpression.selfFields`), sorted; undefined when one reads it otherwise or does not compile.
 */
function fieldsRead(rules: readonly CelRule[]): readonly string[] | undefined {
  let fields = FIELDS_READ.get(rules);
  if (fields === undefined) {
    const all = new Set<string>();
    fields = [];
    for (const rule of rules) {
      const compiled = compileExpression(rule.rule);
      if (isCompileError(compiled) || compiled.selfFields === undefined) {
        fields = null;
        break;
      }
      compiled.selfFields.forEach(field => all.add(field));
    }
    if (fields !== null) fields = [...all].sort();
    FIELDS_READ.set(rules, fields);
  }
  return fields ?? undefined;
}

class CelRuleWalk {
  public constructor(
    private readonly sink: ViolationSink,
    private readonly converter: CelValueConverter,
    private readonly ruleId: (rule: CelRule) => string,
    private readonly passed: WeakMap<CelSchemaNode, Set<string>>,
    private readonly facts: SchemaFacts,
  ) {}

  public visit(value: unknown, schemaNode: CelSchemaNode, old: OldValue | undefined, path: FieldPath, open: boolean): void {
    if (value === undefined || value === null) return;
    const { node, embedded } = this.converter.resolve(schemaNode);
    if (node === undefined || !this.hasRulesBelow(node)) return;
    const isOpen = open || embedded;
    const rules = node['x-kubernetes-validations'];
    if (rules !== undefined && rules.length > 0) this.checkNode(rules, value, schemaNode, node, old, path, open);

    // the items or map values are visited only when rules lie below their node (a visit would stop at once)
    if (Array.isArray(value)) {
      if (node.items === undefined || !this.leadsToRules(node.items)) return;
      const correlate = this.correlator(node, old);
      value.forEach((item, index) => this.visit(item, node.items!, correlate(item), path.index(index), isOpen));
      return;
    }
    if (!isJsonObject(value)) return;
    const oldObject = old !== undefined && isJsonObject(old.value) ? old.value : undefined;
    const values = mapValueSchema(node);
    if (values !== undefined) {
      if (!this.leadsToRules(values)) return;
      for (const [key, item] of Object.entries(value)) this.visit(item, values, oldEntry(oldObject, key), path.key(key), isOpen);
      return;
    }
    // only the properties below which rules lie: a visit of any other stops at once
    for (const [name, propertyNode] of this.ruledProperties(node)) {
      if (!Object.prototype.hasOwnProperty.call(value, name)) continue;
      this.visit(value[name], propertyNode, oldEntry(oldObject, name), path.child(name), isOpen);
    }
  }

  /** The properties of an object node whose values `visit` has rules to check below (in schema order). */
  private ruledProperties(node: CelSchemaNode): ReadonlyArray<readonly [string, CelSchemaNode]> {
    let properties = this.facts.ruledProperties.get(node);
    if (properties === undefined) {
      properties = Object.entries(node.properties ?? {}).filter(([, child]) => this.leadsToRules(child));
      this.facts.ruledProperties.set(node, properties);
    }
    return properties;
  }

  /** `evaluateRules`, skipped on create for a value the node's rules passed on before (see `passedOnCreate`). */
  private checkNode(
    rules: readonly CelRule[], value: unknown, schemaNode: CelSchemaNode, node: CelSchemaNode,
    old: OldValue | undefined, path: FieldPath, open: boolean,
  ): void {
    const text = old === undefined ? this.passKey(rules, value) : undefined;
    if (text === undefined) {
      this.evaluateRules(rules, value, schemaNode, node, old, path, open);
      return;
    }
    const key = open ? `open ${text}` : text;
    let passed = this.passed.get(schemaNode);
    if (passed?.has(key)) return;
    const reported = this.sink.all.length;
    this.evaluateRules(rules, value, schemaNode, node, old, path, open);
    if (this.sink.all.length !== reported) return;
    if (passed === undefined) {
      passed = new Set();
      this.passed.set(schemaNode, passed);
    } else if (passed.size >= MAX_PASSED) {
      passed.clear();
    }
    passed.add(key);
  }

  /**
   * The text a value is kept under once the rules of a node passed on it: the fields the rules
   * read, when they read `self` only through fields of an object (`CompiledExpression.selfFields`;
   * what they report then depends on those fields alone, so the other fields — a name, a label —
   * need not match), else the whole value. Undefined for a value `valueKey` cannot write.
   */
  private passKey(rules: readonly CelRule[], value: unknown): string | undefined {
    const fields = isPlainObject(value) ? fieldsRead(rules) : undefined;
    if (fields === undefined) return valueKey(value);
    let text = 'fields';
    for (const field of fields) {
      if (!Object.prototype.hasOwnProperty.call(value, field)) {
        text += ` ${field}:absent`;
        continue;
      }
      const item = valueKey((value as Record<string, unknown>)[field]);
      if (item === undefined) return undefined;
      text += ` ${field}:${item}`;
    }
    return text;
  }

  /** The old item of a `map` list with the same keys as a new item (other lists do not correlate). */
  private correlator(node: CelSchemaNode, old: OldValue | undefined): (item: unknown) => OldValue | undefined {
    const keys = node['x-kubernetes-list-type'] === 'map' ? node['x-kubernetes-list-map-keys'] : undefined;
    if (keys === undefined || keys.length === 0 || old === undefined || !Array.isArray(old.value)) return () => undefined;
    const keyOf = (item: unknown): string | undefined => (isJsonObject(item) ? JSON.stringify(keys.map((k) => item[k] ?? null)) : undefined);
    const byKey = new Map<string, unknown>();
    for (const item of old.value) {
      const key = keyOf(item);
      if (key !== undefined && !byKey.has(key)) byKey.set(key, item);
    }
    return (item) => {
      const key = keyOf(item);
      return key !== undefined && byKey.has(key) ? { value: byKey.get(key) } : undefined;
    };
  }

  private hasRulesBelow(node: CelSchemaNode): boolean {
    let known = this.facts.rulesBelow.get(node);
    if (known === undefined) {
      this.facts.rulesBelow.set(node, false); // a recursive schema (none today) ends here
      const children = [
        ...Object.values(node.properties ?? {}),
        ...(node.items === undefined ? [] : [node.items]),
        ...(mapValueSchema(node) === undefined ? [] : [mapValueSchema(node)!]),
      ];
      known = (node['x-kubernetes-validations'] ?? []).length > 0 || children.some((child) => this.leadsToRules(child));
      this.facts.rulesBelow.set(node, known);
    }
    return known;
  }

  /** Whether a child node (a marker node resolved to the schema it stands for) or anything below it has rules. */
  private leadsToRules(child: CelSchemaNode): boolean {
    const resolved = this.converter.resolve(child).node;
    return resolved !== undefined && this.hasRulesBelow(resolved);
  }

  private evaluateRules(
    rules: readonly CelRule[], value: unknown, schemaNode: CelSchemaNode, node: CelSchemaNode,
    old: OldValue | undefined, path: FieldPath, open: boolean,
  ): void {
    let self: CelConverted | undefined;
    let oldSelf: CelConverted | undefined;
    for (const rule of rules) {
      const compiled = compileExpression(rule.rule);
      if (isCompileError(compiled)) {
        this.internal(path, `CEL rule ${JSON.stringify(rule.rule)} does not compile: ${compiled.error}`);
        continue;
      }
      if (compiled.usesOldSelf) {
        if (old === undefined && rule.optionalOldSelf !== true) continue; // a transition rule: update only
      } else if (old !== undefined && jsonEqual(value, old.value)) {
        continue; // ratcheting: an unchanged value is not re-checked
      }
      self ??= this.converter.convert(value, schemaNode, open);
      let bindings: CelBindings = { self: self.value };
      if (compiled.usesOldSelf) {
        if (old !== undefined) oldSelf ??= this.converter.convert(old.value, schemaNode, open);
        const oldValue = oldSelf?.value;
        const optional = oldValue === undefined ? optionalNone() : optionalOf(oldValue);
        bindings = { self: self.value, oldSelf: rule.optionalOldSelf === true ? optional : oldValue };
      }
      const result = compiled.evaluate(bindings);
      if (cel().isCelError(result)) {
        // the API server does not run rules on an object that does not fit its schema (reported by the schema check)
        if (self.fits && (oldSelf === undefined || oldSelf.fits)) this.internal(path, `CEL rule ${JSON.stringify(rule.rule)} failed to evaluate: ${result.message}`);
        continue;
      }
      if (result === true) continue;
      if (result !== false) {
        this.internal(path, `CEL rule ${JSON.stringify(rule.rule)} did not evaluate to a bool`);
        continue;
      }
      this.report(rule, value, node, path, bindings);
    }
  }

  private report(rule: CelRule, value: unknown, node: CelSchemaNode, path: FieldPath, bindings: CelBindings): void {
    const detail = this.message(rule, path, bindings);
    const target = rule.fieldPath === undefined ? path : appendFieldPath(path, node, rule.fieldPath, this.converter);
    const id = this.ruleId(rule);
    const typeName = schemaTypeName(node) ?? jsonTypeName(value);
    switch (rule.reason) {
      case 'FieldValueForbidden':
        this.sink.forbidden(target, undefined, detail, id);
        return;
      case 'FieldValueRequired':
        this.sink.required(target, detail, id);
        return;
      case 'FieldValueDuplicate':
        this.sink.duplicate(target, typeName, id);
        return;
      default:
        if (typeName === jsonTypeName(value)) this.sink.celFailure(target, value, detail, id);
        else this.sink.invalid(target, typeName, detail, id);
    }
  }

  /** The message of a failed rule: its message expression, its message, or the rule itself. */
  private message(rule: CelRule, path: FieldPath, bindings: CelBindings): string {
    const fallback = rule.message !== undefined && rule.message.trim() !== '' ? rule.message.trim() : `failed rule: ${rule.rule.trim()}`;
    if (rule.messageExpression === undefined) return fallback;
    const compiled: CompiledExpression | { error: string } = compileExpression(rule.messageExpression);
    if (isCompileError(compiled)) {
      this.internal(path, `CEL messageExpression ${JSON.stringify(rule.messageExpression)} does not compile: ${compiled.error}`);
      return fallback;
    }
    const text = compiled.evaluate(bindings);
    return typeof text === 'string' && text.trim() !== '' && !/[\r\n]/.test(text) ? text : fallback;
  }

  /** A rule that cannot be evaluated: an internal error at the rule's node, not a verdict on the value. */
  private internal(path: FieldPath, detail: string): void {
    this.sink.internal(path, detail, INTERNAL_RULE);
  }
}

const FIELD_PATH_STEP = /^(?:\.([A-Za-z_][A-Za-z0-9_-]*)|\[\s*'([^']*)'\s*\]|\[\s*"([^"]*)"\s*\]|\[\s*(\d+)\s*\])/;

/**
 * A rule's `fieldPath` (`.a.b`, `['key']`, `[0]`) below the path of its node. A bracketed name is a
 * map key in a map node and a field elsewhere. An unreadable fieldPath leaves the node's path.
 */
function appendFieldPath(base: FieldPath, node: CelSchemaNode, fieldPath: string, converter: CelValueConverter): FieldPath {
  let path = base;
  let at: CelSchemaNode | undefined = node;
  let rest = fieldPath.trim();
  while (rest !== '') {
    const step = FIELD_PATH_STEP.exec(rest);
    if (step === null) return base;
    rest = rest.slice(step[0].length);
    const resolved: CelSchemaNode | undefined = at === undefined ? undefined : converter.resolve(at).node;
    if (step[4] !== undefined) {
      path = path.index(Number(step[4]));
      at = resolved?.items;
      continue;
    }
    const name = step[1] ?? step[2] ?? step[3];
    const values = resolved === undefined ? undefined : mapValueSchema(resolved);
    if (step[1] === undefined && values !== undefined) {
      path = path.key(name);
      at = values;
    } else {
      path = path.child(name);
      at = own(resolved?.properties, name);
    }
  }
  return path;
}
