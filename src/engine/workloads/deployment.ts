/**
 * The `apps/v1` Deployment the component controller creates for a single-node DCD.
 */
import { DcdContext } from './dcd-context';
import { KubeObject, kubeObjectWithGoReading } from './kube-object';
import { GoValue, readGoValue } from '../../go/value';
import { JsonObject } from '../../model/v1beta1';
import {
  ANNOTATION_DEPLOYMENT_STRATEGY, ANNOTATION_MAX_SURGE, ANNOTATION_MAX_UNAVAILABLE, LABEL_SELECTOR,
} from '../../model/well-known';
import { workloadAnnotations, workloadLabels } from '../workload-metadata';

/** The rolling-update bound used when no annotation sets one. */
export const DEFAULT_ROLLING_UPDATE_BOUND = '25%';

const INT32_RANGE = 2n ** 32n;

/**
 * Kubernetes' `intstr.Parse`: a decimal integer (optional sign; the value is truncated to 32 bits
 * as Go's `int32` conversion does) becomes an integer, anything else stays a string.
 */
export function parseIntOrString(value: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(value)) return value;
  const n = BigInt(value);
  if (n < -(2n ** 63n) || n >= 2n ** 63n) return value;
  const wrapped = ((n % INT32_RANGE) + INT32_RANGE) % INT32_RANGE;
  return Number(wrapped >= 2n ** 31n ? wrapped - INT32_RANGE : wrapped);
}

/**
 * The Deployment strategy: `Recreate` when the pod-template annotation
 * `nvidia.com/deployment-strategy` says so, otherwise RollingUpdate with `maxSurge` /
 * `maxUnavailable` from the workload annotations (default 25% each).
 */
export function deploymentStrategy(workloadAnnotationsOfDcd: Readonly<Record<string, string>>,
  podTemplateAnnotations: Readonly<Record<string, string>> | undefined): JsonObject {
  if (podTemplateAnnotations?.[ANNOTATION_DEPLOYMENT_STRATEGY] === 'Recreate') return { type: 'Recreate' };
  const bound = (key: string) => {
    const value = workloadAnnotationsOfDcd[key];
    return value ? parseIntOrString(value) : DEFAULT_ROLLING_UPDATE_BOUND;
  };
  return {
    type: 'RollingUpdate',
    rollingUpdate: { maxSurge: bound(ANNOTATION_MAX_SURGE), maxUnavailable: bound(ANNOTATION_MAX_UNAVAILABLE) },
  };
}

/**
 * The Deployment of a DCD around the given pod template (`{metadata, spec}` as the pod renderer
 * returns it): named after the DCD, workload labels and annotations plus the create bookkeeping,
 * replicas when the DCD sets them, selector `nvidia.com/selector: <DCD name>`.
 *
 * `templateReading` is the Go reading (as PodTemplateSpec) the template is the value of, when the
 * caller has it (`takePodTemplateReading`): when it is a fixed point the template is not read
 * again, and becomes the Deployment's template as it is.
 */
export function renderDeployment(ctx: DcdContext, podTemplate: JsonObject, templateReading?: GoValue): KubeObject {
  const annotations = workloadAnnotations(ctx.dcd);
  const spec: JsonObject = {};
  const replicas = ctx.dcd.spec?.replicas;
  if (replicas !== undefined && replicas !== null) spec.replicas = replicas;
  spec.selector = { matchLabels: { [LABEL_SELECTOR]: ctx.name } };
  const reuseTemplate = templateReading !== undefined && templateReading.fixedPoint && templateReading.value === podTemplate;
  if (!reuseTemplate) spec.template = podTemplate;
  spec.strategy = deploymentStrategy(annotations, ctx.dcd.spec?.podTemplate?.metadata?.annotations);
  const reading = readGoValue(spec, DEPLOYMENT_SPEC);
  // Reading the template again would give it back unchanged; the reading above holds the zero
  // template in its place (same key, same position).
  if (reuseTemplate) reading.value.template = podTemplate;
  return kubeObjectWithGoReading('apps/v1', 'Deployment',
    { name: ctx.name, namespace: ctx.namespace, labels: workloadLabels(ctx.dcd), annotations }, reading, DEPLOYMENT_SPEC);
}

const DEPLOYMENT_SPEC = 'DeploymentSpec';
