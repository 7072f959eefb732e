/**
 * The `main` container of a component's pod template, and its GPU count.
 *
 * Internal module.
 */
import { schemaQuantity } from '../go/quantity';
import { isMap, JsonMap, listAt, mapAt, stringAt } from '../model/json';

export const MAIN_CONTAINER = 'main';

/** `podTemplate.spec.containers` items that are objects, with their indexes. */
export function containers(component: JsonMap, listName: 'containers' | 'initContainers' = 'containers'): Array<{ container: JsonMap; index: number }> {
  const list = listAt(mapAt(mapAt(component, 'podTemplate'), 'spec'), listName) ?? [];
  const out: Array<{ container: JsonMap; index: number }> = [];
  list.forEach((container, index) => {
    if (isMap(container)) out.push({ container, index });
  });
  return out;
}

/** The first container named `main`, or undefined. */
export function mainContainer(component: JsonMap): { container: JsonMap; index: number } | undefined {
  return containers(component).find(({ container }) => stringAt(container, 'name') === MAIN_CONTAINER);
}

/** Whether `podTemplate.spec.containers` has a container with this name. */
export function hasContainerNamed(component: JsonMap, name: string): boolean {
  return containers(component).some(({ container }) => stringAt(container, 'name') === name);
}

/** Whether a resource name denotes a GPU (`nvidia.com/gpu`, `gpu`, `*\/gpu`, `*\/mig-*`, `gpu.*`). */
export function isGpuResourceName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'nvidia.com/gpu' || lower === 'gpu' || lower.endsWith('/gpu') || lower.includes('/mig-') || lower.startsWith('gpu.');
}

/** The result of reading a GPU count: a whole number, or why it cannot be read. */
export type GpuCount = { readonly count: number } | { readonly error: string };

/**
 * The GPU count of the main container: the first GPU-like resource (names sorted) of
 * `resources.limits`, else of `resources.requests`; 0 when there is none. The quantity must be a
 * whole number.
 */
export function mainContainerGpuCount(component: JsonMap): GpuCount {
  const main = mainContainer(component);
  const resources = main ? mapAt(main.container, 'resources') : undefined;
  for (const bucket of ['limits', 'requests']) {
    const quantities = mapAt(resources, bucket);
    if (!quantities) continue;
    const gpuNames = Object.keys(quantities).filter(isGpuResourceName).sort(byteOrder);
    if (gpuNames.length === 0) continue;
    const name = gpuNames[0];
    const raw = quantities[name];
    const quantity = schemaQuantity(raw);
    if (quantity === undefined) return { error: `resource ${JSON.stringify(name)} has an invalid quantity ${JSON.stringify(raw)}` };
    if (!Number.isInteger(quantity.value)) {
      return { error: `resource ${JSON.stringify(name)} quantity ${JSON.stringify(raw)} is not a whole number` };
    }
    return { count: quantity.value };
  }
  return { count: 0 };
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
