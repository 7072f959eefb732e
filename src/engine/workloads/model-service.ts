/**
 * The headless Service of a model (`modelRef.name`): `dynamo-model-<h8>`, selecting every pod that
 * serves the model, shared by all components that name it.
 */
import { DcdContext } from './dcd-context';
import { KubeObject, kubeObjectWithGoSpec } from './kube-object';
import { SYSTEM_PORT } from './workload-keys';
import {
  ANNOTATION_BASE_MODEL, LABEL_BASE_MODEL_HASH, LABEL_MANAGED_BY, MANAGED_BY_OPERATOR,
} from '../../model/well-known';
import { baseModelHash } from '../workload-metadata';

/** `dynamo-model-<first 8 hex characters of sha256(model name)>`. */
export function modelServiceName(modelName: string): string {
  return `dynamo-model-${baseModelHash(modelName)}`;
}

/** The model Service for a DCD with `modelRef.name`, or undefined when it names no model. */
export function renderModelService(ctx: DcdContext): KubeObject | undefined {
  const model = ctx.dcd.spec?.modelRef?.name;
  if (!model) return undefined;
  const hash = baseModelHash(model);
  const spec = {
    ports: [{ name: 'system', protocol: 'TCP', port: SYSTEM_PORT, targetPort: SYSTEM_PORT }],
    selector: { [LABEL_BASE_MODEL_HASH]: hash },
    clusterIP: 'None',
  };
  return kubeObjectWithGoSpec('v1', 'Service', {
    name: modelServiceName(model),
    namespace: ctx.namespace,
    labels: { [LABEL_BASE_MODEL_HASH]: hash, [LABEL_MANAGED_BY]: MANAGED_BY_OPERATOR },
    annotations: { [ANNOTATION_BASE_MODEL]: model },
  }, spec, 'ServiceSpec');
}
