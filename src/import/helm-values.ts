/**
 * The operator settings of a `dynamo-platform` Helm release, derived from its values the way the
 * chart derives the operator's configuration file (`OperatorConfiguration`, in the ConfigMap
 * `<release>-dynamo-operator-config`) from them.
 *
 * The values are merged over the chart's defaults as Helm merges them (mappings merge key by key,
 * a list or a scalar replaces the default, `null` removes it); the `dynamo-operator` section is then
 * merged over the operator sub-chart's own defaults and sees the parent's `global` section. The
 * configuration is then computed field by field, with the template's truthiness rules (an empty
 * string, `0`, `false`, `null`, an empty list or mapping count as unset), and read as the operator
 * reads it (its fallbacks for unwritten fields, its start-up validation). Values Helm refuses to
 * install and configurations the operator refuses to start with are errors naming the values path.
 *
 * The chart defaults below are those of the platform chart 1.5.0 (and 1.4.0, whose values for these
 * fields are the same), limited to the values its operator configuration and its install checks read.
 */
import { parseYamlDocuments, YamlInputError } from './documents';
import { DISCOVERY_BACKENDS, OPERATOR_FALLBACK_TERMINATION_DELAY } from './operator-config';
import { formatGoDuration, parseGoDuration } from '../go/duration';
import { isMap } from '../model/json';
import { copyJson } from '../model/json-copy';
import { DEFAULT_OPERATOR_SETTINGS, OperatorSettings } from '../model/operator-settings';
import { RenderError } from '../model/render-error';

/** The release name the Dynamo install guides use (`helm install dynamo-platform ...`). */
export const DEFAULT_HELM_RELEASE_NAME = 'dynamo-platform';
/** The namespace the Dynamo install guides use (`--namespace dynamo-system`). */
export const DEFAULT_HELM_NAMESPACE = 'dynamo-system';

/** Name of the operator sub-chart: the values section it reads and the base of its resource names. */
const OPERATOR_CHART = 'dynamo-operator';

type Values = { [key: string]: unknown };

/** The platform chart's own defaults (its `values.yaml`) that the operator configuration depends on. */
export const PLATFORM_CHART_DEFAULTS: Readonly<Values> = {
  global: {
    'etcd': { install: false },
    'nats': { install: false },
    'kai-scheduler': { install: false, enabled: false },
    'volcano-scheduler': { enabled: false },
    'grove': { install: false, enabled: false },
    'snapshot': { install: false },
  },
  [OPERATOR_CHART]: {
    enabled: true,
    upgradeCRD: true,
    natsAddr: '',
    etcdAddr: '',
    modelExpressURL: '',
    namespaceRestriction: { enabled: false, targetNamespace: null, lease: { duration: '30s', renewInterval: '10s' } },
    discoveryBackend: 'kubernetes',
    controllerManager: { leaderElection: { id: '', namespace: '' } },
    dynamo: {
      groveTerminationDelay: '4h',
      ingress: { enabled: false, className: null, tlsSecretName: 'my-tls-secret' },
      istio: { enabled: false, gateway: null },
      ingressHostSuffix: '',
      serviceMesh: {
        enabled: false,
        provider: 'istio',
        istio: { tlsMode: 'SIMPLE', insecureSkipVerify: true, clientCertificate: '', privateKey: '', caCertificates: '' },
      },
      metrics: { prometheusEndpoint: '' },
      mpiRun: { secretName: 'mpi-run-ssh-secret' },
    },
    webhook: { namespaceSelector: {} },
    checkpoint: { enabled: false, cleanupImage: 'busybox:1.36', storage: {} },
  },
};

/** The operator sub-chart's own defaults (under the platform's `dynamo-operator` section) that matter here. */
export const OPERATOR_CHART_DEFAULTS: Readonly<Values> = {
  upgradeCRD: true,
  natsAddr: '',
  etcdAddr: '',
  modelExpressURL: '',
  namespaceRestriction: { enabled: false, targetNamespace: '', lease: { duration: '30s', renewInterval: '10s' } },
  controllerManager: { leaderElection: { id: '', namespace: '' } },
  dynamo: {
    groveTerminationDelay: '15m',
    metrics: { prometheusEndpoint: '' },
    mpiRun: { secretName: 'mpi-run-ssh-secret' },
  },
  webhook: { namespaceSelector: {} },
  checkpoint: { enabled: false, cleanupImage: 'busybox:1.36', seccomp: { disabled: false, profile: 'profiles/block-iouring.json' }, storage: {} },
};

