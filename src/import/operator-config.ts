/**
 * Reading a Dynamo operator configuration file (`OperatorConfiguration`, the document the operator's
 * Helm chart writes into its `<release>-dynamo-operator-config` ConfigMap) into the operator settings
 * that change rendering.
 *
 * Accepted input: the `OperatorConfiguration` document itself (YAML or JSON), or the ConfigMap that
 * holds it under `data["config.yaml"]`. Two top-level fields are this library's own: `operatorVersion`
 * (the operator version to render for) and `registrySecrets` (the `kubernetes.io/dockerconfigjson`
 * Secrets the operator would discover in the workload namespace). Fields that do not change rendering
 * (server, leaderElection, logging, ...) are ignored; fields absent from the file keep the defaults of
 * a default platform install (`DEFAULT_OPERATOR_SETTINGS`), except that a document of kind
 * `OperatorConfiguration` without `orchestrators.grove.terminationDelay` gets the operator's own
 * fallback, 15m (the platform chart only writes the delay when it is not 15m). A field of the wrong
 * type, or a value the operator's own configuration validation refuses, is an error naming the file,
 * the field path and the value.
 */
import { parseYamlDocuments, YamlInputError } from './documents';
import { parseGoDuration } from '../go/duration';
import { isMap } from '../model/json';
import { DEFAULT_OPERATOR_VERSION, OperatorSettings } from '../model/operator-settings';
import { SUPPORTED_OPERATOR_VERSIONS } from '../model/operator-version';
import { RegistrySecret } from '../model/registry-secret';
import { RenderError } from '../model/render-error';

/** `apiVersion` of the operator's configuration document. */
export const OPERATOR_CONFIG_API_VERSION = 'operator.config.dynamo.nvidia.com/v1alpha1';
/** `kind` of the operator's configuration document. */
export const OPERATOR_CONFIG_KIND = 'OperatorConfiguration';
/** Key of the ConfigMap written by the Helm chart that holds the configuration document. */
export const OPERATOR_CONFIG_MAP_KEY = 'config.yaml';

/** `orchestrators.grove.terminationDelay` when the configuration leaves it unset or zero. */
export const OPERATOR_FALLBACK_TERMINATION_DELAY = '15m';

/** The discovery backends the operator accepts (`discovery.backend`). */
export const DISCOVERY_BACKENDS: readonly string[] = ['kubernetes', 'etcd'];

/** Istio TLS modes the operator starts with (an empty mode means SIMPLE). */
export const ISTIO_TLS_MODES: readonly string[] = ['DISABLE', 'SIMPLE', 'ISTIO_MUTUAL', 'MUTUAL'];

type Mutable<T> = { -readonly [K in keyof T]?: T[K] };

/** Reads typed fields of one mapping, reporting errors against the file and a dotted path. */
class FieldReader {
  constructor(private readonly file: string, private readonly map: { [key: string]: unknown }, private readonly base: string) {}

  private path(key: string): string {
    return this.base ? `${this.base}.${key}` : key;
  }

  fail(key: string, message: string): never {
    throw new RenderError(this.file, this.path(key), message);
  }

  /** A nested mapping; absent or null gives undefined. */
  section(key: string): FieldReader | undefined {
    const value = this.map[key];
    if (value === undefined || value === null) return undefined;
    if (!isMap(value)) this.fail(key, `must be a mapping, got ${describeValue(value)}`);
    return new FieldReader(this.file, value, this.path(key));
  }

