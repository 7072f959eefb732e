/**
 * What the operator creates for a DynamoGraphDeploymentRequest before profiling: in cluster-wide
 * mode the profiling ServiceAccount and its RoleBinding to the profiling ClusterRole, then the
 * profiling Job (the profiler container, the output-copier sidecar that writes the result into the
 * `dgdr-output-<name>` ConfigMap, and, with a DGD override, the init container that installs the
 * override tool). Facts from ai-dynamo/dynamo `deploy/operator/internal/controller/
 * dynamographdeploymentrequest_controller.go` (createProfilingJob) and `profiling_job_overrides.go`.
 *
 * The Job names the request's UID (env DGDR_UID, the owner reference the sidecar writes): the API
 * server assigns it on create, so the render takes `metadata.uid` of the document, or
 * `PLACEHOLDER_DGDR_UID` when the document has none.
 *
 * Internal module.
 */
import { dgdrSettingsOf } from './admission';
import { DGDR_GO_TYPES, DgdrJson, sortedKeys } from './model';
import { sidecarScript } from './sidecar-script';
import { sha256Hex } from '../engine/hash/worker-hash';
import { mergeEnvs, standardEnv } from '../engine/pod/env';
import { serviceAccountBoundToClusterRole } from '../engine/workloads/planner-epp-rbac';
import { goJsonEncode, goTypeRegistry } from '../go/marshal';
import { goSortedJson } from '../go/sorted-json';
import { goJsonValue } from '../go/value';
import { isMap, JsonMap } from '../model/json';
import { copyJson } from '../model/json-copy';
import { OperatorSettings } from '../model/operator-settings';
import { RenderError } from '../model/render-error';

/** The UID the render writes for a request whose document has none (the first UID the oracle assigns). */
export const PLACEHOLDER_DGDR_UID = '00000000-0000-0000-0000-000000000001';

export const PROFILING_SERVICE_ACCOUNT = 'dgdr-profiling-job';
const OUTPUT_PATH = '/data';
const OVERRIDE_TOOL_DIR = '/opt/dynamo/bin';
const OVERRIDE_TOOL = `${OVERRIDE_TOOL_DIR}/dgd-apply-overrides`;
const PROTECTED_LABELS = new Set(['app', 'dgdr', 'dgdr.nvidia.com/name', 'dgdr.nvidia.com/namespace', 'nvidia.com/managed-by']);

type Obj = JsonMap & { [key: string]: any };

/** Name of the profiling Job of a request. */
export function profilingJobName(name: string): string {
  return `profile-${name}`;
}

/** Name of the ConfigMap the profiling output is written to. */
export function outputConfigMapName(name: string): string {
  return `dgdr-output-${name}`;
}

/**
 * The `--config` argument: the stored spec as the operator's Go type serialises it (its field
 * order, omitted empty fields; the raw `overrides.dgd` and `features.planner` as the API server
 * serves them, keys sorted).
 */
export function profilerConfigJson(spec: JsonMap): string {
  const value = copyJson(spec) as Obj;
  if (isMap(value.overrides) && value.overrides.dgd !== undefined) value.overrides.dgd = sortedKeys(value.overrides.dgd);
  if (isMap(value.features) && value.features.planner !== undefined) value.features.planner = sortedKeys(value.features.planner);
  return goJsonEncode(value, 'DgdrSpec', { types: DGDR_GO_TYPES });
}

/** Replaces items of `base` by name with those of `extra`, appending new names (base order kept). */
function mergeNamed(base: Obj[] | undefined, extra: unknown): Obj[] | undefined {
  if (!Array.isArray(extra) || extra.length === 0) return base;
  const out = [...(base ?? [])];
  const index = new Map<string, number>(out.map((item, i) => [String(item.name ?? ''), i]));
  for (const item of extra as Obj[]) {
    const name = String(item.name ?? '');
    const at = index.get(name);
    if (at !== undefined) {out[at] = copyJson(item);} else {
      index.set(name, out.length);
      out.push(copyJson(item));
    }
  }
  return out;
}

function hasResources(resources: unknown): boolean {
  return isMap(resources) && ['requests', 'limits', 'claims'].some(k => {
    const v = resources[k];
    return Array.isArray(v) ? v.length > 0 : isMap(v) && Object.keys(v).length > 0;
  });
}

