/**
 * `experimental` webhook rules: GPU memory service (rows 114-118), failover (122-125), Grove
 * scaling group (129) and checkpoint (140-145). The CRD's CEL rules on them (rows 110-112, 139) are
 * evaluated by the CEL engine (cel/check.ts).
 *
 * Internal module.
 */
import { ComponentContext } from './component-context';
import {
  checkpoint as checkpointOf,
  componentType,
  effectiveMode,
  failover as failoverOf,
  gpuMemoryService,
  isWorkerClass,
  MODE_INTER_POD,
  MODE_INTRA_POD,
} from './component-shape';
import { hasContainerNamed, mainContainerGpuCount } from './main-container';
import { rulesHave } from './operator-rules';
import { admittingOperator } from './options';
import { ViolationSink } from './violation';
import { boolAt, isMap, listAt, mapAt, stringAt, stringItems } from '../model/json';

export function checkExperimental(ctx: ComponentContext, sink: ViolationSink): void {
  if (!mapAt(ctx.component, 'experimental')) return;
  checkGpuMemoryService(ctx, sink);
  checkFailover(ctx, sink);
  checkGrove(ctx, sink);
  checkCheckpoint(ctx, sink);
}

function checkGpuMemoryService(ctx: ComponentContext, sink: ViolationSink): void {
  const { component } = ctx;
  const gms = gpuMemoryService(component);
  if (!gms) return;
  const path = ctx.path.child('experimental', 'gpuMemoryService');
  const mode = stringAt(gms, 'mode');
  const clientContainers = listAt(gms, 'extraClientContainers') ?? [];

  // row 114
  if (!isWorkerClass(componentType(component))) {
    sink.forbidden(path, gms, 'GPU memory service is only supported for worker, prefill, or decode components', '114');
  }
  // row 115
  const gpus = mainContainerGpuCount(component);
  if ('error' in gpus || gpus.count < 1) {
    sink.forbidden(path, gms, 'GPU memory service requires podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu >= 1', '115');
  }
  // row 116 (duplicates are already rejected by the list-set schema, row 109)
  if (effectiveMode(mode) === MODE_INTRA_POD) {
    for (const { value, index } of stringItems(clientContainers)) {
      if (!hasContainerNamed(component, value)) {
        sink.invalid(path.child('extraClientContainers').index(index), value, 'does not name a container in podTemplate.spec.containers', '116');
      }
    }
  }
  // rows 117 and 118 (DGD)
  if (ctx.owner === 'DGD' && effectiveMode(mode) === MODE_INTER_POD) {
    const modePath = path.child('mode');
    if (!ctx.grovePathway) sink.forbidden(modePath, mode, ctx.groveRequirement, '117');
    if (ctx.backendFramework !== 'vllm') {
      const detected = ctx.backendFramework === '' ? '<unset>' : ctx.backendFramework;
      sink.invalid(modePath, mode, `the inter-pod GMS layout is currently supported only for vLLM (detected backend: ${detected})`, '118');
    }
  }
}

function checkFailover(ctx: ComponentContext, sink: ViolationSink): void {
  const { component } = ctx;
  const failover = failoverOf(component);
  if (!failover) return;
  const path = ctx.path.child('experimental', 'failover');
  const mode = effectiveMode(stringAt(failover, 'mode'));
  const gms = gpuMemoryService(component);

  // rows 122 and 123
  if (!gms) {
    sink.forbidden(path, failover, `gpuMemoryService is required when failover mode is ${JSON.stringify(mode)}`, '122');
  } else if (effectiveMode(stringAt(gms, 'mode')) !== mode) {
    sink.invalid(path.child('mode'), failover.mode ?? '', `must match gpuMemoryService.mode ${JSON.stringify(stringAt(gms, 'mode') ?? '')}`, '123');
  }

  if (mode !== MODE_INTER_POD) return;
  // row 124
  const gpus = mainContainerGpuCount(component);
  if ('error' in gpus) {
    sink.forbidden(path, failover, `failed to read main-container GPU limit: ${gpus.error}`, '124');
  } else if (gpus.count < 1) {
    sink.forbidden(path, failover, 'GMS failover requires at least 1 GPU in podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu', '124');
  }
  // row 125
  const type = componentType(component);
  if (type === 'epp' || type === 'frontend' || type === 'planner') {
    sink.forbidden(path, failover, `GMS failover is not supported for component type ${JSON.stringify(type)}`, '125');
  }
}

