/**
 * Merging the user's `main` container over the component-type base container (docs/design/render-core.md §5.4).
 *
 * Scalars the user sets win, empty ones never clear a default; lists (`command`, `args`, `ports`,
 * `volumeMounts`, `envFrom`, ...) are replaced by a non-empty user list; env is merged by name and
 * sorted; a user probe replaces the default probe as a whole; the name is always `main`.
 */
import { mergeEnvs } from './env';
import { ContainerJson } from './k8s-json';
import { mergoMerge } from '../../go/mergo';
import { isMap, JsonMap } from '../../model/json';
import { copyJson, shallowCopy } from '../../model/json-copy';
import { MAIN_CONTAINER } from '../../model/well-known';

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

/** The first container named `main` of a pod template spec (a second one is ignored). */
export function userMainContainer(containers: unknown): JsonMap | undefined {
  if (!Array.isArray(containers)) return undefined;
  return containers.find((c): c is JsonMap => isMap(c) && c.name === MAIN_CONTAINER);
}

/** The base container with the user's `main` container merged over it. */
export function mergeMainContainer(base: ContainerJson, user: JsonMap): ContainerJson {
  let override: JsonMap = copyJson(user);
  // as `{ ...copy }` would: a `__proto__` key of the user container leaves no prototype behind
  if (Object.getPrototypeOf(override) !== Object.prototype) override = shallowCopy(override);
  override.name = MAIN_CONTAINER;
  const merged = mergoMerge(base, override);
  merged.env = mergeEnvs(base.env, override.env as ContainerJson['env']);
  for (const probe of PROBES) {
    if (override[probe] !== undefined && override[probe] !== null) merged[probe] = copyJson(override[probe]) as JsonMap;
  }
  merged.name = MAIN_CONTAINER;
  return merged;
}
