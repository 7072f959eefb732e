/**
 * GPUs per node (`G`, docs/design/render-multinode.md §2.3): what the `main` container of the user's pod
 * template asks for, read before any operator defaults. Scalar extended resources are read
 * first; a container without a scalar GPU count that lists resource claims is resolved through
 * Dynamic Resource Allocation, which needs the claim objects from the caller.
 */
import { DraLookup, RESOURCE_API_VERSION, RESOURCE_CLAIM, RESOURCE_CLAIM_TEMPLATE } from './dra-objects';
import { parseQuantity, QuantityParseError, safeIntegerAmount } from '../../go/quantity';
import { compareStrings, isMap, JsonMap } from '../../model/json';
import { RenderError } from '../../model/render-error';
import { MAIN_CONTAINER } from '../../model/well-known';

export type { DraLookup } from './dra-objects';

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
  const whole = safeIntegerAmount(amount);
  if (whole === undefined || whole < 0) {
    throw new RenderError(objectRef, field, `GPU count must be a whole number, got ${JSON.stringify(text)}`);
  }
  return whole;
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

/**
 * Whether a driver, device class or resource name looks like GPUs (lower-cased: `gpu`, or starting
 * `gpu.` / `gpu/`, ending `/gpu`, or containing `/gpu.` / `/gpu-`).
 */
export function looksLikeGpuIdentifier(name: string): boolean {
  const n = name.toLowerCase();
  return n === 'gpu' || n.startsWith('gpu.') || n.startsWith('gpu/') || n.endsWith('/gpu') || n.includes('/gpu.') || n.includes('/gpu-');
}

/**
 * Positive `device.driver == "<driver>"` terms of a CEL selector at the top level of a conjunction
 * (at the start of the expression or after `&&`, behind any opening parentheses): the operator's
 * `(?:^|&&)\s*\(*\s*device\.driver\s*==\s*["']([^"']+)["']` (`deploy/operator/internal/dra/dra.go`),
 * with `\s*\(*\s*` written as `\s*(?:\(+\s*)?` (the same texts, one way to match each: a
 * backtracking engine would otherwise try every split of a long white-space run).
 */
