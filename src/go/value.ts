/**
 * A wire value as the Go type it is read into gives it back: the value `JSON.parse` makes of
 * `goJsonEncode(value, type, options)`, built in one walk without the JSON text.
 *
 * Everything `goJsonEncode` does to the text shows in the value: fields in Go order, dropped
 * `omitempty`/`omitzero` fields, zero values of absent fields, sorted map keys, canonical
 * quantities, times and durations, unknown keys appended (sorted) or dropped, unpaired surrogates
 * replaced by U+FFFD, -0 of integer fields read back as 0. The same errors are thrown for the same
 * input, and `onUnknownField` sees the same calls. The result shares nothing with the input.
 */
import { GoJsonOptions, GoPath, GoPathTracker, goJsonEncode, NO_PATH } from './marshal';
import { canonicalQuantity } from './quantity';
import {
  GoStructLayout, GoType, GoTypeRef, GoTypeRegistry, goTypeRegistry, isEmptyValue, presentFields, Primitive, readLooseStruct,
} from './struct-layout';
import {
  definedKeys, formatGoDuration, formatGoFloat, formatGoTime, goString, integerText, isNil, isObject, parseGoDuration, sortUtf8, typeError,
} from './text';

/** A value read as a Go type (see `readGoValue`). */
export interface GoValue {
  /** The value as Go gives it back: `JSON.parse(goJsonEncode(input, type, options))`. */
  readonly value: any;
  /**
   * Whether reading `value` again as the same type (with `unknownFields: 'append'`) is certain to
   * give `value` again, so that the second reading can be skipped. False when the first reading
   * changed something a second one could read differently (a quantity, time, duration, byte or
   * float32 value rewritten, a string or key with unpaired surrogates, keys matched ignoring case,
   * unknown keys appended, a non-zero `omitzero` struct).
   */
  readonly fixedPoint: boolean;
}

/**
 * `JSON.parse(goJsonEncode(value, type, options))`, computed directly. Without a type the value is
 * read as Go's `interface{}` data.
 */
export function goJsonValue(value: unknown, type?: GoTypeRef, options: GoJsonOptions = {}): any {
  return readGoValue(value, type, options).value;
}

/** `goJsonValue`, and whether its result is a fixed point of the reading (see `GoValue`). */
export function readGoValue(value: unknown, type?: GoTypeRef, options: GoJsonOptions = {}): GoValue {
  const registry = goTypeRegistry(options.types);
  const goType = type === undefined ? undefined : registry.type(type);
  const read = (path: GoPathTracker): GoValue => {
    const builder = new Builder(registry, options, path);
    const result = goType === undefined ? builder.untyped(value) : builder.typed(value, goType);
    return { value: result, fixedPoint: builder.fixedPoint };
  };
  try {
    // the callback sees paths: keep track from the start
    if (options.onUnknownField) return read(new GoPath());
    try {
      return read(NO_PATH);
    } catch (e) {
      if (e === SPARSE_ARRAY) throw e;
      // again, keeping track of the location, for the error message
      return read(new GoPath());
    }
  } catch (e) {
    // A sparse array has no JSON text of its own: let the encoder and JSON.parse decide.
    if (e === SPARSE_ARRAY) return { value: JSON.parse(goJsonEncode(value, type, options)), fixedPoint: false };
    throw e;
  }
}

const SPARSE_ARRAY = Symbol('sparse array');

/** The number an integer field reads back as. */
function integerValue(v: unknown, path: () => string): number {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v === 0 ? 0 : v;
  return Number(integerText(v, path));
}

class Builder {
  /** See `GoValue.fixedPoint`. */
  public fixedPoint = true;
  private readonly pathText: () => string;

  constructor(private readonly registry: GoTypeRegistry, private readonly options: GoJsonOptions, private readonly path: GoPathTracker) {
    this.pathText = () => this.path.text();
  }

