/**
 * The API server's object checks beyond the OpenAPI schema (src/admission/object-meta.ts, rule
 * `apiserver`), on every emitted object (`checkEmittedObject`) and, where the operator would create
 * an object the API server rejects, on the input (`validateDocument`), with the input names a
 * derived name is made of (src/admission/derived-names.ts). Messages are those of Kubernetes
 * v1.36 (k8s.io/apimachinery v0.36.0, k8s.io/kubernetes pkg/apis/{core,apps}/validation).
 */
import { Chart, Testing } from 'cdk8s';
import { BackendFramework, DynamoGraph } from '../src';
import { runCliOn } from './support/cli-in-process';
import * as documents from './support/documents';
import { IMAGE, mainContainer as container } from './support/documents';
import { admissionRefusals, apiServerLines, apiServerRefusals, OperatorFields, Refusal, render } from './support/facade';
import { corpusFiles, CORPUS_DIR, withVersionedImages } from './support/shared';

/** What the API server refuses an object by (schema, metadata, `apiserver` rules), each as a refusal. */
const checkEmittedObject = apiServerRefusals;
const checkEmittedObjects = (objects: readonly unknown[]): Refusal[] => objects.flatMap(apiServerRefusals);
const formatEmittedViolation = (v: Refusal): string => v.formatted;
/** What admission refuses a document by on create. */
const validateDocument = (doc: unknown, operator: OperatorFields): Refusal[] => admissionRefusals(doc, { operator });
/** `renderDocuments` of the pipeline: the rendered objects, or the RenderError it throws. */
const renderDocuments = (docs: unknown[], options: { output: 'graph' | 'workloads'; operator?: OperatorFields; checkAdmission?: boolean }): any[] =>
  render(docs, { output: options.output, settings: options.operator, admission: options.checkAdmission });


// The API server's messages, as Kubernetes v1.36 words them
const DNS1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an "
  + "alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an "
  + "alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1123_LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an "
  + "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const KEY_NAME_FORMAT = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  "
  + "or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_FORMAT = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
  + "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const QUANTITY_FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const PORT_RANGE = 'must be between 1 and 65535, inclusive';
const ENV_NAME = "a valid environment variable name must consist only of printable ASCII characters other than '='";
const CONFIG_KEY = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', "
  + "regex used for validation is '[-._a-zA-Z0-9]+')";
const EMPTY_GRAPH = 'the graph has no metadata.name: a DynamoGraphDeployment with only metadata.generateName is named by the API server on create, '
  + 'and the objects the operator names after it cannot be rendered before; set metadata.name';

const NO_GROVE = { groveAvailable: false };
const GROVE = { groveAvailable: true };

function component(name: string, type: string, extra: { container?: Record<string, unknown>; metadata?: Record<string, unknown> } = {}): any {
  return documents.component(name, type, { main: extra.container, podMetadata: extra.metadata });
}

function graph(metadata: Record<string, unknown>, components: any[] = [component('Frontend', 'frontend')]): any {
  return documents.graphDocument(metadata, components);
}

/** A graph whose frontend's main container or pod-template metadata carries `extra`. */
function frontendWith(extra: { container?: Record<string, unknown>; metadata?: Record<string, unknown> }): any {
  return graph({ name: 'llm' }, [component('Frontend', 'frontend', extra)]);
}

/** `path: message (rule)` of each violation `validateDocument` finds. */
function validated(doc: unknown, grove = false): string[] {
  return validateDocument(doc, { groveAvailable: grove }).map(v => `${v.path}: ${v.message} (rule ${v.rule})`);
}

/** The objects of workloads output, rendered without the admission check of the input. */
function rendered(doc: unknown, operator: Record<string, unknown> = NO_GROVE): any[] {
  return renderDocuments([doc], { output: 'workloads', operator, checkAdmission: false }) as any[];
}

/** The formatted violations of the emitted objects of `kind`. */
function emitted(objects: unknown[], kind?: string): string[] {
  return checkEmittedObjects(objects).filter(v => kind === undefined || v.kind === kind).map(formatEmittedViolation);
}

/** The message of the RenderError rendering `doc` in workloads output throws. */
function renderFailure(doc: unknown, operator: Record<string, unknown> = NO_GROVE): string {
  try {
    renderDocuments([doc], { output: 'workloads', operator });
  } catch (e) {
    expect((e as Error).name).toBe('RenderError');
    return (e as Error).message;
  }
  throw new Error('rendered');
}

