/**
 * What the validate functions of ajv-instance.ts call at run time: the checks of the custom
 * keywords (`x-required`, `x-kubernetes-list-type`, `x-items-not-null`) and the custom formats
 * (`int32`, `int64`, `quantity`, `byte`, `k8s-time`). The functions generated at build time
 * (validators.ts) require this module by its path, as do the functions compiled at run time; it
 * loads nothing else (not ajv).
 *
 * A keyword check returns the keyword's errors, or undefined when the value passes: what the
 * schema says about the node (its `x-rule`, the rows of its fields, the list-map keys) is worked
 * out when the schema is compiled and passed in as constants. Errors carry no parentSchema: the
 * row of the node is put in `params`.
 *
 * Internal module.
 */
import { QUANTITY_PATTERN } from '../../go/quantity';

/** `params` of an `x-kubernetes-list-type` error: the index of a duplicate and what repeats. */
export interface DuplicateParams {
  readonly index: number;
  readonly duplicate: unknown;
  /** `x-rule` of the list. */
  readonly rule?: string;
}

/** `params` of an `x-required` error. */
export interface MissingParams {
  readonly missingProperty: string;
  /** `x-rule` of the missing field's node (else of the object). */
  readonly rule?: string;
}

/** `params` of an `x-items-not-null` error. */
export interface NullItemParams {
  readonly index: number;
  readonly label: string;
  /** `x-rule` of the items node. */
  readonly rule?: string;
}

/** An error of a custom keyword, before ajv adds where it was found. */
export interface KeywordError {
  readonly keyword: string;
  readonly params: MissingParams | DuplicateParams | NullItemParams;
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// the checks allocate their error list only on failure (most objects checked are valid);
// a rule given as null (a constant of generated code) is an absent one

/**
 * `x-required` of an object: each required field (`names`) that is absent or null, with the row of
 * its node (`rules`, by position).
 */
export function requiredErrors(
  data: Record<string, unknown>, names: readonly string[], rules: readonly (string | null)[],
): KeywordError[] | undefined {
  let errors: KeywordError[] | undefined;
  for (let i = 0; i < names.length; i++) {
    const value = data[names[i]];
    if (value === undefined || value === null) {
      (errors ??= []).push({ keyword: 'x-required', params: { missingProperty: names[i], rule: rules[i] ?? undefined } satisfies MissingParams });
    }
  }
  return errors;
}

/**
 * `x-kubernetes-list-type` of a list: every later item with the same keys (`map`, with the
 * list-map `keys`) or the same scalar value (`set`) as an earlier one.
 */
export function listTypeErrors(
  data: readonly unknown[], type: string, keys: readonly string[] | null, rule: string | null,
): KeywordError[] | undefined {
  if (data.length < 2) return undefined;
  let errors: KeywordError[] | undefined;
  const seen = new Set<string>();
  data.forEach((item, index) => {
    let identity: string;
    let duplicate: unknown;
    if (type === 'map' && keys) {
      if (!isObject(item)) return;
      const keyValues: Record<string, unknown> = {};
      for (const key of keys) {
        if (!isScalar(item[key])) return;
        keyValues[key] = item[key];
      }
      identity = JSON.stringify(keys.map((key) => keyValues[key]));
      duplicate = keyValues;
    } else if (type === 'set') {
      if (!isScalar(item)) return;
      identity = JSON.stringify(item);
      duplicate = item;
    } else {
      return;
    }
    if (seen.has(identity)) {
      (errors ??= []).push({ keyword: 'x-kubernetes-list-type', params: { index, duplicate, rule: rule ?? undefined } satisfies DuplicateParams });
    }
    seen.add(identity);
  });
  return errors;
}

/** `x-items-not-null` of a list: each null (or undefined) item, named a value of the wrong type (`label`). */
export function itemsNotNullErrors(data: readonly unknown[], label: string, rule: string | null): KeywordError[] | undefined {
  let errors: KeywordError[] | undefined;
  for (let index = 0; index < data.length; index++) {
    const item = data[index];
    // a hole of a sparse list is no item
    if ((item === null || item === undefined) && index in data) {
      (errors ??= []).push({ keyword: 'x-items-not-null', params: { index, label, rule: rule ?? undefined } satisfies NullItemParams });
    }
  }
  return errors;
}

const INT32 = 2 ** 31;
const INT64 = 2 ** 63;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** RFC 3339 date-time, as metav1.Time decodes it. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** A format: the JSON type it applies to and its check. */
export interface FormatDefinition {
  readonly type: 'number' | 'string';
  readonly validate: ((value: number) => boolean) | RegExp;
}

/** The custom formats, by name. */
export const FORMATS: Readonly<Record<string, FormatDefinition>> = {
  'int32': { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -INT32 && n < INT32 },
  'int64': { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -INT64 && n < INT64 },
  'quantity': { type: 'string', validate: new RegExp(QUANTITY_PATTERN) },
  'byte': { type: 'string', validate: BASE64 },
  'k8s-time': { type: 'string', validate: RFC3339 },
};
