/**
 * All webhook rules on one component: a DGD `spec.components[i]` or a standalone DCD `spec`.
 * Rows 64 and 100 live here; the others are delegated by topic. The CRD's CEL rules on components
 * (rows 44, 52, 53, 62, 63, 90-92, 110-112, 139) are evaluated by the CEL engine (cel/check.ts).
 *
 * Internal module.
 */
import { ComponentContext } from './component-context';
import { checkEpp } from './epp-rules';
import { checkExperimental } from './experimental-rules';
import { checkRoles } from './multinode-rules';
import { checkPodTemplate } from './pod-template-rules';
import { checkProviderOverride } from './provider-override-rules';
import { checkRuntimeVersion } from './runtime-version-rules';
import { ViolationSink } from './violation';
import { schemaQuantity } from '../go/quantity';
import { has, mapAt } from '../model/json';

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

/** Row 64: minAvailable only on Grove-backed DGD components. */
function checkReplicas(ctx: ComponentContext, sink: ViolationSink): void {
  const { component, path } = ctx;
  if (has(component, 'minAvailable') && !ctx.grovePathway) {
    sink.forbidden(path.child('minAvailable'), component.minAvailable, 'is currently supported only for Grove-backed DynamoGraphDeployment components', '64');
  }
}

/** Row 100: sharedMemorySize must not be negative. */
function checkSharedMemorySize(ctx: ComponentContext, sink: ViolationSink): void {
  const raw = ctx.component.sharedMemorySize;
  const quantity = schemaQuantity(raw);
  if (quantity !== undefined && quantity.sign < 0) {
    sink.invalid(ctx.path.child('sharedMemorySize'), raw, 'must be non-negative', '100');
  }
}
