/**
 * Generates `imports/k8s-openapi.schema.ts`: the Kubernetes OpenAPI schemas of the core types the
 * library embeds in custom resources or emits as objects, in a compact form for runtime validation
 * (src/admission/structural/kubernetes.ts), without descriptions.
 *
 * Source: the `kubernetes-models` dev dependency (5.1.x, generated from the Kubernetes v1.36.0
 * OpenAPI spec). The package does not ship the JSON schemas themselves but one ajv "standalone"
 * validator module per type (`_schemas/<Type>.js`, `@kubernetes-models/apimachinery/_schemas`).
 * Those modules are regular: one function per schema node, whose body holds the keywords of that
 * node as fixed code shapes (`params:{type:"string"}`, `params:{missingProperty:"name"}`,
 * `params:{allowedValues:schemaN_enum}`, `formatsN.validate`, a call per property, a loop per
 * list or map). This script reads those shapes back into schema nodes (type, format, enum,
 * required, properties, items, additionalProperties, references), and fails loudly on any code it
 * does not recognise, so a kubernetes-models upgrade that changes the code generator is noticed.
 *
 * Usage (from the project root): `npx ts-node -P tsconfig.dev.json scripts/import-k8s-schemas.ts`.
 * Deterministic: the same kubernetes-models version gives identical bytes.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

/** The generated file, relative to the project root. */
export const K8S_SCHEMA_FILE = 'imports/k8s-openapi.schema.ts';

/** Size budget of the generated file, in bytes. */
export const K8S_SCHEMA_SIZE_BUDGET = 40_000;

/**
 * The kinds the library emits (apiVersion, kind, full type name) and the embedded types the CRDs
 * refer to (by the short name the runtime module uses). Their closure is generated.
 */
const KINDS: ReadonlyArray<readonly [string, string, string]> = [
  ['apps/v1', 'Deployment', 'IoK8sApiAppsV1Deployment'],
  ['v1', 'Service', 'IoK8sApiCoreV1Service'],
  ['v1', 'ServiceAccount', 'IoK8sApiCoreV1ServiceAccount'],
  ['v1', 'ConfigMap', 'IoK8sApiCoreV1ConfigMap'],
  ['v1', 'Secret', 'IoK8sApiCoreV1Secret'],
  ['v1', 'PersistentVolumeClaim', 'IoK8sApiCoreV1PersistentVolumeClaim'],
  ['rbac.authorization.k8s.io/v1', 'Role', 'IoK8sApiRbacV1Role'],
  ['rbac.authorization.k8s.io/v1', 'RoleBinding', 'IoK8sApiRbacV1RoleBinding'],
  ['rbac.authorization.k8s.io/v1', 'ClusterRole', 'IoK8sApiRbacV1ClusterRole'],
  ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'IoK8sApiRbacV1ClusterRoleBinding'],
  ['networking.k8s.io/v1', 'Ingress', 'IoK8sApiNetworkingV1Ingress'],
  ['resource.k8s.io/v1', 'ResourceClaimTemplate', 'IoK8sApiResourceV1ResourceClaimTemplate'],
  ['autoscaling/v2', 'HorizontalPodAutoscaler', 'IoK8sApiAutoscalingV2HorizontalPodAutoscaler'],
];

/** Embedded types (not kinds) the CRDs refer to by a `k8sType` marker. */
const EMBEDDED_TYPES: readonly string[] = [
  'IoK8sApiCoreV1PodTemplateSpec',
  'IoK8sApiCoreV1PodSpec',
  'IoK8sApiCoreV1EnvVar',
  'IoK8sApiCoreV1ConfigMapKeySelector',
  'IoK8sApiCoreV1PersistentVolumeClaim',
  'IoK8sApiCoreV1PersistentVolumeClaimSpec',
  'IoK8sApiResourceV1ResourceClaimTemplateSpec',
  'IoK8sApiAutoscalingV2MetricSpec',
  'IoK8sApimachineryPkgApisMetaV1ObjectMeta',
  'IoK8sApimachineryPkgApiResourceQuantity',
  'IoK8sApimachineryPkgUtilIntstrIntOrString',
];