describe('emitted objects the API server rejects: long derived names, names starting with a digit, generateName only, bad labels, ports, GPU counts', () => {
  const GRAPH40 = 'a'.repeat(40);
  const COMP25 = 'b'.repeat(25);
  const LONG = graph({ name: GRAPH40 }, [component(COMP25, 'frontend')]);
  const DERIVED = `${GRAPH40}-${COMP25}`;

  test('40-character graph + 25-character component: the Service name and the nvidia.com/selector label value are 66 characters', () => {
    const objects = rendered(LONG);
    expect(emitted(objects, 'Service')).toEqual([
      `Service/${DERIVED}: metadata.name: Invalid value: "${DERIVED}": must be no more than 63 characters: graph name (40) + "-" + component name (25) `
      + `is 66 characters; Service names allow 63 (shorten the DynamoGraphDeployment's metadata.name or spec.components[].name "${COMP25}") (rule apiserver)`,
    ]);
    const labelHint = 'must be no more than 63 bytes: graph name (40) + "-" + component name (25) is 66 characters; label values allow 63 '
      + `(shorten the DynamoGraphDeployment's metadata.name or spec.components[].name "${COMP25}")`;
    expect(emitted(objects, 'Deployment')).toEqual([
      `Deployment/${DERIVED}: spec.selector.matchLabels: Invalid value: "${DERIVED}": ${labelHint} (rule apiserver)`,
      `Deployment/${DERIVED}: spec.template.metadata.labels: Invalid value: "${DERIVED}": ${labelHint} (rule apiserver)`,
    ]);
    // the DCD itself may be named so (a DNS-1123 subdomain of up to 253 characters)
    expect(emitted(objects, 'DynamoComponentDeployment')).toEqual([]);
  });

  test('validate reports it at the component name, on either workload pathway', () => {
    expect(validated(LONG)).toEqual([
      `spec.components[0].name: Invalid value: "${COMP25}": graph name (40) + "-" + component name (25) is 66 characters; the operator writes it as `
      + 'label "nvidia.com/selector" on the component\'s pods and names the component\'s Service after it, and label values and Service names allow 63 (rule apiserver)',
    ]);
    expect(validated(LONG, true)).toEqual([
      `spec.components[0].name: Invalid value: "${COMP25}": graph name (40) + "-" + component name (25) is 66 characters; the operator names the `
      + 'component\'s Service after it, and Service names allow 63 (rule apiserver)',
    ]);
    expect(renderFailure(LONG)).toMatch(/^DynamoGraphDeployment\/a{40}: spec\.components\[0\]\.name: the operator would reject this object on create \(1 violation\): spec\.components\[0\]\.name: Invalid value: "b{25}": graph name \(40\) \+ "-" \+ component name \(25\) is 66 characters; /);
  });

  test('a worker-class component counts the worker hash: graph (40) + component (15) + hash (8) is 65 characters', () => {
    const doc = graph({ name: GRAPH40 }, [component('Frontend', 'frontend'), component('d'.repeat(15), 'decode')]);
    expect(validated(doc)).toEqual([
      `spec.components[1].name: Invalid value: "${'d'.repeat(15)}": graph name (40) + "-" + component name (15) + "-" + worker hash (8) is 65 characters; `
      + 'the operator writes it as label "nvidia.com/selector" on the component\'s pods and names the component\'s Service after it, and label values and Service names allow 63 (rule apiserver)',
    ]);
    // on the Grove pathway the Service has no hash and the decode component no Service the operator surely creates
    expect(validated(doc, true)).toEqual([]);
    const service = emitted(rendered(doc), 'Service');
    expect(service).toHaveLength(1);
    expect(service[0]).toMatch(/^Service\/a{40}-d{15}-[0-9a-f]{8}: metadata\.name: Invalid value: "a{40}-d{15}-[0-9a-f]{8}": must be no more than 63 characters: graph name \(40\) \+ "-" \+ component name \(15\) \+ "-" \+ worker hash \(8\) is 65 characters; Service names allow 63 \(shorten the DynamoGraphDeployment's metadata\.name or spec\.components\[\]\.name "d{15}"\) \(rule apiserver\)$/);
  });

  test('a graph name over 63 characters: the label nvidia.com/dynamo-graph-deployment-name (and nvidia.com/dynamo-namespace) of every object', () => {
    const name = 'g'.repeat(64);
    const doc = graph({ name }, [component('f', 'frontend')]);
    expect(validated(doc, true)).toEqual([
      `metadata.name: Invalid value: "${name}": graph name (64) is 64 characters; the operator writes it as label "nvidia.com/dynamo-graph-deployment-name" `
      + 'on the objects it creates, and label values allow 63 (rule apiserver)',
      'spec.components[0].name: Invalid value: "f": graph name (64) + "-" + component name (1) is 66 characters; the operator names the component\'s '
      + 'Service after it, and Service names allow 63 (rule apiserver)',
    ]);
    const pcs = emitted(rendered(doc, GROVE), 'PodCliqueSet');
    expect(pcs).toEqual([expect.stringMatching(/^PodCliqueSet\/g+-[0-9a-f]{4}: metadata\.labels: Invalid value: "g{64}": must be no more than 63 bytes: graph name \(64\) is 64 characters; label values allow 63 \(shorten the DynamoGraphDeployment's metadata\.name\) \(rule apiserver\)$/)]);
    const service = emitted(rendered(doc, GROVE), 'Service');
    expect(service).toContain(`Service/${name}-f: spec.selector: Invalid value: "default-${name}": must be no more than 63 bytes: namespace (7) + "-" + graph name (64) `
      + 'is 72 characters; label values allow 63 (shorten the DynamoGraphDeployment\'s metadata.namespace or metadata.name) (rule apiserver)');
  });

  const DIGIT = graph({ name: '1st.vllm-agg' });

  test('name: 1st.vllm-agg is a valid graph name, but its frontend Service 1st-vllm-agg-frontend starts with a digit', () => {
    const expected = `Service/1st-vllm-agg-frontend: metadata.name: Invalid value: "1st-vllm-agg-frontend": ${DNS1035}: the Service name starts with `
      + 'the graph name "1st.vllm-agg", which starts with a digit: a valid DNS-1123 subdomain for the DynamoGraphDeployment itself, but a Service name '
      + 'must start with a letter (rename the DynamoGraphDeployment) (rule apiserver)';
    expect(emitted(rendered(DIGIT))).toEqual([expected]);
    // on the Grove pathway the Service carries no graph-name label: the graph name is not quoted
    expect(emitted(rendered(DIGIT, GROVE))).toEqual([expected.replace('the graph name "1st.vllm-agg"', 'the graph name')]);
  });

  test('validate: the graph name itself passes (a DNS-1123 subdomain); the derived Service is what fails', () => {
    const message = 'metadata.name: Invalid value: "1st.vllm-agg": the operator names the Service of component "Frontend" "1st-vllm-agg-frontend" after '
      + `the graph, and ${DNS1035}; the graph name is a valid DNS-1123 subdomain for the DynamoGraphDeployment itself, but a Service name must start `
      + 'with a letter (rule apiserver)';
    expect(validated(DIGIT)).toEqual([message]);
    expect(validated(DIGIT, true)).toEqual([message]);
    // a worker-only graph on etcd discovery may get no Service: nothing is certain, nothing is reported
    expect(validated(graph({ name: '1st.vllm-agg' }, [component('w', 'worker')]))).toEqual([]);
    expect(validated(graph({ name: 'first.vllm-agg' }))).toEqual([]);
  });

  test('a graph with only generateName: valid input; rendering it fails (no name to derive object names from)', () => {
    const doc = graph({ generateName: 'llm-' });
    expect(validated(doc)).toEqual([]);
    expect(renderFailure(doc)).toBe('DynamoGraphDeployment/: metadata.name: Required value: the operator names the objects it creates after the '
      + 'DynamoGraphDeployment, and a DynamoGraphDeployment with only metadata.generateName ("llm-") is named by the API server on create, so its '
      + 'objects cannot be rendered; set metadata.name');
    expect(() => renderDocuments([doc], { output: 'graph' })).not.toThrow();
  });

  test('objects named "-frontend" (a graph without a name) are rejected, saying why', () => {
    const named = rendered(graph({ name: 'zz' }));
    const unnamed = JSON.parse(JSON.stringify(named).split('zz').join(''));
    const service = unnamed.find((o: any) => o.kind === 'Service');
    expect(checkEmittedObject(service).map(formatEmittedViolation)).toEqual([
      `Service/-frontend: metadata.name: Invalid value: "-frontend": ${DNS1035}: ${EMPTY_GRAPH} (rule apiserver)`,
      `Service/-frontend: metadata.labels: Invalid value: "default-": ${LABEL_VALUE_FORMAT}: ${EMPTY_GRAPH} (rule apiserver)`,
      `Service/-frontend: spec.selector: Invalid value: "default-": ${LABEL_VALUE_FORMAT}: ${EMPTY_GRAPH} (rule apiserver)`,
    ]);
    const sa = unnamed.find((o: any) => o.kind === 'ServiceAccount' && o.metadata.name === '-k8s-service-discovery');
    expect(checkEmittedObject(sa).map(formatEmittedViolation)[0]).toBe(
      `ServiceAccount/-k8s-service-discovery: metadata.name: Invalid value: "-k8s-service-discovery": ${SUBDOMAIN}: ${EMPTY_GRAPH} (rule apiserver)`);
  });

  test('an invalid generateName is reported as the API server reports it (a trailing "-" is allowed)', () => {
    expect(validated(graph({ generateName: 'LLM_' }))).toEqual([`metadata.generateName: Invalid value: "LLM_": ${SUBDOMAIN} (rule apiserver)`]);
    expect(validated(graph({ generateName: 'a-' }))).toEqual([]);
  });

  const BAD_LABELS = frontendWith({ metadata: { labels: { 'bad key!': 'ok', 'app': 'bad value!' } } });

  test('invalid pod-template label keys and values are copied into the DCD and the Deployment', () => {
    const objects = rendered(BAD_LABELS);
    expect(emitted(objects, 'DynamoComponentDeployment')).toEqual([
      `DynamoComponentDeployment/llm-frontend: metadata.labels: Invalid value: "bad key!": name part ${KEY_NAME_FORMAT} (rule apiserver)`,
      `DynamoComponentDeployment/llm-frontend: metadata.labels: Invalid value: "bad value!": ${LABEL_VALUE_FORMAT} (rule apiserver)`,
    ]);
    expect(emitted(objects, 'Deployment')).toEqual(expect.arrayContaining([
      `Deployment/llm-frontend: spec.template.metadata.labels: Invalid value: "bad key!": name part ${KEY_NAME_FORMAT} (rule apiserver)`,
      `Deployment/llm-frontend: spec.template.metadata.labels: Invalid value: "bad value!": ${LABEL_VALUE_FORMAT} (rule apiserver)`,
    ]));
    expect(validated(BAD_LABELS)).toEqual([
      `spec.components[0].podTemplate.metadata.labels: Invalid value: "bad key!": name part ${KEY_NAME_FORMAT} (rule apiserver)`,
      `spec.components[0].podTemplate.metadata.labels: Invalid value: "bad value!": ${LABEL_VALUE_FORMAT} (rule apiserver)`,
    ]);
  });

  const PORT = frontendWith({ container: { ports: [{ name: 'http', containerPort: 100000 }] } });

  test('containerPort: 100000 is copied into the Deployment', () => {
    expect(emitted(rendered(PORT), 'Deployment')).toEqual([
      `Deployment/llm-frontend: spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 100000: ${PORT_RANGE} (rule apiserver)`,
    ]);
    expect(validated(PORT)).toEqual([
      `spec.components[0].podTemplate.spec.containers[0].ports[0].containerPort: Invalid value: 100000: ${PORT_RANGE} (rule apiserver)`,
    ]);
  });

  const GPU = frontendWith({ container: { resources: { limits: { 'nvidia.com/gpu': '-1' } } } });

  test('a GPU limit of "-1" is copied into the Deployment', () => {
    expect(emitted(rendered(GPU), 'Deployment')).toEqual([
      'Deployment/llm-frontend: spec.template.spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "-1": must be greater than or equal to 0 (rule apiserver)',
    ]);
    expect(validated(GPU)).toEqual([
      'spec.components[0].podTemplate.spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: "-1": must be greater than or equal to 0 (rule apiserver)',
    ]);
    expect(renderFailure(GPU)).toContain('resources.limits[nvidia.com/gpu]: Invalid value: "-1": must be greater than or equal to 0 (rule apiserver)');
  });
});

describe('object names by kind, generateName, namespace (ValidateObjectMeta)', () => {
  const object = (apiVersion: string, kind: string, metadata: Record<string, unknown>, spec?: unknown): Record<string, unknown> =>
    (spec === undefined ? { apiVersion, kind, metadata } : { apiVersion, kind, metadata, spec });
  const messages = (obj: unknown): string[] => checkEmittedObject(obj).filter(v => v.rule === 'apiserver').map(v => `${v.path}: ${v.message}`);

  test('Service: a DNS-1035 label (63 characters, starting with a letter)', () => {
    expect(messages(object('v1', 'Service', { name: 'x'.repeat(64) }, { ports: [{ port: 80 }] }))).toEqual([
      `metadata.name: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters`,
    ]);
    expect(messages(object('v1', 'Service', { name: '9s' }, { ports: [{ port: 80 }] }))).toEqual([`metadata.name: Invalid value: "9s": ${DNS1035}`]);
  });

  test('ConfigMap, ServiceAccount, Deployment, custom resources: a DNS-1123 subdomain (253 characters)', () => {
    expect(messages(object('v1', 'ConfigMap', { name: 'Epp_Config' }))).toEqual([`metadata.name: Invalid value: "Epp_Config": ${SUBDOMAIN}`]);
    expect(messages(object('v1', 'ServiceAccount', { name: 'a.b-c' }))).toEqual([]);
    expect(messages(object('v1', 'ServiceAccount', { name: 's'.repeat(254) }))[0]).toMatch(/: must be no more than 253 characters$/);
    expect(messages(object('leaderworkerset.x-k8s.io/v1', 'LeaderWorkerSet', { name: 'Upper' }))).toEqual([`metadata.name: Invalid value: "Upper": ${SUBDOMAIN}`]);
  });

  test('Role and RoleBinding: a path segment (not "." or "..", no "/" or "%")', () => {
    expect(messages(object('rbac.authorization.k8s.io/v1', 'Role', { name: '-k8s-service-discovery-role' }))).toEqual([]);
    expect(messages(object('rbac.authorization.k8s.io/v1', 'Role', { name: '..' }))).toEqual(['metadata.name: Invalid value: "..": may not be \'..\'']);
    expect(messages(object('rbac.authorization.k8s.io/v1', 'RoleBinding', { name: 'a/b%c' }))).toEqual([
      'metadata.name: Invalid value: "a/b%c": may not contain \'/\'',
      'metadata.name: Invalid value: "a/b%c": may not contain \'%\'',
    ]);
  });

  test('generateName is checked as the name it starts; the namespace is a DNS-1123 label', () => {
    expect(messages(object('v1', 'ConfigMap', { generateName: 'cm-' }))).toEqual([]);
    expect(messages(object('v1', 'ConfigMap', { generateName: '-cm' }))).toEqual([`metadata.generateName: Invalid value: "-cm": ${SUBDOMAIN}`]);
    expect(messages(object('v1', 'ConfigMap', { name: 'cm', namespace: 'team.a' }))).toEqual(['metadata.namespace: Invalid value: "team.a": must not contain dots']);
    expect(messages(object('v1', 'ConfigMap', { name: 'cm', namespace: 'Team' }))).toEqual([`metadata.namespace: Invalid value: "Team": ${DNS1123_LABEL}`]);
  });

  test('input: the graph\'s namespace, labels and annotations', () => {
    expect(validated(graph({ name: 'llm', namespace: 'Team_A', labels: { 'a/b/c': 'x', 'example.com/': 'y' }, annotations: { 'Example.COM/Owner': 'ok', '_x': 'no' } }))).toEqual([
      `metadata.namespace: Invalid value: "Team_A": ${DNS1123_LABEL} (rule apiserver)`,
      `metadata.labels: Invalid value: "a/b/c": a valid label key ${KEY_NAME_FORMAT} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName') (rule apiserver)`,
      'metadata.labels: Invalid value: "example.com/": name part must be non-empty (rule apiserver)',
      `metadata.labels: Invalid value: "example.com/": name part ${KEY_NAME_FORMAT} (rule apiserver)`,
      `metadata.annotations: Invalid value: "_x": name part ${KEY_NAME_FORMAT} (rule apiserver)`,
    ]);
  });
});

describe('the metadata of a DynamoGraphDeployment or DynamoComponentDeployment is read strictly as ObjectMeta', () => {
  test('a field ObjectMeta does not have is an unknown field; its own fields are not', () => {
    const doc = graph({ name: 'llm' }, [component('Frontend', 'frontend')]);
    expect(validated({ ...doc, metadata: { ...doc.metadata, labels: { a: 'b' }, finalizers: ['x/y'], bogusField: true, Name: 'x' } })).toEqual([
      'metadata.bogusField: unknown field "metadata.bogusField" (rule schema)',
      'metadata.Name: unknown field "metadata.Name" (rule schema)',
    ]);
    const dcd = { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment', metadata: { name: 'llm-frontend', owner: 'me' }, spec: doc.spec.components[0] };
    expect(validated(dcd)).toEqual(['metadata.owner: unknown field "metadata.owner" (rule schema)']);
  });
});

describe('labels, annotations, selectors (ValidateObjectMeta, ValidateLabelSelector)', () => {
  const configMap = (metadata: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', ...metadata } });
  const messages = (obj: unknown): string[] => checkEmittedObject(obj).map(v => `${v.path}: ${v.message} (rule ${v.rule})`);

  test('label keys: prefix a DNS-1123 subdomain of at most 253 bytes, name part at most 63 bytes; values at most 63 bytes', () => {
    expect(messages(configMap({ labels: { [`${'p'.repeat(254)}/n`]: 'v', [`x/${'n'.repeat(64)}`]: 'v', '/n': 'v', 'k': 'v'.repeat(64) } }))).toEqual([
      // a long value is cut in the message
      `metadata.labels: Invalid value: "${'p'.repeat(116)}...: prefix part must be no more than 253 bytes (rule apiserver)`,
      `metadata.labels: Invalid value: "x/${'n'.repeat(64)}": name part must be no more than 63 bytes (rule apiserver)`,
      'metadata.labels: Invalid value: "/n": prefix part must be non-empty (rule apiserver)',
      `metadata.labels: Invalid value: "${'v'.repeat(64)}": must be no more than 63 bytes (rule apiserver)`,
    ]);
    expect(messages(configMap({ labels: { 'example.com/Name_1.x': '', 'a': 'A-b_c.1' } }))).toEqual([]);
  });

  test('lengths are counted in UTF-8 bytes: 22 characters of 3 bytes are too long for a label value or a DNS label', () => {
    const euros = '€'.repeat(22);
    expect(messages(configMap({ labels: { k: euros } }))).toEqual([
      `metadata.labels: Invalid value: "${euros}": must be no more than 63 bytes (rule apiserver)`,
      `metadata.labels: Invalid value: "${euros}": ${LABEL_VALUE_FORMAT} (rule apiserver)`,
    ]);
    expect(messages(configMap({ namespace: euros }))).toEqual([
      `metadata.namespace: Invalid value: "${euros}": must be no more than 63 characters (rule apiserver)`,
      `metadata.namespace: Invalid value: "${euros}": ${DNS1123_LABEL} (rule apiserver)`,
    ]);
    expect(messages(configMap({ labels: { k: '€'.repeat(21) } }))).toEqual([
      `metadata.labels: Invalid value: "${'€'.repeat(21)}": ${LABEL_VALUE_FORMAT} (rule apiserver)`,
    ]);
  });

  test('annotations: keys are qualified names whatever their case; 256 KiB in all', () => {
    expect(messages(configMap({ annotations: { 'Example.com/Key': 'x', 'Team.Example.COM/Owner': 'y' } }))).toEqual([]);
    // keys and values count: 2 + 262142 bytes
    expect(messages(configMap({ annotations: { a: 'x'.repeat(200_000), b: 'x'.repeat(62_142) } }))).toEqual([]);
    expect(messages(configMap({ annotations: { a: 'x'.repeat(200_000), b: 'x'.repeat(62_143) } }))).toEqual([
      'metadata.annotations: Too long: may not be more than 262144 bytes (rule apiserver)',
    ]);
    // a character of 3 bytes counts 3: 1 + 87381 * 3 = 262144 bytes, then one more character
    expect(messages(configMap({ annotations: { a: '€'.repeat(87_381) } }))).toEqual([]);
    expect(messages(configMap({ annotations: { a: '€'.repeat(87_382) } }))).toEqual([
      'metadata.annotations: Too long: may not be more than 262144 bytes (rule apiserver)',
    ]);
  });

  const deployment = (spec: Record<string, unknown>, templateLabels: Record<string, string> = { app: 'd' }, podSpec: Record<string, unknown> = {}): any => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: {
      selector: { matchLabels: { app: 'd' } },
      template: { metadata: { labels: templateLabels }, spec: { containers: [container()], ...podSpec } },
      ...spec,
    },
  });

  test('Deployment (ValidateDeploymentSpec): a non-empty selector matching the template labels, its expressions well-formed; replicas not negative; restartPolicy Always', () => {
    expect(messages(deployment({}))).toEqual([]);
    expect(messages(deployment({ replicas: -1 }, { app: 'other' }, { restartPolicy: 'Never' }))).toEqual([
      'spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels` (rule apiserver)',
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always" (rule apiserver)',
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0 (rule apiserver)',
    ]);
    expect(messages(deployment({ selector: {} }))).toEqual(['spec.selector: Invalid value: {}: empty selector is invalid for deployment (rule apiserver)']);
    expect(messages(deployment({
      selector: { matchExpressions: [{ key: 'app', operator: 'In', values: [] }, { key: 'app', operator: 'Exists', values: ['d'] }, { key: '-x', operator: 'NotIn', values: ['y!'] }] },
    }))).toEqual([
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn' (rule apiserver)",
      "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist' (rule apiserver)",
      `spec.selector.matchExpressions[2].key: Invalid value: "-x": name part ${KEY_NAME_FORMAT} (rule apiserver)`,
      `spec.selector.matchExpressions[2].values[0]: Invalid value: "y!": ${LABEL_VALUE_FORMAT} (rule apiserver)`,
      'spec.template.metadata.labels: Invalid value: {"app":"d"}: `selector` does not match template `labels` (rule apiserver)',
    ]);
  });

  test('Service (ValidateService): port numbers and names, target ports (number or IANA_SVC_NAME), selector labels', () => {
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: {
        selector: { app: 'x'.repeat(64) },
        ports: [{ name: 'http', port: 0, targetPort: 70000 }, { name: 'HTTP', port: 80, targetPort: 'http--port-name-long' }, { port: 81, targetPort: 'grpc' }],
      },
    };
    expect(messages(service)).toEqual([
      `spec.selector: Invalid value: "${'x'.repeat(64)}": must be no more than 63 bytes (rule apiserver)`,
      `spec.ports[0].port: Invalid value: 0: ${PORT_RANGE} (rule apiserver)`,
      `spec.ports[0].targetPort: Invalid value: 70000: ${PORT_RANGE} (rule apiserver)`,
      `spec.ports[1].name: Invalid value: "HTTP": ${DNS1123_LABEL} (rule apiserver)`,
      'spec.ports[1].targetPort: Invalid value: "http--port-name-long": must be no more than 15 characters (rule apiserver)',
      'spec.ports[1].targetPort: Invalid value: "http--port-name-long": must not contain consecutive hyphens (rule apiserver)',
      'spec.ports[2].name: Required value (rule apiserver)',
    ]);
  });
});

describe('container ports and resource quantities (validateContainerPorts, ValidateContainerResourceRequirements)', () => {
  const deployment = (c: Record<string, unknown>): any => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [container(c)] } } },
  });
  const messages = (c: Record<string, unknown>): string[] => checkEmittedObject(deployment(c)).map(v => `${v.path}: ${v.message}`);
  const C = 'spec.template.spec.containers[0]';

  test('container ports: 1-65535, host ports too; names IANA_SVC_NAME, unique', () => {
    expect(messages({ ports: [{ name: 'http', containerPort: 8000 }, { name: 'http', containerPort: 0 }, { name: '9000', containerPort: 9000, hostPort: 65536 }] })).toEqual([
      `${C}.ports[1].name: Duplicate value: "http"`,
      `${C}.ports[1].containerPort: Required value`,
      `${C}.ports[2].name: Invalid value: "9000": must contain at least one letter (a-z)`,
      `${C}.ports[2].hostPort: Invalid value: 65536: ${PORT_RANGE}`,
    ]);
  });

  test('quantities: not negative; whole numbers of an extended resource; NaN and infinities are no quantities', () => {
    expect(messages({ resources: { limits: { 'cpu': '-500m', 'nvidia.com/gpu': '1500m', 'memory': Infinity }, requests: { 'example.com/fpga': NaN } } })).toEqual([
      `${C}.resources.limits[cpu]: Invalid value: "-500m": must be greater than or equal to 0`,
      `${C}.resources.limits[nvidia.com/gpu]: Invalid value: "1500m": must be an integer`,
      `${C}.resources.limits[memory]: Invalid value: Infinity: ${QUANTITY_FORMAT}`,
      `${C}.resources.requests[example.com/fpga]: Invalid value: NaN: ${QUANTITY_FORMAT}`,
    ]);
    // 1e400 written as a YAML or JSON number is Infinity; as a string it is a quantity Kubernetes reads
    expect(messages({ resources: { limits: { 'nvidia.com/gpu': 1e400 } } })).toEqual([`${C}.resources.limits[nvidia.com/gpu]: Invalid value: Infinity: ${QUANTITY_FORMAT}`]);
    expect(messages({ resources: { limits: { 'nvidia.com/gpu': '1e400', 'cpu': 0.5, 'memory': '1e3' } } })).toEqual([]);
  });

  test('resource names: what a container can ask for ("gpu" is not, "nvidia.com/gpu" is)', () => {
    expect(messages({ resources: { limits: { 'gpu': '1', 'pods': '1', 'nvidia.com/gpu': '1', 'hugepages-2Mi': '1Gi', 'memory': '1Gi', 'example.com/a_b!': '1' } } })).toEqual([
      `${C}.resources.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified`,
      `${C}.resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers`,
      `${C}.resources.limits[pods]: Invalid value: "pods": must be a standard resource for containers`,
      `${C}.resources.limits[example.com/a_b!]: Invalid value: "example.com/a_b!": name part ${KEY_NAME_FORMAT}`,
      `${C}.resources.limits[example.com/a_b!]: Invalid value: "example.com/a_b!": doesn't follow extended resource name standard`,
    ]);
    expect(validated(frontendWith({ container: { resources: { limits: { gpu: '1' } } } }))).toEqual([
      'spec.components[0].podTemplate.spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified (rule apiserver)',
      'spec.components[0].podTemplate.spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers (rule apiserver)',
    ]);
  });

  test('requests: equal to the limit for resources that cannot be overcommitted, which need a limit; else not above it', () => {
    expect(messages({ resources: { requests: { 'nvidia.com/gpu': '2', 'cpu': '2', 'memory': '1Gi' }, limits: { 'nvidia.com/gpu': '1', 'cpu': '1000m', 'memory': '1024Mi' } } })).toEqual([
      `${C}.resources.requests: Invalid value: "2": must be equal to nvidia.com/gpu limit of 1`,
      `${C}.resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`,
    ]);
    expect(messages({ resources: { requests: { 'nvidia.com/gpu': '1' } } })).toEqual([`${C}.resources.limits: Required value: Limit must be set for non overcommitable resources`]);
    expect(messages({ resources: { requests: { cpu: '1' } } })).toEqual([]);
  });

  test('input: the same checks on the pod templates of a graph\'s components; GPUs of the GPU memory service become claims and are not checked', () => {
    const gpuRequest = { resources: { requests: { 'nvidia.com/gpu': '1' } } };
    expect(validated(frontendWith({ container: gpuRequest }))).toEqual([
      'spec.components[0].podTemplate.spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources (rule apiserver)',
    ]);
    const gms = graph({ name: 'llm' }, [component('Frontend', 'frontend'), { ...component('w', 'worker', { container: gpuRequest }), experimental: { gpuMemoryService: {} } }]);
    expect(validated(gms).filter(v => v.includes('rule apiserver'))).toEqual([]);
  });
});

