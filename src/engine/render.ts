/**
 * The render engine: a pure function from plain documents (Dynamo custom resources and any other
 * Kubernetes objects) plus operator settings to the list of objects to write.
 */
import { admitNewGraph } from './admission';
import { RenderError } from './errors';
import { DcdJson, DgdJson, isDcd, isDgd } from '../model/v1beta1';
import { generateComponentDcds } from './graph/component-dcds';
import { graphWorkerHash } from './graph/worker-hash';
import { lastAppliedHash } from './hash/last-applied-hash';
import { OperatorSettings, resolveOperatorSettings } from './operator-settings';
import { deepClone, isMap } from '../model/json';
import { ANNOTATION_LAST_APPLIED_GENERATION, ANNOTATION_LAST_APPLIED_HASH, ANNOTATION_WORKLOAD_PROVIDER, PROVIDER_GROVE } from '../model/well-known';

/** What the engine writes for Dynamo documents. */
export type OutputMode = 'graph' | 'components';

export const OUTPUT_MODES: readonly OutputMode[] = ['graph', 'components'];

/** Kubernetes' namespace for objects that name none. */
export const DEFAULT_NAMESPACE = 'default';

export interface RenderOptions {
  readonly output: OutputMode;
  /** Namespace for objects that have none. */
  readonly namespace?: string;
  readonly operator?: Partial<OperatorSettings>;
}

/** Kinds that live outside namespaces and never get one. */
const CLUSTER_SCOPED_KINDS = new Set([
  'APIService', 'CSIDriver', 'ClusterRole', 'ClusterRoleBinding', 'ClusterTopology', 'CustomResourceDefinition',
  'DeviceClass', 'IngressClass', 'MutatingWebhookConfiguration', 'Namespace', 'Node', 'PersistentVolume',
  'PriorityClass', 'RuntimeClass', 'StorageClass', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding',
  'ValidatingWebhookConfiguration', 'VolumeAttachment',
]);

function withNamespace<T>(doc: T, namespace: string | undefined): T {
  if (!namespace || !isMap(doc) || CLUSTER_SCOPED_KINDS.has((doc as any).kind)) return doc;
  const meta = (doc as any).metadata;
  if (isMap(meta) && meta.namespace) return doc;
  return { ...(doc as any), metadata: { ...(meta ?? {}), namespace } } as T;
}

/** The DCDs the operator's graph controller creates for a new graph. */
export function renderGraphComponents(input: DgdJson, settings: OperatorSettings, namespace?: string): DcdJson[] {
  const located = withNamespace(input, namespace ?? DEFAULT_NAMESPACE);
  const dgd = admitNewGraph(located, settings);
  const ref = `DynamoGraphDeployment/${dgd.metadata.name}`;
  if (dgd.metadata.annotations?.[ANNOTATION_WORKLOAD_PROVIDER] === PROVIDER_GROVE) {
    throw new RenderError(ref, `metadata.annotations["${ANNOTATION_WORKLOAD_PROVIDER}"]`,
      'the graph takes the Grove workload provider, which creates no DynamoComponentDeployments; '
      + 'annotate it nvidia.com/enable-grove: "false" or render with Grove unavailable');
  }
  const multinode = (dgd.spec.components ?? []).findIndex(c => (c.multinode?.nodeCount ?? 0) > 1);
  if (multinode >= 0 && !settings.lwsAvailable) {
    throw new RenderError(ref, `spec.components[${multinode}].multinode`,
      'no multinode orchestrator available: the component provider needs LeaderWorkerSet for multinode components');
  }
  return generateComponentDcds(dgd, graphWorkerHash(dgd)).map(withCreateBookkeeping);
}

/** The annotations the operator writes on every object it creates: content hash and generation 1. */
function withCreateBookkeeping<T extends { metadata: { annotations?: Record<string, string> } }>(obj: T): T {
  obj.metadata.annotations = {
    ...(obj.metadata.annotations ?? {}),
    [ANNOTATION_LAST_APPLIED_HASH]: lastAppliedHash(obj),
    [ANNOTATION_LAST_APPLIED_GENERATION]: '1',
  };
  return obj;
}

/** Renders every document; non-Dynamo documents pass through unchanged. Input is not modified. */
export function renderDocuments(docs: readonly unknown[], options: RenderOptions): unknown[] {
  const settings = resolveOperatorSettings(options.operator);
  const out: unknown[] = [];
  for (const doc of docs) {
    if (options.output === 'components' && isDgd(doc)) {
      out.push(...renderGraphComponents(doc, settings, options.namespace));
    } else if (isDgd(doc) || isDcd(doc)) {
      out.push(withNamespace(deepClone(doc), options.namespace));
    } else {
      out.push(withNamespace(doc, options.namespace));
    }
  }
  return out;
}
