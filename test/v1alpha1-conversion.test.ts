/**
 * nvidia.com/v1alpha1 documents converted as the API server converts a v1alpha1 request (null
 * fields pruned, the v1alpha1 defaults applied, fields checked), what cannot be converted, the
 * notices, the webhook's v1alpha1 request checks (rule 148), and the library entry points that
 * accept v1alpha1: DynamoGraph / ComponentDeployment `fromYaml` / `fromObject` and
 * DynamoDocuments. The operator's own conversion facts are in v1alpha1-conversion-facts.test.ts.
 */
import { Testing } from 'cdk8s';
import { ComponentDeployment, DynamoDocuments, DynamoGraph } from '../src';
import { admissionLines, convertDocument, validateDocuments, writeDocuments } from './support/facade';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

function alphaGraph(services: any, spec: any = {}, metadata: any = {}): any {
  return { apiVersion: 'nvidia.com/v1alpha1', kind: 'DynamoGraphDeployment', metadata: { name: 'llm', ...metadata }, spec: { backendFramework: 'vllm', ...spec, services } };
}

/** The conversion of a v1alpha1 document as `cdk8s-dynamo convert` writes it. */
const convertV1alpha1Document = convertDocument;

/** The rule-148 checks the webhook makes of the v1alpha1 request, as `cdk8s-dynamo validate` reports them. */
function admissionProblemsOf(doc: any): string[] {
  return validateDocuments([doc]).lines.filter(line => line.endsWith('(rule 148)'));
}

function converted(doc: any): any {
  const outcome = convertV1alpha1Document(doc);
  expect(outcome.problems).toEqual([]);
  return outcome.document;
}

const AGG = alphaGraph({
  Frontend: { componentType: 'frontend', replicas: 1, extraPodSpec: { mainContainer: { image: IMAGE } } },
  VllmWorker: {
    componentType: 'worker',
    replicas: 2,
    envFromSecret: 'hf-token-secret',
    envs: [{ name: 'HF_HOME', value: '/cache' }],
    resources: { requests: { cpu: '8', memory: '32Gi', gpu: '1' }, limits: { gpu: '1' } },
    extraPodSpec: { mainContainer: { image: IMAGE, command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'Qwen/Qwen3-0.6B'] } },
  },
});

