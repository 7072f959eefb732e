import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { EMBEDDED_K8S_DEFAULTS as GROVE_EMBEDDED_K8S_DEFAULTS, GroveSchemaNode, PCS_V1ALPHA1_SCHEMA } from '../imports/grove.io.schema';
import { EMBEDDED_K8S_DEFAULTS as LWS_EMBEDDED_K8S_DEFAULTS, LWS_V1_SCHEMA, LwsSchemaNode } from '../imports/leaderworkerset.x-k8s.io.schema';
import { CrdK8sType, CrdSchemaNode, DCD_V1BETA1_SCHEMA, DGD_V1BETA1_SCHEMA, EMBEDDED_K8S_DEFAULTS } from '../imports/nvidia.com.schema';
import {
  defaultCrdDir,
  GROVE_IMPORT_SIZE_BUDGET,
  GROVE_SCHEMA_FILE,
  importCrds,
  IMPORTS_SIZE_BUDGET,
  LWS_IMPORT_SIZE_BUDGET,
  LWS_SCHEMA_FILE,
  SCHEMA_FILE,
  SNAPSHOT_SCHEMA_FILE,
} from '../scripts/import-crds';
import { skippedBecause } from './support/shared';
import { checkStructure, SchemaOverlay, ViolationSink } from '../src/admission';

const IMPORTS_DIR = path.join(__dirname, '..', 'imports');
const CRD_DIR = defaultCrdDir();
const HAVE_CRDS = fs.existsSync(CRD_DIR);
const testWithCrds = HAVE_CRDS ? test : (name: string, _body: () => void, _timeout?: number) => test.skip(`${name} (${skippedBecause('crds')})`, () => undefined);

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-imports-'));
}

/** A copy of the CRD folder in a temporary folder, to break one CRD on purpose. */
function copyCrds(): string {
  const crds = tempDir();
  for (const file of fs.readdirSync(CRD_DIR).filter(f => f.endsWith('.yaml'))) {
    fs.copyFileSync(path.join(CRD_DIR, file), path.join(crds, file));
  }
  return crds;
}

/** Reads a CRD of a folder, lets `edit` change the openAPIV3Schema of `version`, and writes it back (as JSON, which is YAML). */
function editCrd(crds: string, file: string, version: string, edit: (schema: any) => void): void {
  const target = path.join(crds, file);
  const crd = YAML.parseAllDocuments(fs.readFileSync(target, 'utf8')).map(d => d.toJS()).find(d => d?.kind === 'CustomResourceDefinition');
  edit(crd.spec.versions.find((v: any) => v.name === version).schema.openAPIV3Schema);
  fs.writeFileSync(target, JSON.stringify(crd));
}

/** The generated files: one compact schema per API group. */
const ALL_FILES = [SCHEMA_FILE, LWS_SCHEMA_FILE, GROVE_SCHEMA_FILE, SNAPSHOT_SCHEMA_FILE];