/** Row 129: forceScalingGroup only for Grove-backed DGD components. */
function checkGrove(ctx: ComponentContext, sink: ViolationSink): void {
  const grove = mapAt(mapAt(ctx.component, 'experimental'), 'grove');
  if (boolAt(grove, 'forceScalingGroup') === true && !ctx.grovePathway) {
    sink.forbidden(
      ctx.path.child('experimental', 'grove', 'forceScalingGroup'),
      true,
      'is currently supported only for Grove-backed DynamoGraphDeployment components',
      '129',
    );
  }
}

function checkCheckpoint(ctx: ComponentContext, sink: ViolationSink): void {
  const { component } = ctx;
  const checkpoint = checkpointOf(component);
  if (!checkpoint) return;
  const path = ctx.path.child('experimental', 'checkpoint');
  const enabled = boolAt(checkpoint, 'enabled') === true;
  const gms = gpuMemoryService(component);
  const checkpointRef = stringAt(checkpoint, 'checkpointRef');

  // row 140
  if (enabled && !admittingOperator(ctx.options).checkpointEnabled) {
    sink.forbidden(path, checkpoint, 'checkpoint functionality is disabled in the operator configuration', '140');
  }
  // rows 141 and 142
  const clients = listAt(mapAt(checkpoint, 'job'), 'gmsClientContainers') ?? [];
  if (clients.length > 0) {
    const clientsPath = path.child('job', 'gmsClientContainers');
    if (!gms) {
      sink.forbidden(clientsPath, clients, 'requires gpuMemoryService to be set', '141');
    } else if (effectiveMode(stringAt(gms, 'mode')) === MODE_INTER_POD) {
      sink.forbidden(clientsPath, clients, 'is only supported with gpuMemoryService.mode=IntraPod', '142');
    }
  }
  // rows 143 and 144: snapshot compatibility
  if (enabled && gms && stringAt(gms, 'mode') === MODE_INTER_POD) {
    sink.forbidden(path, checkpoint, 'Snapshot with gpuMemoryService.mode=InterPod is unsupported', '143');
  }
  if (enabled && failoverOf(component)) {
    sink.forbidden(path, checkpoint, 'Snapshot with active/passive failover is temporarily unsupported', '144');
  }
  // row 145: worker-class checkpointRef on a standalone DCD needs a DGD controller owner (operators
  // with OPERATOR_GATES.standaloneWorkerCheckpointRef)
  if (ctx.owner === 'DCD' && isWorkerClass(componentType(component)) && checkpointRef !== undefined && checkpointRef.trim() !== '' &&
    !ownedByGraphDeployment(ctx) && rulesHave(ctx.options, 'standaloneWorkerCheckpointRef')) {
    sink.forbidden(
      path.child('checkpointRef'),
      checkpointRef,
      'worker-class checkpointRef is supported only on DynamoGraphDeployment-managed components',
      '145',
    );
  }
}

/** Whether the DCD's controller owner reference is a DynamoGraphDeployment of group nvidia.com. */
function ownedByGraphDeployment(ctx: ComponentContext): boolean {
  const owners = listAt(mapAt(ctx.document, 'metadata'), 'ownerReferences') ?? [];
  return owners.some((owner) => isMap(owner) && owner.controller === true &&
    stringAt(owner, 'kind') === 'DynamoGraphDeployment' &&
    (stringAt(owner, 'apiVersion') ?? '').split('/')[0] === 'nvidia.com');
}
