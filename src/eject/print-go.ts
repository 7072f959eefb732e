/**
 * The program as Go (`main.go`), as jsii names the API there: constructors `cdk8sdynamo.NewDynamoGraph`,
 * static methods `cdk8splus34.EnvValue_FromValue`, enum members `cdk8sdynamo.BackendFramework_VLLM`,
 * structs as `&cdk8sdynamo.DynamoGraphProps{Field: ...}`, values as pointers (`jsii.String`,
 * `jsii.Number`, `jsii.Bool`, `jsii.Strings`), optional arguments left out as `nil`, untyped data
 * (`any`) as `map[string]interface{}`. A variable nothing reads is not declared (Go refuses unused
 * variables). String literals are JSON strings, which Go reads the same.
 */
import { withPatchedObjects } from './api-objects';
import { Code, ElementType, Module, Program, Statement, TypeRef, typesOf, variablesOf } from './code';
import { Doc, layout, seq, Style } from './line-layout';

const STYLE: Style = { width: 110, indent: '\t' };

const PACKAGES: { readonly [module in Module]: readonly [alias: string, path: string] } = {
  cdk8s: ['cdk8s', 'github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2'],
  kplus: ['cdk8splus34', 'github.com/cdk8s-team/cdk8s-plus-go/cdk8splus34/v2'],
  k8s: ['k8s', 'github.com/cdk8s-team/cdk8s-plus-go/cdk8splus34/v2/k8s'],
  dynamo: ['cdk8sdynamo', 'github.com/cdk8s-dynamo/cdk8s-dynamo-go/cdk8sdynamo'],
};
const JSII = 'github.com/aws/jsii-runtime-go';

/** A Go name of the API: the TypeScript one capitalized. */
function exported(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function typeName(type: TypeRef): string {
  return `${PACKAGES[type.module][0]}.${type.name}`;
}

function group(open: string, items: Doc[], close: string, hug?: 'simple'): Doc {
  return { kind: 'group', open, close, items, trailing: true, hug };
}

/** A call of a function of `arity` parameters: the arguments left out are nil. */
function call(callee: string, args: readonly Code[], arity: number): Doc {
  const items = args.map(doc);
  while (items.length < arity) items.push('nil');
  return group(`${callee}(`, items, ')', 'simple');
}

/** The Go type of an element of a list or map. */
function elementType(of: ElementType): string {
  if (of === 'string') return '*string';
  if (of === 'number') return '*float64';
  if (of === 'boolean') return '*bool';
  if (of === 'any') return 'interface{}';
  return 'struct' in of ? `*${typeName(of.struct)}` : typeName(of.class);
}

function jsonDoc(value: unknown): Doc {
  if (Array.isArray(value)) return group('[]interface{}{', value.map(jsonDoc), '}');
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return group('map[string]interface{}{', entries.map(([k, v]) => seq(`${JSON.stringify(k)}: `, jsonDoc(v))), '}');
  }
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'number' && Object.is(value, -0)) return '0';
  return JSON.stringify(value);
}

function doc(code: Code): Doc {
  switch (code.kind) {
    case 'string': return `jsii.String(${JSON.stringify(code.value)})`;
    case 'number': return `jsii.Number(${Object.is(code.value, -0) ? '0' : JSON.stringify(code.value)})`;
    case 'boolean': return `jsii.Bool(${code.value})`;
    case 'json': return jsonDoc(code.value);
    case 'struct': return group(`&${typeName(code.type)}{`, code.entries.map(([k, v]) => seq(`${exported(k)}: `, doc(v))), '}');
    case 'map': return group(`&map[string]${elementType(code.of)}{`, code.entries.map(([k, v]) => seq(`${JSON.stringify(k)}: `, doc(v))), '}');
    case 'list':
      if (code.of === 'string' && code.items.every(i => i.kind === 'string')) {
        return group('jsii.Strings(', code.items.map(i => JSON.stringify((i as { value: string }).value)), ')');
      }
      return group(`&[]${elementType(code.of)}{`, code.items.map(doc), '}');
    case 'enum': return `${typeName(code.type)}_${code.member}`;
    case 'new': return call(`${PACKAGES[code.type.module][0]}.New${code.type.name}`, code.args, code.arity);
    case 'static': return call(`${typeName(code.type)}_${exported(code.method)}`, code.args, code.arity);
    case 'method': return call(`${code.target}.${exported(code.method)}`, code.args, code.arity);
    case 'var': return code.name;
    case 'missing': return 'nil';
  }
}

function statement(s: Statement, read: ReadonlySet<string>): string {
  switch (s.kind) {
    case 'declare': {
      if (!read.has(s.name)) return `\t${layout(doc(s.value), STYLE, '\t')}`;
      const start = `${s.name} := `;
      return `\t${start}${layout(doc(s.value), STYLE, '\t', start.length)}`;
    }
    case 'do': return `\t${layout(doc(s.value), STYLE, '\t')}`;
    case 'object': throw new Error('objects are written as ApiObjects with JSON patches first');
  }
}

/** `main.go`. */
export function printGo(given: Program): string {
  const program = withPatchedObjects(given);
  const statements = [program.operator, ...program.charts.flat()].filter((s): s is Statement => s !== undefined);
  const read = new Set<string>();
  for (const s of statements) if (s.kind !== 'object') variablesOf(s.value, read);
  const head = ['\tapp := cdk8s.NewApp(nil)', ...(program.operator ? [statement(program.operator, read)] : [])].join('\n');
  const charts = program.charts.map(chart => chart.map(s => statement(s, read)).join('\n')).join('\n\n');
  const body = `\tdefer jsii.Close()\n\n${head}\n\n${charts}\n\n\tapp.Synth()`;
  const modules = new Set<Module>(['cdk8s']);
  for (const s of statements) if (s.kind !== 'object') typesOf(s.value).forEach(t => modules.add(t.module));
  const imports = [JSII, ...[...modules].map(m => PACKAGES[m][1])].sort();
  return `package main\n\nimport (\n${imports.map(i => `\t"${i}"`).join('\n')}\n)\n\nfunc main() {\n${body}\n}\n`;
}
