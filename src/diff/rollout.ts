/**
 * Rollout impact of a change: whether the pods of a workload are replaced, which objects a worker
 * component rolls out under a new worker hash, and which workloads belong to a graph or component.
 *
 * Internal module.
 */
import { DCD_KIND, DGD_KIND } from '../model/v1beta1';
import { LABEL_COMPONENT, LABEL_GRAPH_NAME, LABEL_WORKER_HASH } from '../model/well-known';

type JsonMap = { [key: string]: unknown };

function isMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The API group of an apiVersion (`apps/v1` → `apps`, `v1` → ``). */
function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Whether `path` is `prefix` or a field, entry or item below it. */
function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
}

/** Kinds of objects whose pods are their own (a change can replace them). */
export function runsPods(apiVersion: string, kind: string): boolean {
  return podTemplateRule(apiVersion, kind) !== undefined || isDynamoKind(apiVersion, kind);
}

export function isDynamoKind(apiVersion: string, kind: string): boolean {
  return groupOf(apiVersion) === 'nvidia.com' && (kind === DGD_KIND || kind === DCD_KIND);
}

/** A clique's pod template in a PodCliqueSet: Grove hashes its labels, annotations and podSpec. */
const CLIQUE_POD_TEMPLATE = /^spec\.template\.cliques\[(?:"(?:[^"\\]|\\.)*"|[^\]]*)\]\.(?:spec\.podSpec|labels|annotations)(?:$|[.[])/;

/**
 * The rule saying which changed fields replace the pods of a workload kind, or undefined for kinds
 * without pods:
 * - Deployment, StatefulSet, DaemonSet, ReplicaSet, Job: `spec.template` (labels and annotations of
 *   the template included: they are part of the pod-template hash);
 * - LeaderWorkerSet: `spec.leaderWorkerTemplate` (leader and worker templates, group size: a new
 *   controller revision, groups are replaced) and `spec.networkConfig`;
 * - PodCliqueSet: a clique's `spec.podSpec`, `labels` and `annotations`, and
 *   `spec.template.priorityClassName` (Grove's pod-template hash of each PodClique);
 * - Pod: `spec`.
 * Replicas, selectors, strategies and the workload's own metadata replace no pod.
 */