const POD_SECURITY_FIELDS = ['runAsNonRoot', 'runAsUser', 'runAsGroup', 'fsGroup', 'supplementalGroups', 'sysctls', 'fsGroupChangePolicy', 'seccompProfile', 'appArmorProfile', 'seLinuxOptions', 'windowsOptions'];

/** spec.overrides.profilingJob merged into the Job, by the operator's allowlist. */
function applyOverrides(job: Obj, overrides: unknown): void {
  if (!isMap(overrides)) return;
  for (const field of ['backoffLimit', 'activeDeadlineSeconds', 'ttlSecondsAfterFinished', 'completions', 'parallelism', 'suspend']) {
    if (overrides[field] !== undefined && overrides[field] !== null) job.spec[field] = overrides[field];
  }
  const template = isMap(overrides.template) ? overrides.template : {};
  const meta = isMap(template.metadata) ? template.metadata : {};
  const target = job.spec.template;
  if (isMap(meta.labels) && Object.keys(meta.labels).length > 0) {
    target.metadata.labels ??= {};
    for (const [k, v] of Object.entries(meta.labels)) if (!PROTECTED_LABELS.has(k)) target.metadata.labels[k] = v;
  }
  if (isMap(meta.annotations) && Object.keys(meta.annotations).length > 0) {
    target.metadata.annotations ??= {};
    Object.assign(target.metadata.annotations, meta.annotations);
  }
  const spec = target.spec as Obj;
  const o = isMap(template.spec) ? template.spec as Obj : {};
  const nonEmptyList = (v: unknown) => Array.isArray(v) && v.length > 0;
  if (nonEmptyList(o.tolerations)) spec.tolerations = copyJson(o.tolerations);
  if (isMap(o.nodeSelector) && Object.keys(o.nodeSelector).length > 0) spec.nodeSelector = copyJson(o.nodeSelector);
  if (o.affinity != null) spec.affinity = copyJson(o.affinity);
  if (typeof o.priorityClassName === 'string' && o.priorityClassName !== '') spec.priorityClassName = o.priorityClassName;
  if (nonEmptyList(o.imagePullSecrets)) {
    const seen = new Set((spec.imagePullSecrets as Obj[]).map(s => s.name));
    for (const s of o.imagePullSecrets as Obj[]) {
      if (!seen.has(s.name)) {
        spec.imagePullSecrets.push(copyJson(s));
        seen.add(s.name);
      }
    }
  }
  if (typeof o.serviceAccountName === 'string' && o.serviceAccountName !== '') spec.serviceAccountName = o.serviceAccountName;
  if (o.runtimeClassName != null) spec.runtimeClassName = o.runtimeClassName;
  if (typeof o.dnsPolicy === 'string' && o.dnsPolicy !== '') spec.dnsPolicy = o.dnsPolicy;
  if (o.dnsConfig != null) spec.dnsConfig = copyJson(o.dnsConfig);
  if (isMap(o.securityContext)) {
    spec.securityContext ??= {};
    for (const f of POD_SECURITY_FIELDS) if (o.securityContext[f] != null) spec.securityContext[f] = copyJson(o.securityContext[f]);
  }
  if (o.terminationGracePeriodSeconds != null) spec.terminationGracePeriodSeconds = o.terminationGracePeriodSeconds;
  if (nonEmptyList(o.topologySpreadConstraints)) spec.topologySpreadConstraints = copyJson(o.topologySpreadConstraints);
  if (o.automountServiceAccountToken != null) spec.automountServiceAccountToken = o.automountServiceAccountToken;
  spec.volumes = mergeNamed(spec.volumes, o.volumes);
  spec.initContainers = mergeNamed(spec.initContainers, o.initContainers);
  const containers = Array.isArray(o.containers) ? o.containers as Obj[] : [];
  const profilerOverride = containers.find(c => c.name === 'profiler') ?? containers.find(c => (c.name ?? '') === '' || c.name !== 'output-copier');
  const profiler = (spec.containers as Obj[]).find(c => c.name === 'profiler');
  if (profilerOverride && profiler) {
    if (typeof profilerOverride.image === 'string' && profilerOverride.image !== '') profiler.image = profilerOverride.image;
    if (hasResources(profilerOverride.resources)) profiler.resources = copyJson(profilerOverride.resources);
    if (profilerOverride.securityContext != null) profiler.securityContext = copyJson(profilerOverride.securityContext);
    profiler.env = mergeNamed(profiler.env, profilerOverride.env);
    profiler.volumeMounts = mergeNamed(profiler.volumeMounts, profilerOverride.volumeMounts);
    if (nonEmptyList(profilerOverride.envFrom)) profiler.envFrom = [...(profiler.envFrom ?? []), ...copyJson(profilerOverride.envFrom as Obj[])];
  }
  const copierOverride = containers.find(c => c.name === 'output-copier');
  const copier = (spec.containers as Obj[]).find(c => c.name === 'output-copier');
  if (copierOverride && copier) {
    if (typeof copierOverride.image === 'string' && copierOverride.image !== '') copier.image = copierOverride.image;
    if (hasResources(copierOverride.resources)) copier.resources = copyJson(copierOverride.resources);
  }
}

