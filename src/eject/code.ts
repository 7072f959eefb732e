/**
 * The generated program as a small language-neutral tree: each value says what it is in the
 * library's jsii API (a string, a struct of a named type, a list of EnvFrom, a map of EnvValue, an
 * enum member, a static call ...), so that each language's printer (print-*.ts) writes it as that
 * language writes it: a TypeScript object literal, Python keyword arguments, a Java builder, a Go
 * composite literal with `jsii.String`.
 */

/** Where a type comes from: `cdk8s`, `cdk8s-plus-34` (`kplus`), its Kubernetes types (`k8s`), `cdk8s-dynamo`. */
export type Module = 'cdk8s' | 'kplus' | 'k8s' | 'dynamo';

/** A type of the API. */
export interface TypeRef {
  readonly module: Module;
  readonly name: string;
}

/** What the items of a list or the values of a map are. */
export type ElementType = 'string' | 'number' | 'boolean' | 'any' | { readonly struct: TypeRef } | { readonly class: TypeRef };

/** A value of the generated program. */
export type Code =
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'boolean'; readonly value: boolean }
  /** A JSON value where the API takes `any` (written as the language writes untyped data). */
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'struct'; readonly type: TypeRef; readonly entries: ReadonlyArray<readonly [string, Code]> }
  | { readonly kind: 'list'; readonly of: ElementType; readonly items: readonly Code[] }
  /** A map with string keys, its entries in the order given (an `env` map is written in that order). */
  | { readonly kind: 'map'; readonly of: ElementType; readonly entries: ReadonlyArray<readonly [string, Code]> }
  | { readonly kind: 'enum'; readonly type: TypeRef; readonly member: string }
  /** `new T(args)`; `arity` is the number of parameters (the arguments given are the first ones). */
  | { readonly kind: 'new'; readonly type: TypeRef; readonly args: readonly Code[]; readonly arity: number }
  | { readonly kind: 'static'; readonly type: TypeRef; readonly method: string; readonly args: readonly Code[]; readonly arity: number }
  /** A method of the object a variable holds. */
  | { readonly kind: 'method'; readonly target: string; readonly method: string; readonly args: readonly Code[]; readonly arity: number }
  | { readonly kind: 'var'; readonly name: string }
  /** A value that cannot be written (a problem says why; a program with problems is never printed). */
  | { readonly kind: 'missing' };

/** One statement of the program. */
export type Statement =
  /** `const name = value;` (`annotate`: TypeScript writes the type, as for an object literal). */
  | { readonly kind: 'declare'; readonly name: string; readonly value: Code; readonly annotate?: TypeRef }
  | { readonly kind: 'do'; readonly value: Code }
  /** A document that is not a Dynamo resource, as a cdk8s ApiObject of `chart` with the construct id `id`. */
  | { readonly kind: 'object'; readonly chart: string; readonly id: string; readonly doc: unknown };

/** The whole app: `app`, the operator options the documents name, one block per chart. */
export interface Program {
  readonly operator?: Statement;
  readonly charts: ReadonlyArray<readonly Statement[]>;
}

export const dynamo = (name: string): TypeRef => ({ module: 'dynamo', name });
export const kplus = (name: string): TypeRef => ({ module: 'kplus', name });
export const k8s = (name: string): TypeRef => ({ module: 'k8s', name });
export const cdk8s = (name: string): TypeRef => ({ module: 'cdk8s', name });

export function str(value: string): Code {
  return { kind: 'string', value };
}

export function num(value: number): Code {
  return { kind: 'number', value };
}

export function bool(value: boolean): Code {
  return { kind: 'boolean', value };
}

export function variable(name: string): Code {
  return { kind: 'var', name };
}

export const MISSING: Code = { kind: 'missing' };

/** A struct of `type` with the entries whose value is defined, in the order given. */
export function struct(type: TypeRef, entries: ReadonlyArray<readonly [string, Code | undefined]>): Code {
  return { kind: 'struct', type, entries: entries.filter((e): e is readonly [string, Code] => e[1] !== undefined) };
}

export function list(of: ElementType, items: readonly Code[]): Code {
  return { kind: 'list', of, items };
}

export function map(of: ElementType, entries: ReadonlyArray<readonly [string, Code]>): Code {
  return { kind: 'map', of, entries };
}

export function enumValue(type: TypeRef, member: string): Code {
  return { kind: 'enum', type, member };
}

