/**
 * What the generated program declares besides its constructs: the variables it declares (unique across the file) and, per chart, the secrets and config maps its
 * environment variables reference (`kplus.Secret.fromSecretName`, `kplus.ConfigMap.fromConfigMapName`),
 * each declared once before its first use.
 */

import { kplus, staticCall, Statement, str, variable } from './code';

/** Variable names in use. */
export class ProgramNames {
  private readonly variables = new Set<string>(['app', 'kplus']);

  /** A variable name like `base` not declared yet (`base2`, `base3`, ... otherwise), now declared. */
  public variable(base: string): string {
    let name = base;
    for (let n = 2; this.variables.has(name) || RESERVED.has(name); n++) name = `${base}${n}`;
    this.variables.add(name);
    return name;
  }
}

/** The references of one chart to existing secrets and config maps. */
export class ChartReferences {
  /** Declarations, in the order first needed. */
  public readonly declarations: Statement[] = [];
  private readonly byName = new Map<string, string>();

  constructor(private readonly names: ProgramNames, private readonly chartVariable: string, private readonly ids: ConstructIds) {}

  /** The variable of the secret `name` (declared on first use). */
  public secret(name: string): string {
    return this.reference('Secret', name);
  }

  /** The variable of the config map `name` (declared on first use). */
  public configMap(name: string): string {
    return this.reference('ConfigMap', name);
  }

  private reference(kind: 'Secret' | 'ConfigMap', name: string): string {
    const key = `${kind}/${name}`;
    const known = this.byName.get(key);
    if (known !== undefined) return known;
    const words = identifierWords(name);
    const last = words[words.length - 1]?.toLowerCase();
    const suffix = kind === 'Secret' ? (last === 'secret' ? '' : 'Secret') : (last === 'config' || last === 'configmap' ? '' : 'ConfigMap');
    const declared = this.names.variable(`${camelCase(words)}${suffix}`);
    const id = this.ids.unique(`${pascalCase(words)}${suffix}`);
    const factory = kind === 'Secret' ? 'fromSecretName' : 'fromConfigMapName';
    this.declarations.push({ kind: 'declare', name: declared, value: staticCall(kplus(kind), factory, 3, variable(this.chartVariable), str(id), str(name)) });
    this.byName.set(key, declared);
    return declared;
  }
}

/** Construct ids of one scope, each used once. */
export class ConstructIds {
  private readonly used = new Set<string>();

  constructor(reserved: readonly string[] = []) {
    reserved.forEach(id => this.used.add(id));
  }

  /** `base`, or `base2`, `base3`, ... when taken; now taken. */
  public unique(base: string): string {
    let id = base === '' ? 'Object' : base;
    for (let n = 2; this.used.has(id); n++) id = `${base}${n}`;
    this.used.add(id);
    return id;
  }

  /** Whether `id` is taken. */
  public has(id: string): boolean {
    return this.used.has(id);
  }

  /** Takes `id` (known to be free). */
  public take(id: string): void {
    this.used.add(id);
  }
}

/** The alphanumeric words of a Kubernetes name (`hf-token-secret`: hf, token, secret). */
function identifierWords(name: string): string[] {
  return name.split(/[^A-Za-z0-9]+/).filter(w => w !== '');
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/** `hfTokenSecret`; a leading digit gets an underscore, an empty name `value`. */
function camelCase(words: readonly string[]): string {
  const text = words.map((w, i) => (i === 0 ? w.toLowerCase() : capitalized(w))).join('');
  if (text === '') return 'value';
  return /^[0-9]/.test(text) ? `_${text}` : text;
}

/** `HfTokenSecret`. */
function pascalCase(words: readonly string[]): string {
  return words.map(capitalized).join('');
}

/** Words a variable may not be named. */
const RESERVED = new Set([
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export', 'extends',
  'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this',
  'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'as', 'implements', 'interface', 'let', 'package', 'private',
  'protected', 'public', 'static', 'yield', 'any', 'boolean', 'number', 'string', 'symbol', 'type', 'from', 'of', 'undefined',
  'App', 'Chart', 'ApiObject', 'DynamoGraph', 'ComponentDeployment', 'require', 'module', 'exports', 'process', 'console',
]);
