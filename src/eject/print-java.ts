/**
 * The program as Java (`Main.java`), as jsii names the API there: structs built with
 * `XxxProps.builder().field(value)...build()`, constructs with `new`, lists as `List.of(...)`, maps
 * with a small helper that keeps the order they are written in (an `env` map is written in that
 * order; `Map.of` has none), imports by simple name (a name two packages share fully qualified).
 * String literals are JSON strings, which Java reads the same.
 */
import { withPatchedObjects } from './api-objects';
import { Code, Module, Program, Statement, TypeRef, typesOf } from './code';
import { Doc, layout, Style } from './line-layout';

const STYLE: Style = { width: 120, indent: '    ' };
const BODY = '        ';

const PACKAGES: { readonly [module in Module]: string } = {
  dynamo: 'io.github.cdk8s_dynamo',
  cdk8s: 'org.cdk8s',
  kplus: 'org.cdk8s.plus34',
  k8s: 'org.cdk8s.plus34.k8s',
};

/** Simple names the file uses for itself. */
const OWN_NAMES = new Set(['List', 'Map', 'LinkedHashMap', 'Main', 'String', 'Object']);

/** How each type is written: its simple name when imported, else its full name. */
class JavaNames {
  private readonly written = new Map<string, string>();
  public readonly imports = new Set<string>(['java.util.List', 'java.util.Map', 'java.util.LinkedHashMap']);

  constructor(types: readonly TypeRef[]) {
    const bySimple = new Map<string, string>();
    const order: Module[] = ['dynamo', 'cdk8s', 'kplus', 'k8s'];
    const sorted = [...types].sort((a, b) => order.indexOf(a.module) - order.indexOf(b.module));
    for (const type of sorted) {
      const full = `${PACKAGES[type.module]}.${type.name}`;
      if (this.written.has(full)) continue;
      const owner = bySimple.get(type.name);
      if ((owner === undefined || owner === full) && !OWN_NAMES.has(type.name)) {
        bySimple.set(type.name, full);
        this.imports.add(full);
        this.written.set(full, type.name);
      } else {
        this.written.set(full, full);
      }
    }
  }

  public of(type: TypeRef): string {
    const full = `${PACKAGES[type.module]}.${type.name}`;
    return this.written.get(full) ?? full;
  }
}

function args(callee: string, items: Doc[]): Doc {
  return { kind: 'group', open: `${callee}(`, close: ')', items, hug: 'simple', trailing: false };
}

function number(value: number): string {
  if (Object.is(value, -0)) return '0';
  const text = JSON.stringify(value);
  if (Number.isInteger(value) && !/e/i.test(text) && Math.abs(value) > 2147483647) return `${text}L`;
  return text;
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return number(value);
  return JSON.stringify(value);
}

function ordered(entries: ReadonlyArray<readonly [string, Doc]>): Doc {
  return args('map', entries.map(([k, v]) => args('Map.entry', [JSON.stringify(k), v])));
}

function jsonDoc(value: unknown): Doc {
  if (Array.isArray(value)) return args('List.of', value.map(jsonDoc));
  if (value !== null && typeof value === 'object') {
    return ordered(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).map(([k, v]) => [k, jsonDoc(v)] as const));
  }
  return scalar(value);
}

function doc(code: Code, names: JavaNames): Doc {
  const each = (items: readonly Code[]) => items.map(item => doc(item, names));
  switch (code.kind) {
    case 'string': case 'number': case 'boolean': return scalar(code.value);
    case 'json': return jsonDoc(code.value);
    case 'struct': return {
      kind: 'chain',
      head: `${names.of(code.type)}.builder()`,
      links: [...code.entries.map(([k, v]) => args(`.${k}`, [doc(v, names)])), '.build()'],
    };
    case 'map': return ordered(code.entries.map(([k, v]) => [k, doc(v, names)] as const));
    case 'list': return args('List.of', each(code.items));
    case 'enum': return `${names.of(code.type)}.${code.member}`;
    case 'new': return args(`new ${names.of(code.type)}`, each(code.args));
    case 'static': return args(`${names.of(code.type)}.${code.method}`, each(code.args));
    case 'method': return args(`${code.target}.${code.method}`, each(code.args));
    case 'var': return code.name;
    case 'missing': return 'null';
  }
}

function statement(s: Statement, names: JavaNames): string {
  switch (s.kind) {
    case 'declare': {
      const type = s.annotate ?? (s.value.kind === 'new' ? s.value.type : undefined);
      const start = `${type === undefined ? 'var' : names.of(type)} ${s.name} = `;
      return `${BODY}${start}${layout(doc(s.value, names), STYLE, BODY, start.length)};`;
    }
    case 'do': return `${BODY}${layout(doc(s.value, names), STYLE, BODY)};`;
    case 'object': throw new Error('objects are written as ApiObjects with JSON patches first');
  }
}

const HELPER = `
    /** A map whose entries keep the order they are written in. */
    @SafeVarargs
    static <V> Map<String, V> map(final Map.Entry<String, ? extends V>... entries) {
        final Map<String, V> map = new LinkedHashMap<>();
        for (final Map.Entry<String, ? extends V> entry : entries) {
            map.put(entry.getKey(), entry.getValue());
        }
        return map;
    }
`;

/** `Main.java`. */
export function printJava(given: Program): string {
  const program = withPatchedObjects(given);
  const statements = [program.operator, ...program.charts.flat()].filter((s): s is Statement => s !== undefined);
  const types: TypeRef[] = [{ module: 'cdk8s', name: 'App' }];
  for (const s of statements) if (s.kind !== 'object') typesOf(s.value, types);
  for (const s of statements) if (s.kind === 'declare' && s.annotate) types.push(s.annotate);
  const names = new JavaNames(types);
  const head = [`${BODY}App app = new App();`, ...(program.operator ? [statement(program.operator, names)] : [])].join('\n');
  const charts = program.charts.map(chart => chart.map(s => statement(s, names)).join('\n')).join('\n\n');
  const body = `${head}\n\n${charts}\n\n${BODY}app.synth();`;
  // an element type or a struct of a list is written only where it is named
  const imports = [...names.imports].filter(full => {
    const simple = full.slice(full.lastIndexOf('.') + 1);
    return new RegExp(`\\b${simple}\\b`).test(`${body}${HELPER}`);
  }).sort();
  return `${imports.map(i => `import ${i};`).join('\n')}\n\npublic class Main {\n    public static void main(final String[] args) {\n${body}\n    }\n${HELPER}}\n`;
}