describe('standalone DynamoComponentDeployment', () => {
  const dcd = (name: string, type = 'frontend'): any => ({
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoComponentDeployment',
    metadata: { name },
    spec: { backendFramework: 'vllm', name: type, type, podTemplate: { spec: { containers: [container()] } } },
  });

  test('its name is the nvidia.com/selector label value and the Service name: at most 63 characters, starting with a letter', () => {
    const long = 'c'.repeat(64);
    expect(validated(dcd(long))).toEqual([
      `metadata.name: Invalid value: "${long}": DynamoComponentDeployment name (64) is 64 characters; the operator writes it as label "nvidia.com/selector" `
      + 'on the component\'s pods and names the component\'s Service after it, and label values and Service names allow 63 (rule apiserver)',
    ]);
    expect(validated(dcd('1st.frontend'))).toEqual([
      `metadata.name: Invalid value: "1st.frontend": the operator names the component's Service "1st-frontend" after the DynamoComponentDeployment, and ${DNS1035}; `
      + 'the name is a valid DNS-1123 subdomain for the DynamoComponentDeployment itself, but a Service name must start with a letter (rule apiserver)',
    ]);
    expect(validated(dcd('decode-1', 'decode'))).toEqual([]);
    // a spec.name defaulted from a long metadata.name is reported under row 41 only
    const unnamed = dcd(long);
    delete unnamed.spec.name;
    expect(validated(unnamed)).toEqual(['spec.name: Too long: may not be longer than 63 (rule 41)']);
  });
});

