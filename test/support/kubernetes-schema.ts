/**
 * Validation of core Kubernetes objects against the Kubernetes OpenAPI schema, with the models of
 * the `kubernetes-models` package (`new Deployment(obj).validate()`).
 *
 * apiVersion+kind → model class: `kubernetes-models/<group>/<version>/<Kind>` (`v1/<Kind>` for the
 * core group), the file the package exports for that path. kubernetes-models 5.x is ESM only and
 * its export map has only the `import` condition, which neither jest's module loader nor
 * `require` can load; the models are therefore loaded and run in one plain `node` child process
 * per call (a batch of objects), which works the same under jest and ts-node.
 *
 * Schema version: kubernetes-models 5.1.0 generates its models from the Kubernetes v1.36.0
 * OpenAPI spec, merged with older specs (1.15.5 … 1.32.0) so removed APIs keep their models
 * (the package's scripts/generate.ts VERSIONS list and its 5.0.0 changelog entry "Update to
 * Kubernetes v1.36.0"; the README badge still says 1.27.1 and is stale).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/** The Kubernetes version whose OpenAPI schema the installed kubernetes-models 5.1 models are generated from. */
export const KUBERNETES_SCHEMA_VERSION = 'v1.36.0';

/** The installed kubernetes-models package folder (its export map hides package.json from `require.resolve`). */
export const KUBERNETES_MODELS_DIR = findPackageDir('kubernetes-models');

function findPackageDir(name: string): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed (looked in node_modules from ${__dirname} up)`);
  }
}

/** The installed kubernetes-models version, e.g. `5.1.0`. */
export function kubernetesModelsVersion(): string {
  return JSON.parse(fs.readFileSync(path.join(KUBERNETES_MODELS_DIR, 'package.json'), 'utf8')).version;
}

/** The models folder of an apiVersion: `v1` for the core group, `<group>/<version>` otherwise. */
function versionFolder(apiVersion: string): string | undefined {
  const parts = apiVersion.split('/');
  if (parts.length > 2 || parts.some(p => !/^[a-z0-9][a-z0-9.-]*$/.test(p))) return undefined;
  return parts.join('/');
}

/**
 * Whether the apiVersion belongs to the Kubernetes API itself (a group kubernetes-models has
 * models of: core `v1`, `apps/v1`, `rbac.authorization.k8s.io/v1`, `networking.k8s.io/v1`, …),
 * as opposed to a custom resource API (nvidia.com, inference.networking…, networking.istio.io).
 */
export function isKubernetesApi(apiVersion: unknown): boolean {
  if (typeof apiVersion !== 'string') return false;
  const folder = versionFolder(apiVersion);
  return folder !== undefined && fs.existsSync(path.join(KUBERNETES_MODELS_DIR, folder));
}

/**
 * The module file of the model class of apiVersion+kind (`<dir>/apps/v1/Deployment.js`), or
 * undefined when kubernetes-models has none. The file can also be a nested type (`v1/Container`);
 * the child process checks that the class is a top-level kind with this apiVersion.
 */
export function kubernetesModelFile(apiVersion: string, kind: string): string | undefined {
  const folder = versionFolder(apiVersion);
  if (folder === undefined || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) return undefined;
  const file = path.join(KUBERNETES_MODELS_DIR, folder, `${kind}.js`);
  return fs.existsSync(file) ? file : undefined;
}

/** The outcome of the schema check of one object. */
export interface SchemaCheck {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /**
   * `valid` / `invalid` (see `errors`); `no-model` for a kind of a Kubernetes API group that
   * kubernetes-models has no model of (a wrong kind); `not-kubernetes` for other APIs (not checked).
   */
  readonly status: 'valid' | 'invalid' | 'no-model' | 'not-kubernetes';
  /** Schema errors as `/json/pointer: message`. */
  readonly errors: readonly string[];
}

/** Runs in the child: reads `[{file, apiVersion, kind, object}]` on stdin, writes `[{errors}|{noModel}]`. */
const CHILD_SCRIPT = `
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const jobs = JSON.parse(readFileSync(0, 'utf8'));
const modules = new Map();
const results = [];
for (const job of jobs) {
  let mod = modules.get(job.file);
  if (!mod) { mod = await import(pathToFileURL(job.file).href); modules.set(job.file, mod); }
  const Model = mod[job.kind];
  if (typeof Model !== 'function' || Model.kind !== job.kind || Model.apiVersion !== job.apiVersion) {
    results.push({ noModel: true });
    continue;
  }
  try {
    new Model(job.object).validate();
    results.push({ errors: [] });
  } catch (e) {
    const list = Array.isArray(e && e.errors) ? e.errors : [];
    results.push({ errors: list.length > 0 ? list.map(x => (x.instancePath || '/') + ': ' + x.message) : [String(e && e.message || e)] });
  }
}
process.stdout.write(JSON.stringify(results));
`;

/**
 * Validates every object of a Kubernetes API group against the Kubernetes OpenAPI schema (one
 * child process for the whole batch); objects of other APIs come back as `not-kubernetes`.
 * Results are in the order of `objects`.
 */
export function validateKubernetesObjects(objects: readonly unknown[]): SchemaCheck[] {
  const described = objects.map(o => {
    const obj = o as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } };
    return {
      apiVersion: String(obj?.apiVersion ?? ''),
      kind: String(obj?.kind ?? ''),
      name: String(obj?.metadata?.name ?? ''),
      kubernetes: isKubernetesApi(obj?.apiVersion),
    };
  });
  const jobs: { at: number; file: string; apiVersion: string; kind: string; object: unknown }[] = [];
  const results: SchemaCheck[] = described.map((d, at) => {
    const base = { apiVersion: d.apiVersion, kind: d.kind, name: d.name, errors: [] as string[] };
    if (!d.kubernetes) return { ...base, status: 'not-kubernetes' };
    const file = kubernetesModelFile(d.apiVersion, d.kind);
    if (!file) return { ...base, status: 'no-model' };
    jobs.push({ at, file, apiVersion: d.apiVersion, kind: d.kind, object: objects[at] });
    return { ...base, status: 'valid' };
  });
  if (jobs.length === 0) return results;

  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD_SCRIPT], {
    input: JSON.stringify(jobs.map(({ at: _at, ...job }) => job)),
    maxBuffer: 512 * 1024 * 1024,
    encoding: 'utf8',
  });
  const answers = JSON.parse(stdout) as { errors?: string[]; noModel?: boolean }[];
  jobs.forEach((job, i) => {
    const answer = answers[i];
    const status = answer.noModel ? 'no-model' : (answer.errors ?? []).length > 0 ? 'invalid' : 'valid';
    results[job.at] = { ...results[job.at], status, errors: answer.errors ?? [] };
  });
  return results;
}
