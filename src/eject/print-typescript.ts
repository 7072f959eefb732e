/**
 * The program as TypeScript (`main.ts`): structs and maps as object literals, strings through
 * JSON.stringify (so every character is escaped as the language reads it), cdk8s-plus as `kplus`.
 */
import { Code, json, Program, Statement, TypeRef } from './code';
import { Doc, layout, seq, Style } from './line-layout';

const STYLE: Style = { width: 110, indent: '  ' };

/** A property key: an identifier as is, anything else quoted. */
export function propertyKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

function typeName(type: TypeRef): string {
  switch (type.module) {
    case 'kplus': return `kplus.${type.name}`;
    case 'k8s': return `kplus.k8s.${type.name}`;
    default: return type.name;
  }
}

function objectLiteral(entries: ReadonlyArray<readonly [string, Code]>): Doc {
  return {
    kind: 'group',
    open: '{',
    close: '}',
    pad: true,
    trailing: true,
    items: entries.map(([k, v]) => (v.kind === 'var' && v.name === k && /^[A-Za-z_$][\w$]*$/.test(k) ? k : seq(`${propertyKey(k)}: `, doc(v)))),
  };
}

function call(callee: string, args: readonly Code[]): Doc {
  return { kind: 'group', open: `${callee}(`, close: ')', items: args.map(doc), hug: 'always', trailing: true };
}

function jsonDoc(value: unknown): Doc {
  if (Array.isArray(value)) return { kind: 'group', open: '[', close: ']', items: value.map(jsonDoc), trailing: true };
  if (value !== null && typeof value === 'object') {
    return objectLiteral(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).map(([k, v]) => [k, json(v)] as const));
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' && Object.is(value, -0)) return '0';
  return JSON.stringify(value);
}

function doc(code: Code): Doc {
  switch (code.kind) {
    case 'string': return JSON.stringify(code.value);
    case 'number': return Object.is(code.value, -0) ? '0' : JSON.stringify(code.value);
    case 'boolean': return String(code.value);
    case 'json': return jsonDoc(code.value);
    case 'struct': case 'map': return objectLiteral(code.entries);
    case 'list': return { kind: 'group', open: '[', close: ']', items: code.items.map(doc), trailing: true };
    case 'enum': return `${typeName(code.type)}.${code.member}`;
    case 'new': return call(`new ${typeName(code.type)}`, code.args);
    case 'static': return call(`${typeName(code.type)}.${code.method}`, code.args);
    case 'method': return call(`${code.target}.${code.method}`, code.args);
    case 'var': return code.name;
    case 'missing': return 'undefined';
  }
}

/** An expression of the program as TypeScript, laid out at the start of a line. */
export function printTypeScriptValue(code: Code): string {
  return layout(doc(code), STYLE);
}

function statement(s: Statement): string {
  switch (s.kind) {
    case 'declare': return `const ${s.name}${s.annotate ? `: ${typeName(s.annotate)}` : ''} = ${printTypeScriptValue(s.value)};`;
    case 'do': return `${printTypeScriptValue(s.value)};`;
    case 'object': return `${layout(call('new ApiObject', [{ kind: 'var', name: s.chart }, { kind: 'string', value: s.id }, json(s.doc)]), STYLE)};`;
  }
}

/** Every value of the program's statements. */
function values(program: Program): Code[] {
  const all = [program.operator, ...program.charts.flat()].filter((s): s is Statement => s !== undefined);
  return all.flatMap(s => (s.kind === 'object' ? [] : [s.value]));
}

/** `main.ts`. */
export function printTypeScript(program: Program): string {
  const cdk8sNames = new Set(['App', 'Chart']);
  const dynamoNames = new Set<string>();
  let kplusUsed = false;
  const statements = [program.operator, ...program.charts.flat()].filter((s): s is Statement => s !== undefined);
  if (statements.some(s => s.kind === 'object')) cdk8sNames.add('ApiObject');
  for (const s of statements) if (s.kind === 'declare' && s.annotate?.module === 'dynamo') dynamoNames.add(s.annotate.name);
  for (const value of values(program)) {
    // struct literals name no type: only classes and enums are imported
    for (const type of namedTypes(value)) {
      if (type.module === 'dynamo') dynamoNames.add(type.name);
      else if (type.module === 'cdk8s') cdk8sNames.add(type.name);
      else kplusUsed = true;
    }
  }
  const imports = [`import { ${[...cdk8sNames].sort().join(', ')} } from "cdk8s";`];
  if (kplusUsed) imports.push('import * as kplus from "cdk8s-plus-34";');
  imports.push(`import { ${[...dynamoNames].sort().join(', ')} } from "cdk8s-dynamo";`);
  // cdk8s-cli records construct metadata when cdk8s.yaml lists a validation plugin, as the ejected
  // project's does, into the output folder as construct-metadata.json, which `kubectl apply -f dist/`
  // would then read as a manifest; the app turns the recording off
  const head = [
    '// no construct-metadata.json in dist/, so that `kubectl apply -f dist/` reads only manifests',
    'const app = new App({ recordConstructMetadata: false });',
    ...(program.operator ? [statement(program.operator)] : []),
  ].join('\n');
  const charts = program.charts.map(chart => chart.map(statement).join('\n')).join('\n\n');
  return `${imports.join('\n')}\n\n${head}\n\n${charts}\n\napp.synth();\n`;
}

/** The types a TypeScript expression names: those of enum members, constructors and static methods. */
function namedTypes(code: Code, into: TypeRef[] = []): TypeRef[] {
  switch (code.kind) {
    case 'enum': into.push(code.type); break;
    case 'new': case 'static': into.push(code.type); code.args.forEach(a => namedTypes(a, into)); break;
    case 'method': code.args.forEach(a => namedTypes(a, into)); break;
    case 'struct': case 'map': code.entries.forEach(([, v]) => namedTypes(v, into)); break;
    case 'list': code.items.forEach(i => namedTypes(i, into)); break;
    default: break;
  }
  return into;
}