  string(key: string): string | undefined {
    const value = this.map[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') this.fail(key, `must be a string, got ${describeValue(value)}`);
    return value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.map[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') this.fail(key, `must be a boolean (true or false), got ${describeValue(value)}`);
    return value;
  }

  list(key: string): unknown[] | undefined {
    const value = this.map[key];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) this.fail(key, `must be a list, got ${describeValue(value)}`);
    return value;
  }

  /** A reader for the `index`-th item of the list at `key`. */
  item(key: string, index: number, value: unknown): FieldReader {
    if (!isMap(value)) this.fail(`${key}[${index}]`, `must be a mapping, got ${describeValue(value)}`);
    return new FieldReader(this.file, value, `${this.path(key)}[${index}]`);
  }
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `a list ${JSON.stringify(value)}`;
  if (isMap(value)) return `a mapping ${JSON.stringify(value)}`;
  return JSON.stringify(value) ?? String(value);
}

/**
 * Parses YAML or JSON text holding one document, read as kubectl and the operator read YAML (YAML
 * 1.1 scalars, see `parseYamlDocuments`); the error names the file and the position.
 */
function parseSingleDocument(text: string, file: string): unknown {
  let values: unknown[];
  try {
    values = parseYamlDocuments(text, file, { allowEmpty: true });
  } catch (e) {
    if (e instanceof YamlInputError) throw new RenderError(file, '(document)', e.detail);
    throw e;
  }
  if (values.length > 1) {
    throw new RenderError(file, '(document)', `expected one operator configuration document, found ${values.length}`);
  }
  return values[0] ?? {};
}

/** The configuration document: the document itself, or the one inside the Helm chart's ConfigMap. */
function configurationDocument(doc: unknown, file: string): { [key: string]: unknown } {
  if (!isMap(doc)) throw new RenderError(file, '(document)', `must be a mapping, got ${describeValue(doc)}`);
  if (doc.kind === 'ConfigMap' && doc.apiVersion === 'v1') {
    const embedded = isMap(doc.data) ? doc.data[OPERATOR_CONFIG_MAP_KEY] : undefined;
    if (typeof embedded !== 'string') {
      throw new RenderError(file, `data["${OPERATOR_CONFIG_MAP_KEY}"]`, 'a ConfigMap must hold the operator configuration under this key');
    }
    return configurationDocument(parseSingleDocument(embedded, `${file}: data["${OPERATOR_CONFIG_MAP_KEY}"]`), `${file}: data["${OPERATOR_CONFIG_MAP_KEY}"]`);
  }
  if (doc.apiVersion !== undefined && doc.apiVersion !== OPERATOR_CONFIG_API_VERSION) {
    throw new RenderError(file, 'apiVersion', `must be ${OPERATOR_CONFIG_API_VERSION}, got ${describeValue(doc.apiVersion)}`);
  }
  if (doc.kind !== undefined && doc.kind !== OPERATOR_CONFIG_KIND) {
    throw new RenderError(file, 'kind', `must be ${OPERATOR_CONFIG_KIND}, got ${describeValue(doc.kind)}`);
  }
  return doc;
}

function readRegistrySecrets(root: FieldReader): RegistrySecret[] | undefined {
  const items = root.list('registrySecrets');
  if (!items) return undefined;
  return items.map((item, i) => {
    const entry = root.item('registrySecrets', i, item);
    const name = entry.string('name') ?? '';
    if (name === '') entry.fail('name', 'Required value: the Secret name');
    const registries = entry.list('registries') ?? [];
    registries.forEach((registry, j) => {
      if (typeof registry !== 'string' || registry === '') entry.fail(`registries[${j}]`, `must be a registry host, got ${describeValue(registry)}`);
    });
    return { name, registries: registries as string[] };
  });
}

/**
 * `operatorVersion`: a string; or a YAML number (`operatorVersion: 1.4`, unquoted) that names the
 * MAJOR.MINOR of a supported version, read as that version (`1.4.0`). Any other number is refused:
 * YAML reads `1.10` as 1.1, so only the quoted text says which version is meant.
 */
function operatorVersionOf(root: FieldReader, value: unknown): string | undefined {
  if (typeof value !== 'number') return root.string('operatorVersion');
  const supported = SUPPORTED_OPERATOR_VERSIONS.map(v => v.version);
  const text = String(value);
  const match = /^\d+\.\d+$/.test(text) ? supported.find(v => v === `${text}.0`) : undefined;
  if (match !== undefined) return match;
  return root.fail('operatorVersion', `must be a string, got the number ${text} (YAML reads an unquoted version as a number: 1.10 as 1.1): `
    + `quote it, as in operatorVersion: "${DEFAULT_OPERATOR_VERSION}"; versions rendered: ${supported.join(', ')}`);
}

/**
 * The operator settings named in an operator configuration document (YAML or JSON text). `file`
 * names the source in error messages. Throws `RenderError(file, fieldPath, message)`.
 */
export function parseOperatorConfiguration(text: string, file: string): Partial<OperatorSettings> {
  const document = configurationDocument(parseSingleDocument(text, file), file);
  // a document of kind OperatorConfiguration (as the Helm chart's ConfigMap holds) is the operator's
  // whole configuration: what it leaves out takes the operator's own fallback; a fragment without a
  // kind only sets what it names
  const complete = document.kind === OPERATOR_CONFIG_KIND;
  const root = new FieldReader(file, document, '');
  const out: Mutable<OperatorSettings> = {};
  const set = <K extends keyof OperatorSettings>(key: K, value: OperatorSettings[K] | undefined): void => {
    if (value !== undefined) out[key] = value;
  };

  const version = operatorVersionOf(root, document.operatorVersion);
  if (version === '') root.fail('operatorVersion', 'must be a version such as "1.4.0", got ""');
  set('version', version);
  set('registrySecrets', readRegistrySecrets(root));

  const discovery = root.section('discovery');
  const backend = discovery?.string('backend');
  if (backend !== undefined && backend !== '' && !DISCOVERY_BACKENDS.includes(backend)) {
    discovery!.fail('backend', `Unsupported value: ${JSON.stringify(backend)}: supported values: ${DISCOVERY_BACKENDS.map(b => JSON.stringify(b)).join(', ')}`);
  }
  // the operator defaults an empty backend to kubernetes
  set('discoveryBackend', backend === '' ? 'kubernetes' : backend);

  const namespace = root.section('namespace');
  set('restrictedNamespace', namespace?.string('restricted'));

  const orchestrators = root.section('orchestrators');
  // `enabled` null or absent means auto-detection: the defaults describe what is detected
  set('groveAvailable', orchestrators?.section('grove')?.boolean('enabled'));
  set('lwsAvailable', orchestrators?.section('lws')?.boolean('enabled'));
  set('kaiSchedulerAvailable', orchestrators?.section('kaiScheduler')?.boolean('enabled'));
  set('volcanoSchedulerAvailable', orchestrators?.section('volcanoScheduler')?.boolean('enabled'));
  // `dra.enabled` null or absent: detection of resource.k8s.io/v1 (assumed served)
  set('draAvailable', root.section('dra')?.boolean('enabled'));
  const grove = orchestrators?.section('grove');
  const terminationDelay = grove?.string('terminationDelay');
  const delay = terminationDelay === undefined ? undefined : parseGoDuration(terminationDelay);
  if (terminationDelay !== undefined && delay === undefined) {
    grove!.fail('terminationDelay', `must be a duration such as "15m", got ${JSON.stringify(terminationDelay)}`);
  }
  if (delay !== undefined && delay < 0n) grove!.fail('terminationDelay', `Invalid value: ${JSON.stringify(terminationDelay)}: must not be negative`);
  // the operator's fallback for an unset or zero delay is 15m (the platform chart writes its own 4h)
  const unset = delay === 0n || (terminationDelay === undefined && complete);
  set('groveTerminationDelay', unset ? OPERATOR_FALLBACK_TERMINATION_DELAY : terminationDelay);

  const infrastructure = root.section('infrastructure');
  set('natsAddress', infrastructure?.string('natsAddress'));
  set('etcdAddress', infrastructure?.string('etcdAddress'));
  set('modelExpressUrl', infrastructure?.string('modelExpressURL'));
  set('prometheusEndpoint', infrastructure?.string('prometheusEndpoint'));

  const ingress = root.section('ingress');
  set('ingressControllerClassName', ingress?.string('controllerClassName'));
  set('ingressControllerTlsSecretName', ingress?.string('controllerTLSSecretName'));
  set('ingressHostSuffix', ingress?.string('hostSuffix'));
  set('virtualServiceGateway', ingress?.string('virtualServiceGateway'));

  const serviceMesh = root.section('serviceMesh');
  // an explicit enabled: false turns the mesh off whatever the provider says
  set('serviceMeshProvider', serviceMesh?.boolean('enabled') === false ? '' : serviceMesh?.string('provider'));
  const istio = serviceMesh?.section('istio');
  set('istioTlsMode', istio?.string('tlsMode'));
  set('istioInsecureSkipVerify', istio?.boolean('insecureSkipVerify'));
  set('istioClientCertificate', istio?.string('clientCertificate'));
  set('istioPrivateKey', istio?.string('privateKey'));
  set('istioCaCertificates', istio?.string('caCertificates'));
  // with the mesh on, the operator does not start with a TLS mode Istio does not know, nor with MUTUAL
  // lacking the client certificate or key (deploy/operator/api/config/validation/validation.go)
  if (out.serviceMeshProvider === 'istio' && istio !== undefined) {
    const mode = out.istioTlsMode ?? '';
    if (mode !== '' && !ISTIO_TLS_MODES.includes(mode)) {
      istio.fail('tlsMode', `Unsupported value: ${JSON.stringify(mode)}: supported values: ${ISTIO_TLS_MODES.map(m => JSON.stringify(m)).join(', ')}`);
    }
    if (mode === 'MUTUAL' && (out.istioClientCertificate ?? '') === '') istio.fail('clientCertificate', 'Required value: tlsMode "MUTUAL" needs a client certificate');
    if (mode === 'MUTUAL' && (out.istioPrivateKey ?? '') === '') istio.fail('privateKey', 'Required value: tlsMode "MUTUAL" needs a private key');
  }

  const rbac = root.section('rbac');
  const clusterWide = (out.restrictedNamespace ?? '') === '';
  for (const [field, key] of [['plannerClusterRoleName', 'plannerClusterRoleName'], ['eppClusterRoleName', 'eppClusterRoleName']] as const) {
    const value = rbac?.string(field);
    if (value === '' && clusterWide) rbac!.fail(field, 'Required value: the ClusterRole name is required in cluster-wide mode');
    set(key, value);
  }

  const mpi = root.section('mpi');
  const sshSecretName = mpi?.string('sshSecretName');
  if (sshSecretName === '') mpi!.fail('sshSecretName', 'Required value: the MPI SSH secret name is required');
  set('mpiSshSecretName', sshSecretName);
  const sshSecretNamespace = mpi?.string('sshSecretNamespace');
  if (sshSecretNamespace === '') mpi!.fail('sshSecretNamespace', 'Required value: the MPI SSH secret namespace is required');
  set('mpiSshSecretNamespace', sshSecretNamespace);

  const checkpoint = root.section('checkpoint');
  set('checkpointEnabled', checkpoint?.boolean('enabled'));
  // checkpoint.storage: read as written; the operator checks it when it reconciles a graph with a checkpoint
  const storage = checkpoint?.section('storage');
  const pvc = storage?.section('pvc');
  set('checkpointStorageType', storage?.string('type'));
  set('checkpointStoragePvcName', pvc?.string('pvcName'));
  set('checkpointStorageBasePath', pvc?.string('basePath'));
  set('checkpointStoragePvcCreate', pvc?.boolean('create'));
  set('checkpointStoragePvcSize', pvc?.string('size'));
  set('checkpointStorageClassName', pvc?.string('storageClassName'));
  set('checkpointStorageAccessMode', pvc?.string('accessMode'));
  return out;
}