/**
 * Values paths the chart no longer accepts (it refuses to install with them), each with what replaced
 * it. Paths under `dynamo-operator` are checked in that section.
 */
const REMOVED_VALUES: ReadonlyArray<readonly [string, string]> = [
  ['nats.enabled', 'use global.nats.install'],
  ['etcd.enabled', 'use global.etcd.install'],
  ['grove.enabled', 'use global.grove.install (deploy Grove) and global.grove.enabled (use it)'],
  ['kai-scheduler.enabled', 'use global.kai-scheduler.install (deploy it) and global.kai-scheduler.enabled (use it)'],
  [`${OPERATOR_CHART}.nats.enabled`, 'use global.nats.install'],
  [`${OPERATOR_CHART}.webhook.enabled`, 'webhooks are always on; remove it'],
  [`${OPERATOR_CHART}.webhook.certGenerator`, 'the operator manages its webhook certificate; remove it (or set webhook.certificateSecret.external)'],
  [`${OPERATOR_CHART}.webhook.certificateValidity`, 'the operator manages its webhook certificate; remove it'],
  [`${OPERATOR_CHART}.dynamo.mpiRun.sshKeygen`, 'the operator creates the SSH key; remove it (dynamo.mpiRun.secretName stays)'],
  [`${OPERATOR_CHART}.checkpoint.readyForCheckpointFilePath`, 'remove it'],
  [`${OPERATOR_CHART}.dynamo.internalImages`, 'remove it'],
  [`${OPERATOR_CHART}.dynamo.enableRestrictedSecurityContext`, 'remove it'],
];

/** The Helm release the values belong to. */
export interface HelmRelease {
  /** `helm install NAME`; default `dynamo-platform`. */
  readonly releaseName?: string;
  /** The release namespace (`--namespace`); default `dynamo-system`. */
  readonly namespace?: string;
}

/** A value read from the merged values, with the values path it was read at. */
interface At {
  readonly value: unknown;
  readonly path: string;
}

/** Truth as Helm's templates see it: unset, `false`, `0`, `""` and empty lists or mappings are false. */
function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  return true;
}

function describeValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  return JSON.stringify(value) ?? String(value);
}

function joinPath(base: string, key: string): string {
  return base === '' ? key : `${base}.${key}`;
}

/**
 * `given` over `defaults` as Helm merges values: two mappings merge key by key; a `null` in `given`
 * removes the default; anything else in `given` (a scalar, a list, a mapping over a non-mapping)
 * replaces the default.
 */
export function mergeHelmValues(given: unknown, defaults: unknown): unknown {
  if (given === undefined) return copyJson(defaults);
  if (!isMap(given) || !isMap(defaults)) return copyJson(given);
  const out: Values = {};
  for (const key of Object.keys(defaults)) {
    if (!Object.prototype.hasOwnProperty.call(given, key)) out[key] = copyJson(defaults[key]);
    else if (given[key] !== null) out[key] = mergeHelmValues(given[key], defaults[key]);
  }
  for (const key of Object.keys(given)) {
    if (!Object.prototype.hasOwnProperty.call(defaults, key)) out[key] = copyJson(given[key]);
  }
  return out;
}

/**
 * The `global` section as the operator sub-chart sees it. Helm hands a sub-chart the parent's globals
 * merged again over the parent chart's defaults, so there a `null` (or a non-mapping given for a
 * mapping) does not remove a default: `global.grove: null` leaves the sub-chart Grove's `enabled: false`,
 * although the platform's own templates see the key removed. Checked with helm v4.3.2 on the platform
 * chart 1.5.0 (test/fixtures/oracle/helm).
 */
