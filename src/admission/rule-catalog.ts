/**
 * Which rows of the operator's admission rules (docs/design/validation-rules.md rows 1-148) synth-time
 * validation implements, and why the others do not apply to a single object on create.
 */

/**
 * Rows implemented by `validateDocument`: checks (Schema, CEL, WH) and the defaulting they depend
 * on (DEF-CRD, DEF-WH). Rows 31, 32, 39 and 105 read a ClusterTopologyBinding, checked when it is
 * among `ValidateOptions.clusterObjects`. Rows that differ between operator versions follow the
 * operator of `ValidateOptions.version` (row 51 for 1.4.0 and 1.5.0, rows 44, 49, 50, 69,
 * 145 and the EPP part of row 47 from 1.6.0 on, the provider-override rows from 1.5.0 on).
 * The update rows (WH-U, and rows 5 and 81, which only an update can reach) are implemented by
 * `validateUpdate` (update-rules.ts).
 */
export const IMPLEMENTED_RULES: readonly string[] = [
  // DGD metadata and defaulting
  '1', '2', '3', '4', '6', '9', '10',
  // DGD spec
  '11', '12', '14', '15', '16', '17', '19', '20', '21', '22', '23', '24', '25', '26', '28', '29', '30', '31', '32', '33',
  '35', '36', '37', '38', '39',
  // identity, type, image, runtime version, EPP (44: a CEL transition rule, evaluated when the old object is given)
  '41', '42', '43', '44', '45', '46', '47', '49', '51', '52', '53', '54', '55', '57', '58',
  // replicas, minAvailable (63: a CEL transition rule, evaluated when the old object is given)
  '59', '60', '61', '62', '63', '64', '65',
  // multinode and roles
  '67', '70', '71', '72', '73', '74',
  // provider overrides
  '78', '79', '82', '83', '84', '85', '86', '87',
  // pod template, sidecars, shared memory, caches, model ref, topology
  '89', '90', '91', '92', '93', '95', '96', '99', '100', '101', '102', '103', '104', '105',
  // experimental
  '107', '108', '109', '110', '111', '112', '113', '114', '115', '116', '117', '118',
  '120', '121', '122', '123', '124', '125', '129',
  '131', '132', '133', '134', '135', '136', '137', '138', '139', '140', '141', '142', '143', '144', '145',
  // update (validateUpdate): WH rows reachable only on update, then the WH-U rows
  '5', '81',
  '7', '8', '13', '18', '27', '34', '40', '48', '50', '66', '68', '69', '75', '76', '88', '97', '98', '106',
  '119', '127', '128', '130',
  // the v1alpha1 request checks, on nvidia.com/v1alpha1 input (import/v1alpha1)
  '148',
];

/** Rows deliberately not implemented, with the reason. */
export const NOT_APPLICABLE_RULES: Readonly<Record<string, string>> = {
  56: 'reads the cluster: whether the InferencePool API group is served',
  77: 'superseded by roles[].providerOverride (snapshot-only API)',
  80: 'shadowed by row 79: the standalone DCD schema has no providerOverride, so strict field validation rejects it as an unknown field first',
  94: 'unconfirmed: behind a feature gate, call site not found in the digest sources',
  126: 'restates row 6 (reported under row 6)',
  146: 'undetermined: the digest could not establish the rule',
  147: 'superseded historical variant (absent from the target API)',
};

/**
 * The API server's own checks (rule `apiserver`, src/admission/object-meta.ts and the input checks
 * of derived-names.ts), by the Kubernetes validation function they follow
 * (kubernetes/kubernetes `pkg/apis/core/validation`, `pkg/apis/apps/validation`, apimachinery
 * `pkg/api/validation`), each with what it checks in user-facing words (listed under rule
 * `apiserver` in docs/admission-rules.md). They run on every object of a built-in kind the library
 * checks, on the pod templates of LeaderWorkerSets and PodCliqueSets (whose controllers create
 * pods from them), and on the pod templates of a graph's components, which the operator copies
 * into the workloads it creates (there without the checks of a complete pod spec).
 */
export const API_SERVER_CHECKS: Readonly<Record<string, string>> = {
  ValidateObjectMeta: 'Object names by kind (a Service name a DNS-1035 label, RBAC names path segments, most others DNS-1123 subdomains), `generateName`, the namespace, label keys and values, annotation keys and their total size (256 KiB).',
  ValidateLabelSelector: 'Label selectors: `matchLabels`, and `matchExpressions` with a known operator and the values it needs.',
  ValidateVolumes: 'Pod volumes: exactly one volume type each (a Secret, ConfigMap or claim volume naming its object), each name a DNS-1123 label, given once.',
  validateContainers: 'Containers and init containers: each name a DNS-1123 label, given once across both lists; an image (in rendered workloads).',
  validateContainerPorts: 'Container ports: numbers 1-65535 (host ports too), names of at most 15 characters (`[-a-z0-9]`, a letter at least), given once.',
  ValidateEnv: 'Environment variables: a name of printable ASCII characters other than `=` (Kubernetes 1.34 and later); `valueFrom` naming no more than one source, and no `value` beside it; a `fieldRef` / `resourceFieldRef` an env var can read; a `secretKeyRef` / `configMapKeyRef` with a valid object name and a key of letters, digits, `-`, `_` and `.` that is not `.` and does not start with `..`.',
  ValidateEnvFrom: '`envFrom` entries: exactly one of `configMapRef` and `secretRef`, naming its object; a `prefix` of printable ASCII characters other than `=`.',
  validateProbe: 'Probes and lifecycle hooks of a complete pod spec (rendered workloads): exactly one handler, an `exec` command, valid ports, counts not negative, a success threshold of 1 for liveness and startup probes; none on an init container that is not a restartable sidecar.',
  ValidateVolumeMounts: 'Volume mounts of a complete pod spec (rendered workloads): a volume of the pod, a mount path given once per container.',
  ValidateContainerResourceRequirements: 'Container resources: names a container can ask for (`cpu`, `memory`, `ephemeral-storage`, `hugepages-*`, or with a domain such as `nvidia.com/gpu`), quantities not negative, whole numbers for extended resources such as `nvidia.com/gpu`, requests equal to limits where a resource cannot be overcommitted, and not above limits otherwise.',
  ValidateDeploymentSpec: 'Deployments: replicas not negative, a non-empty selector matching the pod template labels, restart policy `Always`.',
  ValidateService: 'Services: port numbers and names, target ports, selector labels.',
  ValidateSecret: 'Secrets: the keys of `data` and `stringData` (letters, digits, `-`, `_` and `.`, not `.` or starting with `..`), at most 1 MiB of data, the keys a Secret of a known type needs (`tls.crt` and `tls.key`, `.dockerconfigjson`, ...). A message never shows a value of the Secret.',
  ValidateConfigMap: 'ConfigMaps: the keys of `data` and `binaryData` (as for Secrets), no key in both, at most 1 MiB of data.',
};