const DRIVER_EQUALITY = /(?:^|&&)[\t\n\f\r ]*(?:\(+[\t\n\f\r ]*)?device\.driver[\t\n\f\r ]*==[\t\n\f\r ]*["']([^"']+)["']/g;

/**
 * Whether the devices a request may get from a DeviceClass are GPUs, as the operator decides it from
 * the class's selectors followed by the request's (both must match, so both narrow the drivers):
 * 1. the drivers named by `device.driver == "..."` terms of selectors without `||` (a disjunction
 *    does not narrow every device): GPUs when they look like GPU names; GPU and non-GPU drivers
 *    together are an error;
 * 2. else the class's `extendedResourceName`, when set: whether it is a GPU resource name;
 * 3. else, only when neither the class nor the request has a selector, whether the class name looks
 *    like GPUs;
 * 4. else it cannot be told (an error naming what to set).
 */
export function deviceClassGivesGpus(deviceClass: JsonMap, requestSelectors: readonly unknown[], objectRef: string, field: string): boolean {
  const className = isMap(deviceClass.metadata) && typeof deviceClass.metadata.name === 'string' ? deviceClass.metadata.name : '';
  const spec = isMap(deviceClass.spec) ? deviceClass.spec : {};
  const selectors = [...(Array.isArray(spec.selectors) ? spec.selectors : []), ...requestSelectors];
  let gpu: boolean | undefined;
  for (const selector of selectors) {
    const expression = isMap(selector) && isMap(selector.cel) && typeof selector.cel.expression === 'string' ? selector.cel.expression : undefined;
    if (expression === undefined || expression.includes('||')) continue;
    for (const match of expression.matchAll(DRIVER_EQUALITY)) {
      const driverIsGpu = looksLikeGpuIdentifier(match[1]);
      if (gpu !== undefined && driverIsGpu !== gpu) {
        throw new RenderError(objectRef, field,
          `DeviceClass ${JSON.stringify(className)} and the request's selectors restrict device.driver to GPU and non-GPU drivers at once`);
      }
      gpu = driverIsGpu;
    }
  }
  if (gpu !== undefined) return gpu;
  if (typeof spec.extendedResourceName === 'string') return isGpuResourceName(spec.extendedResourceName);
  if (selectors.length === 0 && looksLikeGpuIdentifier(className)) return true;
  throw new RenderError(objectRef, field,
    `cannot tell whether DeviceClass ${JSON.stringify(className)} provides GPUs: give it spec.extendedResourceName, `
    + 'or restrict device.driver (device.driver == "<driver>") in a selector of the class or of the request');
}

/** Whether an alternative asks for GPUs: its DeviceClass must be in `dra`. */
function isGpuRequest(sub: DeviceSubRequestJson, dra: DraLookup, objectRef: string, field: string): boolean {
  const className = sub.deviceClassName ?? '';
  const deviceClass = dra.deviceClass(className);
  if (!deviceClass) {
    throw new RenderError(objectRef, field,
      `the operator reads DeviceClass ${JSON.stringify(className)} from the cluster to tell whether the request asks for GPUs; `
      + `add it to the input (${RESOURCE_API_VERSION} DeviceClass, e.g. kubectl get deviceclass ${className} -o yaml)`);
  }
  return deviceClassGivesGpus(deviceClass, Array.isArray(sub.selectors) ? sub.selectors : [], objectRef, field);
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
function deviceRequestGpus(request: DeviceRequestJson, dra: DraLookup, objectRef: string, field: string): number {
  if (isMap(request.exactly)) {
    const f = `${field}.exactly`;
    return isGpuRequest(request.exactly, dra, objectRef, f) ? exactDeviceCount(request.exactly, objectRef, f) : 0;
  }
  const alternatives = Array.isArray(request.firstAvailable) ? request.firstAvailable.filter(isMap) as DeviceSubRequestJson[] : [];
  if (alternatives.length === 0) {
    throw new RenderError(objectRef, field, `device request ${JSON.stringify(request.name ?? '')} must set exactly or firstAvailable`);
  }
  let count: number | undefined;
  let nonGpu = false;
  alternatives.forEach((sub, i) => {
    const f = `${field}.firstAvailable[${i}]`;
    if (!isGpuRequest(sub, dra, objectRef, f)) {
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

/** Where the device requests of one pod `resourceClaims` entry are: the object and its requests. */
interface ClaimSource {
  /** `ResourceClaimTemplate <namespace>/<name>` or `ResourceClaim <namespace>/<name>`. */
  readonly describe: string;
  /** Field path of the requests inside that object. */
  readonly requestsField: string;
  readonly requests: DeviceRequestJson[];
}

/**
 * The device requests behind a pod `resourceClaims` entry: its `resourceClaimTemplateName` when set,
 * else its `resourceClaimName`, read from the DCD's namespace through `dra`. An object the input
 * does not hold is refused, naming what to add.
 */
function claimSource(podClaim: JsonMap, dra: DraLookup, objectRef: string, field: string): ClaimSource {
  const templateName = typeof podClaim.resourceClaimTemplateName === 'string' ? podClaim.resourceClaimTemplateName : '';
  const claimName = typeof podClaim.resourceClaimName === 'string' ? podClaim.resourceClaimName : '';
  const [kind, name] = templateName !== '' ? [RESOURCE_CLAIM_TEMPLATE, templateName]
    : claimName !== '' ? [RESOURCE_CLAIM, claimName] : ['', ''];
  if (kind === '') {
    throw new RenderError(objectRef, field,
      `pod resourceClaims entry ${JSON.stringify(podClaim.name ?? '')} names neither a resourceClaimTemplateName nor a resourceClaimName`);
  }
  const object = kind === RESOURCE_CLAIM_TEMPLATE ? dra.claimTemplate(name) : dra.claim(name);
  const describe = `${kind} ${dra.namespace}/${name}`;
  if (!object) {
    throw new RenderError(objectRef, field,
      `the operator counts the GPUs of a multinode container that asks for them through resource claims from the ${describe} `
      + 'and the DeviceClass of each of its device requests, which it reads from the cluster; add them to the input '
      + `(${RESOURCE_API_VERSION} ${kind} in namespace ${dra.namespace}, and DeviceClass), or give the main container a scalar GPU resource (nvidia.com/gpu)`);
  }
  const spec = isMap(object.spec) ? object.spec : {};
  const claimSpec = kind === RESOURCE_CLAIM_TEMPLATE ? (isMap(spec.spec) ? spec.spec : {}) : spec;
  const devices = isMap(claimSpec.devices) ? claimSpec.devices : {};
  const requests = Array.isArray(devices.requests) ? devices.requests.map(r => (isMap(r) ? r : {}) as DeviceRequestJson) : [];
  const requestsField = kind === RESOURCE_CLAIM_TEMPLATE ? 'spec.spec.devices.requests' : 'spec.devices.requests';
  return { describe, requestsField, requests };
}

/**
 * GPUs per node of a pod spec's `main` container (docs/design/render-multinode.md §2.3). Scalar resources come
 * first; when they give 0 and the container lists `resources.claims`, each distinct claim
 * (name + request) is matched to the pod's `resourceClaims` entry of that name and the GPU device
 * requests of the ResourceClaimTemplate or ResourceClaim it names (only the named request, when the
 * container claim names one) are summed, reading the objects through `dra`. A container with claims
 * but no `dra` lookup is refused: the count cannot be known.
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
  if (!dra) {
    throw new RenderError(objectRef, `${field}.claims`,
      'GPU count through resource claims needs the ResourceClaimTemplate (or ResourceClaim) and DeviceClass objects, which were not provided');
  }
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
    // of entries sharing a name (which the API server refuses), the last one counts
    const podClaim = [...podClaims].reverse().find(p => p.name === name);
    if (!podClaim) throw new RenderError(objectRef, f, `container resource claim ${JSON.stringify(name)} has no matching pod resourceClaims entry`);
    const source = claimSource(podClaim, dra, objectRef, f);
    let found = requestName === '';
    source.requests.forEach((request, ri) => {
      if (requestName !== '' && request.name !== requestName) return;
      found = true;
      total += deviceRequestGpus(request, dra, objectRef, `${f} (${source.describe} ${source.requestsField}[${ri}])`);
    });
    if (!found) throw new RenderError(objectRef, f, `device request ${JSON.stringify(requestName)} was not found in ${source.describe}`);
  });
  return total;
}
