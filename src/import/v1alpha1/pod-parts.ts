/**
 * Pieces of the v1alpha1 pod fields the conversion and the restoration of preserved data share:
 * the well-known container names, v1alpha1 `resources` as Kubernetes resource requirements and
 * back, and the emptiness checks the operator makes on Go values.
 */
import { GoMap, goText, hasKeys, isGoZero, nonEmpty } from './go-view';
import { canonicalQuantity, QuantityParseError } from '../../go/quantity';
import { jsonRoundTrip } from '../../model/json-copy';

export const MAIN_CONTAINER = 'main';
/** The container name a v1alpha1 `frontendSidecar` becomes. */
export const FRONTEND_SIDECAR_CONTAINER = 'sidecar-frontend';
/** The resource a v1alpha1 `gpu` without `gpuType` counts. */
const DEFAULT_GPU_RESOURCE = 'nvidia.com/gpu';

/** Data the conversion drops without keeping it in the v1beta1 object (path relative to the component). */
export interface ConversionLoss {
  readonly path: string;
  readonly message: string;
}

/** The pod spec part of a v1alpha1 `extraPodSpec` (everything but `mainContainer`). */
export function podSpecOf(extraPodSpec: GoMap): GoMap {
  // the main container is left out before the copy: a copy of the rest alone
  const { mainContainer: _main, ...podSpec } = extraPodSpec;
  return jsonRoundTrip(podSpec);
}

// ---------------------------------------------------------------------------------------------
// resources

/** v1alpha1 `resources` as a Kubernetes ResourceRequirements (quantities that do not parse are left out). */
export function resourcesToNative(r: GoMap): GoMap {
  const out: GoMap = { claims: jsonRoundTrip(r.claims) };
  if (r.requests) out.requests = resourceList(r.requests);
  if (r.limits) out.limits = resourceList(r.limits);
  return out;
}

/** The ResourceList of a v1alpha1 resource item: cpu, memory, gpu (as `gpuType`, default nvidia.com/gpu), custom. */
function resourceList(item: GoMap): GoMap | undefined {
  const out: GoMap = {};
  const put = (name: string, text: unknown) => {
    const q = quantityOrUndefined(text);
    if (q !== undefined) out[name] = q;
  };
  if (item.cpu) put('cpu', item.cpu);
  if (item.memory) put('memory', item.memory);
  if (item.gpu) put(item.gpuType ? item.gpuType : DEFAULT_GPU_RESOURCE, item.gpu);
  for (const [name, value] of Object.entries(item.custom ?? {})) put(name, value);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The canonical text of a quantity, or undefined when it does not parse. */
export function quantityOrUndefined(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    return canonicalQuantity(text);
  } catch (e) {
    if (e instanceof QuantityParseError) return undefined;
    throw e;
  }
}

/** The v1alpha1 resources read back from a ResourceList (no gpuType; nvidia.com/gpu as gpu). */
export function resourcesFromNative(r: GoMap): GoMap | undefined {
  const out: GoMap = { requests: resourceItemOf(r.requests), limits: resourceItemOf(r.limits), claims: jsonRoundTrip(r.claims) };
  if (out.requests === undefined && out.limits === undefined && !nonEmpty(out.claims)) return undefined;
  return out;
}

function resourceItemOf(list: GoMap | undefined): GoMap | undefined {
  if (!hasKeys(list)) return undefined;
  const out: GoMap = {};
  for (const [name, q] of Object.entries(list)) {
    if (name === 'cpu') out.cpu = q;
    else if (name === 'memory') out.memory = q;
    else if (name === DEFAULT_GPU_RESOURCE) out.gpu = q;
    else (out.custom ??= {})[name] = q;
  }
  return out;
}

/** Whether the v1alpha1 resources do not read back as themselves from the ResourceRequirements. */
export function resourcesNeedPreservation(r: GoMap | undefined): boolean {
  if (r === undefined) return false;
  const back = resourcesFromNative(resourcesToNative(r));
  return goText(r, '*A1Resources') !== goText(back ?? null, '*A1Resources');
}

/** The resource item entries the conversion drops because their quantity does not parse. */
export function unparseableResources(r: GoMap | undefined): ConversionLoss[] {
  const losses: ConversionLoss[] = [];
  for (const part of ['requests', 'limits'] as const) {
    const item = r?.[part];
    if (!item) continue;
    const check = (path: string, text: unknown) => {
      if (typeof text === 'string' && text !== '' && quantityOrUndefined(text) === undefined) {
        losses.push({ path: `resources.${part}.${path}`, message: `Invalid value: ${JSON.stringify(text)}: not a quantity; the conversion leaves it out of the pod template` });
      }
    };
    check('cpu', item.cpu);
    check('memory', item.memory);
    check('gpu', item.gpu);
    for (const [name, value] of Object.entries(item.custom ?? {})) check(`custom[${name}]`, value);
  }
  return losses;
}

// ---------------------------------------------------------------------------------------------
// zero checks

/** Whether a container holds nothing but (maybe) a name. */
export function containerIsEmpty(c: GoMap | undefined): boolean {
  if (!c) return true;
  return isGoZero({ ...c, name: '' }, 'Container');
}

/** Whether a v1alpha1 extraPodSpec holds nothing (no pod spec field, an empty main container). */
export function extraPodSpecIsZero(eps: GoMap | undefined): boolean {
  if (!eps) return true;
  return isGoZero(podSpecOf(eps), 'PodSpec') && containerIsEmpty(eps.mainContainer);
}

