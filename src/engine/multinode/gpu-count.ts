/**
 * GPUs per node (`G`, render-multinode §2.3): what the `main` container of the user's pod
 * template asks for, read before any operator defaults. Scalar extended resources are read
 * first; a container without a scalar GPU count that lists resource claims is resolved through
 * Dynamic Resource Allocation, which needs the claim objects from the caller.
 */
import { compareStrings, isMap, JsonMap } from '../../model/json';
import { MAIN_CONTAINER } from '../../model/well-known';
import { RenderError } from '../errors';
import { parseQuantity, QuantityParseError } from '../hash/quantity';

/** Whether a resource name denotes GPUs (`nvidia.com/gpu`, `gpu`, `…/gpu`, `…/mig-…`, `gpu.…`). */
export function isGpuResourceName(name: string): boolean {
  const n = name.toLowerCase();
  return n === 'nvidia.com/gpu' || n === 'gpu' || n.endsWith('/gpu') || n.includes('/mig-') || n.startsWith('gpu.');
}

/** A quantity that must be a whole number of GPUs. */
function wholeCount(value: unknown, objectRef: string, field: string): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : undefined;
  if (text === undefined) throw new RenderError(objectRef, field, `GPU count must be a quantity, got ${JSON.stringify(value)}`);
  let amount;
  try {
    amount = parseQuantity(text).amount;
  } catch (e) {
    if (e instanceof QuantityParseError) throw new RenderError(objectRef, field, `GPU count ${JSON.stringify(text)}: ${e.message}`);
    throw e;
  }
  let whole: bigint | undefined;
  if (amount.exp10 >= 0) {
    whole = amount.unscaled * 10n ** BigInt(amount.exp10);
  } else {
    const divisor = 10n ** BigInt(-amount.exp10);
    if (amount.unscaled % divisor === 0n) whole = amount.unscaled / divisor;
  }
  if (whole === undefined || whole > BigInt(Number.MAX_SAFE_INTEGER) || whole < 0n) {
    throw new RenderError(objectRef, field, `GPU count must be a whole number, got ${JSON.stringify(text)}`);
  }
  return Number(whole);
}

/**
 * GPUs in one resource list (`limits` or `requests`): the value of the byte-wise first GPU
 * resource name, or undefined when the list names no GPU resource.
 */
function gpusInResourceList(list: unknown, objectRef: string, field: string): number | undefined {
  if (!isMap(list)) return undefined;
  const names = Object.keys(list).filter(isGpuResourceName).sort(compareStrings);
  if (names.length === 0) return undefined;
  return wholeCount(list[names[0]], objectRef, `${field}[${names[0]}]`);
}

/**
 * Scalar GPU count of a container's `resources`: from `limits` when they name a GPU resource,
 * else from `requests`, else 0.
 */
export function scalarGpuCount(resources: unknown, objectRef: string, field = 'resources'): number {
  if (!isMap(resources)) return 0;
  return gpusInResourceList(resources.limits, objectRef, `${field}.limits`)
    ?? gpusInResourceList(resources.requests, objectRef, `${field}.requests`)
    ?? 0;
}

/** One alternative of a device request (`exactly`, or an item of `firstAvailable`). */
export interface DeviceSubRequestJson {
  deviceClassName?: string;
  count?: number;
  allocationMode?: string;
  selectors?: unknown[];
  [key: string]: unknown;
}

/** One device request of a ResourceClaim(Template) spec (`spec.devices.requests[]`). */
export interface DeviceRequestJson {
  name?: string;
  exactly?: DeviceSubRequestJson;
  firstAvailable?: DeviceSubRequestJson[];
  [key: string]: unknown;
}

/** What DRA resolution needs from the cluster; the renderer itself has no cluster access. */
export interface DraLookup {
  /**
   * The device requests of the claim behind one pod `resourceClaims` entry (its
   * `resourceClaimTemplateName`, else `resourceClaimName`), or undefined when that object is unknown.
   */
  deviceRequests(podClaim: JsonMap): DeviceRequestJson[] | undefined;
  /**
   * Whether a device class, narrowed by the request's own selectors, hands out GPUs; undefined
   * when that cannot be told (an error, as for the operator).
   */
  isGpuDeviceClass(deviceClassName: string, selectors: unknown[]): boolean | undefined;
}

/** Whether an alternative asks for GPUs. */
function isGpuRequest(sub: DeviceSubRequestJson, lookup: DraLookup, objectRef: string, field: string): boolean {
  const className = sub.deviceClassName ?? '';
  const gpu = lookup.isGpuDeviceClass(className, Array.isArray(sub.selectors) ? sub.selectors : []);
  if (gpu === undefined) throw new RenderError(objectRef, field, `cannot tell whether device class ${JSON.stringify(className)} provides GPUs`);
  return gpu;
}

