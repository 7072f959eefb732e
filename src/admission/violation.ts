import { FieldPath } from './field-path';
import { closestName } from '../model/did-you-mean';
import { isMap, stringAt } from '../model/json';
import { Violation } from '../model/violation-report';

/**
 * The name of the graph component a path lies in: for `spec.components[i]...` of a
 * DynamoGraphDeployment `doc`, the `name` of that component, when it has a non-empty one.
 */
export function componentAt(path: FieldPath, doc: unknown): string | undefined {
  if (stringAt(doc, 'kind') !== 'DynamoGraphDeployment') return undefined;
  const [spec, components, item] = path.segments;
  if (spec?.kind !== 'field' || spec.name !== 'spec') return undefined;
  if (components?.kind !== 'field' || components.name !== 'components' || item?.kind !== 'index') return undefined;
  const list = isMap(doc) && isMap(doc.spec) ? doc.spec.components : undefined;
  const name = Array.isArray(list) ? stringAt(list[item.index], 'name') : undefined;
  return name === undefined || name === '' ? undefined : name;
}

/** A violation before it is attached to its object (kind, name) and put in document order. */
export interface ViolationRecord {
  readonly path: FieldPath;
  readonly value?: unknown;
  readonly message: string;
  readonly rule: string;
  /** See `Violation.structural`. */
  readonly structural?: boolean;
  /** See `Violation.suggestion`. */
  readonly suggestion?: string;
}

/**
 * A record with the kind and name of its object, and the name of the graph component its field
 * lies in (looked up in `doc`, the object the record was found in): the violation the caller sees.
 */
export function attachObject(record: ViolationRecord, kind: string, name: string, doc: unknown): Violation {
  const path = record.path.toString();
  const component = componentAt(record.path, doc);
  const base: Violation = component === undefined
    ? { kind, name, path, message: record.message, rule: record.rule }
    : { kind, name, path, component, message: record.message, rule: record.rule };
  const withValue = record.value === undefined ? base : { ...base, value: record.value };
  const withStructural = record.structural === true ? { ...withValue, structural: true } : withValue;
  return record.suggestion === undefined ? withStructural : { ...withStructural, suggestion: record.suggestion };
}

const MAX_RENDERED_VALUE = 120;

/** A value as it appears inside a message: strings quoted, numbers plain, objects as JSON, long values cut. */
export function renderValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) return JSON.stringify(typeof value);
  return text.length > MAX_RENDERED_VALUE ? `${text.slice(0, MAX_RENDERED_VALUE - 3)}...` : text;
}

/** The JSON type name of a value, as CEL rule failures report it (`"object"`, `"array"`, ...). */
export function jsonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * Collects violations while rules run. Each method mirrors one Kubernetes field-error type.
 */
export class ViolationSink {
  private readonly records: ViolationRecord[] = [];

  /** Everything reported so far, in reporting order. */
  public get all(): readonly ViolationRecord[] {
    return this.records;
  }

  /** `Invalid value: <value>: <detail>` */
  public invalid(path: FieldPath, value: unknown, detail: string, rule: string): void {
    this.add(path, value, `Invalid value: ${renderValue(value)}: ${detail}`, rule);
  }

  /** A failed CEL rule: `Invalid value: "<type>": <message>`, as the API server reports it. */
  public celFailure(path: FieldPath, value: unknown, message: string, rule: string): void {
    this.add(path, value, `Invalid value: ${JSON.stringify(jsonTypeName(value))}: ${message}`, rule);
  }

  /**
   * `Internal error: <detail>`: the check itself failed (e.g. a rule that does not compile or
   * evaluate), not the value at `path`.
   */
  public internal(path: FieldPath, detail: string, rule: string): void {
    this.add(path, undefined, `Internal error: ${detail}`, rule);
  }

  /** `Required value` or `Required value: <detail>` */
  public required(path: FieldPath, detail: string | undefined, rule: string): void {
    this.add(path, undefined, detail === undefined ? 'Required value' : `Required value: ${detail}`, rule);
  }

  /** `Invalid value: <value>: must be of type <type>` (a structural violation). */
  public wrongType(path: FieldPath, value: unknown, type: string, rule: string): void {
    this.add(path, value, `Invalid value: ${renderValue(value)}: must be of type ${type}`, rule, true);
  }

  /** `Unsupported value: <value>: supported values: "a", "b"` */
  public notSupported(path: FieldPath, value: unknown, supported: readonly unknown[], rule: string): void {
    const list = supported.map((s) => JSON.stringify(s)).join(', ');
    this.add(path, value, `Unsupported value: ${renderValue(value)}: supported values: ${list}`, rule);
  }

  /** `Forbidden: <detail>` */
  public forbidden(path: FieldPath, value: unknown, detail: string, rule: string): void {
    this.add(path, value, `Forbidden: ${detail}`, rule);
  }

  /** `Duplicate value: <value>` */
  public duplicate(path: FieldPath, value: unknown, rule: string): void {
    this.add(path, value, `Duplicate value: ${renderValue(value)}`, rule);
  }

  /** `Too many: <n>: must have at most <max> items` */
  public tooMany(path: FieldPath, value: unknown, actual: number, max: number, rule: string): void {
    this.add(path, value, `Too many: ${actual}: must have at most ${max} items`, rule);
  }

  /** `Too long: may not be longer than <max>` */
  public tooLong(path: FieldPath, value: unknown, max: number, rule: string): void {
    this.add(path, value, `Too long: may not be longer than ${max}`, rule);
  }

  /** A field the schema does not know, reported like strict field validation does (a structural violation). */
  /** An unknown field; `known`: the fields the schema declares beside it, for a suggestion (`Violation.suggestion`). */
  public unknownField(path: FieldPath, value: unknown, rule: string, known?: Iterable<string>): void {
    const pruned = path.withKeysAsFields();
    this.add(pruned, value, `unknown field ${JSON.stringify(pruned.toString())}`, rule, true);
    const last = path.segments[path.segments.length - 1];
    const suggestion = known === undefined || last?.kind !== 'field' ? undefined : closestName(last.name, known);
    if (suggestion !== undefined) this.records[this.records.length - 1] = { ...this.records[this.records.length - 1], suggestion };
  }

  private add(path: FieldPath, value: unknown, message: string, rule: string, structural = false): void {
    const record: ViolationRecord = value === undefined ? { path, message, rule } : { path, value, message, rule };
    this.records.push(structural ? { ...record, structural } : record);
  }
}
