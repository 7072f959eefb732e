/**
 * What the operator's validating webhook checks on a v1alpha1 request besides the converted
 * object (admission rule 148: the v1alpha1 rules, with v1alpha1 field paths), and the warnings it
 * returns for deprecated v1alpha1 fields.
 */
import { GoMap } from './go-view';
import { FRONTEND_SIDECAR_CONTAINER } from './pod-parts';
import { FieldProblem } from './read';
import { compareUtf8 } from '../../go/marshal';

/** The admission rule the v1alpha1 checks belong to (docs/admission-rules.md). */
export const ALPHA_RULE = '148';

const VLLM_EXECUTOR_BACKEND_ANNOTATION = 'nvidia.com/vllm-distributed-executor-backend';

/** The v1alpha1 rule violations of a component at `path` (`spec.services[name]`, or `spec` of a DCD). */
function componentProblems(spec: GoMap, path: string): FieldProblem[] {
  const out: FieldProblem[] = [];
  const backend = spec.annotations?.[VLLM_EXECUTOR_BACKEND_ANNOTATION];
  if (typeof backend === 'string' && !['mp', 'ray'].includes(backend.toLowerCase())) {
    out.push({ path: `${path}.annotations[${VLLM_EXECUTOR_BACKEND_ANNOTATION}]`, message: `Invalid value: ${JSON.stringify(backend)}: must be "mp" or "ray"` });
  }
  (spec.volumeMounts ?? []).forEach((m: GoMap, i: number) => {
    if (m.useAsCompilationCache !== true && !m.mountPoint) {
      out.push({ path: `${path}.volumeMounts[${i}].mountPoint`, message: 'Required value: is required when useAsCompilationCache is false' });
    }
  });
  if (spec.ingress && spec.ingress.enabled === true && !spec.ingress.host) {
    out.push({ path: `${path}.ingress.host`, message: 'Required value: is required when ingress is enabled' });
  }
  if (spec.eppConfig && (spec.eppConfig.configMapRef === undefined) === (spec.eppConfig.config === undefined)) {
    out.push({ path: `${path}.eppConfig`, message: 'Forbidden: exactly one of configMapRef or config is required' });
  }
  if (spec.frontendSidecar && (spec.extraPodSpec?.containers ?? []).some((c: GoMap) => c.name === FRONTEND_SIDECAR_CONTAINER)) {
    out.push({
      path: `${path}.frontendSidecar`,
      message: `Forbidden: cannot inject frontend sidecar: a container named "${FRONTEND_SIDECAR_CONTAINER}" already exists in extraPodSpec.containers`,
    });
  }
  const failover = spec.failover;
  if (failover && failover.enabled === true && failover.mode === 'intraPod' && failover.numShadows !== undefined && failover.numShadows !== 0 && failover.numShadows !== 1) {
    out.push({
      path: `${path}.failover.numShadows`,
      message: `Invalid value: ${failover.numShadows}: is invalid for mode="intraPod": intraPod uses a fixed 1 primary + 1 shadow sidecar; use failover.mode="interPod" to configure numShadows`,
    });
  }
  return out;
}

/** The v1alpha1 rule violations of a DynamoGraphDeployment spec (a Go view). */
export function graphAlphaProblems(spec: GoMap): FieldProblem[] {
  const out: FieldProblem[] = [];
  (spec.pvcs ?? []).forEach((pvc: GoMap, i: number) => {
    if (!pvc.name) out.push({ path: `spec.pvcs[${i}].name`, message: 'Required value: is required' });
  });
  const services: GoMap = spec.services ?? {};
  for (const name of Object.keys(services).sort(compareUtf8)) {
    if (services[name]) out.push(...componentProblems(services[name], `spec.services[${name}]`));
  }
  return out;
}

/** The v1alpha1 rule violations of a DynamoComponentDeployment spec (a Go view). */
export function componentAlphaProblems(spec: GoMap): FieldProblem[] {
  return componentProblems(spec, 'spec');
}

/** The webhook's warnings for deprecated v1alpha1 fields of a component at `path`. */
export function componentAlphaWarnings(spec: GoMap, path: string): string[] {
  const out: string[] = [];
  if (typeof spec.dynamoNamespace === 'string' && spec.dynamoNamespace !== '') {
    out.push(`${path}.dynamoNamespace: deprecated (the webhook warns that it is ignored); kept only in the preservation annotation`);
  }
  if (spec.autoscaling !== undefined) {
    out.push(`${path}.autoscaling: deprecated and ignored (use scalingAdapter with HPA, KEDA or Planner); kept only in the preservation annotation`);
  }
  return out;
}
