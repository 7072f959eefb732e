/**
 * The pod template of a DCD's workload: the operator's pod-spec pipeline (docs/design/render-core.md §5.2), step
 * by step in its order, then the pod labels and annotations (§5.9).
 */
import { applyCompilationCacheMount, applyCompilationCacheVolume, resolveCompilationCache } from './compilation-cache';
import { mergeMainContainer, userMainContainer } from './container-merge';
import { addStandardEnv } from './env';
import { applyFrontendSidecar } from './frontend-sidecar';
import { applyImagePullSecrets } from './image-pull-secrets';
import { ContainerJson, objectItems, PodSpecJson, VolumeMountJson } from './k8s-json';
import { podTemplateAnnotations, podTemplateLabels } from './pod-metadata';
import { PodSpecHook, PodTemplateOptions } from './pod-spec-hook';
import { mergePodSpec, userSetSecurityContext } from './pod-spec-merge';
import { applyDefaultSecurityContext } from './security-context';
import { applyDiscoveryServiceAccount, applyFallbackServiceAccount } from './service-account';
import { applySharedMemory } from './shared-memory';
import { orderVolumesByMounts, validateMainMounts } from './volumes';
import { GoValue, readGoValue } from '../../go/value';
import { MAX_OBJECT_BYTES } from '../../import/document-kinds';
import { isMap } from '../../model/json';
import { copyJson, shallowCopy } from '../../model/json-copy';
import { RenderError } from '../../model/render-error';
import { DcdSpecJson, isWorkerType, JsonObject } from '../../model/v1beta1';
import { LABEL_SELECTOR, MAIN_CONTAINER } from '../../model/well-known';
import { applyMultinodeContainer, applyMultinodePodSpec } from '../backend/multinode';
import { selectBackend } from '../backend/select';
import { componentDefaults } from '../component';
import { ComponentContext } from '../component/defaults-context';
import { operatorHasRuntimeGates } from '../component/runtime-gates';
import { resolveRuntimeVersion } from '../component-runtime-version';
import { computeDynamoNamespace } from '../dynamo-namespace';
import { EXPERIMENTAL_HOOKS } from '../experimental/pod-hooks';
import { LWS_DEPLOYER } from '../multinode/deployer';
import { draLookup } from '../multinode/dra-objects';
import { gpusPerNode } from '../multinode/gpu-count';
import { LABEL_ROLE, nodeCountOf } from '../multinode/roles';
import { DcdContext } from '../workloads/dcd-context';

/**
 * The least text each node's host name adds to the TensorRT-LLM leader's mpirun line (the names
 * the deployers write are all longer than this).
 */
const MIN_MPI_HOST_TEXT = 30;

/**
 * Rewrites the operator applies after image pull secrets (docs/design/render-core.md §5.2 step 19), in order: the
 * experimental GPU memory service (intra-pod) and intra-pod failover.
 */
export const EXPERIMENTAL_POD_HOOKS: readonly PodSpecHook[] = EXPERIMENTAL_HOOKS;

/** The component context of a DCD: what the type defaults are computed from. */
export function dcdComponentContext(ctx: DcdContext): ComponentContext {
  const spec: DcdSpecJson = ctx.dcd.spec ?? {};
  const runtimeGatesAvailable = operatorHasRuntimeGates(ctx.settings.version);
  const override = spec.runtimeVersionOverride;
  const runtimeVersion = resolveRuntimeVersion(spec);
  if (runtimeGatesAvailable && typeof override === 'string' && override !== '' && runtimeVersion === undefined) {
    throw new RenderError(ctx.ref, 'spec.runtimeVersionOverride',
      `runtime version override "${override}" is not a semantic version MAJOR.MINOR.PATCH`);
  }
  return {
    componentType: ctx.workloadType,
    // the env uses the namespace computed from the parent, not the DCD's label
    dynamoNamespace: computeDynamoNamespace(spec.globalDynamoNamespace, ctx.namespace, ctx.parentName),
    parentName: ctx.parentName,
    parentNamespace: ctx.namespace,
    discovery: ctx.discovery,
    eppConfig: isMap(spec.eppConfig) ? spec.eppConfig : undefined,
    workerHashSuffix: isWorkerType(spec.type) ? ctx.workerHash : undefined,
    runtimeVersion,
    runtimeGatesAvailable,
  };
}

