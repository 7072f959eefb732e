/**
 * The objects a graph with an EPP (Endpoint Picker) component gets besides its DCDs: the EPP
 * configuration ConfigMap, the InferencePool the EPP serves, and, under Istio, a DestinationRule
 * for the EPP's gRPC Service.
 */
import { eppConfigYaml } from './epp-config-yaml';
import { asGo, kubeObject, KubeObject, normalizeKubeResourceName } from './kube-object';
import { ISTIO_NETWORKING_API_VERSION } from './virtual-service';
import { FRONTEND_HTTP_PORT } from './workload-keys';
import { EPP_CONFIG_FILE, EPP_GRPC_PORT, eppConfigMapName, INFERENCE_POOL_API_VERSION, inferencePoolName } from '../../model/epp-names';
import { istioEnabled, OperatorSettings } from '../../model/operator-settings';
import { operatorHas } from '../../model/operator-version';
import { RenderError } from '../../model/render-error';
import { ComponentSpecJson, DGD_KIND, DgdJson } from '../../model/v1beta1';
import { LABEL_COMPONENT, LABEL_COMPONENT_CLASS, LABEL_COMPONENT_TYPE, LABEL_DYNAMO_NAMESPACE, LABEL_GRAPH_NAME } from '../../model/well-known';
import { withCreateBookkeeping } from '../bookkeeping';
import { eppConfigurationRequired } from '../component/epp';
import { resolveRuntimeVersion } from '../component-runtime-version';
import { computeDynamoNamespace } from '../dynamo-namespace';

/**
 * Whether an EPP without `eppConfig` is the native (Rust) EPP, which needs no configuration file:
 * so for the operators that have runtime-gated rendering (`OPERATOR_GATES.runtimeGatedDefaults`);
 * older operators require the configuration.
 */
export function operatorSupportsNativeEpp(settings: OperatorSettings): boolean {
  return operatorHas(settings.version, 'runtimeGatedDefaults');
}

interface EppComponent {
  readonly component: ComponentSpecJson;
  readonly index: number;
}

function eppComponent(dgd: DgdJson): EppComponent | undefined {
  const index = (dgd.spec.components ?? []).findIndex(c => c.type === 'epp');
  return index < 0 ? undefined : { component: dgd.spec.components![index], index };
}

function eppLabels(graphName: string, componentName: string): Record<string, string> {
  return { [LABEL_GRAPH_NAME]: graphName, [LABEL_COMPONENT]: componentName, [LABEL_COMPONENT_TYPE]: 'epp' };
}

/**
 * The EPP ConfigMap, when the EPP carries an inline `eppConfig.config` (and no `configMapRef`,
 * which names a ConfigMap the user manages). An EPP with neither is an error under the operators
 * of 1.4.0 and 1.5.0 and the native EPP (no ConfigMap) for newer ones.
 */
export function renderEppConfigMap(dgd: DgdJson, settings: OperatorSettings): KubeObject | undefined {
  const epp = eppComponent(dgd);
  if (!epp) return undefined;
  const graphName = dgd.metadata.name ?? '';
  const ref = `${DGD_KIND}/${graphName}`;
  const field = `spec.components[${epp.index}].eppConfig`;
  const eppConfig = epp.component.eppConfig;
  if (eppConfig?.configMapRef) return undefined;
  if (!eppConfig?.config) {
    if (operatorSupportsNativeEpp(settings)) return undefined;
    throw new RenderError(ref, field, eppConfigurationRequired(resolveRuntimeVersion(epp.component)));
  }
  let text: string;
  try {
    text = eppConfigYaml(eppConfig.config);
  } catch (e) {
    throw new RenderError(ref, `${field}.config`, `does not fit the EndpointPickerConfig type: ${(e as Error).message.replace(/^go-json: \$/, 'config')}`);
  }
  const configMap = kubeObject('v1', 'ConfigMap', {
    name: eppConfigMapName(graphName),
    namespace: dgd.metadata.namespace ?? '',
    labels: eppLabels(graphName, epp.component.name ?? ''),
  }, asGo({ data: { [EPP_CONFIG_FILE]: text } }, 'ConfigMapContent'));
  return withCreateBookkeeping(configMap);
}