describe('env, envFrom and the ConfigMap and Secret keys they read (core ValidateEnv, ValidateEnvFrom)', () => {
  const deployment = (c: Record<string, unknown>, spec: Record<string, unknown> = {}): any => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [container(c)], ...spec } } },
  });
  const messages = (c: Record<string, unknown>, spec: Record<string, unknown> = {}): string[] =>
    checkEmittedObject(deployment(c, spec)).map(v => `${v.path}: ${v.message}`);
  const C = 'spec.template.spec.containers[0]';

  test('env names: set, printable ASCII but "=" (the rule of Kubernetes v1.34 and later: digits first, dots, spaces are allowed)', () => {
    const names = ['', 'A=B', 'MY_VAR', '1ST', 'my.var-x', 'with space', 'tab\there', 'café', '=', '~!@#$%^&*()'];
    expect(messages({ env: names.map(name => ({ name, value: 'v' })) })).toEqual([
      `${C}.env[0].name: Required value`,
      `${C}.env[1].name: Invalid value: "A=B": ${ENV_NAME}`,
      `${C}.env[6].name: Invalid value: "tab\\there": ${ENV_NAME}`,
      `${C}.env[7].name: Invalid value: "café": ${ENV_NAME}`,
      `${C}.env[8].name: Invalid value: "=": ${ENV_NAME}`,
    ]);
    // a control character is not printable; a space alone is
    const control = messages({ env: [{ name: '\x7f', value: 'v' }] });
    expect(control).toHaveLength(1);
    expect(control[0].startsWith(`${C}.env[0].name: Invalid value: `)).toBe(true);
    expect(control[0].endsWith(`: ${ENV_NAME}`)).toBe(true);
    expect(messages({ env: [{ name: ' ', value: 'v' }] })).toEqual([]);
  });

  test('secretKeyRef and configMapKeyRef: the key set and a config key ("bad/../key", "..", "."), the name a DNS-1123 subdomain, also when left out', () => {
    expect(messages({
      env: [
        { name: 'A', valueFrom: { secretKeyRef: { name: 'hf-token', key: 'bad/../key' } } },
        { name: 'B', valueFrom: { configMapKeyRef: { name: 'cfg', key: '..' } } },
        { name: 'C', valueFrom: { secretKeyRef: { name: 'hf-token', key: '' } } },
        { name: 'D', valueFrom: { configMapKeyRef: { key: 'k' } } },
        { name: 'E', valueFrom: { secretKeyRef: { name: 'Bad_Name', key: '..data' } } },
        { name: 'F', valueFrom: { secretKeyRef: { name: 'hf-token', key: 'HF_TOKEN' } } },
      ],
    })).toEqual([
      `${C}.env[0].valueFrom.secretKeyRef.key: Invalid value: "bad/../key": ${CONFIG_KEY}`,
      `${C}.env[1].valueFrom.configMapKeyRef.key: Invalid value: "..": must not be '..'`,
      `${C}.env[2].valueFrom.secretKeyRef.key: Required value`,
      `${C}.env[3].valueFrom.configMapKeyRef.name: Invalid value: "": ${SUBDOMAIN}`,
      `${C}.env[4].valueFrom.secretKeyRef.name: Invalid value: "Bad_Name": ${SUBDOMAIN}`,
      `${C}.env[4].valueFrom.secretKeyRef.key: Invalid value: "..data": must not start with '..'`,
    ]);
    const keyed = (key: string) => messages({ env: [{ name: 'K', valueFrom: { configMapKeyRef: { name: 'cfg', key } } }] });
    expect(keyed('.')).toEqual([`${C}.env[0].valueFrom.configMapKeyRef.key: Invalid value: ".": must not be '.'`]);
    expect(keyed('k'.repeat(254))).toEqual([expect.stringMatching(/\.key: Invalid value: "k+\.\.\.: must be no more than 253 characters$/)]);
    expect(keyed('.env')).toEqual([]);
  });

  test('valueFrom: one source, not beside a value', () => {
    expect(messages({
      env: [
        { name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } },
        { name: 'C', value: '', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      ],
    })).toEqual([
      `${C}.env[0].valueFrom: Invalid value: "": may not be specified when \`value\` is not empty`,
      `${C}.env[1].valueFrom: Invalid value: "": may not have more than one field specified at a time`,
    ]);
  });

  test('fieldRef: a pod field an env var can read, a label or annotation by a valid key', () => {
    const ref = (fieldPath: string, apiVersion?: string): any => ({ name: 'X', valueFrom: { fieldRef: { fieldPath, ...(apiVersion ? { apiVersion } : {}) } } });
    const SUPPORTED = '"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", '
      + '"status.podIP", "status.podIPs"';
    expect(messages({
      env: [
        ref('metadata.name'), ref('spec.host'), ref("metadata.labels['app']"), ref("metadata.annotations['Example.com/Key']"), ref('status.podIPs', 'v1'),
        ref('metadata.nmae'), ref('status.phase'), ref("metadata.name['x']"), ref('metadata.name', 'v2'), ref("metadata.labels['bad key']"), ref(''),
      ],
    })).toEqual([
      `${C}.env[5].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.nmae": error converting fieldPath: field label not supported: metadata.nmae`,
      `${C}.env[6].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: ${SUPPORTED}`,
      `${C}.env[7].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name['x']": error converting fieldPath: field label does not support subscript: metadata.name['x']`,
      `${C}.env[8].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2`,
      `${C}.env[9].valueFrom.fieldRef: Invalid value: "bad key": name part ${KEY_NAME_FORMAT}`,
      `${C}.env[10].valueFrom.fieldRef.fieldPath: Required value`,
    ]);
  });

  test('resourceFieldRef: a container resource an env var can read', () => {
    const ref = (resource: string): any => ({ name: 'X', valueFrom: { resourceFieldRef: { resource } } });
    expect(messages({ env: [ref('limits.cpu'), ref('requests.hugepages-2Mi'), ref('limits.nvidia.com/gpu'), ref('')] })).toEqual([
      `${C}.env[2].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.nvidia.com/gpu": supported values: "limits.cpu", "limits.ephemeral-storage", `
        + '"limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
      `${C}.env[3].valueFrom.resourceFieldRef.resource: Required value`,
    ]);
  });

  test('envFrom: an empty entry (what a lost Env.fromSecret becomes), a prefix with "=", a missing or invalid name, two sources', () => {
    expect(messages({
      envFrom: [
        {},
        { prefix: 'HF_=', secretRef: { name: 'hf' } },
        { configMapRef: { name: '' } },
        { secretRef: {} },
        { configMapRef: { name: 'Bad' } },
        { configMapRef: { name: 'cfg' }, secretRef: { name: 'hf' } },
        { prefix: '1_', configMapRef: { name: 'cfg-' } },
      ],
    })).toEqual([
      `${C}.envFrom[0]: Invalid value: "": must specify one of: \`configMapRef\` or \`secretRef\``,
      `${C}.envFrom[1].prefix: Invalid value: "HF_=": ${ENV_NAME}`,
      `${C}.envFrom[2].configMapRef.name: Required value`,
      `${C}.envFrom[3].secretRef.name: Required value`,
      `${C}.envFrom[4].configMapRef.name: Invalid value: "Bad": ${SUBDOMAIN}`,
      `${C}.envFrom[5]: Invalid value: "": may not have more than one field specified at a time`,
    ]);
  });

  test('init containers are checked too', () => {
    expect(messages({}, { initContainers: [container({ name: 'init', env: [{ name: 'X=1' }] })] })).toEqual([
      `spec.template.spec.initContainers[0].env[0].name: Invalid value: "X=1": ${ENV_NAME}`,
    ]);
  });

  test('input: the pod template of a graph component and of a standalone DCD, and the graph\'s spec.env', () => {
    const bad = { env: [{ name: '' }, { name: 'A=B', value: '1' }, { name: 'T', valueFrom: { secretKeyRef: { name: 'hf', key: 'bad/../key' } } }], envFrom: [{}] };
    const P = 'spec.components[0].podTemplate.spec.containers[0]';
    const expected = [
      `${P}.env[0].name: Required value (rule apiserver)`,
      `${P}.env[1].name: Invalid value: "A=B": ${ENV_NAME} (rule apiserver)`,
      `${P}.env[2].valueFrom.secretKeyRef.key: Invalid value: "bad/../key": ${CONFIG_KEY} (rule apiserver)`,
      `${P}.envFrom[0]: Invalid value: "": must specify one of: \`configMapRef\` or \`secretRef\` (rule apiserver)`,
    ];
    expect(validated(frontendWith({ container: bad }))).toEqual(expected);
    expect(validated(frontendWith({ container: bad }), true)).toEqual(expected);
    const dcd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'fe' },
      spec: { backendFramework: 'vllm', name: 'fe', type: 'frontend', podTemplate: { spec: { containers: [container(bad)] } } },
    };
    expect(validated(dcd)).toEqual(expected.map(m => m.replace(P, 'spec.podTemplate.spec.containers[0]')));
    const graphEnv = graph({ name: 'llm' });
    graphEnv.spec.env = [{ name: 'OK', value: '1' }, { name: 'A=B', value: '1' }];
    expect(validated(graphEnv)).toEqual([`spec.env[1].name: Invalid value: "A=B": ${ENV_NAME} (rule apiserver)`]);
  });

  test('the constructs refuse them at synthesis, with the same message', () => {
    const c = new Chart(Testing.app(), 'test');
    const g = new DynamoGraph(c, 'Graph', { metadata: { name: 'llm' }, backendFramework: BackendFramework.VLLM });
    g.addFrontend('Frontend', { image: IMAGE, podTemplate: { spec: { containers: [{ name: 'main', env: [{ name: 'A=B', value: '1' }] }] } } });
    expect(() => Testing.synth(c)).toThrow(`spec.components[0].podTemplate.spec.containers[0].env[0].name (component "Frontend"): Invalid value: "A=B": ${ENV_NAME} (rule apiserver)`);
    // an envFrom entry that names nothing (what a lost Env.fromSecret conversion writes) fails synthesis instead of the pod
    const c2 = new Chart(Testing.app(), 'test');
    new DynamoGraph(c2, 'Graph', { metadata: { name: 'llm' }, backendFramework: BackendFramework.VLLM })
      .addFrontend('Frontend', { image: IMAGE, podTemplate: { spec: { containers: [{ name: 'main', envFrom: [{}] }] } } });
    expect(() => Testing.synth(c2)).toThrow('spec.components[0].podTemplate.spec.containers[0].envFrom[0] (component "Frontend"): Invalid value: "": '
      + 'must specify one of: `configMapRef` or `secretRef` (rule apiserver)');
  });
});