  typed(v: unknown, t: GoType): unknown {
    switch (t.kind) {
      case 'ptr':
        return isNil(v) ? null : this.typed(v, t.elem);
      case 'slice': {
        if (isNil(v)) return null;
        if (!Array.isArray(v)) throw typeError(this.path.text(), 'an array', v);
        const out: unknown[] = [];
        for (let i = 0; i < v.length; i++) {
          const item = v[i];
          if (item === undefined && !(i in v)) throw SPARSE_ARRAY;
          this.path.push(i);
          out.push(this.typed(item, t.elem));
          this.path.pop();
        }
        return out;
      }
      case 'map': {
        if (isNil(v)) return null;
        if (!isObject(v)) throw typeError(this.path.text(), 'an object', v);
        const out: Record<string, unknown> = {};
        for (const k of sortUtf8(definedKeys(v))) {
          this.path.push(k);
          this.put(out, k, this.typed(v[k], t.elem));
          this.path.pop();
        }
        return out;
      }
      case 'struct':
        return this.struct(v, this.registry.struct(t.name));
      case 'prim':
        return this.primitive(v, t.prim);
    }
  }

  /**
   * Sets `obj[key]` as `JSON.parse` does for a member of the text: the key as Go writes it (see
   * `goString`), an own data property also for the key `__proto__`, and a repeated key keeps its
   * place and takes the last value.
   */
  private put(obj: Record<string, unknown>, rawKey: string, value: unknown): void {
    const key = this.text(rawKey);
    if (key === '__proto__') {
      this.fixedPoint = false;
      Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
    } else {
      obj[key] = value;
    }
  }

  /** A string as Go writes it (`goString`), noting a change. */
  private text(s: string): string {
    const out = goString(s);
    if (out !== s) this.fixedPoint = false;
    return out;
  }

  private struct(v: unknown, layout: GoStructLayout): Record<string, unknown> {
    if (!isNil(v) && !isObject(v)) throw typeError(this.path.text(), `an object (${layout.name})`, v);
    const obj: Record<string, unknown> = isNil(v) ? {} : (v as Record<string, unknown>);
    const objectKeys = Object.keys(obj);
    const present = presentFields(obj, objectKeys, layout);
    const out: Record<string, unknown> = {};
    if (present === undefined) {
      this.looseStruct(out, obj, objectKeys, layout);
      return out;
    }
    // the present fields merged with the fields written when absent, in field order
    const absent = layout.writtenWhenAbsent;
    let i = 0;
    let j = 0;
    while (i < present.length || j < absent.length) {
      const p = i < present.length ? present[i] : Infinity;
      const a = j < absent.length ? absent[j] : Infinity;
      if (p <= a) {
        this.field(out, layout, p, obj[layout.fields[p].name]);
        i++;
        if (p === a) j++;
      } else {
        this.field(out, layout, a, undefined);
        j++;
      }
    }
    return out;
  }

  /** Sets the field at `position` read from `fv`, unless Go omits it. */
  private field(out: Record<string, unknown>, layout: GoStructLayout, position: number, fv: unknown): void {
    const f = layout.fields[position];
    if (f.omitEmpty && isEmptyValue(fv, f.type)) return;
    if (f.omitZero) {
      if (this.registry.isZeroValue(fv, f.type)) return;
      // a struct that is not zero may read as zero once its empty members are dropped
      if (f.type.kind === 'struct') this.fixedPoint = false;
    }
    this.path.push(f.name);
    const value = this.typed(fv, f.type);
    this.path.pop();
    if (layout.plainNames[position]) out[f.name] = value;
    else this.put(out, f.name, value);
  }

  private looseStruct(out: Record<string, unknown>, obj: Record<string, unknown>, objectKeys: readonly string[], layout: GoStructLayout): void {
    this.fixedPoint = false;
    const { keys, unknown } = readLooseStruct(obj, objectKeys, layout);
    keys.forEach((key, p) => this.field(out, layout, p, key === undefined ? undefined : obj[key]));
    for (const k of unknown) {
      this.options.onUnknownField?.(this.path.text(), k);
      const mode = this.options.unknownFields ?? 'append';
      if (mode === 'error') throw new Error(`go-json: ${this.path.text()}: field ${JSON.stringify(k)} is not part of Go struct ${layout.name}`);
      if (mode === 'append') {
        this.path.push(k);
        this.put(out, k, this.untyped(obj[k]));
        this.path.pop();
      }
    }
  }