describe('documents', () => {
  test('only v1alpha1 DynamoGraphDeployments and DynamoComponentDeployments are converted', () => {
    expect(converted(AGG).apiVersion).toBe('nvidia.com/v1beta1');
    const beta = { ...AGG, apiVersion: 'nvidia.com/v1beta1' };
    expect(convertV1alpha1Document(beta).document).toEqual(beta);
    const request = { apiVersion: 'nvidia.com/v1alpha1', kind: 'DynamoGraphDeploymentRequest', metadata: { name: 'r' } };
    expect(convertV1alpha1Document(request)).toEqual({
      document: request,
      problems: [],
      notices: [
        'nvidia.com/v1alpha1 DynamoGraphDeploymentRequest/r: written unchanged (only DynamoGraphDeployment and DynamoComponentDeployment are converted)',
        'no nvidia.com/v1alpha1 DynamoGraphDeployment or DynamoComponentDeployment; written unchanged',
      ],
    });
  });

  test('a graph converts to a v1beta1 graph that validates', () => {
    const doc = converted(AGG);
    expect(doc.apiVersion).toBe('nvidia.com/v1beta1');
    expect(doc.spec.components.map((c: any) => [c.name, c.type, c.replicas])).toEqual([['Frontend', 'frontend', 1], ['VllmWorker', 'worker', 2]]);
    expect(doc.spec.components[1].podTemplate.spec.containers[0]).toEqual({
      name: 'main',
      image: IMAGE,
      command: ['python3', '-m', 'dynamo.vllm'],
      args: ['--model', 'Qwen/Qwen3-0.6B'],
      envFrom: [{ secretRef: { name: 'hf-token-secret' } }],
      env: [{ name: 'HF_HOME', value: '/cache' }],
      resources: { limits: { 'nvidia.com/gpu': '1' }, requests: { 'cpu': '8', 'memory': '32Gi', 'nvidia.com/gpu': '1' } },
    });
    expect(admissionLines(doc)).toEqual([]);
  });

  test('the v1alpha1 schema defaults apply before the conversion', () => {
    const doc = converted(alphaGraph({
      w: {
        componentType: 'worker',
        multinode: {},
        failover: { enabled: true },
        gpuMemoryService: { enabled: true },
        checkpoint: { enabled: true, identity: { model: 'm', backendFramework: 'vllm' } },
      },
    }, { restart: { id: 'r', strategy: {} } }));
    const c = doc.spec.components[0];
    expect(c.multinode).toEqual({ nodeCount: 2 });
    expect(c.experimental.failover).toEqual({ mode: 'IntraPod', numShadows: 1 });
    expect(c.experimental.gpuMemoryService).toEqual({ mode: 'IntraPod', deviceClassName: 'gpu.nvidia.com' });
    expect(c.experimental.checkpoint).toEqual({
      enabled: true,
      startupPolicy: 'Immediate',
      deletionPolicy: 'Delete',
      targetContainerName: 'main',
      identity: { model: 'm', backendFramework: 'vllm', tensorParallelSize: 1, pipelineParallelSize: 1 },
    });
    expect(doc.spec.restart).toEqual({ id: 'r', strategy: { type: 'Sequential' } });
  });

  test('null fields are pruned (a service written as null is no service)', () => {
    const doc = converted(alphaGraph({ w: { componentType: 'worker', replicas: null }, gone: null }));
    expect(doc.spec.components).toEqual([{ name: 'w', type: 'worker' }]);
    expect(doc.metadata.annotations).toBeUndefined();
  });

  test('multinode leader / worker provider overrides become the roles list', () => {
    const providerOverride = { apiVersion: 'grove.io/v1alpha1', target: 'PodCliqueTemplateSpec', value: { topologyConstraint: { packDomain: 'rack' } } };
    const doc = converted(alphaGraph({ w: { componentType: 'worker', multinode: { nodeCount: 2, leader: { providerOverride } } } }));
    expect(doc.spec.components[0].multinode).toEqual({ nodeCount: 2 });
    expect(doc.spec.components[0].roles).toEqual([{ name: 'leader', providerOverride }, { name: 'worker' }]);
  });

  test('a DynamoComponentDeployment converts; without serviceName it is named after the object', () => {
    const doc = converted({ apiVersion: 'nvidia.com/v1alpha1', kind: 'DynamoComponentDeployment', metadata: { name: 'dcd' }, spec: { componentType: 'frontend', extraPodSpec: { mainContainer: { image: IMAGE } } } });
    expect(doc.spec).toEqual({ name: 'dcd', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } });
    expect(JSON.parse(doc.metadata.annotations['nvidia.com/dcd-spec'])).toEqual({ version: 1, spec: {}, rawJSON: [{ path: 'serviceName', nil: true }] });
  });
});