/**
 * The pod spec the operator's pod-spec pipeline produces for a DCD, or for a component of a graph
 * on the Grove path (docs/design/render-core.md §5.2 steps 1–19, docs/design/render-multinode.md §2.5); not yet read as Go.
 */
export function renderPodSpec(ctx: DcdContext, options: PodTemplateOptions = {}): PodSpecJson {
  const role = options.multinodeRole;
  const deployer = options.deployer ?? LWS_DEPLOYER;
  // 1. work on a copy of the DCD spec; the worker hash reaches the env through the context
  const spec: DcdSpecJson = copyJson(ctx.dcd.spec ?? {});
  const userPodSpec = isMap(spec.podTemplate) && isMap(spec.podTemplate.spec) ? spec.podTemplate.spec : undefined;
  const userAnnotations: Record<string, string> = isMap(spec.podTemplate?.metadata?.annotations) ? spec.podTemplate!.metadata.annotations : {};

  // 2. backend framework; 3. discovery (in the DCD context); 4. type defaults
  const backend = selectBackend(spec, ctx.ref);
  const component = dcdComponentContext(ctx);
  const defaults = componentDefaults(ctx.workloadType);
  const problem = defaults.problem?.(component);
  if (problem) throw new RenderError(ctx.ref, problem.field, problem.message);
  let main: ContainerJson = defaults.baseContainer(component);

  // 5. the user's main container over the defaults
  const userMain = userMainContainer(userPodSpec?.containers);
  if (userMain) main = mergeMainContainer(main, userMain);

  // 6. compilation cache mount, then every mount needs a name and a path
  const cache = resolveCompilationCache(spec.compilationCache, backend, ctx.ref);
  if (cache) applyCompilationCacheMount(main, cache, ctx.ref);
  validateMainMounts(main, ctx.ref);

  // 7. standard env (the env is sorted from here on); 8. mounts a frontend sidecar inherits
  addStandardEnv(main, ctx.settings);
  const mainMounts = copyJson(objectItems<VolumeMountJson>(main.volumeMounts));

  // 9. backend container hook: may rewrite the command and append env after the sorted block;
  // a multinode role gets the framework's multinode rewrite first (docs/design/render-multinode.md §6.1.1)
  const nodeCount = nodeCountOf(spec);
  const sshSecretName = ctx.settings.mpiSshSecretName;
  if (role && backend.framework === 'trtllm' && sshSecretName === '') {
    throw new RenderError(ctx.ref, 'spec.multinode',
      'TensorRT-LLM across nodes needs the MPI SSH secret, but the operator setting mpi.sshSecretName is empty');
  }
  // the TensorRT-LLM leader's mpirun line names every node: beyond what an object may hold, refuse before building it
  if (role === 'leader' && backend.framework === 'trtllm' && nodeCount * MIN_MPI_HOST_TEXT > MAX_OBJECT_BYTES) {
    throw new RenderError(ctx.ref, 'spec.multinode.nodeCount',
      `Too long: the TensorRT-LLM leader's mpirun line names the host of each of the ${nodeCount} nodes and would be more than `
      + `${MAX_OBJECT_BYTES} bytes; the API server accepts at most 3 MiB per object, so the operator could not create the workload`);
  }
  if (role) {
    main = applyMultinodeContainer(backend.framework, main, {
      role,
      nodeCount,
      deployer,
      sshSecretName,
      gpusPerNode: () => gpusPerNode(userPodSpec, ctx.ref, ctx.cluster && draLookup(ctx.cluster, ctx.namespace)),
      podAnnotations: userAnnotations,
      operatorVersion: ctx.settings.version,
    });
  }
  backend.updateContainer(main, { compilationCacheMountPath: cache?.mountPath, multinode: role !== undefined });

  // 10. base pod spec with the user's pod spec over it; other user containers are sidecars
  const sidecars = objectItems<ContainerJson>(userPodSpec?.containers).filter(c => c.name !== MAIN_CONTAINER).map(c => copyJson(c));
  const pod = mergePodSpec(defaults.basePodSpec(component), userPodSpec);

  // 11. security context; 12. discovery service account
  if (!userSetSecurityContext(userPodSpec)) applyDefaultSecurityContext(pod);
  applyDiscoveryServiceAccount(pod, ctx.discovery.kubernetes, ctx.parentName);

  // 13. compilation cache volume, shared memory
  if (cache) applyCompilationCacheVolume(pod, cache, ctx.ref);
  applySharedMemory(pod, main, spec.sharedMemorySize, ctx.ref);

  // 14. main first, sidecars in their order
  let podSpec = shallowCopy(pod) as PodSpecJson;
  podSpec.containers = [main, ...sidecars];

  // 15. frontend sidecar
  if (spec.frontendSidecar !== undefined && spec.frontendSidecar !== null) {
    applyFrontendSidecar(podSpec, String(spec.frontendSidecar), component, ctx.settings, mainMounts, ctx.ref);
  }

  // 16. backend pod hook; 17. volumes in mount order, PVCs for mounts without a volume
  backend.updatePodSpec(podSpec);
  if (role) {
    podSpec = applyMultinodePodSpec(backend.framework, podSpec, {
      role,
      nodeCount,
      deployer,
      parentName: ctx.parentName,
      sshSecretName,
      operatorVersion: ctx.settings.version,
    });
  }
  podSpec.volumes = orderVolumesByMounts(podSpec.volumes, podSpec.containers[0].volumeMounts);

  // 18. image pull secrets; 19. experimental rewrites
  applyImagePullSecrets(podSpec, userAnnotations, ctx.settings);
  for (const hook of EXPERIMENTAL_POD_HOOKS) hook.apply(podSpec, ctx, options);
  return podSpec;
}

