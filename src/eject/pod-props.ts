/**
 * A component's `podTemplate` as the pod props a person writes (`image`, `command`, `args`,
 * `workingDir`, `env`, `envFrom`, `gpus` of the `main` container) and, for everything else, the
 * typed `podTemplate` prop. Each prop is taken out of the template only where the construct puts
 * it back where it was (`podTemplateJson`): the `main` container found by name, or put first.
 */
import { Code, kplus, list, num, str } from './code';
import { envFromProp, envProp } from './env-values';
import { kubernetesLiteral } from './kubernetes-literal';
import { EjectProblems } from './problems';
import { ChartReferences } from './program';
import { isMap } from '../model/json';
import { copyJson } from '../model/json-copy';
import { MAIN_CONTAINER } from '../model/well-known';

const GPU = 'nvidia.com/gpu';

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every(v => typeof v === 'string');
}

/** Deletes `key` of `map` when it holds an empty map. */
function dropEmpty(map: Record<string, any>, key: string): void {
  if (isMap(map[key]) && Object.keys(map[key]).length === 0) delete map[key];
}

/**
 * The pod props (in the order a person writes them) of `podTemplate`, at `path` for problems;
 * `orderedMaps`: whether the language keeps a map in the order written (not Go).
 */
export function podProps(
  podTemplate: unknown, path: string, refs: ChartReferences, problems: EjectProblems, orderedMaps = true,
): Array<readonly [string, Code]> {
  if (!isMap(podTemplate)) return [['podTemplate', kubernetesLiteral(podTemplate, 'PodTemplateSpec', path, problems)]];
  const template = copyJson(podTemplate) as Record<string, any>;
  const containers: unknown[] | undefined = isMap(template.spec) && Array.isArray(template.spec.containers) ? template.spec.containers : undefined;
  const at = containers?.findIndex(c => isMap(c) && c.name === MAIN_CONTAINER) ?? -1;
  if (containers === undefined || at < 0) return [['podTemplate', kubernetesLiteral(template, 'PodTemplateSpec', path, problems)]];
  const main = containers[at] as Record<string, any>;
  const props: Array<readonly [string, Code]> = [];

  if (typeof main.image === 'string') {
    props.push(['image', str(main.image)]);
    delete main.image;
  }
  for (const key of ['command', 'args'] as const) {
    if (!isStringList(main[key])) continue;
    props.push([key, list('string', main[key].map(str))]);
    delete main[key];
  }
  if (typeof main.workingDir === 'string') {
    props.push(['workingDir', str(main.workingDir)]);
    delete main.workingDir;
  }
  if (Array.isArray(main.env)) {
    // where maps have no order (Go), the env prop holds one entry and the pod template the rest
    const env = envProp(main.env, refs, orderedMaps ? Infinity : 1);
    if (env) {
      props.push(['env', env.prop]);
      if (env.kept.length > 0) main.env = env.kept; else delete main.env;
    }
  }
  if (Array.isArray(main.envFrom)) {
    const envFrom = envFromProp(main.envFrom, refs);
    if (envFrom) {
      props.push(['envFrom', list({ class: kplus('EnvFrom') }, envFrom.prop)]);
      if (envFrom.kept.length > 0) main.envFrom = envFrom.kept; else delete main.envFrom;
    }
  }
  const limits = isMap(main.resources) && isMap(main.resources.limits) ? main.resources.limits : undefined;
  const gpus = limits?.[GPU];
  if (typeof gpus === 'string' && /^(0|[1-9]\d{0,8})$/.test(gpus)) {
    props.push(['gpus', num(Number(gpus))]);
    delete limits![GPU];
    dropEmpty(main.resources, 'limits');
    dropEmpty(main, 'resources');
  }

  // the bare `main` container, first, is the one the construct puts first: no need to write it
  // (a PodSpec of other fields lists it still, as the typed PodSpec needs containers)
  const extracted = props.length > 0;
  if (extracted && at === 0 && Object.keys(main).length === 1 && (containers.length > 1 || Object.keys(template.spec).length === 1)) {
    containers.splice(0, 1);
    if (containers.length === 0) delete template.spec.containers;
    dropEmpty(template, 'spec');
  }
  if (!extracted || Object.keys(template).length > 0) {
    props.push(['podTemplate', kubernetesLiteral(template, 'PodTemplateSpec', path, problems)]);
  }
  return props;
}
