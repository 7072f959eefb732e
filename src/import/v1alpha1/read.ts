/**
 * A v1alpha1 spec or status as the API server hands it to the conversion webhook: null fields
 * pruned (the v1alpha1 schema has no nullable field), the schema's defaults applied (they are the
 * request version's), then read into the operator's Go types. Fields the v1alpha1 API does not
 * have and values of the wrong type are problems naming the field, as kubectl's strict field
 * validation reports them.
 */
import { CONVERSION_GO_TYPES } from './go-types';
import { GoMap } from './go-view';
import { QuantityParseError } from '../../go/quantity';
import { goJsonValue } from '../../go/value';
import { isMap } from '../../model/json';

/** A problem of an input document: the field path (from the document root) and what is wrong. */
export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}

/** Keys under which a value is kept as written (the schema preserves unknown fields there). */
const PRESERVED_VALUES = new Set(['value', 'parameters']);

/** The value without null fields (list items and preserved values are kept as they are). */
export function pruneNulls(value: unknown, key?: string): unknown {
  if (key !== undefined && PRESERVED_VALUES.has(key)) return value;
  if (Array.isArray(value)) return value.map(item => pruneNulls(item));
  if (!isMap(value)) return value;
  const out: GoMap = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    out[k] = pruneNulls(v, k);
  }
  return out;
}

type Defaults = { readonly [key: string]: unknown | Defaults };

/** Defaults of an env list item (`valueFrom` selectors). */
const ENV_DEFAULTS: Defaults = { valueFrom: { configMapKeyRef: { name: '' }, fileKeyRef: { optional: false }, secretKeyRef: { name: '' } } };

/** The v1alpha1 schema's defaults of a component (a `services` entry, or a DCD spec). */
const COMPONENT_DEFAULTS: Defaults = {
  checkpoint: {
    deletionPolicy: 'Delete',
    enabled: false,
    startupPolicy: 'Immediate',
    targetContainerName: 'main',
    identity: { pipelineParallelSize: 1, tensorParallelSize: 1 },
  },
  eppConfig: { configMapRef: { name: '' } },
  failover: { mode: 'intraPod', numShadows: 1 },
  gpuMemoryService: { deviceClassName: 'gpu.nvidia.com', mode: 'intraPod' },
  multinode: { nodeCount: 2 },
  scalingAdapter: { enabled: false },
  envs: [ENV_DEFAULTS],
  frontendSidecar: { envs: [ENV_DEFAULTS] },
  volumeMounts: [{ useAsCompilationCache: false }],
};

/** The v1alpha1 schema's defaults of a DynamoGraphDeployment spec. */
const GRAPH_DEFAULTS: Defaults = {
  envs: [ENV_DEFAULTS],
  experimental: { kvTransferPolicy: { enforcement: 'required' } },
  restart: { strategy: { type: 'Sequential' } },
};

/** Applies structural defaults in place: a default fills an absent field of an object that is there. */
function applyDefaults(value: unknown, defaults: Defaults): void {
  if (!isMap(value)) return;
  for (const [key, d] of Object.entries(defaults)) {
    const current = value[key];
    if (Array.isArray(d)) {
      if (Array.isArray(current)) current.forEach(item => applyDefaults(item, d[0] as Defaults));
    } else if (isMap(d)) {
      applyDefaults(current, d as Defaults);
    } else if (current === undefined) {
      value[key] = d;
    }
  }
}

/** A DynamoGraphDeployment spec with the v1alpha1 defaults applied (a pruned copy of the input). */
export function defaultedGraphSpec(spec: unknown): unknown {
  const out = pruneNulls(spec);
  applyDefaults(out, GRAPH_DEFAULTS);
  if (isMap(out) && isMap(out.services)) for (const svc of Object.values(out.services)) applyDefaults(svc, COMPONENT_DEFAULTS);
  return out;
}

/** A DynamoComponentDeployment spec with the v1alpha1 defaults applied (a pruned copy of the input). */
export function defaultedComponentSpec(spec: unknown): unknown {
  const out = pruneNulls(spec);
  applyDefaults(out, COMPONENT_DEFAULTS);
  return out;
}

/** A status with the v1alpha1 default state. */
export function defaultedStatus(status: unknown, graph: boolean): unknown {
  const out = pruneNulls(status);
  if (graph && isMap(out) && out.state === undefined) out.state = 'initializing';
  return out;
}

/**
 * The value read as the Go type `type`, or undefined after recording its problems: every field
 * the type does not have, or the first value of the wrong type. `path` is the value's field path.
 */
export function readAs(value: unknown, type: string, path: string, problems: FieldProblem[]): GoMap | undefined {
  const unknown: FieldProblem[] = [];
  let out: GoMap | undefined;
  try {
    out = goJsonValue(value, type, {
      types: CONVERSION_GO_TYPES,
      unknownFields: 'drop',
      onUnknownField: (at, key) => {
        const field = joinPath(path, at, key);
        unknown.push({ path: field, message: `unknown field ${JSON.stringify(field)}` });
      },
    });
  } catch (e) {
    if (e instanceof QuantityParseError) {
      problems.push({ path: quantityPath(value, path, e) ?? path, message: `Invalid value: ${e.message}` });
      return undefined;
    }
    if (!(e instanceof TypeError) && !(e instanceof RangeError) && !/^go-json: /.test((e as Error).message)) throw e;
    const m = /^go-json: (\$[^:]*): (.*)$/.exec((e as Error).message);
    problems.push(m ? { path: joinPath(path, m[1]), message: `Invalid value: ${m[2]}` } : { path, message: `Invalid value: ${(e as Error).message}` });
    return undefined;
  }
  if (unknown.length > 0) {
    problems.push(...unknown);
    return undefined;
  }
  return out;
}

/** `prefix` joined with a Go path (`$.services.worker[0]`) and a key. */
function joinPath(prefix: string, goPath: string, key?: string): string {
  let out = prefix + goPath.slice(1);
  if (key !== undefined) out += /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  return out;
}

/** The path of the first value in `value` that is the text of a quantity error. */
function quantityPath(value: unknown, path: string, error: QuantityParseError): string | undefined {
  const m = /^invalid quantity ("(?:[^"\\]|\\.)*")/.exec(error.message);
  if (!m) return undefined;
  const text = JSON.parse(m[1]);
  const visit = (v: unknown, at: string): string | undefined => {
    if (v === text || (typeof v === 'number' && String(v) === text)) return at;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = visit(v[i], `${at}[${i}]`);
        if (found) return found;
      }
    } else if (isMap(v)) {
      for (const [k, item] of Object.entries(v)) {
        const found = visit(item, joinPath(at, '$', k));
        if (found) return found;
      }
    }
    return undefined;
  };
  return visit(value, path);
}