/** The pod template (`metadata.labels`, `metadata.annotations`, `spec`) the operator renders for a DCD. */
export function renderPodTemplate(ctx: DcdContext, options: PodTemplateOptions = {}): JsonObject {
  const role = options.multinodeRole;
  const podSpec = renderPodSpec(ctx, options);

  // 20. the renderer: labels and annotations, service-account fallback
  const annotations = podTemplateAnnotations(ctx);
  const labels = podTemplateLabels(ctx, annotations);
  if (role && role !== 'main') {
    delete labels[LABEL_SELECTOR];
    labels[LABEL_ROLE] = role;
  }
  applyFallbackServiceAccount(podSpec);
  const metadata: JsonObject = { labels };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  const reading = asGoWouldSend({ metadata, spec: podSpec }, ctx.ref);
  READINGS.set(reading.value, reading);
  return reading.value;
}

/** The Go readings of the templates `renderPodTemplate` returned (see `takePodTemplateReading`). */
const READINGS = new WeakMap<object, GoValue>();

/**
 * The Go reading (as PodTemplateSpec) behind a template `renderPodTemplate` just returned, for a
 * caller that goes on to read the template as Go again and can skip that when the reading is a
 * fixed point. Taken once: a second call gives undefined, and so does a template that did not
 * come from `renderPodTemplate`. The template must not have been changed since.
 */
export function takePodTemplateReading(template: JsonObject): GoValue | undefined {
  const reading = READINGS.get(template);
  READINGS.delete(template);
  return reading;
}

/** The template as the operator's Go client serializes it: zero values dropped, canonical quantities. */
function asGoWouldSend(template: JsonObject, objectRef: string): GoValue {
  try {
    return readGoValue(template, 'PodTemplateSpec', { unknownFields: 'drop' });
  } catch (e) {
    if (e instanceof RenderError) throw e;
    throw new RenderError(objectRef, 'spec.podTemplate', e instanceof Error ? e.message : String(e));
  }
}
