/**
 * The program as Python (`main.py`), as jsii names the API there: methods and props in snake_case,
 * a struct that is a call's last parameter as keyword arguments (`graph.add_worker("w", image=...)`),
 * any other struct as its class (`ApiObjectMetadata(name="llm")`, `kplus.k8s.Container(...)`),
 * maps as dicts (in the order written), cdk8s-plus as `kplus`. String literals are JSON strings,
 * which Python reads the same.
 */
import { withPatchedObjects } from './api-objects';
import { camelWords, Code, Program, Statement, TypeRef, typesOf } from './code';
import { Doc, layout, seq, Style } from './line-layout';

const STYLE: Style = { width: 100, indent: '    ' };

const KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except',
  'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try',
  'while', 'with', 'yield',
]);

/** A name of the API in snake_case (`backendFramework`: `backend_framework`), a keyword with `_` after it, as jsii names it. */
export function snakeCase(name: string): string {
  const snake = camelWords(name).map(w => w.toLowerCase()).join('_');
  const out = name.startsWith('_') ? `_${snake}` : snake;
  return KEYWORDS.has(out) ? `${out}_` : out;
}

function typeName(type: TypeRef): string {
  switch (type.module) {
    case 'kplus': return `kplus.${type.name}`;
    case 'k8s': return `kplus.k8s.${type.name}`;
    default: return type.name;
  }
}

function group(open: string, items: Doc[], close: string): Doc {
  return { kind: 'group', open, close, items, trailing: true };
}

function dict(entries: ReadonlyArray<readonly [string, Doc]>): Doc {
  return group('{', entries.map(([k, v]) => seq(`${JSON.stringify(k)}: `, v)), '}');
}

/** The keyword arguments of a struct. */
function keywords(code: Extract<Code, { kind: 'struct' }>): Doc[] {
  return code.entries.map(([k, v]) => seq(`${snakeCase(k)}=`, doc(v)));
}

/** `callee(args)`: a struct given as the last parameter as keyword arguments. */
function call(callee: string, args: readonly Code[], arity: number): Doc {
  const last = args[args.length - 1];
  const lifted = last !== undefined && last.kind === 'struct' && args.length === arity;
  const items = lifted ? [...args.slice(0, -1).map(doc), ...keywords(last)] : args.map(doc);
  return group(`${callee}(`, items, ')');
}

function jsonDoc(value: unknown): Doc {
  if (Array.isArray(value)) return group('[', value.map(jsonDoc), ']');
  if (value !== null && typeof value === 'object') {
    return dict(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).map(([k, v]) => [k, jsonDoc(v)] as const));
  }
  return scalar(value);
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Object.is(value, -0) ? '0' : JSON.stringify(value);
  return JSON.stringify(value);
}

function doc(code: Code): Doc {
  switch (code.kind) {
    case 'string': case 'number': case 'boolean': return scalar(code.value);
    case 'json': return jsonDoc(code.value);
    case 'struct': return group(`${typeName(code.type)}(`, keywords(code), ')');
    case 'map': return dict(code.entries.map(([k, v]) => [k, doc(v)] as const));
    case 'list': return group('[', code.items.map(doc), ']');
    case 'enum': return `${typeName(code.type)}.${code.member}`;
    case 'new': return call(typeName(code.type), code.args, code.arity);
    case 'static': return call(`${typeName(code.type)}.${snakeCase(code.method)}`, code.args, code.arity);
    case 'method': return call(`${snakeCase(code.target)}.${snakeCase(code.method)}`, code.args, code.arity);
    case 'var': return snakeCase(code.name);
    case 'missing': return 'None';
  }
}

function statement(s: Statement): string {
  switch (s.kind) {
    case 'declare': {
      const start = `${snakeCase(s.name)} = `;
      return `${start}${layout(doc(s.value), STYLE, '', start.length)}`;
    }
    case 'do': return layout(doc(s.value), STYLE);
    case 'object': throw new Error('objects are written as ApiObjects with JSON patches first');
  }
}

/** `from MODULE import A, B` (in parentheses, one per line, when too long). */
function fromImport(module: string, names: Set<string>): string {
  return layout(group(`from ${module} import (`, [...names].sort(), ')'), STYLE).replace(/^(from \S+ import )\((.*)\)$/, '$1$2');
}

/** `main.py`. */
export function printPython(given: Program): string {
  const program = withPatchedObjects(given);
  const statements = [program.operator, ...program.charts.flat()].filter((s): s is Statement => s !== undefined);
  const cdk8sNames = new Set(['App', 'Chart']);
  const dynamoNames = new Set<string>();
  let kplusUsed = false;
  for (const s of statements) {
    if (s.kind === 'object') continue;
    for (const type of typesOf(s.value)) {
      if (type.module === 'dynamo') dynamoNames.add(type.name);
      else if (type.module === 'cdk8s') cdk8sNames.add(type.name);
      else kplusUsed = true;
    }
  }
  const head = ['app = App()', ...(program.operator ? [statement(program.operator)] : [])].join('\n');
  const charts = program.charts.map(chart => chart.map(statement).join('\n')).join('\n\n');
  // a struct given as keyword arguments, or an element type, is not named: import only the names written
  const written = (names: Set<string>) => new Set([...names].filter(n => new RegExp(`\\b${n}\\b`).test(`${head}\n${charts}`)));
  const imports = [fromImport('cdk8s', written(cdk8sNames))];
  if (kplusUsed) imports.push('import cdk8s_plus_34 as kplus');
  if (written(dynamoNames).size > 0) imports.push(fromImport('cdk8s_dynamo', written(dynamoNames)));
  return `${imports.join('\n')}\n\n${head}\n\n${charts}\n\napp.synth()\n`;
}
