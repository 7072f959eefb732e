/**
 * Webhook rules on the component pod template: elastic EP launch (row 93), the GPU power-limit
 * annotation (95, 96) and frontendSidecar (103). The CEL rules the CRDs carry inside the pod
 * template (rows 90-92) are evaluated by the CEL engine (cel/check.ts, cel/dynamo-rules.ts).
 *
 * Internal module.
 */
import { ComponentContext } from './component-context';
import { gpuMemoryService } from './component-shape';
import { containers, hasContainerNamed, mainContainer } from './main-container';
import { ViolationSink } from './violation';
import { isMap, JsonMap, listAt, mapAt, stringAt } from '../model/json';
import { ANNOTATION_GPU_POWER_LIMIT } from '../model/well-known';

export function checkPodTemplate(ctx: ComponentContext, sink: ViolationSink): void {
  checkElasticEpCommand(ctx, sink);
  if (ctx.owner === 'DGD') checkGpuPowerLimit(ctx, sink);
  checkFrontendSidecar(ctx, sink);
}

/** Whitespace-split tokens of the main container's command and args. */
function commandLineTokens(container: JsonMap): string[] {
  const parts = [...(listAt(container, 'command') ?? []), ...(listAt(container, 'args') ?? [])];
  return parts.filter((part): part is string => typeof part === 'string').flatMap((part) => part.split(/\s+/).filter((t) => t !== ''));
}

/** Whether the tokens ask for `flag ray` or `flag=ray`. */
function hasFlagValue(tokens: string[], flag: string, value: string): boolean {
  return tokens.some((token, i) => token === `${flag}=${value}` || (token === flag && tokens[i + 1] === value));
}

/** Whether a container launches vLLM elastic expert parallelism on the Ray data-parallel backend. */
export function isElasticEpRayLaunch(container: JsonMap): boolean {
  const tokens = commandLineTokens(container);
  return tokens.includes('--enable-elastic-ep') &&
    (hasFlagValue(tokens, '--data-parallel-backend', 'ray') || hasFlagValue(tokens, '-dpb', 'ray'));
}

/** Row 93: an elastic-EP Ray launch of vLLM needs an explicit command the operator can wrap. */
function checkElasticEpCommand(ctx: ComponentContext, sink: ViolationSink): void {
  if (ctx.backendFramework !== 'vllm') return;
  const main = mainContainer(ctx.component);
  if (!main) return;
  if ((listAt(main.container, 'command') ?? []).length > 0 || !isElasticEpRayLaunch(main.container)) return;
  sink.required(
    ctx.path.child('podTemplate', 'spec', 'containers').index(main.index).child('command'),
    'elastic expert parallelism (--enable-elastic-ep with --data-parallel-backend ray) requires an explicit container command; ' +
      'the operator starts the single-pod Ray head by wrapping that command and cannot start it from the image ENTRYPOINT',
    '93',
  );
}

/** Rows 95 and 96: the per-GPU power limit annotation of a DGD component. */
function checkGpuPowerLimit(ctx: ComponentContext, sink: ViolationSink): void {
  const { component, path } = ctx;
  const annotations = mapAt(mapAt(component.podTemplate, 'metadata'), 'annotations');
  const limit = stringAt(annotations, ANNOTATION_GPU_POWER_LIMIT);
  if (limit === undefined) return;
  const limitPath = path.child('podTemplate', 'metadata', 'annotations').key(ANNOTATION_GPU_POWER_LIMIT);
  if (!/^[+-]?[0-9]+$/.test(limit)) {
    sink.invalid(limitPath, limit, 'must be a decimal integer', '95');
  } else if (Number(limit) <= 0) {
    sink.invalid(limitPath, limit, 'must be greater than zero', '95');
  }

  const detail = `cannot be combined with annotation ${JSON.stringify(ANNOTATION_GPU_POWER_LIMIT)}: power-aware planning does not support DRA-backed device allocation`;
  const gms = gpuMemoryService(component);
  if (gms) sink.forbidden(path.child('experimental', 'gpuMemoryService'), gms, detail, '96');
  for (const listName of ['containers', 'initContainers'] as const) {
    for (const { container, index } of containers(component, listName)) {
      const claims = listAt(mapAt(container, 'resources'), 'claims');
      if (claims && claims.length > 0) {
        sink.forbidden(path.child('podTemplate', 'spec', listName).index(index).child('resources', 'claims'), claims, detail, '96');
      }
    }
  }
}

/** Row 103: frontendSidecar names a container of the pod template. */
function checkFrontendSidecar(ctx: ComponentContext, sink: ViolationSink): void {
  const { component, path } = ctx;
  const sidecar = stringAt(component, 'frontendSidecar');
  if (sidecar === undefined) return;
  const sidecarPath = path.child('frontendSidecar');
  if (!isMap(component.podTemplate)) {
    sink.required(path.child('podTemplate', 'spec', 'containers'), 'is required when frontendSidecar is set', '103');
  } else if (sidecar === '') {
    sink.invalid(sidecarPath, sidecar, 'must not be empty', '103');
  } else if (!hasContainerNamed(component, sidecar)) {
    sink.invalid(sidecarPath, sidecar, 'must match a podTemplate.spec.containers name', '103');
  }
}