function subchartGlobals(given: unknown, defaults: unknown): unknown {
  if (given === undefined || given === null) return copyJson(defaults);
  if (!isMap(defaults)) return copyJson(given);
  if (!isMap(given)) return copyJson(defaults);
  const out: Values = {};
  for (const key of Object.keys(defaults)) out[key] = subchartGlobals(given[key], defaults[key]);
  for (const key of Object.keys(given)) {
    if (!Object.prototype.hasOwnProperty.call(defaults, key) && given[key] !== null) out[key] = copyJson(given[key]);
  }
  return out;
}

/** Reads merged values as the chart's templates do, reporting problems against the values file. */
class TemplateReader {
  constructor(private readonly source: string) {}

  fail(path: string, message: string): never {
    throw new RenderError(this.source, path === '' ? '(document)' : path, message);
  }

  /** `<at>.<key>`: a field of a mapping; reading a field of something else fails the install. */
  get(at: At, key: string): At {
    if (isMap(at.value)) {
      const value = Object.prototype.hasOwnProperty.call(at.value, key) ? at.value[key] : null;
      return { value: value === undefined ? null : value, path: joinPath(at.path, key) };
    }
    return this.fail(at.path, `must be a mapping, got ${describeValue(at.value)}: the chart reads ${joinPath(at.path, key)}`);
  }

  /** A chain of fields. */
  dig(at: At, ...keys: string[]): At {
    return keys.reduce((current, key) => this.get(current, key), at);
  }

  /** Whether a mapping has a key (a non-mapping has none). */
  has(at: At, key: string): boolean {
    return isMap(at.value) && Object.prototype.hasOwnProperty.call(at.value, key);
  }

  /** The template's `and`: the first false argument, else the last; later arguments are not read. */
  and(...steps: Array<() => At>): At {
    let last: At = { value: null, path: '' };
    for (const step of steps) {
      last = step();
      if (!truthy(last.value)) return last;
    }
    return last;
  }

  /** The template's `or`: the first true argument, else the last; later arguments are not read. */
  or(...steps: Array<() => At>): At {
    let last: At = { value: null, path: '' };
    for (const step of steps) {
      last = step();
      if (truthy(last.value)) return last;
    }
    return last;
  }

  /** A value the chart writes as a quoted string: unset gives ""; it must be a string when set. */
  text(at: At, writes: string): string {
    if (!truthy(at.value)) return '';
    if (typeof at.value !== 'string') this.fail(at.path, `must be a string (the chart writes it as ${writes}), got ${describeValue(at.value)}`);
    return at.value;
  }

  /**
   * A value the chart writes as it is into a boolean field: `true`/`false`, or unset (left to the
   * operator's detection, undefined here); anything else makes a configuration the operator cannot read.
   */
  flag(at: At, writes: string): boolean | undefined {
    if (at.value === null || at.value === undefined || at.value === '') return undefined;
    if (typeof at.value !== 'boolean') this.fail(at.path, `must be true or false (the chart writes it as ${writes}), got ${describeValue(at.value)}`);
    return at.value;
  }
}

