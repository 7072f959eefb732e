/**
 * All rules on one component: a DGD `spec.components[i]` or a standalone DCD `spec`.
 * Rows 62, 64 and 100 live here; the others are delegated by topic.
 *
 * Internal module.
 */
import { ComponentContext } from './component-context';
import { checkEpp } from './epp-rules';
import { checkExperimental } from './experimental-rules';
import { checkRoles } from './multinode-rules';
import { checkPodTemplate } from './pod-template-rules';
import { checkProviderOverride } from './provider-override-rules';
import { parseQuantity } from './quantity';
import { checkRuntimeVersion } from './runtime-version-rules';
import { ViolationSink } from './violation';
import { has, intAt, mapAt } from '../model/json';

export function checkComponent(ctx: ComponentContext, sink: ViolationSink): void {
  checkReplicas(ctx, sink);
  checkSharedMemorySize(ctx, sink);
  checkEpp(ctx, sink);
  checkPodTemplate(ctx, sink);
  checkRoles(ctx, sink);
  checkExperimental(ctx, sink);
  checkRuntimeVersion(ctx, sink);
  const override = mapAt(ctx.component, 'providerOverride');
  if (override && ctx.owner === 'DGD') {
    checkProviderOverride({ override, path: ctx.path.child('providerOverride'), scope: 'component', component: ctx.component }, ctx.provider ?? '', sink);
  }
}

/** Rows 62 (CEL on the component) and 64. */
function checkReplicas(ctx: ComponentContext, sink: ViolationSink): void {
  const { component, path } = ctx;
  const minAvailable = intAt(component, 'minAvailable');
  const replicas = intAt(component, 'replicas');
  if (minAvailable !== undefined && !(has(component, 'replicas') && replicas === undefined)) {
    if (replicas !== 0 && minAvailable > (replicas ?? 1)) {
      sink.celFailure(path, component, 'minAvailable must be less than or equal to replicas unless replicas is 0', '62');
    }
  }
  if (has(component, 'minAvailable') && !ctx.grovePathway) {
    sink.forbidden(path.child('minAvailable'), component.minAvailable, 'is currently supported only for Grove-backed DynamoGraphDeployment components', '64');
  }
}

/** Row 100: sharedMemorySize must not be negative. */
function checkSharedMemorySize(ctx: ComponentContext, sink: ViolationSink): void {
  const raw = ctx.component.sharedMemorySize;
  const quantity = parseQuantity(raw);
  if (quantity !== undefined && quantity.sign < 0) {
    sink.invalid(ctx.path.child('sharedMemorySize'), raw, 'must be non-negative', '100');
  }
}