describe('reproducibility', () => {
  testWithCrds('regenerating from the CRD folder gives the committed schemas byte for byte', () => {
    const out = tempDir();
    try {
      const result = importCrds(CRD_DIR, out);
      expect(result.files.map(f => path.basename(f)).sort()).toEqual([...ALL_FILES].sort());
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
    const crds = copyCrds();
    const out = tempDir();
    try {
      // rename the DCD pod template so that it is no longer mapped to k8s.PodTemplateSpec
      editCrd(crds, 'nvidia.com_dynamocomponentdeployments.yaml', 'v1beta1', schema => {
        const spec = schema.properties.spec;
        spec.properties.pod = spec.properties.podTemplate;
        delete spec.properties.podTemplate;
      });

      expect(() => importCrds(crds, out)).toThrow(/DynamoComponentDeployment\.spec\.pod(\.\w+)* looks like an embedded Kubernetes type/);
      expect(fs.readdirSync(out)).toEqual([]);
    } finally {
      fs.rmSync(crds, { recursive: true, force: true });
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  testWithCrds('fails loudly on an unmapped pod template of a LeaderWorkerSet and a pod spec of a PodCliqueSet', () => {
    const crds = copyCrds();
    const out = tempDir();
    try {
      editCrd(crds, 'leaderworkerset.x-k8s.io_leaderworkersets.yaml', 'v1', schema => {
        const template = schema.properties.spec.properties.leaderWorkerTemplate;
        template.properties.leaderPod = template.properties.leaderTemplate;
        delete template.properties.leaderTemplate;
      });
      expect(() => importCrds(crds, out)).toThrow(/LeaderWorkerSet\.spec\.leaderWorkerTemplate\.leaderPod(\.\w+)* looks like an embedded Kubernetes type/);

      fs.copyFileSync(path.join(CRD_DIR, 'leaderworkerset.x-k8s.io_leaderworkersets.yaml'), path.join(crds, 'leaderworkerset.x-k8s.io_leaderworkersets.yaml'));
      editCrd(crds, 'grove.io_podcliquesets.yaml', 'v1alpha1', schema => {
        const cliqueSpec = schema.properties.spec.properties.template.properties.cliques.items.properties.spec;
        cliqueSpec.properties.pod = cliqueSpec.properties.podSpec;
        delete cliqueSpec.properties.podSpec;
      });
      expect(() => importCrds(crds, out)).toThrow(/PodCliqueSet\.spec\.template\.cliques\[\]\.spec\.pod(\.\w+)* looks like an embedded Kubernetes type/);
      expect(fs.readdirSync(out)).toEqual([]);
    } finally {
      fs.rmSync(crds, { recursive: true, force: true });
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});

/** What the structural check reports for a document checked against a generated schema, one line each. */
function structuralErrors(
  doc: unknown,
  root: CrdSchemaNode | LwsSchemaNode | GroveSchemaNode,
  embedded: Readonly<Record<string, CrdSchemaNode>>,
): string[] {
  // the check is typed for the Dynamo schema: the LWS and PCS nodes differ only in their k8sType names
  const overlay: SchemaOverlay = {
    rules: {},
    prunedFields: {},
    apiServerFields: { metadata: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    embedded: embedded as Readonly<Record<CrdK8sType, CrdSchemaNode>>,
  };
  const sink = new ViolationSink();
  checkStructure(JSON.parse(JSON.stringify(doc)), { root: root as unknown as CrdSchemaNode, overlay }, sink);
  return sink.all.map(v => `${v.path.toString()}: ${v.message}`);
}

const ANY_OBJECT: CrdSchemaNode = { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true };
const ANY_INT_OR_STRING: CrdSchemaNode = { 'x-kubernetes-int-or-string': true };

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

  test('the DGD and DCD schemas accept the CRD\'s enum values and refuse others', () => {
    const embedded = { PodTemplateSpec: ANY_OBJECT, EnvVar: ANY_OBJECT, ConfigMapKeySelector: ANY_OBJECT, Quantity: ANY_INT_OR_STRING };
    const podTemplate = { spec: { containers: [{ name: 'main', image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0' }] } };
    const dgd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'llm' },
      spec: {
        backendFramework: 'vllm',
        env: [{ name: 'LOG_LEVEL', value: 'debug' }],
        components: [
          { name: 'Frontend', type: 'frontend', replicas: 1 },
          {
            name: 'VllmWorker',
            type: 'worker',
            replicas: 2,
            sharedMemorySize: '16Gi',
            multinode: { nodeCount: 2 },
            experimental: {
              failover: { mode: 'IntraPod', numShadows: 1 },
              gpuMemoryService: { mode: 'IntraPod' },
              checkpoint: { enabled: true, startupPolicy: 'WaitForCheckpoint' },
            },
            podTemplate,
          },
        ],
      },
    };
    expect(structuralErrors(dgd, DGD_V1BETA1_SCHEMA, embedded)).toEqual([]);
    const dcd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'epp' },
      spec: { backendFramework: 'sglang', type: 'epp', eppConfig: { configMapRef: { name: 'epp-config', key: 'config.yaml' } }, podTemplate },
    };
    expect(structuralErrors(dcd, DCD_V1BETA1_SCHEMA, embedded)).toEqual([]);

    const bad = { ...dcd, spec: { ...dcd.spec, backendFramework: 'VLLM', experimental: { failover: { mode: 'Local' } } } };
    expect(structuralErrors(bad, DCD_V1BETA1_SCHEMA, embedded)).toEqual([
      'spec.backendFramework: Unsupported value: "VLLM": supported values: "sglang", "vllm", "trtllm"',
      'spec.experimental.failover.mode: Unsupported value: "Local": supported values: "IntraPod", "InterPod"',
    ]);
  });
});


describe('size budget', () => {
  const size = (...files: string[]): number => files.reduce((sum, file) => sum + fs.statSync(path.join(IMPORTS_DIR, file)).size, 0);

  test('imports/ holds only the compact schemas and stays within the size budget', () => {
    const files = fs.readdirSync(IMPORTS_DIR, { withFileTypes: true }).filter(entry => entry.isFile()).map(entry => entry.name);
    // the CRD units, and the Kubernetes OpenAPI definitions generated by scripts/import-k8s-schemas.ts
    expect(files.sort()).toEqual([...ALL_FILES, 'k8s-openapi.schema.ts'].sort());
    expect(size(...files)).toBeLessThanOrEqual(IMPORTS_SIZE_BUDGET);
  });

  test('the LeaderWorkerSet schema stays within a fortieth of the naive cdk8s import', () => {
    expect(LWS_IMPORT_SIZE_BUDGET).toBeLessThanOrEqual(Math.ceil(1_879_170 / 40));
    expect(size(LWS_SCHEMA_FILE)).toBeLessThanOrEqual(LWS_IMPORT_SIZE_BUDGET);
  });

  test('the PodCliqueSet schema stays within a tenth of the naive cdk8s import', () => {
    expect(GROVE_IMPORT_SIZE_BUDGET).toBeLessThanOrEqual(Math.ceil(1_073_915 / 10));
    expect(size(GROVE_SCHEMA_FILE)).toBeLessThanOrEqual(GROVE_IMPORT_SIZE_BUDGET);
  });
});

describe('LeaderWorkerSet schema (leaderworkerset.x-k8s.io/v1)', () => {
  const podTemplateJson = {
    metadata: { labels: { role: 'worker' } },
    spec: { containers: [{ name: 'main', image: 'vllm:1', resources: { limits: { 'nvidia.com/gpu': 8 } } }] },
  };
  const embedded = { PodTemplateSpec: ANY_OBJECT, KubePersistentVolumeClaimProps: ANY_OBJECT, IntOrString: ANY_INT_OR_STRING };

  test('the schema accepts a full LeaderWorkerSet with the CRD\'s enum and int-or-string values', () => {
    const lws = {
      apiVersion: 'leaderworkerset.x-k8s.io/v1',
      kind: 'LeaderWorkerSet',
      metadata: { name: 'llm-worker' },
      spec: {
        replicas: 2,
        startupPolicy: 'LeaderCreated',
        leaderWorkerTemplate: {
          size: 4,
          leaderTemplate: podTemplateJson,
          workerTemplate: podTemplateJson,
          volumeClaimTemplates: [{ metadata: { name: 'cache' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } } }],
        },
        rolloutStrategy: { type: 'RollingUpdate', rollingUpdateConfiguration: { maxSurge: '25%', maxUnavailable: 1 } },
      },
    };
    expect(structuralErrors(lws, LWS_V1_SCHEMA, embedded)).toEqual([]);
  });

  test('the schema accepts a minimal LeaderWorkerSet', () => {
    const minimal = { apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', metadata: { name: 'w' }, spec: { leaderWorkerTemplate: { workerTemplate: {} } } };
    expect(structuralErrors(minimal, LWS_V1_SCHEMA, embedded)).toEqual([]);
    // no spec at all is valid too: the CRD does not require it
    expect(structuralErrors({ apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', metadata: { name: 'w' } }, LWS_V1_SCHEMA, embedded)).toEqual([]);
  });

  test('the schema rejects an unknown field, a missing worker template and a bad enum value', () => {
    const doc = {
      apiVersion: 'leaderworkerset.x-k8s.io/v1',
      kind: 'LeaderWorkerSet',
      metadata: { name: 'w' },
      spec: { leaderWorkerTemplate: { leaderTemplate: {}, sizee: 2 }, startupPolicy: 'WorkerFirst' },
    };
    expect(structuralErrors(doc, LWS_V1_SCHEMA, embedded)).toEqual([
      'spec.leaderWorkerTemplate.sizee: unknown field "spec.leaderWorkerTemplate.sizee"',
      'spec.leaderWorkerTemplate.workerTemplate: Required value',
      'spec.startupPolicy: Unsupported value: "WorkerFirst": supported values: "LeaderCreated", "LeaderReady"',
    ]);
  });

  test('embedded Kubernetes types are marker nodes; int-or-string markers keep their default', () => {
    const template = LWS_V1_SCHEMA.properties!.spec.properties!.leaderWorkerTemplate.properties!;
    expect(template.leaderTemplate).toStrictEqual({ k8sType: 'PodTemplateSpec' });
    expect(template.workerTemplate).toStrictEqual({ k8sType: 'PodTemplateSpec' });
    expect(template.volumeClaimTemplates).toStrictEqual({ type: 'array', items: { k8sType: 'KubePersistentVolumeClaimProps' } });
    const rolling = LWS_V1_SCHEMA.properties!.spec.properties!.rolloutStrategy.properties!.rollingUpdateConfiguration.properties!;
    expect(rolling.maxSurge).toStrictEqual({ k8sType: 'IntOrString', default: 0 });
    expect(rolling.maxUnavailable).toStrictEqual({ k8sType: 'IntOrString', default: 1 });
    expect(LWS_V1_SCHEMA.properties!.status).toBeUndefined();
  });

  test('the defaults inside the embedded pod template are kept', () => {
    const container = LWS_EMBEDDED_K8S_DEFAULTS.PodTemplateSpec.properties!.spec.properties!.containers.items!;
    expect(container.properties!.ports.items!.properties!.protocol.default).toBe('TCP');
    // the claim templates have no defaults in the CRD; the int-or-string defaults are on their markers
    expect(Object.keys(LWS_EMBEDDED_K8S_DEFAULTS)).toEqual(['PodTemplateSpec']);
  });
});

describe('PodCliqueSet schema (grove.io/v1alpha1)', () => {
  const embedded = { PodSpec: ANY_OBJECT, MetricSpecV2: ANY_OBJECT, ResourceClaimTemplateSpec: ANY_OBJECT };

  test('the schema accepts a full PodCliqueSet with the CRD\'s enum values', () => {
    const pcs = {
      apiVersion: 'grove.io/v1alpha1',
      kind: 'PodCliqueSet',
      metadata: { name: 'llm' },
      spec: {
        replicas: 1,
        template: {
          cliqueStartupType: 'CliqueStartupTypeExplicit',
          cliques: [{
            name: 'worker',
            spec: {
              roleName: 'worker',
              replicas: 2,
              podSpec: { containers: [{ name: 'main', image: 'vllm:1' }] },
              autoScalingConfig: {
                maxReplicas: 4,
                metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
              },
            },
            topologyConstraint: { pack: { required: 'rack' } },
            resourceSharing: [{ name: 'gpus', scope: 'PerReplica' }],
          }],
          resourceClaimTemplates: [{
            name: 'gpus',
            templateSpec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com' } }] } } },
          }],
        },
      },
    };
    expect(structuralErrors(pcs, PCS_V1ALPHA1_SCHEMA, embedded)).toEqual([]);
  });

  test('the schema accepts a minimal PodCliqueSet', () => {
    const minimal = {
      apiVersion: 'grove.io/v1alpha1',
      kind: 'PodCliqueSet',
      metadata: { name: 'llm' },
      spec: { template: { cliques: [{ name: 'worker', spec: { roleName: 'worker', replicas: 1, podSpec: {} } }] } },
    };
    expect(structuralErrors(minimal, PCS_V1ALPHA1_SCHEMA, embedded)).toEqual([]);
  });

  test('the schema rejects an unknown field, a missing spec and a bad enum value', () => {
    const doc = {
      apiVersion: 'grove.io/v1alpha1',
      kind: 'PodCliqueSet',
      metadata: { name: 'llm' },
      spec: {
        template: {
          cliqueStartupType: 'Parallel',
          cliques: [{ name: 'worker', spec: { roleName: 'worker', replicas: 1, podSpec: {}, podTemplate: {} } }],
        },
      },
    };
    expect(structuralErrors(doc, PCS_V1ALPHA1_SCHEMA, embedded)).toEqual([
      'spec.template.cliqueStartupType: Unsupported value: "Parallel": supported values: "CliqueStartupTypeAnyOrder", "CliqueStartupTypeInOrder", "CliqueStartupTypeExplicit"',
      'spec.template.cliques[0].spec.podTemplate: unknown field "spec.template.cliques[0].spec.podTemplate"',
    ]);
    // the CRD requires the spec of the whole object
    expect(structuralErrors({ apiVersion: 'grove.io/v1alpha1', kind: 'PodCliqueSet', metadata: { name: 'llm' } }, PCS_V1ALPHA1_SCHEMA, embedded))
      .toEqual(['spec: Required value']);
  });

  test('embedded Kubernetes types are marker nodes; the topology constraint is written once', () => {
    const template = PCS_V1ALPHA1_SCHEMA.properties!.spec.properties!.template.properties!;
    const clique = template.cliques.items!.properties!;
    expect(clique.spec.properties!.podSpec).toStrictEqual({ k8sType: 'PodSpec' });
    expect(clique.spec.properties!.autoScalingConfig.properties!.metrics)
      .toStrictEqual({ 'type': 'array', 'x-kubernetes-list-type': 'atomic', 'items': { k8sType: 'MetricSpecV2' } });
    expect(template.resourceClaimTemplates.items!.properties!.templateSpec).toStrictEqual({ k8sType: 'ResourceClaimTemplateSpec' });
    const scalingGroup = template.podCliqueScalingGroups.items!.properties!;
    expect(clique.topologyConstraint).toBe(template.topologyConstraint);
    expect(scalingGroup.topologyConstraint).toBe(template.topologyConstraint);
    expect(PCS_V1ALPHA1_SCHEMA.properties!.status).toBeUndefined();
  });

  test('the root keeps the CRD\'s required spec and its CEL rules on the whole object', () => {
    expect(PCS_V1ALPHA1_SCHEMA.required).toEqual(['spec']);
    const rules = PCS_V1ALPHA1_SCHEMA['x-kubernetes-validations']!;
    expect(rules.map(r => r.fieldPath)).toEqual(['.spec.template.topologyConstraint.packDomain', '.spec.template.cliques', '.spec.template.podCliqueScalingGroups']);
    expect(rules.every(r => r.optionalOldSelf === true && r.reason === 'FieldValueForbidden')).toBe(true);
  });

  test('the defaults inside the embedded pod spec and resource claim template are kept', () => {
    const container = GROVE_EMBEDDED_K8S_DEFAULTS.PodSpec.properties!.containers.items!;
    expect(container.properties!.ports.items!.properties!.protocol.default).toBe('TCP');
    const request = GROVE_EMBEDDED_K8S_DEFAULTS.ResourceClaimTemplateSpec.properties!.spec.properties!.devices.properties!.requests.items!;
    expect(request.properties!.exactly.properties!.tolerations.items!.properties!.operator.default).toBe('Equal');
    expect(Object.keys(GROVE_EMBEDDED_K8S_DEFAULTS)).toEqual(['PodSpec', 'ResourceClaimTemplateSpec']);
  });
});