/** Types written as a scalar shorthand instead of a definition. */
const SCALAR_TYPES: Readonly<Record<string, string>> = {
  IoK8sApimachineryPkgUtilIntstrIntOrString: 'ios',
  IoK8sApimachineryPkgApiResourceQuantity: 'q',
  IoK8sApimachineryPkgApisMetaV1Time: 'time',
  IoK8sApimachineryPkgApisMetaV1MicroTime: 'time',
};

/** A schema node as read back from one validator function. */
interface ReadNode {
  type?: string;
  format?: string;
  enum?: string[];
  required?: string[];
  properties?: Array<[string, string]>;
  items?: string;
  additionalProperties?: string;
  /** Functions applied to the same value (a `$ref` or `allOf`). */
  same?: string[];
  oneOf?: boolean;
}

/** One validator module: its functions by local name, and what its imports resolve to. */
interface ReadModule {
  readonly root: string;
  readonly functions: Map<string, ReadNode>;
  readonly imports: Map<string, string>;
}

/** Compact node (see the header of the generated file). */
type Compact = string | Compact[] | { [key: string]: unknown };

function findPackageDir(name: string): string {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed`);
  }
}

const MODELS_DIR = findPackageDir('kubernetes-models');
const SCHEMA_DIRS = [path.join(MODELS_DIR, '_schemas'), path.join(findPackageDir('@kubernetes-models/apimachinery'), '_schemas')];

function moduleFile(type: string): string {
  for (const dir of SCHEMA_DIRS) {
    const file = path.join(dir, `${type}.js`);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`no validator module for ${type}`);
}

/** The type name of an import specifier (`./IoK8sApiCoreV1Container.js`, `@kubernetes-models/.../X`). */
function importedType(specifier: string): string {
  return path.basename(specifier).replace(/\.js$/, '');
}

/** Reads one function body into a node; throws on an unknown shape. */
function readFunction(name: string, body: string, enums: Map<string, string[]>, formats: Map<string, string>): ReadNode {
  const node: ReadNode = {};
  let rest = body;
  // each shape is consumed from the body, so that what is left can be checked for unknown code
  const take = (re: RegExp, each: (m: string[]) => void): void => {
    rest = rest.replace(re, (...args: unknown[]) => {
      each(args.slice(0, -2) as string[]);
      return ' ';
    });
  };
  take(/keyword:"type",params:\{type:"(\w+)"\}/g, (m) => { node.type = m[1]; });
  take(/keyword:"enum",params:\{allowedValues:(schema\d+_enum)\}/g, (m) => {
    const values = enums.get(m[1]);
    if (!values) throw new Error(`${name}: unknown enum ${m[1]}`);
    node.enum = values;
  });
  take(/keyword:"format",params:\{format:"([\w-]+)"\}/g, (m) => { node.format = m[1]; });
  take(/params:\{missingProperty:"([^"]+)"\}/g, (m) => { (node.required ??= []).push(m[1]); });
  take(/keyword:"oneOf"/g, () => { node.oneOf = true; });
  take(/(validate\d+)\(data(?:\.([\w$]+)|\["([^"]+)"\]),\{/g, (m) => { (node.properties ??= []).push([m[2] ?? m[3], m[1]]); });
  take(/for\(let key0 in data\)(validate\d+)\(data\[key0\]/g, (m) => { node.additionalProperties = m[1]; });
  take(/for\(let i0=0;i0<len0;i0\+\+\)(validate\d+)\(data\[i0\]/g, (m) => { node.items = m[1]; });
  take(/(validate\d+)\(data,\{/g, (m) => { (node.same ??= []).push(m[1]); });
  // whatever is left must be plumbing: no other call of a validator, no loop, no other keyword
  const leftover = /validate\d+\(|keyword:"(?!type|enum|format|required|oneOf)|for\(let/.exec(rest);
  if (leftover) throw new Error(`${name}: unrecognised validator code near ${rest.slice(leftover.index, leftover.index + 80)}`);
  // the format check names the format by its variable; its name is in `params`
  if (node.format !== undefined && ![...formats.values()].includes(node.format)) throw new Error(`${name}: format ${node.format} not declared`);
  return node;
}

function readModule(type: string): ReadModule {
  const text = fs.readFileSync(moduleFile(type), 'utf8');
  const source = ts.createSourceFile(`${type}.js`, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const functions = new Map<string, ReadNode>();
  const imports = new Map<string, string>();
  const enums = new Map<string, string[]>();
  const formats = new Map<string, string>();
  const bodies: Array<[string, string]> = [];
  let root: string | undefined;
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const specifier = (statement.moduleSpecifier as ts.StringLiteral).text;
      const bindings = statement.importClause?.namedBindings;
      if (specifier === '@kubernetes-models/validate') continue;
      if (!bindings || !ts.isNamedImports(bindings)) throw new Error(`${type}: unexpected import ${statement.getText(source)}`);
      for (const element of bindings.elements) imports.set(element.name.text, importedType(specifier));
    } else if (ts.isVariableStatement(statement)) {
      for (const decl of statement.declarationList.declarations) {
        const id = (decl.name as ts.Identifier).text;
        const init = decl.initializer?.getText(source) ?? '';
        if (id === 'validate') {root = init;} else if (/^schema\d+_enum$/.test(id)) {enums.set(id, JSON.parse(init));} else if (/^formats\d+$/.test(id)) {
          const m = /^formats(?:\.([\w]+)|\["([\w-]+)"\])$/.exec(init);
          if (!m) throw new Error(`${type}: unexpected format ${init}`);
          formats.set(id, m[1] ?? m[2]);
        } else {throw new Error(`${type}: unexpected variable ${id}`);}
      }
    } else if (ts.isFunctionDeclaration(statement) && statement.name && statement.body) {
      bodies.push([statement.name.text, statement.body.getText(source)]);
    } else {
      throw new Error(`${type}: unexpected statement ${statement.getText(source).slice(0, 80)}`);
    }
  }
  for (const [name, body] of bodies) functions.set(name, readFunction(`${type}.${name}`, body, enums, formats));
  if (root === undefined) throw new Error(`${type}: no exported validate`);
  return { root, functions, imports };
}

/** `IoK8sApiCoreV1PodSpec` → `CoreV1PodSpec`, `IoK8sApimachineryPkgApisMetaV1ObjectMeta` → `MetaV1ObjectMeta`. */
export function shortName(type: string): string {
  return type.replace(/^IoK8sApimachineryPkgApis/, '').replace(/^IoK8sApimachineryPkg/, '').replace(/^IoK8sApi/, '');
}

/** Converts every reachable type, breadth first from the roots; returns definitions by short name. */
function convert(roots: readonly string[], dropStatus: ReadonlySet<string>): Map<string, Compact> {
  const definitions = new Map<string, Compact>();
  const queue = [...roots];
  const seen = new Set<string>(queue);
  const refer = (type: string): string => {
    const scalar = SCALAR_TYPES[type];
    if (scalar !== undefined) return scalar;
    if (!seen.has(type)) {
      seen.add(type);
      queue.push(type);
    }
    return shortName(type);
  };
  while (queue.length > 0) {
    const type = queue.shift()!;
    if (SCALAR_TYPES[type] !== undefined) continue;
    const mod = readModule(type);
    const compact = (fn: string): Compact => {
      const imported = mod.imports.get(fn);
      if (imported !== undefined) return refer(imported);
      const node = mod.functions.get(fn);
      if (!node) throw new Error(`${type}: no function ${fn}`);
      return compactNode(type, node, compact, dropStatus.has(type) && fn === mod.root);
    };
    definitions.set(shortName(type), compact(mod.root));
  }
  return new Map([...definitions.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const SCALARS: Readonly<Record<string, string>> = { string: 's', integer: 'i', number: 'n', boolean: 'b' };

function compactNode(type: string, node: ReadNode, compact: (fn: string) => Compact, dropStatus: boolean): Compact {
  if (node.oneOf) throw new Error(`${type}: oneOf outside the scalar types`);
  if (node.same) {
    if (node.same.length !== 1 || node.properties || node.items || node.additionalProperties || node.enum) {
      throw new Error(`${type}: a reference with other keywords`);
    }
    return compact(node.same[0]);
  }
  switch (node.type) {
    case 'array':
      if (!node.items) return ['o'];
      return [compact(node.items)];
    case 'object': {
      const out: { [key: string]: unknown } = {};
      if (node.properties) {
        const properties: { [name: string]: Compact } = {};
        for (const [name, fn] of [...node.properties].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
          if (dropStatus && name === 'status') continue;
          properties[name] = compact(fn);
        }
        out.p = properties;
      }
      if (node.required) out.r = [...node.required].sort();
      if (node.additionalProperties) out.m = compact(node.additionalProperties);
      return Object.keys(out).length === 0 ? 'o' : out;
    }
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean': {
      const base = SCALARS[node.type];
      const format = node.format === 'double' ? undefined : node.format;
      if (node.enum) return format ? { e: node.enum, f: format } : { e: node.enum };
      if (node.type === 'integer' && (format === 'int32' || format === 'int64')) return `i${format.slice(3)}`;
      if (format !== undefined) return { t: base, f: format };
      return base;
    }
    default:
      throw new Error(`${type}: unexpected node ${JSON.stringify(node)}`);
  }
}

function render(definitions: Map<string, Compact>): string {
  const version = JSON.parse(fs.readFileSync(path.join(MODELS_DIR, 'package.json'), 'utf8')).version as string;
  const lines = [
    `// generated by scripts/import-k8s-schemas.ts from kubernetes-models ${version} (Kubernetes v1.36.0 OpenAPI); do not edit`,
    '',
    '/**',
    ' * A compact Kubernetes OpenAPI schema node, without descriptions:',
    ' * - a string: `s` string, `i` integer, `i32`/`i64` integer of that format, `n` number, `b` boolean,',
    ' *   `o` any object, `ios` int-or-string, `q` quantity, `time` RFC 3339 time, else the name of a definition;',
    ' * - a one-element array: a list of that node;',
    ' * - an object: `p` properties, `r` required, `m` the values of a map, `e` a string enum,',
    ' *   `t` + `f` a scalar of a format (`byte`).',
    ' */',
    'export type K8sSchemaNode = string | readonly [K8sSchemaNode] | {',
    '  readonly p?: { readonly [name: string]: K8sSchemaNode };',
    '  readonly r?: readonly string[];',
    '  readonly m?: K8sSchemaNode;',
    '  readonly e?: readonly string[];',
    '  readonly t?: string;',
    '  readonly f?: string;',
    '};',
    '',
    '/** The kinds whose schema is below, by `apiVersion/kind` (`v1/Service`); `status` is left out. */',
    'export const K8S_KINDS: { readonly [apiVersionKind: string]: string } = {',
    ...KINDS.map(([apiVersion, kind, type]) => `  '${apiVersion}/${kind}': '${shortName(type)}',`),
    '};',
    '',
    '/** The definitions, by short type name (`CoreV1PodSpec`, `MetaV1ObjectMeta`). */',
    'export const K8S_SCHEMAS: { readonly [name: string]: K8sSchemaNode } = {',
    ...[...definitions.entries()].map(([name, node]) => `  ${name}: ${JSON.stringify(node)},`),
    '};',
    '',
  ];
  return lines.join('\n');
}

/** The text of the generated file, and how many definitions it holds. */
export function generateK8sSchemas(): { text: string; definitions: number } {
  const roots = [...KINDS.map(([, , type]) => type), ...EMBEDDED_TYPES];
  const definitions = convert(roots, new Set(KINDS.map(([, , type]) => type)));
  return { text: render(definitions), definitions: definitions.size };
}

function main(): void {
  const { text, definitions } = generateK8sSchemas();
  const size = Buffer.byteLength(text);
  if (size > K8S_SCHEMA_SIZE_BUDGET) throw new Error(`${K8S_SCHEMA_FILE} is ${size} bytes, over the budget of ${K8S_SCHEMA_SIZE_BUDGET}`);
  fs.writeFileSync(path.join(process.cwd(), K8S_SCHEMA_FILE), text);
  process.stdout.write(`${K8S_SCHEMA_FILE}: ${definitions} definitions, ${size} bytes\n`);
}

if (require.main === module) main();