function podTemplateRule(apiVersion: string, kind: string): ((path: string) => boolean) | undefined {
  const group = groupOf(apiVersion);
  if (group === 'apps' && ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'].includes(kind)) return p => under(p, 'spec.template');
  if (group === 'batch' && kind === 'Job') return p => under(p, 'spec.template');
  if (group === 'leaderworkerset.x-k8s.io' && kind === 'LeaderWorkerSet') {
    return p => under(p, 'spec.leaderWorkerTemplate') || under(p, 'spec.networkConfig');
  }
  if (group === 'grove.io' && kind === 'PodCliqueSet') return p => CLIQUE_POD_TEMPLATE.test(p) || under(p, 'spec.template.priorityClassName');
  if (group === '' && kind === 'Pod') return p => under(p, 'spec');
  return undefined;
}

/** Whether the changed `fields` of a workload replace its pods; undefined for kinds without a rule. */
export function workloadRestarts(apiVersion: string, kind: string, fields: readonly string[]): boolean | undefined {
  const rule = podTemplateRule(apiVersion, kind);
  return rule === undefined ? undefined : fields.some(rule);
}

/** Fields of a component that scale it without touching its pods (excluded from the worker hash too). */
const SCALE_ONLY = new Set(['replicas', 'minAvailable', 'scalingAdapter']);
const DGD_COMPONENT_FIELD = /^spec\.components\[(?:"(?:[^"\\]|\\.)*"|[^\]]*)\]\.([A-Za-z]+)/;

/**
 * Whether a change of a DynamoGraphDeployment or DynamoComponentDeployment restarts pods, judged on
 * its own fields (when the workloads it renders to are not known): any change of `spec` but the
 * scale of a component (`replicas`, `minAvailable`, `scalingAdapter`), and of `nvidia.com/`
 * annotations (the operator reads them); its labels and other annotations restart nothing.
 */
export function dynamoFieldsRestart(kind: string, fields: readonly string[]): boolean {
  return fields.some(path => {
    if (path.startsWith('metadata.annotations[nvidia.com/')) return true;
    if (!under(path, 'spec')) return false;
    if (kind === DCD_KIND) return !SCALE_ONLY.has(path.slice('spec.'.length).split(/[.[]/)[0]);
    const component = DGD_COMPONENT_FIELD.exec(path);
    return component === null || !SCALE_ONLY.has(component[1]);
  });
}

/** Every worker hash the objects carry (`nvidia.com/dynamo-worker-hash` labels, at any depth). */
export function workerHashes(objects: readonly unknown[]): Set<string> {
  const hashes = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    if (depth > 100) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    if (!isMap(value)) return;
    const hash = str(value[LABEL_WORKER_HASH]);
    if (hash !== undefined && /^[0-9a-f]{8}$/.test(hash)) hashes.add(hash);
    for (const child of Object.values(value)) visit(child, depth + 1);
  };
  for (const object of objects) visit(object, 0);
  return hashes;
}

/**
 * The name with its worker-hash segment (`<graph>-<component>-<hash>`, or followed by more
 * segments) taken out, and that hash; undefined when the name carries none of `hashes`.
 */
export function withoutWorkerHash(name: string, hashes: ReadonlySet<string>): { stem: string; hash: string } | undefined {
  const segments = name.split('-');
  for (let i = segments.length - 1; i > 0; i--) {
    if (hashes.has(segments[i])) {
      const hash = segments[i];
      return { stem: [...segments.slice(0, i), '{worker-hash}', ...segments.slice(i + 1)].join('-'), hash };
    }
  }
  return undefined;
}

/** A copy of `value` with every occurrence of `from` in its strings (keys included) replaced by `to`. */
export function replaceInStrings(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') return value.split(from).join(to);
  if (Array.isArray(value)) return value.map(item => replaceInStrings(item, from, to));
  if (!isMap(value)) return value;
  const out: JsonMap = {};
  for (const [key, child] of Object.entries(value)) out[key.split(from).join(to)] = replaceInStrings(child, from, to);
  return out;
}

/** Identity of an object: apiVersion, kind, namespace, name, labels. */
export interface ObjectIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

export function identityOf(object: unknown): ObjectIdentity {
  const meta = isMap(object) && isMap(object.metadata) ? object.metadata : {};
  const labels: Record<string, string> = {};
  if (isMap(meta.labels)) for (const [k, v] of Object.entries(meta.labels)) if (typeof v === 'string') labels[k] = v;
  return {
    apiVersion: (isMap(object) ? str(object.apiVersion) : undefined) ?? '',
    kind: (isMap(object) ? str(object.kind) : undefined) ?? '',
    namespace: str(meta.namespace) || undefined,
    name: str(meta.name) ?? '',
    labels,
  };
}

/**
 * Whether a workload (any object that is not a Dynamo resource) belongs to a Dynamo resource: the
 * operator labels what it creates for a graph with the graph's name, and what it creates for a
 * component deployment with the component name (`spec.name`, else its component label, else its
 * name) and its graph's name, when it has one. Namespaces compare with `default` for none.
 */
export function belongsTo(owner: unknown, workload: ObjectIdentity): boolean {
  const o = identityOf(owner);
  if (isDynamoKind(workload.apiVersion, workload.kind)) return false;
  if ((o.namespace ?? 'default') !== (workload.namespace ?? 'default')) return false;
  if (o.kind === DGD_KIND) return workload.labels[LABEL_GRAPH_NAME] === o.name;
  const spec = isMap(owner) && isMap(owner.spec) ? owner.spec : {};
  const component = str(spec.name) || o.labels[LABEL_COMPONENT] || o.name;
  const graph = o.labels[LABEL_GRAPH_NAME] ?? '';
  return workload.labels[LABEL_COMPONENT] === component && (workload.labels[LABEL_GRAPH_NAME] ?? '') === graph;
}