describe('what cannot be converted is an error naming the field', () => {
  test.each([
    ['an unknown field', alphaGraph({ w: { componentType: 'worker', replica: 2 } }), 'DynamoGraphDeployment/llm: spec.services[w].replica: unknown field "spec.services[w].replica"'],
    ['an unknown field inside an embedded pod spec', alphaGraph({ w: { extraPodSpec: { mainContainer: { imagePolicy: 'x' } } } }), 'DynamoGraphDeployment/llm: spec.services[w].extraPodSpec.mainContainer.imagePolicy: unknown field "spec.services[w].extraPodSpec.mainContainer.imagePolicy"'],
    ['an unknown graph field', alphaGraph({}, { components: [] }), 'DynamoGraphDeployment/llm: spec.components: unknown field "spec.components"'],
    ['a value of the wrong type', alphaGraph({ w: { replicas: 'two' } }), 'DynamoGraphDeployment/llm: spec.services[w].replicas: Invalid value: expected an integer'],
    ['a quantity that does not parse where the API requires one', alphaGraph({ w: { sharedMemory: { size: 'lots' } } }), 'DynamoGraphDeployment/llm: spec.services[w].sharedMemory.size: Invalid value: invalid quantity "lots"'],
    ['a resource quantity the conversion would drop', alphaGraph({ w: { resources: { limits: { cpu: 'many' } } } }), 'DynamoGraphDeployment/llm: spec.services[w].resources.limits.cpu: Invalid value: "many": not a quantity; the conversion leaves it out of the pod template'],
    ['an extraPodSpec container named main, which the conversion drops', alphaGraph({ w: { extraPodSpec: { containers: [{ name: 'main', image: IMAGE }] } } }), 'DynamoGraphDeployment/llm: spec.services[w].extraPodSpec.containers[0]: a container named "main" is dropped by the conversion'],
    ['multinode roles of a DynamoComponentDeployment (the v1alpha1 DCD has none)',
      { apiVersion: 'nvidia.com/v1alpha1', kind: 'DynamoComponentDeployment', metadata: { name: 'd' }, spec: { multinode: { nodeCount: 2, leader: {} } } },
      'DynamoComponentDeployment/d: spec.multinode.leader: unknown field "spec.multinode.leader"'],
    ['a top-level field', { ...alphaGraph({}), extra: 1 }, 'DynamoGraphDeployment/llm: extra: unknown field "extra"'],
  ])('%s', (_name, doc, message) => {
    const outcome = convertV1alpha1Document(doc);
    expect(outcome.document).toBeUndefined();
    expect(outcome.problems).toEqual([expect.stringContaining(message)]);
  });
});

describe('notices and the v1alpha1 request checks', () => {
  test('fields kept only in the preservation annotation are named', () => {
    const outcome = convertV1alpha1Document(alphaGraph({
      w: {
        componentType: 'worker',
        subComponentType: 'custom',
        dynamoNamespace: 'legacy',
        autoscaling: { enabled: true },
        ingress: { enabled: true, host: 'h' },
        annotations: { a: 'b' },
        labels: { l: 'v' },
        serviceName: 'other',
      },
    }, { pvcs: [{ name: 'models', create: true, size: '1Gi' }] }));
    expect(outcome.notices).toEqual([
      expect.stringMatching(/^DynamoGraphDeployment\/llm: spec\.pvcs: has no v1beta1 field; kept only in annotation nvidia\.com\/dgd-spec/),
      'DynamoGraphDeployment/llm: spec.services[w].subComponentType: has no v1beta1 field; kept only in annotation nvidia.com/dgd-spec',
      'DynamoGraphDeployment/llm: spec.services[w].ingress: has no v1beta1 field; kept only in annotation nvidia.com/dgd-spec',
      'DynamoGraphDeployment/llm: spec.services[w].annotations: has no v1beta1 field; kept only in annotation nvidia.com/dgd-spec',
      'DynamoGraphDeployment/llm: spec.services[w].labels: has no v1beta1 field; kept only in annotation nvidia.com/dgd-spec',
      expect.stringContaining('spec.services[w].serviceName: "other" differs from the service key'),
      expect.stringContaining('spec.services[w].dynamoNamespace: deprecated (the webhook warns that it is ignored)'),
      expect.stringContaining('spec.services[w].autoscaling: deprecated and ignored'),
    ]);
  });

  test('the webhook checks the v1alpha1 request (rule 148)', () => {
    const request = alphaGraph({
      w: {
        volumeMounts: [{ name: 'data' }],
        ingress: { enabled: true },
        eppConfig: {},
        failover: { enabled: true, mode: 'intraPod', numShadows: 3 },
        frontendSidecar: { image: IMAGE },
        extraPodSpec: { containers: [{ name: 'sidecar-frontend', image: IMAGE }] },
        annotations: { 'nvidia.com/vllm-distributed-executor-backend': 'mpi' },
      },
    }, { pvcs: [{ create: true }] });
    expect(convertV1alpha1Document(request).problems).toEqual([]);
    expect(admissionProblemsOf(request)).toEqual([
      'DynamoGraphDeployment/llm: spec.pvcs[0].name: Required value: is required (rule 148)',
      'DynamoGraphDeployment/llm: spec.services[w].annotations[nvidia.com/vllm-distributed-executor-backend]: Invalid value: "mpi": must be "mp" or "ray" (rule 148)',
      'DynamoGraphDeployment/llm: spec.services[w].volumeMounts[0].mountPoint: Required value: is required when useAsCompilationCache is false (rule 148)',
      'DynamoGraphDeployment/llm: spec.services[w].ingress.host: Required value: is required when ingress is enabled (rule 148)',
      'DynamoGraphDeployment/llm: spec.services[w].eppConfig: Forbidden: exactly one of configMapRef or config is required (rule 148)',
      'DynamoGraphDeployment/llm: spec.services[w].frontendSidecar: Forbidden: cannot inject frontend sidecar: a container named "sidecar-frontend" already exists in extraPodSpec.containers (rule 148)',
      expect.stringMatching(/^DynamoGraphDeployment\/llm: spec\.services\[w\]\.failover\.numShadows: Invalid value: 3: is invalid for mode="intraPod"/),
    ]);
  });
});