describe('container and volume names, volume mounts (core ValidatePodSpec)', () => {
  const pod = (spec: Record<string, unknown>): any => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec } },
  });
  const messages = (spec: Record<string, unknown>): string[] => checkEmittedObject(pod(spec)).map(v => `${v.path}: ${v.message}`);
  const S = 'spec.template.spec';

  test('container names (validateContainers): DNS-1123 labels, unique across containers and init containers; an image', () => {
    expect(messages({ containers: [container(), container(), container({ name: 'Side_car' })], initContainers: [container({ name: 'init' }), container()] })).toEqual([
      `${S}.containers[1].name: Duplicate value: "main"`,
      `${S}.containers[2].name: Invalid value: "Side_car": ${DNS1123_LABEL}`,
      `${S}.initContainers[1].name: Duplicate value: "main"`,
    ]);
    expect(messages({ containers: [{ name: 'main' }, { name: 'side', image: '' }] })).toEqual([
      `${S}.containers[0].image: Required value`,
      `${S}.containers[1].image: Required value`,
    ]);
  });

  test('volume names (ValidateVolumes, ValidateVolumeMounts): DNS-1123 labels, unique; a mount names a volume of the pod that is valid; mount paths unique in a container', () => {
    expect(messages({
      volumes: [{ name: 'cache', emptyDir: {} }, { name: 'cache', emptyDir: {} }, { name: 'Model_Cache', emptyDir: {} }],
      containers: [container({
        volumeMounts: [
          { name: 'cache', mountPath: '/cache' },
          { name: 'Model_Cache', mountPath: '/models' },
          { name: 'shm', mountPath: '/cache' },
        ],
      })],
    })).toEqual([
      `${S}.volumes[1].name: Duplicate value: "cache"`,
      `${S}.volumes[2].name: Invalid value: "Model_Cache": ${DNS1123_LABEL}`,
      `${S}.containers[0].volumeMounts[1].name: Not found: "Model_Cache"`,
      `${S}.containers[0].volumeMounts[2].name: Not found: "shm"`,
      `${S}.containers[0].volumeMounts[2].mountPath: Invalid value: "/cache": must be unique`,
    ]);
  });

  test('volume types (ValidateVolumes): exactly one each; a Secret, ConfigMap or claim volume names its object; a mount cannot name a volume that fails', () => {
    expect(messages({
      volumes: [
        { name: 'lost' },
        { name: 'two', emptyDir: {}, secret: { secretName: 's' } },
        { name: 'secret', secret: {} },
        { name: 'config', configMap: { name: '' } },
        { name: 'claim', persistentVolumeClaim: { claimName: '' } },
        { name: 'ok', secret: { secretName: 'hf' } },
      ],
      containers: [container({ volumeMounts: [{ name: 'lost', mountPath: '/a' }, { name: 'ok', mountPath: '/b' }] })],
    })).toEqual([
      `${S}.volumes[0]: Required value: must specify a volume type`,
      `${S}.volumes[1].secret: Forbidden: may not specify more than 1 volume type`,
      `${S}.volumes[2].secret.secretName: Required value`,
      `${S}.volumes[3].configMap.name: Required value`,
      `${S}.volumes[4].persistentVolumeClaim.claimName: Required value`,
      `${S}.containers[0].volumeMounts[0].name: Not found: "lost"`,
    ]);
  });

  test('probes and lifecycle hooks (validateProbe): one handler, an exec command, valid ports, counts; none on a plain init container', () => {
    expect(messages({
      containers: [container({
        livenessProbe: {},
        readinessProbe: { httpGet: { path: '/health', port: 70000 }, tcpSocket: { port: 8000 }, terminationGracePeriodSeconds: 5 },
        startupProbe: { exec: { command: [] }, periodSeconds: -1, successThreshold: 2 },
        lifecycle: { preStop: { httpGet: { port: 'Not_A_Port' } }, postStart: {} },
        restartPolicy: 'Always',
      })],
      initContainers: [
        container({ name: 'init', livenessProbe: { tcpSocket: { port: 1 } }, restartPolicy: 'OnFailure' }),
        container({ name: 'sidecar', restartPolicy: 'Always', readinessProbe: { grpc: { port: 9003 } } }),
      ],
    })).toEqual([
      `${S}.containers[0].livenessProbe: Required value: must specify a handler type`,
      `${S}.containers[0].readinessProbe.httpGet.port: Invalid value: 70000: ${PORT_RANGE}`,
      `${S}.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type`,
      `${S}.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set for readinessProbes`,
      `${S}.containers[0].startupProbe.exec.command: Required value`,
      `${S}.containers[0].startupProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0`,
      `${S}.containers[0].startupProbe.successThreshold: Invalid value: 2: must be 1`,
      `${S}.containers[0].lifecycle.preStop.httpGet.port: Invalid value: "Not_A_Port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
      `${S}.containers[0].lifecycle.postStart: Required value: must specify a handler type`,
      `${S}.containers[0].restartPolicy: Forbidden: may not be set for non-init containers`,
      `${S}.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always`,
      `${S}.initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`,
    ]);
  });

  test('input: names are checked; a name given twice in one container list is the schema\'s (row 89); mounts are not matched, as the operator adds volumes', () => {
    const podTemplate = {
      spec: {
        volumes: [{ name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }],
        containers: [container({ volumeMounts: [{ name: 'model-cache', mountPath: '/models' }] }), container({ name: 'Side_car' })],
        initContainers: [container({ name: 'init' }), container()],
      },
    };
    const P = 'spec.components[0].podTemplate.spec';
    expect(validated(graph({ name: 'llm' }, [{ name: 'Frontend', type: 'frontend', podTemplate }]))).toEqual([
      `${P}.volumes[1].name: Duplicate value: "v" (rule apiserver)`,
      `${P}.containers[1].name: Invalid value: "Side_car": ${DNS1123_LABEL} (rule apiserver)`,
      `${P}.initContainers[1].name: Duplicate value: "main" (rule apiserver)`,
    ]);
  });
});

describe('the pod templates of a LeaderWorkerSet and the pod specs of a PodCliqueSet (their controllers create pods from them)', () => {
  const BAD = { env: [{ name: 'A=B', value: '1' }] };
  test('LeaderWorkerSet: leader and worker templates', () => {
    const lws = {
      apiVersion: 'leaderworkerset.x-k8s.io/v1',
      kind: 'LeaderWorkerSet',
      metadata: { name: 'w' },
      spec: {
        leaderWorkerTemplate: {
          size: 2,
          leaderTemplate: { spec: { containers: [container(BAD)] } },
          workerTemplate: { spec: { containers: [container(BAD)] } },
        },
      },
    };
    expect(emitted([lws]).filter(m => m.includes('rule apiserver'))).toEqual(['leaderTemplate', 'workerTemplate'].map(t =>
      `LeaderWorkerSet/w: spec.leaderWorkerTemplate.${t}.spec.containers[0].env[0].name: Invalid value: "A=B": ${ENV_NAME} (rule apiserver)`));
  });

  test('PodCliqueSet: every clique\'s pod spec', () => {
    const pcs = {
      apiVersion: 'grove.io/v1alpha1',
      kind: 'PodCliqueSet',
      metadata: { name: 'g' },
      spec: {
        replicas: 1,
        template: {
          cliques: [{ name: 'ok', spec: { roleName: 'ok', replicas: 1, podSpec: { containers: [container()] } } },
            { name: 'bad', spec: { roleName: 'bad', replicas: 1, podSpec: { containers: [container(BAD)] } } }],
        },
      },
    };
    expect(emitted([pcs]).filter(m => m.includes('rule apiserver'))).toEqual([
      `PodCliqueSet/g: spec.template.cliques[1].spec.podSpec.containers[0].env[0].name: Invalid value: "A=B": ${ENV_NAME} (rule apiserver)`,
    ]);
  });
});

describe('Secret and ConfigMap data (core ValidateSecret, ValidateConfigMap)', () => {
  const secret = (extra: Record<string, unknown>): any => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, ...extra });
  const configMap = (extra: Record<string, unknown>): any => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, ...extra });
  const checked = (obj: unknown): string[] => emitted([obj]);
  const VALUE = 'hunter2-very-secret';
  const BASE64 = Buffer.from(VALUE).toString('base64');

  test('Secret: the keys of data and stringData are config keys; the values never appear in a message', () => {
    const found = checked(secret({ data: { 'bad key!': BASE64, '..x': BASE64, 'HF_TOKEN': BASE64 }, stringData: { '.': VALUE, 'bad/../key': VALUE } }));
    expect(found).toEqual([
      `Secret/s: data[bad key!]: Invalid value: "bad key!": ${CONFIG_KEY} (rule apiserver)`,
      'Secret/s: data[..x]: Invalid value: "..x": must not start with \'..\' (rule apiserver)',
      'Secret/s: stringData[.]: Invalid value: ".": must not be \'.\' (rule apiserver)',
      `Secret/s: stringData[bad/../key]: Invalid value: "bad/../key": ${CONFIG_KEY} (rule apiserver)`,
    ]);
    expect(found.join('\n')).not.toContain(VALUE);
    expect(found.join('\n')).not.toContain(BASE64);
  });

  test('Secret: at most 1 MiB of data in all (decoded; a stringData value replaces the data value of its key)', () => {
    const half = Buffer.alloc(512 * 1024, 1).toString('base64');
    expect(checked(secret({ data: { a: half, b: half } }))).toEqual([]);
    expect(checked(secret({ data: { a: half, b: half }, stringData: { c: 'x' } }))).toEqual(['Secret/s: data: Too long: may not be more than 1048576 bytes (rule apiserver)']);
    expect(checked(secret({ data: { a: half, b: half }, stringData: { b: 'x' } }))).toEqual([]);
  });

  test('Secret: the keys a Secret of a known type needs, the service account annotation of a token', () => {
    expect(checked(secret({ type: 'kubernetes.io/tls', data: { 'tls.crt': BASE64 } }))).toEqual(['Secret/s: data[tls.key]: Required value (rule apiserver)']);
    expect(checked(secret({ type: 'kubernetes.io/dockerconfigjson', stringData: { config: '{}' } }))).toEqual(['Secret/s: data[.dockerconfigjson]: Required value (rule apiserver)']);
    expect(checked(secret({ type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': '{}' } }))).toEqual([]);
    expect(checked(secret({ type: 'kubernetes.io/basic-auth', data: {} }))).toEqual([
      'Secret/s: data[password]: Required value (rule apiserver)', 'Secret/s: data[username]: Required value (rule apiserver)',
    ]);
    expect(checked(secret({ type: 'kubernetes.io/basic-auth', stringData: { password: '' } }))).toEqual([]);
    expect(checked(secret({ type: 'kubernetes.io/ssh-auth', stringData: { 'ssh-privatekey': '' } }))).toEqual(['Secret/s: data[ssh-privatekey]: Required value (rule apiserver)']);
    expect(checked(secret({ type: 'kubernetes.io/service-account-token' }))).toEqual([
      'Secret/s: metadata.annotations[kubernetes.io/service-account.name]: Required value (rule apiserver)',
    ]);
    expect(checked(secret({ type: 'Opaque', data: {} }))).toEqual([]);
  });

  test('ConfigMap: keys of data and binaryData, no key in both, at most 1 MiB in all (for the whole object)', () => {
    expect(checked(configMap({ data: { 'bad key!': 'v', 'config.yaml': 'a: 1', 'both': 'x' }, binaryData: { 'both': 'eA==', '..bin': 'eA==' } }))).toEqual([
      `ConfigMap/c: data[bad key!]: Invalid value: "bad key!": ${CONFIG_KEY} (rule apiserver)`,
      'ConfigMap/c: data[both]: Invalid value: "both": duplicate of key present in binaryData (rule apiserver)',
      'ConfigMap/c: binaryData[..bin]: Invalid value: "..bin": must not start with \'..\' (rule apiserver)',
    ]);
    const half = 'é'.repeat(256 * 1024); // 512 KiB of UTF-8
    expect(checked(configMap({ data: { a: half, b: half } }))).toEqual([]);
    expect(checked(configMap({ data: { a: half, b: half }, binaryData: { c: 'eA==' } }))).toEqual(['ConfigMap/c: Too long: may not be more than 1048576 bytes (rule apiserver)']);
  });
});

test('cdk8s-dynamo validate: what the issue found accepted is refused, exit 1, no Secret value printed', () => {
  const input = `apiVersion: v1
kind: Secret
metadata: { name: hf }
stringData: { "bad key!": hunter2-secret }
---
apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata: { name: llm }
spec:
  backendFramework: vllm
  components:
    - name: Frontend
      type: frontend
      podTemplate:
        spec:
          containers:
            - name: main
              image: ${IMAGE}
              env:
                - { name: "", value: "1" }
                - { name: "A=B", value: "1" }
                - { name: T, valueFrom: { secretKeyRef: { name: hf, key: "bad/../key" } } }
`;
  const r = runCliOn({ 'in.yaml': input }, ['validate', 'in.yaml']);
  expect(r.code).toBe(1);
  const C = 'spec.components[0].podTemplate.spec.containers[0]';
  expect(r.stderr.trim().split('\n')).toEqual([
    `in.yaml:4:15: Secret/hf: stringData[bad key!]: Invalid value: "bad key!": ${CONFIG_KEY} (rule apiserver)`,
    `in.yaml:20:21: DynamoGraphDeployment/llm: ${C}.env[0].name (component "Frontend"): Required value (rule apiserver)`,
    `in.yaml:21:21: DynamoGraphDeployment/llm: ${C}.env[1].name (component "Frontend"): Invalid value: "A=B": ${ENV_NAME} (rule apiserver)`,
    `in.yaml:22:69: DynamoGraphDeployment/llm: ${C}.env[2].valueFrom.secretKeyRef.key (component "Frontend"): Invalid value: "bad/../key": ${CONFIG_KEY} (rule apiserver)`,
  ]);
  expect(r.stderr).not.toContain('hunter2');
});

test('a qualified name checked again gives the same errors: one check cannot change what the next reports', () => {
  const labelled = (key: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { [key]: 'v' } } });
  const first = apiServerLines(labelled('-bad/key-'));
  expect(first).toEqual([
    'ConfigMap/c: metadata.labels: Invalid value: "-bad/key-": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end '
    + 'with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\') (rule apiserver)',
    'ConfigMap/c: metadata.labels: Invalid value: "-bad/key-": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character '
    + '(e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\') (rule apiserver)',
  ]);
  // the same key elsewhere in another object, then the first object again: the same errors
  expect(apiServerLines({ ...labelled('ok'), metadata: { name: 'c', annotations: { '-bad/key-': 'v' } } })).toHaveLength(2);
  expect(apiServerLines(labelled('-bad/key-'))).toEqual(first);
  expect(apiServerLines(labelled('example.com/good'))).toEqual([]);
});

const describeCorpus = CORPUS_DIR ? describe : describe.skip;

describeCorpus('the corpus: every v1beta1 graph renders objects the API server accepts, on both workload pathways', () => {
  const graphs = corpusFiles().flatMap(({ file, docs }) => docs
    .map((doc, i) => ({ id: `${file}#${i}`, doc }))
    .filter(({ doc }) => doc?.apiVersion === 'nvidia.com/v1beta1' && doc.kind === 'DynamoGraphDeployment'));

  test.each([['without Grove', NO_GROVE], ['with Grove', GROVE]])('%s: no object breaks an API server check, no input is flagged', (_, operator) => {
    expect(graphs.length).toBeGreaterThan(0);
    const problems: string[] = [];
    let objects = 0;
    for (const { id, doc } of graphs) {
      const input = validateDocument(doc, { groveAvailable: operator.groveAvailable });
      for (const v of input) if (v.rule === 'apiserver') problems.push(`${id}: ${v.path}: ${v.message}`);
      // a main container without an image (row 46 refuses the graph) renders containers the API server refuses: image Required
      if (input.some(v => v.rule === '46')) continue;
      let out: unknown[];
      try {
        out = renderDocuments([withVersionedImages(doc)], { output: 'workloads', operator: { ...operator, checkpointEnabled: true }, checkAdmission: false });
      } catch (e) {
        // graphs the engine refuses on this pathway (corpus-workloads.test.ts pins which)
        if ((e as Error).name === 'RenderError') continue;
        throw e;
      }
      objects += out.length;
      problems.push(...checkEmittedObjects(out).map(v => `${id}: ${formatEmittedViolation(v)}`));
    }
    expect(objects).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  });
});