/**
 * The InferencePool of a graph with an EPP: the graph's worker pods (component class `worker` in
 * the EPP's Dynamo namespace) on the frontend port, picked by the EPP Service
 * `<graph>-<epp component lower-cased>` (not dot-normalised, as the operator writes it).
 */
export function renderInferencePool(dgd: DgdJson): KubeObject | undefined {
  const epp = eppComponent(dgd);
  if (!epp) return undefined;
  const graphName = dgd.metadata.name ?? '';
  const namespace = dgd.metadata.namespace ?? '';
  const componentName = epp.component.name ?? '';
  const spec = {
    selector: {
      matchLabels: {
        [LABEL_COMPONENT_CLASS]: 'worker',
        [LABEL_DYNAMO_NAMESPACE]: computeDynamoNamespace(epp.component.globalDynamoNamespace, namespace, graphName),
      },
    },
    targetPorts: [{ number: FRONTEND_HTTP_PORT }],
    endpointPickerRef: { kind: 'Service', name: `${graphName}-${componentName.toLowerCase()}`, port: { number: EPP_GRPC_PORT } },
  };
  return withCreateBookkeeping(kubeObject(INFERENCE_POOL_API_VERSION, 'InferencePool',
    { name: inferencePoolName(graphName), namespace, labels: eppLabels(graphName, componentName) }, { spec }));
}

/** Istio's TLS modes the operator knows; any other configured value means SIMPLE. */
const ISTIO_TLS_MODES = new Set(['DISABLE', 'SIMPLE', 'MUTUAL', 'ISTIO_MUTUAL']);

/**
 * The client TLS settings of the EPP DestinationRule in protobuf-JSON form: the mode (omitted for
 * `DISABLE`, the enum's zero value), `insecureSkipVerify`, and for `MUTUAL` the configured
 * certificate paths that are non-empty.
 */
export function istioClientTls(settings: OperatorSettings): Record<string, unknown> {
  const mode = ISTIO_TLS_MODES.has(settings.istioTlsMode) ? settings.istioTlsMode : 'SIMPLE';
  const tls: Record<string, unknown> = {};
  if (mode !== 'DISABLE') tls.mode = mode;
  if (mode === 'MUTUAL') {
    if (settings.istioClientCertificate) tls.clientCertificate = settings.istioClientCertificate;
    if (settings.istioPrivateKey) tls.privateKey = settings.istioPrivateKey;
    if (settings.istioCaCertificates) tls.caCertificates = settings.istioCaCertificates;
  }
  tls.insecureSkipVerify = settings.istioInsecureSkipVerify;
  return tls;
}

/** The Istio DestinationRule of the EPP Service, when the service mesh is Istio. */
export function renderEppDestinationRule(dgd: DgdJson, settings: OperatorSettings): KubeObject | undefined {
  const epp = eppComponent(dgd);
  if (!epp || !istioEnabled(settings)) return undefined;
  const namespace = dgd.metadata.namespace ?? '';
  const name = normalizeKubeResourceName(`${dgd.metadata.name ?? ''}-${(epp.component.name ?? '').toLowerCase()}`);
  const spec = { host: `${name}.${namespace}.svc.cluster.local`, trafficPolicy: { tls: istioClientTls(settings) } };
  return withCreateBookkeeping(kubeObject(ISTIO_NETWORKING_API_VERSION, 'DestinationRule', { name, namespace }, { spec }));
}

/** ConfigMap, InferencePool and DestinationRule of a graph's EPP, in the operator's order. */
export function renderEppResources(dgd: DgdJson, settings: OperatorSettings): KubeObject[] {
  return [renderEppConfigMap(dgd, settings), renderInferencePool(dgd), renderEppDestinationRule(dgd, settings)]
    .filter((o): o is KubeObject => o !== undefined);
}