describe('library entry points', () => {
  const yaml = writeDocuments([AGG]);

  test('DynamoGraph.fromYaml and fromObject import a v1alpha1 graph as its v1beta1 conversion', () => {
    for (const make of [(chart: any) => DynamoGraph.fromYaml(chart, 'g', yaml), (chart: any) => DynamoGraph.fromObject(chart, 'g', AGG)]) {
      const chart = Testing.chart();
      make(chart);
      const [dgd] = Testing.synth(chart);
      expect(dgd.apiVersion).toBe('nvidia.com/v1beta1');
      expect(dgd.spec.components.map((c: any) => c.name)).toEqual(['Frontend', 'VllmWorker']);
      expect(dgd.spec).toEqual(converted(AGG).spec);
      expect(dgd.metadata.annotations['nvidia.com/dgd-spec']).toBe(converted(AGG).metadata.annotations['nvidia.com/dgd-spec']);
    }
  });

  test('ComponentDeployment.fromYaml imports a v1alpha1 component deployment', () => {
    const chart = Testing.chart();
    ComponentDeployment.fromYaml(chart, 'c', `apiVersion: nvidia.com/v1alpha1
kind: DynamoComponentDeployment
metadata:
  name: fe
spec:
  serviceName: Frontend
  componentType: frontend
  extraPodSpec:
    mainContainer:
      image: ${IMAGE}
`);
    const [dcd] = Testing.synth(chart);
    expect(dcd.apiVersion).toBe('nvidia.com/v1beta1');
    expect(dcd.spec).toMatchObject({ name: 'Frontend', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } });
  });

  test('fromYaml names what cannot be converted', () => {
    expect(() => DynamoGraph.fromObject(Testing.chart(), 'g', alphaGraph({ w: { replica: 1 } })))
      .toThrow('cannot convert from nvidia.com/v1alpha1:\n  DynamoGraphDeployment/llm: spec.services[w].replica: unknown field "spec.services[w].replica"');
  });

  test('DynamoDocuments.convertYaml writes the conversion; validateYaml and renderYaml convert first', () => {
    const out = DynamoDocuments.convertYaml(yaml);
    expect(out).toContain('apiVersion: nvidia.com/v1beta1');
    expect(out).toBe(writeDocuments([converted(AGG)]));
    expect(DynamoDocuments.validateYaml(yaml)).toEqual([]);
    expect(DynamoDocuments.renderYaml(yaml)).toBe(out);
    expect(() => DynamoDocuments.convertYaml(writeDocuments([alphaGraph({ w: { replica: 1 } })]), { source: 'f.yaml' }))
      .toThrow('f.yaml: DynamoGraphDeployment/llm: spec.services[w].replica: unknown field "spec.services[w].replica"');
    expect(DynamoDocuments.validateYaml(writeDocuments([alphaGraph({ w: { componentType: 'worker', ingress: { enabled: true }, extraPodSpec: { mainContainer: { image: IMAGE } } } })])))
      .toEqual(['input: DynamoGraphDeployment/llm: spec.services[w].ingress.host: Required value: is required when ingress is enabled (rule 148)']);
  });
});
