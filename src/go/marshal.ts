/**
 * Compact JSON exactly as Go's `encoding/json` writes it for a Go value that was read from the
 * given wire JSON.
 *
 * With a type (`GoTypeRef`, see `types.ts` for the notation) the value is treated as that Go
 * type: struct fields come out in Go declaration order, `omitempty`/`omitzero` drop fields the
 * way Go does, absent non-omitted fields come out as their Go zero value (`""`, `0`, `false`,
 * `null`, or the zero struct such as `"metadata":{}` / `"resources":{}`), map keys are sorted
 * byte-wise, quantities are written in Kubernetes canonical form, IntOrString keeps its kind,
 * metav1.Time is re-written as RFC 3339 UTC seconds and metav1.Duration in Go duration syntax.
 *
 * Without a type the value is encoded as Go encodes `interface{}` data (`map[string]any`,
 * `[]any`, `float64`, ...): object keys sorted byte-wise, numbers in Go float64 syntax.
 *
 * Strings are escaped as Go does with HTML escaping on: `<`, `>`, `&` become `\u003c`, `\u003e`,
 * `\u0026`; U+2028/U+2029 become `\u2028`/`\u2029`; `\b \f \n \r \t` use short escapes; other
 * control characters become `\u00XX`; unpaired surrogates become U+FFFD.
 *
 * Object keys that a struct layout does not know are, by default, appended after the known fields
 * in sorted order and reported through `onUnknownField` (Go itself would drop them; seeing them
 * usually means the layout table lags the API). Use `unknownFields: 'drop'` for Go's behaviour.
 *
 * `goJsonValue` (value.ts) gives the same result as a value, without the text.
 */
import { canonicalQuantity } from './quantity';
import {
  GoStructLayout, GoType, GoTypeRef, GoTypeRegistry, goTypeRegistry, isEmptyValue, presentFields, Primitive, readLooseStruct,
} from './struct-layout';
import {
  definedKeys, formatGoDuration, formatGoFloat, formatGoTime, goQuote, goScalarText, integerText, isNil, isObject, parseGoDuration,
  sortUtf8, typeError,
} from './text';

export { GoTypeRegistry, goTypeRegistry, isEmptyValue, STRUCT_PRIMITIVES } from './struct-layout';
export type { GoField, GoType, GoTypeRef } from './struct-layout';
export { compareUtf8, formatGoDuration, formatGoFloat, goQuote, parseGoDuration } from './text';

export interface GoJsonOptions {
  /** Extra (or overriding) struct layouts, in the notation of `types.ts`. */
  readonly types?: Readonly<Record<string, string>>;
  /** What to do with object keys a struct layout does not list (default `append`). */
  readonly unknownFields?: 'append' | 'drop' | 'error';
  /** Called for every object key a struct layout does not list. */
  readonly onUnknownField?: (path: string, key: string) => void;
}

/** Encodes `value` as Go's `json.Marshal` would (see the module comment). */
export function goJsonEncode(value: unknown, type?: GoTypeRef, options: GoJsonOptions = {}): string {
  const registry = goTypeRegistry(options.types);
  const goType = type === undefined ? undefined : registry.type(type);
  const encode = (path: GoPathTracker) => {
    const encoder = new Encoder(registry, options, path);
    return goType === undefined ? encoder.untyped(value) : encoder.typed(value, goType);
  };
  // the callback sees paths: keep track from the start
  if (options.onUnknownField) return encode(new GoPath());
  try {
    return encode(NO_PATH);
  } catch {
    // again, keeping track of the location, for the error message
    return encode(new GoPath());
  }
}

/** Where the walk of a value is, for error messages (`$.spec.containers[0].name`). */
export interface GoPathTracker {
  push(segment: string | number): void;
  pop(): void;
  text(): string;
}

/**
 * Tracks nothing: for a first, fast walk. When that walk fails, the walk is repeated with a
 * `GoPath`, which fails the same way and names the location.
 */
