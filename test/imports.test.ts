import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { k8s } from 'cdk8s-plus-34';
import * as YAML from 'yaml';
import {
  BackendFramework,
  ComponentExperimentalCheckpointStartupPolicy,
  ComponentExperimentalMode,
  ComponentType,
  DynamoComponentDeployment,
  DynamoGraphDeployment,
  DynamoGraphDeploymentScalingAdapter,
} from '../imports/nvidia.com';
import { DCD_V1BETA1_SCHEMA, DGD_V1BETA1_SCHEMA, EMBEDDED_K8S_DEFAULTS } from '../imports/nvidia.com.schema';
import { defaultCrdDir, importCrds, IMPORTS_SIZE_BUDGET, SCHEMA_FILE, TYPES_FILE } from '../scripts/import-crds';

const IMPORTS_DIR = path.join(__dirname, '..', 'imports');
const CRD_DIR = defaultCrdDir();
const HAVE_CRDS = fs.existsSync(CRD_DIR);
if (!HAVE_CRDS) {
  console.log(`imports.test: ${CRD_DIR} does not exist; skipping the regeneration tests (set DYNAMO_CRDS_DIR)`);
}
const testWithCrds = HAVE_CRDS ? test : test.skip;

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-imports-'));
}

describe('reproducibility', () => {
  testWithCrds('regenerating from the CRD folder gives the committed imports byte for byte', () => {
    const out = tempDir();
    try {
      const result = importCrds(CRD_DIR, out);
      expect(result.files.map(f => path.basename(f)).sort()).toEqual([SCHEMA_FILE, TYPES_FILE].sort());
      for (const file of result.files) {
        const generated = fs.readFileSync(file);
        const committed = fs.readFileSync(path.join(IMPORTS_DIR, path.basename(file)));
        expect(generated.toString('utf8')).toBe(committed.toString('utf8'));
        expect(Buffer.compare(generated, committed)).toBe(0);
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  testWithCrds('fails loudly on an unmapped embedded Kubernetes type', () => {
    const crds = tempDir();
    const out = tempDir();
    try {
      for (const file of fs.readdirSync(CRD_DIR).filter(f => f.startsWith('nvidia.com_dynamo'))) {
        fs.copyFileSync(path.join(CRD_DIR, file), path.join(crds, file));
      }
      // rename the DCD pod template so that it is no longer mapped to k8s.PodTemplateSpec
      const dcdFile = path.join(crds, 'nvidia.com_dynamocomponentdeployments.yaml');
      const dcd = YAML.parseAllDocuments(fs.readFileSync(dcdFile, 'utf8')).map(d => d.toJS()).find(d => d?.kind === 'CustomResourceDefinition');
      const spec = dcd.spec.versions.find((v: any) => v.name === 'v1beta1').schema.openAPIV3Schema.properties.spec;
      spec.properties.pod = spec.properties.podTemplate;
      delete spec.properties.podTemplate;
      fs.writeFileSync(dcdFile, JSON.stringify(dcd));

      expect(() => importCrds(crds, out)).toThrow(/DynamoComponentDeployment\.spec\.pod(\.\w+)* looks like an embedded Kubernetes type/);
    } finally {
      fs.rmSync(crds, { recursive: true, force: true });
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('generated classes', () => {
  const podTemplate: k8s.PodTemplateSpec = {
    metadata: { labels: { app: 'llm' } },
    spec: {
      containers: [{
        name: 'main',
        image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0',
        resources: { limits: { 'nvidia.com/gpu': k8s.Quantity.fromString('1') } },
        ports: [{ containerPort: 9090, name: 'system' }],
      }],
    },
  };
  const podTemplateJson = {
    metadata: { labels: { app: 'llm' } },
    spec: {
      containers: [{
        name: 'main',
        image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0',
        resources: { limits: { 'nvidia.com/gpu': '1' } },
        ports: [{ containerPort: 9090, name: 'system' }],
      }],
    },
  };

  test('DynamoGraphDeployment.manifest() renders wire JSON', () => {
    const manifest = DynamoGraphDeployment.manifest({
      metadata: { name: 'llm', namespace: 'inference' },
      spec: {
        backendFramework: BackendFramework.VLLM,
        env: [
          { name: 'LOG_LEVEL', value: 'debug' },
          { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf', key: 'token' } } },
        ],
        labels: { team: 'ml' },
        providerOverride: { apiVersion: 'grove.io/v1alpha1', target: 'PodCliqueSet', value: { spec: { template: { topologyConstraint: { packDomain: 'rack' } } } } },
        components: [
          { name: 'Frontend', type: ComponentType.FRONTEND, replicas: 1 },
          {
            name: 'VllmWorker',
            type: ComponentType.WORKER,
            replicas: 2,
            sharedMemorySize: k8s.Quantity.fromString('16Gi'),
            multinode: { nodeCount: 2 },
            roles: [{ name: 'leader', replicas: 1 }, { name: 'worker' }],
            scalingAdapter: {},
            modelRef: { name: 'llama-3-70b-instruct-v1' },
            experimental: {
              failover: { mode: ComponentExperimentalMode.INTRA_POD, numShadows: 1 },
              gpuMemoryService: { mode: ComponentExperimentalMode.INTRA_POD },
              checkpoint: { enabled: true, startupPolicy: ComponentExperimentalCheckpointStartupPolicy.WAIT_FOR_CHECKPOINT },
            },
            podTemplate,
          },
        ],
      },
    });

    expect(manifest).toStrictEqual({
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'llm', namespace: 'inference' },
      spec: {
        backendFramework: 'vllm',
        env: [
          { name: 'LOG_LEVEL', value: 'debug' },
          { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf', key: 'token' } } },
        ],
        labels: { team: 'ml' },
        providerOverride: { apiVersion: 'grove.io/v1alpha1', target: 'PodCliqueSet', value: { spec: { template: { topologyConstraint: { packDomain: 'rack' } } } } },
        components: [
          { name: 'Frontend', type: 'frontend', replicas: 1 },
          {
            name: 'VllmWorker',
            type: 'worker',
            replicas: 2,
            sharedMemorySize: '16Gi',
            multinode: { nodeCount: 2 },
            roles: [{ name: 'leader', replicas: 1 }, { name: 'worker' }],
            scalingAdapter: {},
            modelRef: { name: 'llama-3-70b-instruct-v1' },
            experimental: {
              failover: { mode: 'IntraPod', numShadows: 1 },
              gpuMemoryService: { mode: 'IntraPod' },
              checkpoint: { enabled: true, startupPolicy: 'WaitForCheckpoint' },
            },
            podTemplate: podTemplateJson,
          },
        ],
      },
    });
  });

  test('the constructs synthesize in a chart', () => {
    const chart = new Chart(Testing.app(), 'test');
    new DynamoGraphDeployment(chart, 'dgd', {
      metadata: { name: 'llm' },
      spec: {
        components: [{ name: 'worker', type: ComponentType.WORKER, sharedMemorySize: k8s.Quantity.fromNumber(0), podTemplate }],
      },
    });
    new DynamoComponentDeployment(chart, 'dcd', {
      metadata: { name: 'epp' },
      spec: {
        backendFramework: BackendFramework.SGLANG,
        type: ComponentType.EPP,
        eppConfig: { configMapRef: { name: 'epp-config', key: 'config.yaml' } },
        podTemplate,
      },
    });
    new DynamoGraphDeploymentScalingAdapter(chart, 'dgdsa', {
      metadata: { name: 'llm-worker' },
      spec: { dgdRef: { name: 'llm', componentName: 'worker' }, replicas: 3 },
    });

    expect(Testing.synth(chart)).toStrictEqual([
      {
        apiVersion: 'nvidia.com/v1beta1',
        kind: 'DynamoGraphDeployment',
        metadata: { name: 'llm' },
        spec: { components: [{ name: 'worker', type: 'worker', sharedMemorySize: 0, podTemplate: podTemplateJson }] },
      },
      {
        apiVersion: 'nvidia.com/v1beta1',
        kind: 'DynamoComponentDeployment',
        metadata: { name: 'epp' },
        spec: {
          backendFramework: 'sglang',
          type: 'epp',
          eppConfig: { configMapRef: { name: 'epp-config', key: 'config.yaml' } },
          podTemplate: podTemplateJson,
        },
      },
      {
        apiVersion: 'nvidia.com/v1beta1',
        kind: 'DynamoGraphDeploymentScalingAdapter',
        metadata: { name: 'llm-worker' },
        spec: { dgdRef: { name: 'llm', componentName: 'worker' }, replicas: 3 },
      },
    ]);
  });
});

describe('compact schema', () => {
  test('embedded Kubernetes types are marker nodes', () => {
    const component = DGD_V1BETA1_SCHEMA.properties!.spec.properties!.components.items!;
    expect(component.properties!.podTemplate).toStrictEqual({ k8sType: 'PodTemplateSpec' });
    expect(component.properties!.sharedMemorySize).toStrictEqual({ k8sType: 'Quantity' });
    expect(DGD_V1BETA1_SCHEMA.properties!.spec.properties!.env).toStrictEqual({ type: 'array', items: { k8sType: 'EnvVar' } });
    expect(DCD_V1BETA1_SCHEMA.properties!.spec.properties!.eppConfig.properties!.configMapRef).toStrictEqual({ k8sType: 'ConfigMapKeySelector' });
    expect(DCD_V1BETA1_SCHEMA.properties!.spec.properties!.experimental.properties!.checkpoint.properties!.job.properties!.podTemplate)
      .toStrictEqual({ 'k8sType': 'PodTemplateSpec', 'x-kubernetes-preserve-unknown-fields': true });
    expect(DGD_V1BETA1_SCHEMA.properties!.metadata).toStrictEqual({ type: 'object' });
    expect(DGD_V1BETA1_SCHEMA.properties!.status).toBeUndefined();
  });

  test('DGD components and the DCD spec share their component subtrees', () => {
    const component = DGD_V1BETA1_SCHEMA.properties!.spec.properties!.components.items!.properties!;
    const dcd = DCD_V1BETA1_SCHEMA.properties!.spec.properties!;
    expect(component.experimental).toBe(dcd.experimental);
    expect(component.eppConfig).toBe(dcd.eppConfig);
    expect(dcd.providerOverride).toBeUndefined();
  });

  test('the defaults inside embedded Kubernetes types are kept', () => {
    const container = EMBEDDED_K8S_DEFAULTS.PodTemplateSpec.properties!.spec.properties!.containers.items!;
    expect(container.properties!.ports.items!.properties!.protocol.default).toBe('TCP');
    expect(EMBEDDED_K8S_DEFAULTS.ConfigMapKeySelector.properties!.name.default).toBe('');
  });
});

test('imports/ stays within the size budget', () => {
  const total = fs.readdirSync(IMPORTS_DIR, { withFileTypes: true })
    .filter(entry => entry.isFile())
    .reduce((sum, entry) => sum + fs.statSync(path.join(IMPORTS_DIR, entry.name)).size, 0);
  expect(total).toBeLessThanOrEqual(IMPORTS_SIZE_BUDGET);
});