/** The arguments given, without the undefined ones at the end (an argument in the middle left out is `missing`). */
function given(args: ReadonlyArray<Code | undefined>): Code[] {
  const out = [...args];
  while (out.length > 0 && out[out.length - 1] === undefined) out.pop();
  return out.map(a => a ?? MISSING);
}

/** `new type(args)` of a constructor with `arity` parameters. */
export function construct(type: TypeRef, arity: number, ...args: Array<Code | undefined>): Code {
  return { kind: 'new', type, args: given(args), arity };
}

/** `type.method(args)` of a static method with `arity` parameters. */
export function staticCall(type: TypeRef, method: string, arity: number, ...args: Array<Code | undefined>): Code {
  return { kind: 'static', type, method, args: given(args), arity };
}

/** `target.method(args)` of a method with `arity` parameters. */
export function methodCall(target: string, method: string, arity: number, ...args: Array<Code | undefined>): Code {
  return { kind: 'method', target, method, args: given(args), arity };
}

/** Whether a struct has no entries (an options argument that can be left out). */
export function isEmptyStruct(code: Code | undefined): boolean {
  return code !== undefined && code.kind === 'struct' && code.entries.length === 0;
}

/** A JSON value where the API takes `any`. */
export function json(value: unknown): Code {
  return { kind: 'json', value };
}

/** A JSON object where the API takes a map of `any` (`ProviderOverride.value`, `EppConfig.fromConfig`). */
export function anyMap(value: Record<string, unknown>): Code {
  return map('any', Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, json(v)] as const));
}

/**
 * A JSON value in a typed place whose type the value shows: a string, number or boolean; a list of
 * strings or numbers; a map of strings (labels, annotations). Anything else is `any`.
 */
export function plain(value: unknown): Code {
  if (typeof value === 'string') return str(value);
  if (typeof value === 'number') return num(value);
  if (typeof value === 'boolean') return bool(value);
  if (Array.isArray(value)) {
    if (value.every(v => typeof v === 'string')) return list('string', value.map(str));
    if (value.every(v => typeof v === 'number')) return list('number', value.map(num));
    return json(value);
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.every(([, v]) => typeof v === 'string')) return map('string', entries.map(([k, v]) => [k, str(v as string)] as const));
  }
  return json(value);
}

/** A struct of `type` whose fields are the entries of `value`, each a `plain` value (in the order of the input). */
export function plainStruct(type: TypeRef, value: Record<string, unknown>): Code {
  return struct(type, Object.entries(value).map(([k, v]) => [k, v === undefined ? undefined : plain(v)] as const));
}

/** Every variable a value names. */
export function variablesOf(code: Code, into: Set<string> = new Set()): Set<string> {
  switch (code.kind) {
    case 'var': into.add(code.name); break;
    case 'method': into.add(code.target); code.args.forEach(a => variablesOf(a, into)); break;
    case 'new': case 'static': code.args.forEach(a => variablesOf(a, into)); break;
    case 'struct': case 'map': code.entries.forEach(([, v]) => variablesOf(v, into)); break;
    case 'list': code.items.forEach(i => variablesOf(i, into)); break;
    default: break;
  }
  return into;
}

/** Every type a value names (structs, enums, classes), for imports. */
export function typesOf(code: Code, into: TypeRef[] = []): TypeRef[] {
  switch (code.kind) {
    case 'struct': into.push(code.type); code.entries.forEach(([, v]) => typesOf(v, into)); break;
    case 'map': code.entries.forEach(([, v]) => typesOf(v, into)); elementType(code.of, into); break;
    case 'list': code.items.forEach(i => typesOf(i, into)); elementType(code.of, into); break;
    case 'enum': into.push(code.type); break;
    case 'new': case 'static': into.push(code.type); code.args.forEach(a => typesOf(a, into)); break;
    case 'method': code.args.forEach(a => typesOf(a, into)); break;
    default: break;
  }
  return into;
}

function elementType(of: ElementType, into: TypeRef[]): void {
  if (typeof of === 'object') into.push('struct' in of ? of.struct : of.class);
}

/** The words of a name (`hfTokenSecret`: hf, Token, Secret; `HF_TOKEN`: HF, TOKEN). */
export function camelWords(name: string): string[] {
  return name.split('_').flatMap(part => part.match(/[A-Z]+[0-9]*(?![a-z])|[A-Z]?[a-z0-9]+|[A-Z]+/g) ?? []).filter(w => w !== '');
}