/** Devices of one GPU alternative: `count` (0 or absent counts 1) in ExactCount mode; All is refused. */
function exactDeviceCount(sub: DeviceSubRequestJson, objectRef: string, field: string): number {
  const mode = sub.allocationMode ?? '';
  if (mode === 'All') throw new RenderError(objectRef, field, 'GPU count cannot be derived from a device request with allocationMode All');
  if (mode !== '' && mode !== 'ExactCount') throw new RenderError(objectRef, field, `unsupported GPU allocationMode ${JSON.stringify(mode)}`);
  const count = typeof sub.count === 'number' ? sub.count : 0;
  if (count < 0) throw new RenderError(objectRef, field, `GPU device count must be positive, got ${count}`);
  return count === 0 ? 1 : count;
}

/** GPUs of one device request: `exactly`, or the count every GPU alternative of `firstAvailable` agrees on. */
function deviceRequestGpus(request: DeviceRequestJson, lookup: DraLookup, objectRef: string, field: string): number {
  if (isMap(request.exactly)) {
    const f = `${field}.exactly`;
    return isGpuRequest(request.exactly, lookup, objectRef, f) ? exactDeviceCount(request.exactly, objectRef, f) : 0;
  }
  const alternatives = Array.isArray(request.firstAvailable) ? request.firstAvailable.filter(isMap) as DeviceSubRequestJson[] : [];
  if (alternatives.length === 0) {
    throw new RenderError(objectRef, field, `device request ${JSON.stringify(request.name ?? '')} must set exactly or firstAvailable`);
  }
  let count: number | undefined;
  let nonGpu = false;
  alternatives.forEach((sub, i) => {
    const f = `${field}.firstAvailable[${i}]`;
    if (!isGpuRequest(sub, lookup, objectRef, f)) {
      nonGpu = true;
      return;
    }
    const c = exactDeviceCount(sub, objectRef, f);
    if (count !== undefined && c !== count) {
      throw new RenderError(objectRef, f, `GPU alternatives of device request ${JSON.stringify(request.name ?? '')} ask for different counts (${count} and ${c})`);
    }
    count = c;
  });
  if (count !== undefined && nonGpu) {
    throw new RenderError(objectRef, field, `device request ${JSON.stringify(request.name ?? '')} mixes GPU and non-GPU alternatives`);
  }
  return count ?? 0;
}

/**
 * GPUs per node of a pod spec's `main` container (render-multinode §2.3). Scalar resources come
 * first; when they give 0 and the container lists `resources.claims`, each distinct claim
 * (name + request) is matched to the pod's `resourceClaims` entry of that name and its GPU device
 * requests (only the named request, when the container claim names one) are summed through
 * `dra`. A container with claims but no `dra` lookup is refused: the count cannot be known.
 */
export function gpusPerNode(podSpec: unknown, objectRef: string, dra?: DraLookup): number {
  const containers = isMap(podSpec) && Array.isArray(podSpec.containers) ? podSpec.containers : [];
  const index = containers.findIndex(c => isMap(c) && c.name === MAIN_CONTAINER);
  if (index < 0) return 0;
  const main = containers[index] as JsonMap;
  const field = `spec.podTemplate.spec.containers[${index}].resources`;
  const scalar = scalarGpuCount(main.resources, objectRef, field);
  const claims = isMap(main.resources) && Array.isArray(main.resources.claims) ? main.resources.claims : [];
  if (scalar > 0 || claims.length === 0) return scalar;
  if (!dra) throw new RenderError(objectRef, `${field}.claims`, 'GPU count through resource claims needs the ResourceClaim(Template) and DeviceClass objects, which were not provided');
  const podClaims = isMap(podSpec) && Array.isArray(podSpec.resourceClaims) ? podSpec.resourceClaims.filter(isMap) : [];
  const seen = new Set<string>();
  let total = 0;
  claims.forEach((claim, ci) => {
    const name = isMap(claim) && typeof claim.name === 'string' ? claim.name : '';
    const requestName = isMap(claim) && typeof claim.request === 'string' ? claim.request : '';
    const key = `${name}\u0000${requestName}`;
    if (seen.has(key)) return;
    seen.add(key);
    const f = `${field}.claims[${ci}]`;
    const podClaim = podClaims.find(p => p.name === name);
    if (!podClaim) throw new RenderError(objectRef, f, `container resource claim ${JSON.stringify(name)} has no matching pod resourceClaims entry`);
    const requests = dra.deviceRequests(podClaim);
    if (!requests) throw new RenderError(objectRef, f, `the ResourceClaim(Template) behind ${JSON.stringify(name)} was not found`);
    const selected = requests.filter(r => requestName === '' || r.name === requestName);
    if (requestName !== '' && selected.length === 0) throw new RenderError(objectRef, f, `device request ${JSON.stringify(requestName)} was not found`);
    selected.forEach((request, ri) => { total += deviceRequestGpus(request, dra, objectRef, `${f}.devices.requests[${ri}]`); });
  });
  return total;
}