export const NO_PATH: GoPathTracker = {
  push: () => undefined,
  pop: () => undefined,
  text: () => '$',
};

/**
 * The location of the value being encoded, kept as a stack of segments (a string is an object
 * key, a number an array index) and spelled out (`$.spec.containers[0]`) only when needed.
 */
export class GoPath implements GoPathTracker {
  private readonly segments: Array<string | number> = [];

  push(segment: string | number): void {
    this.segments.push(segment);
  }

  pop(): void {
    this.segments.pop();
  }

  /** The path text, e.g. `$.spec.containers[0].name`. */
  text(): string {
    let out = '$';
    for (const s of this.segments) out += typeof s === 'number' ? `[${s}]` : `.${s}`;
    return out;
  }
}

class Encoder {
  private readonly pathText: () => string;

  constructor(private readonly registry: GoTypeRegistry, private readonly options: GoJsonOptions, private readonly path: GoPathTracker) {
    this.pathText = () => this.path.text();
  }

  typed(v: unknown, t: GoType): string {
    switch (t.kind) {
      case 'ptr':
        return isNil(v) ? 'null' : this.typed(v, t.elem);
      case 'slice': {
        if (isNil(v)) return 'null';
        if (!Array.isArray(v)) throw typeError(this.path.text(), 'an array', v);
        return this.array(v, t.elem);
      }
      case 'map': {
        if (isNil(v)) return 'null';
        if (!isObject(v)) throw typeError(this.path.text(), 'an object', v);
        const keys = sortUtf8(definedKeys(v));
        let out = '{';
        for (let i = 0; i < keys.length; i++) {
          const k = keys[i];
          this.path.push(k);
          out += (i === 0 ? '' : ',') + goQuote(k) + ':' + this.typed(v[k], t.elem);
          this.path.pop();
        }
        return out + '}';
      }
      case 'struct':
        return this.struct(v, this.registry.struct(t.name));
      case 'prim':
        return this.primitive(v, t.prim);
    }
  }

  private array(v: readonly unknown[], elem: GoType): string {
    if (v.length === 0) return '[]';
    // `map` skips holes, and `join` writes nothing for them
    const parts = v.map((item, i) => {
      this.path.push(i);
      const text = this.typed(item, elem);
      this.path.pop();
      return text;
    });
    return '[' + parts.join(',') + ']';
  }

  private struct(v: unknown, layout: GoStructLayout): string {
    if (!isNil(v) && !isObject(v)) throw typeError(this.path.text(), `an object (${layout.name})`, v);
    const obj: Record<string, unknown> = isNil(v) ? {} : (v as Record<string, unknown>);
    const objectKeys = Object.keys(obj);
    const present = presentFields(obj, objectKeys, layout);
    if (present === undefined) return this.looseStruct(obj, objectKeys, layout);
    // the present fields merged with the fields written when absent, in field order
    const absent = layout.writtenWhenAbsent;
    let out = '';
    let i = 0;
    let j = 0;
    while (i < present.length || j < absent.length) {
      const p = i < present.length ? present[i] : Infinity;
      const a = j < absent.length ? absent[j] : Infinity;
      let text: string | undefined;
      if (p <= a) {
        text = this.field(layout, p, obj[layout.fields[p].name]);
        i++;
        if (p === a) j++;
      } else {
        text = this.field(layout, a, undefined);
        j++;
      }
      if (text !== undefined) out += (out === '' ? '' : ',') + text;
    }
    return '{' + out + '}';
  }

  /** `"name":value` of the field at `position`, or undefined when Go omits it. */
  private field(layout: GoStructLayout, position: number, fv: unknown): string | undefined {
    const f = layout.fields[position];
    if (f.omitEmpty && isEmptyValue(fv, f.type)) return undefined;
    if (f.omitZero && this.registry.isZeroValue(fv, f.type)) return undefined;
    this.path.push(f.name);
    const text = layout.keyTexts[position] + this.typed(fv, f.type);
    this.path.pop();
    return text;
  }

