/**
 * TypeScript expressions as a small tree, printed the way a person would write them: an object
 * literal or a list on one line when it fits, one entry per line otherwise; strings always through
 * JSON.stringify, so every character is escaped as the language reads it.
 */

/** An expression of the generated program. */
export type Code =
  | { readonly kind: 'raw'; readonly text: string }
  | { readonly kind: 'object'; readonly entries: ReadonlyArray<readonly [string, Code]> }
  | { readonly kind: 'array'; readonly items: readonly Code[] }
  | { readonly kind: 'call'; readonly callee: string; readonly args: readonly Code[] };

/** The widest line the printer aims for. */
const WIDTH = 110;
const INDENT = '  ';

/** Code written as is (an identifier, a member access, a number). */
export function raw(text: string): Code {
  return { kind: 'raw', text };
}

/** A string literal. */
export function str(value: string): Code {
  return raw(JSON.stringify(value));
}

/** An object literal of the entries whose value is defined, in the order given. */
export function obj(entries: ReadonlyArray<readonly [string, Code | undefined]>): Code {
  return { kind: 'object', entries: entries.filter((e): e is readonly [string, Code] => e[1] !== undefined) };
}

/** An array literal. */
export function arr(items: readonly Code[]): Code {
  return { kind: 'array', items };
}

/** A call (or `new X(...)` when `callee` starts with `new `). */
export function call(callee: string, ...args: Array<Code | undefined>): Code {
  const given = [...args];
  while (given.length > 0 && given[given.length - 1] === undefined) given.pop();
  return { kind: 'call', callee, args: given.map(a => a ?? raw('undefined')) };
}

/** Whether an object literal has no entries (an options argument that can be left out). */
export function isEmptyObject(code: Code | undefined): boolean {
  return code !== undefined && code.kind === 'object' && code.entries.length === 0;
}

/** A JSON value (from a parsed document) as a literal. */
export function json(value: unknown): Code {
  if (Array.isArray(value)) return arr(value.map(json));
  if (value !== null && typeof value === 'object') {
    return obj(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).map(([k, v]) => [k, json(v)] as const));
  }
  if (typeof value === 'string') return str(value);
  if (value === undefined) return raw('undefined');
  if (typeof value === 'number' && Object.is(value, -0)) return raw('0');
  return raw(JSON.stringify(value));
}

/** A property key: an identifier as is, anything else quoted. */
export function propertyKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/** The expression on one line. */
function flat(code: Code): string {
  switch (code.kind) {
    case 'raw': return code.text;
    case 'array': return `[${code.items.map(flat).join(', ')}]`;
    case 'object': return code.entries.length === 0 ? '{}' : `{ ${code.entries.map(([k, v]) => shorthand(k, v) ?? `${propertyKey(k)}: ${flat(v)}`).join(', ')} }`;
    case 'call': return `${code.callee}(${code.args.map(flat).join(', ')})`;
  }
}

/** `key` alone when the entry's value is the variable of that name (`{ operator }`). */
function shorthand(key: string, value: Code): string | undefined {
  return value.kind === 'raw' && value.text === key && /^[A-Za-z_$][\w$]*$/.test(key) ? key : undefined;
}

/** The expression printed at `indent` (the column of the line it starts on), `used` characters of that line already written. */
export function print(code: Code, indent = '', used = 0): string {
  const one = flat(code);
  if (!one.includes('\n') && indent.length + used + one.length <= WIDTH) return one;
  const inner = indent + INDENT;
  switch (code.kind) {
    case 'raw': return code.text;
    case 'array':
      if (code.items.length === 0) return '[]';
      return `[\n${code.items.map(item => `${inner}${print(item, inner)},\n`).join('')}${indent}]`;
    case 'object':
      if (code.entries.length === 0) return '{}';
      return `{\n${code.entries.map(([k, v]) => {
        const short = shorthand(k, v);
        if (short !== undefined) return `${inner}${short},\n`;
        const key = `${propertyKey(k)}: `;
        return `${inner}${key}${print(v, inner, key.length)},\n`;
      }).join('')}${indent}}`;
    case 'call': {
      // the leading arguments on the call's line, the last one opened over several lines
      const head = code.args.slice(0, -1).map(flat);
      const last = code.args[code.args.length - 1];
      const start = `${code.callee}(${head.map(h => `${h}, `).join('')}`;
      if (last === undefined) return `${code.callee}()`;
      if (last.kind === 'object' || last.kind === 'array' || last.kind === 'call') {
        return `${start}${print(last, indent, used + start.length)})`;
      }
      return `${code.callee}(\n${code.args.map(a => `${inner}${print(a, inner)},\n`).join('')}${indent})`;
    }
  }
}