  /** `out`, noting whether it differs from `v`. */
  private rewritten<T>(v: unknown, out: T): T {
    if (!Object.is(v, out)) this.fixedPoint = false;
    return out;
  }

  private primitive(v: unknown, prim: Primitive): unknown {
    switch (prim) {
      case 's':
        if (isNil(v)) return '';
        if (typeof v !== 'string') throw typeError(this.path.text(), 'a string', v);
        return this.text(v);
      case 'b':
        if (isNil(v)) return false;
        if (typeof v !== 'boolean') throw typeError(this.path.text(), 'a boolean', v);
        return v;
      case 'i':
        return isNil(v) ? 0 : this.rewritten(v, integerValue(v, this.pathText));
      case 'f64':
        if (isNil(v)) return 0;
        if (typeof v !== 'number') throw typeError(this.path.text(), 'a number', v);
        formatGoFloat(v, 64); // throws for NaN and infinities
        return v;
      case 'f32':
        if (isNil(v)) return 0;
        if (typeof v !== 'number') throw typeError(this.path.text(), 'a number', v);
        return this.rewritten(v, Number(formatGoFloat(v, 32)));
      case 'q':
        if (isNil(v)) return '0';
        if (typeof v !== 'string' && typeof v !== 'number') throw typeError(this.path.text(), 'a quantity', v);
        return this.rewritten(v, canonicalQuantity(v));
      case 't':
        if (isNil(v)) return null;
        if (typeof v !== 'string') throw typeError(this.path.text(), 'an RFC 3339 time', v);
        return this.rewritten(v, formatGoTime(v, this.pathText, false));
      case 'mt':
        if (isNil(v)) return null;
        if (typeof v !== 'string') throw typeError(this.path.text(), 'an RFC 3339 time', v);
        return this.rewritten(v, formatGoTime(v, this.pathText, true));
      case 'ios':
        if (isNil(v)) return 0;
        if (typeof v === 'string') return this.text(v);
        return this.rewritten(v, integerValue(v, this.pathText));
      case 'dur':
        if (isNil(v)) return '0s';
        if (typeof v !== 'string') throw typeError(this.path.text(), 'a duration string', v);
        return this.rewritten(v, formatGoDuration(parseGoDuration(v, this.path.text())));
      case 'bytes':
        if (isNil(v)) return null;
        if (typeof v !== 'string') throw typeError(this.path.text(), 'base64 text', v);
        return this.rewritten(v, Buffer.from(v, 'base64').toString('base64'));
      case 'raw':
      case 'rawmsg':
      case 'any':
        return this.untyped(v);
    }
  }

  /** Go's `interface{}` data decoded from JSON, as written back. */
  untyped(v: unknown): unknown {
    if (isNil(v)) return null;
    switch (typeof v) {
      case 'string':
        return this.text(v);
      case 'boolean':
        return v;
      case 'number':
        formatGoFloat(v, 64); // throws for NaN and infinities
        return v;
      case 'bigint':
        this.fixedPoint = false;
        return Number(v.toString());
      default:
        break;
    }
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (let i = 0; i < v.length; i++) {
        const item = v[i];
        if (item === undefined && !(i in v)) throw SPARSE_ARRAY;
        this.path.push(i);
        out.push(this.untyped(item));
        this.path.pop();
      }
      return out;
    }
    if (isObject(v)) {
      const out: Record<string, unknown> = {};
      for (const k of sortUtf8(definedKeys(v))) {
        this.path.push(k);
        this.put(out, k, this.untyped(v[k]));
        this.path.pop();
      }
      return out;
    }
    throw typeError(this.path.text(), 'a JSON value', v);
  }
}