  private looseStruct(obj: Record<string, unknown>, objectKeys: readonly string[], layout: GoStructLayout): string {
    const { keys, unknown } = readLooseStruct(obj, objectKeys, layout);
    const parts: string[] = [];
    keys.forEach((key, p) => {
      const text = this.field(layout, p, key === undefined ? undefined : obj[key]);
      if (text !== undefined) parts.push(text);
    });
    for (const k of unknown) {
      this.options.onUnknownField?.(this.path.text(), k);
      const mode = this.options.unknownFields ?? 'append';
      if (mode === 'error') throw new Error(`go-json: ${this.path.text()}: field ${JSON.stringify(k)} is not part of Go struct ${layout.name}`);
      if (mode === 'append') {
        this.path.push(k);
        parts.push(goQuote(k) + ':' + this.untyped(obj[k]));
        this.path.pop();
      }
    }
    return '{' + parts.join(',') + '}';
  }

  private primitive(v: unknown, prim: Primitive): string {
    switch (prim) {
      case 's':
        if (isNil(v)) return '""';
        if (typeof v !== 'string') throw typeError(this.path.text(), 'a string', v);
        return goQuote(v);
      case 'b':
        if (isNil(v)) return 'false';
        if (typeof v !== 'boolean') throw typeError(this.path.text(), 'a boolean', v);
        return v ? 'true' : 'false';
      case 'i':
        return isNil(v) ? '0' : integerText(v, this.pathText);
      case 'f64':
        if (isNil(v)) return '0';
        if (typeof v !== 'number') throw typeError(this.path.text(), 'a number', v);
        return formatGoFloat(v, 64);
      case 'f32':
        if (isNil(v)) return '0';
        if (typeof v !== 'number') throw typeError(this.path.text(), 'a number', v);
        return formatGoFloat(v, 32);
      case 'q':
        if (isNil(v)) return '"0"';
        if (typeof v !== 'string' && typeof v !== 'number') throw typeError(this.path.text(), 'a quantity', v);
        return '"' + canonicalQuantity(v) + '"';
      case 't':
        if (isNil(v)) return 'null';
        if (typeof v !== 'string') throw typeError(this.path.text(), 'an RFC 3339 time', v);
        return goQuote(formatGoTime(v, this.pathText, false));
      case 'mt':
        if (isNil(v)) return 'null';
        if (typeof v !== 'string') throw typeError(this.path.text(), 'an RFC 3339 time', v);
        return goQuote(formatGoTime(v, this.pathText, true));
      case 'ios':
        if (isNil(v)) return '0';
        if (typeof v === 'string') return goQuote(v);
        return integerText(v, this.pathText);
      case 'dur':
        if (isNil(v)) return '"0s"';
        if (typeof v !== 'string') throw typeError(this.path.text(), 'a duration string', v);
        return goQuote(formatGoDuration(parseGoDuration(v, this.path.text())));
      case 'bytes':
        if (isNil(v)) return 'null';
        if (typeof v !== 'string') throw typeError(this.path.text(), 'base64 text', v);
        return goQuote(Buffer.from(v, 'base64').toString('base64'));
      case 'raw':
      case 'rawmsg':
      case 'any':
        return this.untyped(v);
    }
  }

  /** Go's encoding of `interface{}` values decoded from JSON. */
  untyped(v: unknown): string {
    const scalar = goScalarText(v);
    if (scalar !== undefined) return scalar;
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      const parts = v.map((x, i) => {
        this.path.push(i);
        const text = this.untyped(x);
        this.path.pop();
        return text;
      });
      return '[' + parts.join(',') + ']';
    }
    if (isObject(v)) {
      const keys = sortUtf8(definedKeys(v));
      let out = '{';
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        this.path.push(k);
        out += (i === 0 ? '' : ',') + goQuote(k) + ':' + this.untyped(v[k]);
        this.path.pop();
      }
      return out + '}';
    }
    throw typeError(this.path.text(), 'a JSON value', v);
  }
}