/** With automountServiceAccountToken false, the sidecar still gets an API token (a projected volume). */
function ensureCopierApiAccess(spec: Obj): void {
  if (spec.automountServiceAccountToken !== false) return;
  const volume = {
    name: 'output-copier-kube-api-access',
    projected: {
      sources: [
        { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  };
  spec.volumes = mergeNamed(spec.volumes, [volume]);
  for (const c of spec.containers as Obj[]) {
    c.volumeMounts = (c.volumeMounts as Obj[] | undefined)?.filter(m => m.name !== volume.name);
    if (c.name === 'output-copier') {
      c.volumeMounts = [...(c.volumeMounts ?? []), { name: volume.name, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }];
    }
  }
}

/** With a DGD override, an init container copies the override tool from the operator image for the profiler. */
function ensureOverrideTool(spec: Obj, image: string, pullPolicy: string): void {
  spec.volumes = mergeNamed(spec.volumes, [{ name: 'dgd-override-tool', emptyDir: {} }]);
  const withoutTool = (mounts: Obj[] | undefined) => mounts?.filter(m => m.name !== 'dgd-override-tool' && m.mountPath !== OVERRIDE_TOOL_DIR);
  for (const c of (spec.initContainers ?? []) as Obj[]) c.volumeMounts = withoutTool(c.volumeMounts);
  const installer = {
    name: 'dgd-override-installer',
    image,
    imagePullPolicy: pullPolicy || 'IfNotPresent',
    command: ['/dgd-apply-overrides'],
    args: ['--install-to', OVERRIDE_TOOL],
    securityContext: {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      runAsUser: 1000,
      runAsGroup: 1000,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    },
    volumeMounts: [{ name: 'dgd-override-tool', mountPath: OVERRIDE_TOOL_DIR }],
  };
  spec.initContainers = mergeNamed(spec.initContainers, [installer]);
  for (const c of spec.containers as Obj[]) {
    c.volumeMounts = withoutTool(c.volumeMounts);
    if (c.name !== 'profiler') continue;
    c.volumeMounts = [...(c.volumeMounts ?? []), { name: 'dgd-override-tool', mountPath: OVERRIDE_TOOL_DIR, readOnly: true }];
    c.env = mergeNamed(c.env, [{ name: 'DYNAMO_DGD_APPLY_OVERRIDES_BIN', value: OVERRIDE_TOOL }]);
  }
}

/**
 * The objects the operator creates for a stored request before its profiler runs, in creation
 * order: ServiceAccount and RoleBinding (cluster-wide mode), then the Job. Throws a RenderError
 * where the operator would fail the request (no image) or needs the cluster to go on (hardware
 * left to GPU discovery).
 */
export function renderProfilingWorkloads(stored: DgdrJson, settings: OperatorSettings): Obj[] {
  const dgdr = dgdrSettingsOf(settings);
  const name = String(stored.metadata?.name ?? '');
  const namespace = String(stored.metadata?.namespace ?? '');
  const ref = `${stored.kind}/${name}`;
  const uid = typeof stored.metadata?.uid === 'string' && stored.metadata.uid !== '' ? stored.metadata.uid : PLACEHOLDER_DGDR_UID;
  const spec = (isMap(stored.spec) ? stored.spec : {}) as Obj;
  const out: Obj[] = [];
  if (settings.restrictedNamespace === '') {
    out.push(...serviceAccountBoundToClusterRole(PROFILING_SERVICE_ACCOUNT, namespace, dgdr.dgdrProfilingClusterRoleName) as Obj[]);
  }
  const hardware = isMap(spec.hardware) ? spec.hardware : {};
  const missing = ['gpuSku', 'vramMb', 'numGpusPerNode', 'totalGpus'].filter(f => hardware[f] === undefined || hardware[f] === null || hardware[f] === '');
  if (missing.length > 0) {
    throw new RenderError(ref, 'spec.hardware', `Required value: the operator fills ${missing.join(', ')} from the cluster's GPU discovery `
      + 'before it creates the profiling Job (and fails the request where discovery finds no GPUs); set spec.hardware.gpuSku, vramMb, '
      + 'numGpusPerNode and totalGpus to render the Job offline');
  }
  const image = typeof spec.image === 'string' ? spec.image : '';
  if (image === '') {
    throw new RenderError(ref, 'spec.image', 'Required value: the operator fails the request without a profiler image (its defaulting webhook '
      + 'derives none from an operator version that is not a semantic version); set spec.image');
  }
  const modelCache = isMap(spec.modelCache) && typeof spec.modelCache.pvcName === 'string' && spec.modelCache.pvcName !== '' ? spec.modelCache : undefined;
  const mountPath = modelCache && typeof modelCache.pvcMountPath === 'string' && modelCache.pvcMountPath !== '' ? modelCache.pvcMountPath : '/opt/model-cache';
  const profilerMounts: Obj[] = [{ name: 'profiling-output', mountPath: OUTPUT_PATH }];
  if (modelCache) profilerMounts.push({ name: 'model-cache', mountPath, readOnly: true });
  const profilerEnv = [
    { name: 'HUGGING_FACE_HUB_TOKEN', valueFrom: { secretKeyRef: { name: 'hf-token-secret', key: 'HF_TOKEN' } } },
    { name: 'DGDR_NAME', value: name },
    { name: 'DGDR_NAMESPACE', value: namespace },
    { name: 'DGDR_UID', value: uid },
  ];
  const profiler: Obj = {
    name: 'profiler',
    image,
    command: ['python', '-m', 'dynamo.profiler'],
    args: ['--config', profilerConfigJson(spec), '--output-dir', OUTPUT_PATH],
    workingDir: '/workspace',
    env: mergeNamed(undefined, mergeEnvs(standardEnv(settings), profilerEnv)),
    volumeMounts: profilerMounts,
  };
  const copier: Obj = {
    name: 'output-copier',
    image: 'bitnami/kubectl:latest',
    command: ['/bin/sh', '-c'],
    args: [sidecarScript({ outputPath: OUTPUT_PATH, outputFile: 'final_config.yaml', configMapName: outputConfigMapName(name), namespace, dgdrName: name, dgdrUid: uid })],
    volumeMounts: [{ name: 'profiling-output', mountPath: OUTPUT_PATH, readOnly: true }],
  };
  const volumes: Obj[] = [{ name: 'profiling-output', emptyDir: {} }];
  if (modelCache) volumes.push({ name: 'model-cache', persistentVolumeClaim: { claimName: modelCache.pvcName, readOnly: true } });
  const podSpec: Obj = {
    volumes,
    containers: [profiler, copier],
    restartPolicy: 'Never',
    serviceAccountName: PROFILING_SERVICE_ACCOUNT,
    securityContext: { runAsUser: 1000, runAsGroup: 1000, runAsNonRoot: true, fsGroup: 1000 },
    imagePullSecrets: [{ name: 'nvcr-imagepullsecret' }],
  };
  const job: Obj = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: profilingJobName(name), namespace, labels: { 'app': 'dynamo-profiler', 'dgdr': name, 'nvidia.com/managed-by': 'dynamo-operator' } },
    spec: { backoffLimit: 0, template: { metadata: {}, spec: podSpec } },
  };
  const overrides = isMap(spec.overrides) ? spec.overrides : {};
  applyOverrides(job, overrides.profilingJob);
  ensureCopierApiAccess(podSpec);
  if (overrides.dgd !== undefined && overrides.dgd !== null) ensureOverrideTool(podSpec, dgdr.operatorImage, dgdr.operatorImagePullPolicy);
  // as the operator's client sends the typed Job, with its create bookkeeping annotations
  job.spec = goJsonValue(job.spec, 'JobSpec', { types: DGDR_GO_TYPES });
  const registry = goTypeRegistry(DGDR_GO_TYPES);
  job.metadata.annotations = {
    'nvidia.com/last-applied-generation': '1',
    'nvidia.com/last-applied-hash': sha256Hex(goSortedJson(job.spec, registry.type('JobSpec'), registry)),
  };
  out.push(job);
  return out;
}