/** Helm's `trunc 63 | trimSuffix "-"` of a name. */
function truncateName(name: string): string {
  const bytes = Buffer.from(name, 'utf8');
  const cut = bytes.length > 63 ? bytes.subarray(0, 63).toString('utf8') : name;
  return cut.endsWith('-') ? cut.slice(0, -1) : cut;
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The release name and namespace, checked as Helm and the API server check them. */
function checkRelease(release: HelmRelease, source: string): { releaseName: string; namespace: string } {
  const releaseName = release.releaseName ?? DEFAULT_HELM_RELEASE_NAME;
  const namespace = release.namespace ?? DEFAULT_HELM_NAMESPACE;
  if (releaseName.length > 53 || !DNS1123_SUBDOMAIN.test(releaseName)) {
    throw new RenderError(source, 'release name', `${JSON.stringify(releaseName)} is not a Helm release name: at most 53 characters, lower-case letters, digits, "-" and "." (starting and ending with a letter or digit)`);
  }
  if (namespace.length > 63 || !DNS1123_LABEL.test(namespace)) {
    throw new RenderError(source, 'release namespace', `${JSON.stringify(namespace)} is not a namespace name: at most 63 characters, lower-case letters, digits and "-" (starting and ending with a letter or digit)`);
  }
  return { releaseName, namespace };
}

/**
 * Parses a Helm values file (YAML or JSON, read as Helm reads it): one mapping; an empty file is no
 * values. Throws `RenderError(file, '(document)', message)`.
 */
export function parseHelmValues(text: string, file: string): Values {
  let docs: unknown[];
  try {
    docs = parseYamlDocuments(text, file, { allowEmpty: true });
  } catch (e) {
    if (e instanceof YamlInputError) throw new RenderError(file, '(document)', e.detail);
    throw e;
  }
  if (docs.length > 1) throw new RenderError(file, '(document)', `expected one values document, found ${docs.length}`);
  const values = docs[0] ?? {};
  if (!isMap(values)) throw new RenderError(file, '(document)', `the values must be a mapping, got ${describeValue(values)}`);
  return values;
}

/** The chart's install checks that refuse values (its `validate-values` and operator checks). */
function checkInstall(t: TemplateReader, top: At, global: At, operator: At, namespace: string): void {
  for (const [path, instead] of REMOVED_VALUES) {
    const keys = path.split('.');
    const last = keys.pop()!;
    let at: At = top;
    let present = true;
    for (const key of keys) {
      if (!t.has(at, key)) {
        present = false;
        break;
      }
      at = t.get(at, key);
    }
    if (present && t.has(at, last)) t.fail(path, `is no longer accepted by the chart: ${instead}`);
  }

  const kai = (): At => t.get(global, 'kai-scheduler');
  const volcanoOn = t.and(() => global, () => t.get(global, 'volcano-scheduler'), () => t.dig(global, 'volcano-scheduler', 'enabled'));
  if (truthy(volcanoOn.value)) {
    const kaiOn = t.or(
      () => t.and(() => global, kai, () => t.get(kai(), 'enabled')),
      () => t.and(() => global, kai, () => t.get(kai(), 'install')),
    );
    if (truthy(kaiOn.value)) t.fail(kaiOn.path, 'the KAI scheduler and the Volcano scheduler integrations (global.volcano-scheduler.enabled) cannot both be on: choose one');
  }

  const restriction = t.get(operator, 'namespaceRestriction');
  const restricted = truthy(t.get(restriction, 'enabled').value);
  if (restricted && truthy(t.get(operator, 'upgradeCRD').value)) {
    t.fail(`${OPERATOR_CHART}.upgradeCRD`, 'must be false when namespaceRestriction.enabled is true (a namespace-restricted release must not install or update CRDs)');
  }
  const selector = t.dig(operator, 'webhook', 'namespaceSelector');
  if (truthy(selector.value)) t.fail(selector.path, 'must be empty: the chart sets the webhooks\' namespace scope itself');
  const leaderElection = t.dig(operator, 'controllerManager', 'leaderElection');
  if (!restricted) {
    const electionNamespace = t.get(leaderElection, 'namespace');
    if (truthy(electionNamespace.value) && electionNamespace.value === namespace) {
      t.fail(electionNamespace.path, `must not be the release namespace (${namespace}) for a cluster-wide operator: leave it empty (kube-system) or name another namespace`);
    }
  }
  const discovery = t.get(operator, 'discoveryBackend');
  if (typeof discovery.value !== 'string' || !DISCOVERY_BACKENDS.includes(discovery.value)) {
    t.fail(discovery.path, `Unsupported value: ${describeValue(discovery.value)}: supported values: ${DISCOVERY_BACKENDS.map(b => JSON.stringify(b)).join(', ')}`);
  }
  if (!restricted) {
    const id = t.get(leaderElection, 'id');
    const effective = truthy(id.value) ? id.value : 'dynamo.nvidia.com';
    if (effective !== 'dynamo.nvidia.com') {
      t.fail(id.path, `must be empty or "dynamo.nvidia.com" for a cluster-wide operator (all of them share one leader election), got ${describeValue(id.value)}`);
    }
  }
}

/** The operator's `<fullname>` (`dynamo-operator.fullname`), the base of its ClusterRole names. */
function operatorFullname(t: TemplateReader, operator: At, releaseName: string): string {
  const fullnameOverride = t.get(operator, 'fullnameOverride');
  if (truthy(fullnameOverride.value)) return truncateName(t.text(fullnameOverride, 'the operator\'s resource names'));
  const nameOverride = t.get(operator, 'nameOverride');
  const name = truthy(nameOverride.value) ? t.text(nameOverride, 'the operator\'s resource names') : OPERATOR_CHART;
  return truncateName(releaseName.includes(name) ? releaseName : `${releaseName}-${name}`);
}

/** A duration the chart writes and the operator parses; undefined when unset. */
function duration(t: TemplateReader, at: At, writes: string): bigint | undefined {
  if (!truthy(at.value)) return undefined;
  const text = typeof at.value === 'string' ? at.value : undefined;
  const nanos = text === undefined ? undefined : parseGoDuration(text);
  if (nanos === undefined) t.fail(at.path, `must be a duration such as "30s" (the chart writes it as ${writes}), got ${describeValue(at.value)}`);
  return nanos;
}

/**
 * The operator settings a `dynamo-platform` release with these values runs with: the values merged
 * over the chart's defaults, the operator configuration computed from them as the chart's template
 * computes it, read as the operator reads it. Settings the configuration leaves to the operator's
 * detection of cluster APIs (`lwsAvailable` always; Grove, KAI and Volcano when their value is
 * unset) are absent, and so are `version` and `registrySecrets`, which the chart does not decide.
 *
 * @param values the user's values (a parsed values file; `{}` for a default install)
 * @param release the release name and namespace (defaults `dynamo-platform`, `dynamo-system`)
 * @param source the values file's name in error messages
 * @throws RenderError naming the source and the values path, for values the chart refuses to install
 *   or that give a configuration the operator refuses to start with
 */
export function deriveOperatorSettingsFromHelmValues(values: unknown, release: HelmRelease = {}, source = 'Helm values'): Partial<OperatorSettings> {
  const { releaseName, namespace } = checkRelease(release, source);
  const t: TemplateReader = new TemplateReader(source);
  if (!isMap(values)) t.fail('', `the values must be a mapping, got ${describeValue(values)}`);

  // the platform's values, then the operator sub-chart's, which sees the parent's globals
  const merged = mergeHelmValues(values, PLATFORM_CHART_DEFAULTS) as Values;
  const section = merged[OPERATOR_CHART];
  if (section !== undefined && section !== null && !isMap(section)) {
    t.fail(OPERATOR_CHART, `must be a mapping (the operator sub-chart's values), got ${describeValue(section)}`);
  }
  if (isMap(section) && section.enabled === false) {
    t.fail(`${OPERATOR_CHART}.enabled`, 'is false: this release installs no operator, so there is no operator configuration to derive');
  }
  const globals = merged.global;
  if (globals !== undefined && globals !== null && !isMap(globals)) t.fail('global', `must be a mapping, got ${describeValue(globals)}`);
  // `global: null` removes the section the chart's templates index into: the install fails
  if (isMap(values) && values.global === null) t.fail('global', 'must be a mapping, got null: the chart reads global.kai-scheduler and the other toggles from it');
  const operatorValues = mergeHelmValues(isMap(section) ? section : {}, OPERATOR_CHART_DEFAULTS) as Values;
  const operator: At = { value: operatorValues, path: OPERATOR_CHART };
  const global: At = { value: isMap(globals) ? globals : {}, path: 'global' };
  checkInstall(t, { value: merged, path: '' }, global, operator, namespace);
  // the operator's configuration is the sub-chart's template: it reads the globals as the sub-chart sees them
  const operatorGlobal: At = { value: subchartGlobals(isMap(values) ? values.global : undefined, PLATFORM_CHART_DEFAULTS.global), path: 'global' };

  const out: { -readonly [K in keyof OperatorSettings]?: OperatorSettings[K] } = {};
  const dynamo = t.get(operator, 'dynamo');

  // namespace.restricted
  const restriction = t.get(operator, 'namespaceRestriction');
  const restricted = truthy(t.get(restriction, 'enabled').value);
  if (restricted) {
    const target = t.get(restriction, 'targetNamespace');
    out.restrictedNamespace = truthy(target.value) ? t.text(target, 'namespace.restricted') : namespace;
    // the lease the restricted operator holds on its namespace: written when not 30s / 10s, checked by the operator
    const lease = t.get(restriction, 'lease');
    if (truthy(lease.value)) {
      const leaseDuration = duration(t, t.get(lease, 'duration'), 'namespace.scope.leaseDuration');
      const renewInterval = duration(t, t.get(lease, 'renewInterval'), 'namespace.scope.leaseRenewInterval');
      const effectiveDuration = leaseDuration === undefined || leaseDuration === 0n ? 30_000_000_000n : leaseDuration;
      const effectiveRenew = renewInterval === undefined || renewInterval === 0n ? 10_000_000_000n : renewInterval;
      if (effectiveDuration < 0n) t.fail(joinPath(lease.path, 'duration'), 'must be greater than 0 (the operator refuses namespace.scope.leaseDuration)');
      if (effectiveRenew < 0n) t.fail(joinPath(lease.path, 'renewInterval'), 'must be greater than 0 (the operator refuses namespace.scope.leaseRenewInterval)');
      if (effectiveRenew >= effectiveDuration) {
        t.fail(joinPath(lease.path, 'renewInterval'), `must be less than the lease duration (${formatGoDuration(effectiveDuration)}), got ${formatGoDuration(effectiveRenew)}`);
      }
    }
  } else {
    out.restrictedNamespace = '';
  }

  // orchestrators: written as the toggles are (true, false or unset, which means detection)
  const kai = (): At => t.get(operatorGlobal, 'kai-scheduler');
  const kaiOn = t.or(
    () => t.and(() => operatorGlobal, kai, () => t.get(kai(), 'enabled')),
    () => t.and(() => operatorGlobal, kai, () => t.get(kai(), 'install')),
  );
  const volcano = (): At => t.get(operatorGlobal, 'volcano-scheduler');
  const volcanoOn = t.and(() => operatorGlobal, volcano, () => t.get(volcano(), 'enabled'));
  const grove = (): At => t.get(operatorGlobal, 'grove');
  const groveOn = t.or(
    () => t.and(() => operatorGlobal, grove, () => t.get(grove(), 'enabled')),
    () => t.and(() => operatorGlobal, grove, () => t.get(grove(), 'install')),
  );
  const kaiSetting = t.flag(kaiOn, 'orchestrators.kaiScheduler.enabled');
  const volcanoSetting = t.flag(volcanoOn, 'orchestrators.volcanoScheduler.enabled');
  const groveSetting = t.flag(groveOn, 'orchestrators.grove.enabled');
  if (kaiSetting !== undefined) out.kaiSchedulerAvailable = kaiSetting;
  if (volcanoSetting !== undefined) out.volcanoSchedulerAvailable = volcanoSetting;
  if (groveSetting !== undefined) out.groveAvailable = groveSetting;

  // orchestrators.grove.terminationDelay: written unless it is 15m; the operator's fallback for zero is 15m
  const delay = t.get(dynamo, 'groveTerminationDelay');
  out.groveTerminationDelay = OPERATOR_FALLBACK_TERMINATION_DELAY;
  if (truthy(delay.value)) {
    const text = typeof delay.value === 'string' ? delay.value : undefined;
    const nanos = text === undefined ? undefined : parseGoDuration(text);
    if (nanos === undefined) {
      t.fail(delay.path, `must be a duration such as "4h" or "15m" (the chart writes it as orchestrators.grove.terminationDelay), got ${describeValue(delay.value)}`);
    }
    if (nanos < 0n) t.fail(delay.path, `must not be negative (the operator refuses orchestrators.grove.terminationDelay), got ${describeValue(delay.value)}`);
    if (nanos > 0n) out.groveTerminationDelay = text!;
  }

  // infrastructure: explicit addresses, else those of the bundled NATS / etcd when the release installs them
  const nats = (): At => t.get(operatorGlobal, 'nats');
  const etcd = (): At => t.get(operatorGlobal, 'etcd');
  const natsAddr = t.get(operator, 'natsAddr');
  out.natsAddress = truthy(natsAddr.value) ? t.text(natsAddr, 'infrastructure.natsAddress')
    : truthy(t.and(() => operatorGlobal, nats, () => t.get(nats(), 'install')).value) ? `nats://${releaseName}-nats.${namespace}.svc.cluster.local:4222` : '';
  const etcdAddr = t.get(operator, 'etcdAddr');
  out.etcdAddress = truthy(etcdAddr.value) ? t.text(etcdAddr, 'infrastructure.etcdAddress')
    : truthy(t.and(() => operatorGlobal, etcd, () => t.get(etcd(), 'install')).value) ? `${releaseName}-etcd.${namespace}.svc.cluster.local:2379` : '';
  out.modelExpressUrl = t.text(t.get(operator, 'modelExpressURL'), 'infrastructure.modelExpressURL');
  out.prometheusEndpoint = t.text(t.dig(dynamo, 'metrics', 'prometheusEndpoint'), 'infrastructure.prometheusEndpoint');

  // ingress: the Istio gateway and the Ingress class / TLS secret only when their section is enabled
  const istioSection = (): At => t.get(dynamo, 'istio');
  const gateway = t.and(() => ({ value: t.has(dynamo, 'istio'), path: joinPath(dynamo.path, 'istio') }), istioSection,
    () => t.get(istioSection(), 'enabled'), () => t.get(istioSection(), 'gateway'));
  out.virtualServiceGateway = truthy(gateway.value) ? t.text(gateway, 'ingress.virtualServiceGateway') : '';
  const ingressSection = (): At => t.get(dynamo, 'ingress');
  const ingressOn = t.and(() => ({ value: t.has(dynamo, 'ingress'), path: joinPath(dynamo.path, 'ingress') }), ingressSection,
    () => t.get(ingressSection(), 'enabled'));
  out.ingressControllerClassName = truthy(ingressOn.value) ? t.text(t.get(ingressSection(), 'className'), 'ingress.controllerClassName') : '';
  out.ingressControllerTlsSecretName = truthy(ingressOn.value) ? t.text(t.get(ingressSection(), 'tlsSecretName'), 'ingress.controllerTLSSecretName') : '';
  out.ingressHostSuffix = t.has(dynamo, 'ingressHostSuffix') ? t.text(t.get(dynamo, 'ingressHostSuffix'), 'ingress.hostSuffix') : '';

  // serviceMesh: written when the section is set; an explicit enabled: false turns the mesh off
  deriveServiceMesh(t, dynamo, out);

  // rbac: the ClusterRoles of the release, in cluster-wide mode only
  if (!restricted) {
    const fullname = operatorFullname(t, operator, releaseName);
    out.plannerClusterRoleName = `${fullname}-planner`;
    out.eppClusterRoleName = `${fullname}-epp`;
  }

  // mpi: the operator refuses to start without an SSH secret name
  const sshSecret = t.dig(dynamo, 'mpiRun', 'secretName');
  if (!truthy(sshSecret.value)) t.fail(sshSecret.path, 'must be set: without it the chart writes no mpi.sshSecretName, and the operator refuses to start');
  out.mpiSshSecretName = t.text(sshSecret, 'mpi.sshSecretName');
  // the chart writes the release namespace beside it
  out.mpiSshSecretNamespace = namespace;

  // checkpoint
  const checkpoint = t.get(operator, 'checkpoint');
  out.checkpointEnabled = truthy(t.get(checkpoint, 'enabled').value);
  // without checkpointing the chart writes no storage: the operator's empty fallbacks
  Object.assign(out, NO_CHECKPOINT_STORAGE, out.checkpointEnabled ? checkpointStorage(t, checkpoint) : {});

  out.discoveryBackend = t.get(operator, 'discoveryBackend').value as string;
  return out;
}

function deriveServiceMesh(t: TemplateReader, dynamo: At, out: { -readonly [K in keyof OperatorSettings]?: OperatorSettings[K] }): void {
  const mesh = t.get(dynamo, 'serviceMesh');
  out.serviceMeshProvider = '';
  if (!t.has(dynamo, 'serviceMesh') || !truthy(mesh.value)) return;
  if (!isMap(mesh.value)) t.fail(mesh.path, `must be a mapping, got ${describeValue(mesh.value)}`);
  const enabled = t.get(mesh, 'enabled');
  if (enabled.value === false) return;
  const providerAt = t.get(mesh, 'provider');
  const provider = truthy(providerAt.value) ? t.text(providerAt, 'serviceMesh.provider') : 'istio';
  // serviceMesh.enabled: true with a provider other than istio leaves the mesh off, as the operator reads it
  if (provider !== 'istio') {
    out.serviceMeshProvider = provider;
    return;
  }
  out.serviceMeshProvider = 'istio';
  const istio: At = truthy(t.get(mesh, 'istio').value) ? t.get(mesh, 'istio') : { value: {}, path: joinPath(mesh.path, 'istio') };
  if (!isMap(istio.value)) t.fail(istio.path, `must be a mapping, got ${describeValue(istio.value)}`);
  const tlsModeAt = t.get(istio, 'tlsMode');
  const tlsMode = truthy(tlsModeAt.value) ? t.text(tlsModeAt, 'serviceMesh.istio.tlsMode') : 'SIMPLE';
  const skip = t.has(istio, 'insecureSkipVerify') ? t.flag(t.get(istio, 'insecureSkipVerify'), 'serviceMesh.istio.insecureSkipVerify') : undefined;
  out.istioTlsMode = tlsMode;
  out.istioInsecureSkipVerify = skip ?? true;
  out.istioClientCertificate = t.text(t.get(istio, 'clientCertificate'), 'serviceMesh.istio.clientCertificate');
  out.istioPrivateKey = t.text(t.get(istio, 'privateKey'), 'serviceMesh.istio.privateKey');
  out.istioCaCertificates = t.text(t.get(istio, 'caCertificates'), 'serviceMesh.istio.caCertificates');
  // the operator's start-up checks of the mesh configuration
  const modes = ['DISABLE', 'SIMPLE', 'ISTIO_MUTUAL', 'MUTUAL'];
  if (!modes.includes(tlsMode)) {
    t.fail(tlsModeAt.path, `Unsupported value: ${JSON.stringify(tlsMode)}: supported values: ${modes.map(m => JSON.stringify(m)).join(', ')}`);
  }
  if (tlsMode === 'MUTUAL') {
    if (out.istioClientCertificate === '') t.fail(joinPath(istio.path, 'clientCertificate'), 'Required value: tlsMode MUTUAL needs a client certificate');
    if (out.istioPrivateKey === '') t.fail(joinPath(istio.path, 'privateKey'), 'Required value: tlsMode MUTUAL needs a private key');
  }
}

/** `checkpoint.storage` left out of the configuration: the operator's empty fallbacks, as the defaults have them. */
const NO_CHECKPOINT_STORAGE: Partial<OperatorSettings> = Object.fromEntries(Object.entries(DEFAULT_OPERATOR_SETTINGS)
  .filter(([key]) => key.startsWith('checkpointStorage')));

/**
 * The chart's checks of the checkpoint values (a PVC storage needs its claim name and base path), and
 * the `checkpoint.storage` it writes: `type` when set, and for `pvc` the claim's fields that are set.
 */
function checkpointStorage(t: TemplateReader, checkpoint: At): Partial<OperatorSettings> {
  // the chart reads checkpoint.seccomp.disabled: a seccomp that is not a mapping fails the install
  t.get(t.get(checkpoint, 'seccomp'), 'disabled');
  const storage = t.get(checkpoint, 'storage');
  if (!truthy(storage.value)) return {};
  const type = t.get(storage, 'type');
  if (!truthy(type.value)) return {};
  const checkpointStorageType = t.text(type, 'checkpoint.storage.type');
  if (type.value !== 'pvc') return { checkpointStorageType };
  const pvc: At = truthy(t.get(storage, 'pvc').value) ? t.get(storage, 'pvc') : { value: {}, path: joinPath(storage.path, 'pvc') };
  for (const key of ['pvcName', 'basePath']) {
    const at = t.get(pvc, key);
    if (at.value === null || at.value === '') t.fail(at.path, `Required value: the chart needs it when ${type.path} is "pvc"`);
  }
  const field = (key: string) => t.text(t.get(pvc, key), `checkpoint.storage.pvc.${key}`);
  return {
    checkpointStorageType,
    checkpointStoragePvcName: field('pvcName'),
    checkpointStorageBasePath: field('basePath'),
    checkpointStoragePvcCreate: truthy(t.get(pvc, 'create').value),
    checkpointStoragePvcSize: field('size'),
    checkpointStorageClassName: field('storageClassName'),
    checkpointStorageAccessMode: field('accessMode'),
  };
}
