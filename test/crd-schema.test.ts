import { celRule, checkCrdObject, checkCrdObjects, crdKindOf, LEADER_WORKER_SET, POD_CLIQUE_SET } from './support/crd-schema';
import { describeNeeding, goldenScenario } from './support/shared';
import { renderDocuments } from '../src/pipeline/check-and-render';

const IMAGE = 'registry.example/dynamo-worker:1.4.0';

/** A small valid LeaderWorkerSet: 2 groups of 2 pods (leader + 1 worker). */
function lws(): any {
  const template = (role: string) => ({ metadata: { labels: { role } }, spec: { containers: [{ name: 'main', image: IMAGE, ports: [{ name: 'system', containerPort: 9090 }] }] } });
  return {
    apiVersion: 'leaderworkerset.x-k8s.io/v1',
    kind: 'LeaderWorkerSet',
    metadata: { name: 'llm-decode-0', namespace: 'prod', labels: { 'nvidia.com/dynamo-component': 'decode' } },
    spec: {
      replicas: 2,
      startupPolicy: 'LeaderCreated',
      leaderWorkerTemplate: { size: 2, leaderTemplate: template('leader'), workerTemplate: template('worker') },
    },
  };
}

/** A small valid PodCliqueSet: a frontend clique and a multinode decode scaling group. */
function pcs(): any {
  const clique = (name: string, replicas: number) => ({
    name,
    labels: { 'nvidia.com/dynamo-component': name },
    spec: { roleName: name, replicas, minAvailable: replicas, podSpec: { containers: [{ name: 'main', image: IMAGE }] } },
  });
  return {
    apiVersion: 'grove.io/v1alpha1',
    kind: 'PodCliqueSet',
    metadata: { name: 'llm', namespace: 'prod' },
    spec: {
      replicas: 1,
      template: {
        cliqueStartupType: 'CliqueStartupTypeAnyOrder',
        headlessServiceConfig: { publishNotReadyAddresses: true },
        cliques: [clique('frontend', 1), clique('decode-ldr', 1), clique('decode-wkr', 1)],
        podCliqueScalingGroups: [{ name: 'decode', cliqueNames: ['decode-ldr', 'decode-wkr'], replicas: 1, minAvailable: 1 }],
        terminationDelay: '15m0s',
      },
    },
  };
}

describe('CRD schema check: which objects are checked', () => {
  test('LeaderWorkerSet leaderworkerset.x-k8s.io/v1 and PodCliqueSet grove.io/v1alpha1; other objects are not CRD-checked', () => {
    expect(crdKindOf(lws())).toBe(LEADER_WORKER_SET);
    expect(crdKindOf(pcs())).toBe(POD_CLIQUE_SET);
    expect(crdKindOf({ ...pcs(), apiVersion: 'grove.io/v1beta1' })).toBeUndefined();
    const checks = checkCrdObjects([lws(), pcs(), { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } }, 'text']);
    expect(checks.map(c => [c.kind, c.name, c.status])).toEqual([
      ['LeaderWorkerSet', 'llm-decode-0', 'valid'],
      ['PodCliqueSet', 'llm', 'valid'],
      ['Deployment', 'd', 'not-crd'],
      ['', '', 'not-crd'],
    ]);
    expect(checks.every(c => c.errors.length === 0)).toBe(true);
  });
});

describe('CRD schema check: structural walk of the LeaderWorkerSet schema', () => {
  test('a wrong type', () => {
    const o = lws();
    o.spec.replicas = '2';
    o.spec.leaderWorkerTemplate.size = 1.5;
    expect(checkCrdObject(o).errors).toEqual([
      'spec.replicas: Invalid value: "2": must be of type integer',
      'spec.leaderWorkerTemplate.size: Invalid value: 1.5: must be of type integer',
    ]);
  });

  test('a missing required field', () => {
    const o = lws();
    delete o.spec.leaderWorkerTemplate.workerTemplate;
    o.spec.rolloutStrategy = { rollingUpdateConfiguration: { maxSurge: 1 } };
    expect(checkCrdObject(o)).toMatchObject({
      status: 'invalid',
      errors: ['spec.leaderWorkerTemplate.workerTemplate: Required value', 'spec.rolloutStrategy.type: Required value'],
    });
  });

  test('an unknown field, at the root, in the spec and inside an embedded pod template', () => {
    const o = lws();
    o.status = { replicas: 2 };
    o.spec.leaderWorkerTemplate.leaderCount = 1;
    o.spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].gpus = 8;
    o.spec.leaderWorkerTemplate.workerTemplate.spec.Containers = [];
    expect(checkCrdObject(o).errors).toEqual([
      'spec.leaderWorkerTemplate.leaderCount: unknown field "spec.leaderWorkerTemplate.leaderCount"',
      'status: unknown field "status"',
      'spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].gpus: unknown field "spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].gpus" (Kubernetes PodTemplateSpec)',
      'spec.leaderWorkerTemplate.workerTemplate.spec.Containers: unknown field "spec.leaderWorkerTemplate.workerTemplate.spec.Containers" (Kubernetes PodTemplateSpec)',
    ]);
  });

  test('enum, minimum and maximum', () => {
    const o = lws();
    o.spec.startupPolicy = 'LeaderFirst';
    o.spec.replicas = 1000001;
    o.spec.leaderWorkerTemplate.restartPolicy = 'Always';
    o.spec.networkConfig = { subdomainPolicy: 'Private' };
    expect(checkCrdObject(o).errors).toEqual([
      'spec.replicas: Invalid value: 1000001: should be less than or equal to 1000000',
      'spec.startupPolicy: Unsupported value: "LeaderFirst": supported values: "LeaderCreated", "LeaderReady"',
      'spec.leaderWorkerTemplate.restartPolicy: Unsupported value: "Always": supported values: "Default", "RecreateGroupOnPodRestart", "RecreateGroupAfterStart", "None"',
      'spec.networkConfig.subdomainPolicy: Unsupported value: "Private": supported values: "Shared", "UniquePerReplica"',
    ]);
  });

  test('int-or-string rolling update bounds', () => {
    const o = lws();
    o.spec.rolloutStrategy = { type: 'RollingUpdate', rollingUpdateConfiguration: { maxSurge: '25%', maxUnavailable: true } };
    expect(checkCrdObject(o).errors).toEqual(['spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable: Invalid value: true: must be of type integer or string']);
  });

  test('metadata is ObjectMeta: label values are strings, the name is a DNS subdomain', () => {
    const o = lws();
    o.metadata.labels.replicas = 2;
    o.metadata.name = 'LLM_decode';
    expect(checkCrdObject(o).errors).toEqual([
      'metadata.name: Invalid value: "LLM_decode": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', '
        + 'and must start and end with an alphanumeric character',
      'metadata.labels[replicas]: must be string (Kubernetes v1.36.0 ObjectMeta)',
    ]);
    delete o.metadata.name;
    expect(checkCrdObject(o).errors).toContain('metadata.name: Required value: name or generateName is required');
  });
});

describe('CRD schema check: embedded Kubernetes types (kubernetes-models, Kubernetes v1.36.0)', () => {
  test('a bad pod template in a LeaderWorkerSet: the errors are at the field path of the object', () => {
    const o = lws();
    o.spec.leaderWorkerTemplate.leaderTemplate.spec.containers[0].ports[0].containerPort = 'system';
    delete o.spec.leaderWorkerTemplate.workerTemplate.spec.containers;
    expect(checkCrdObject(o).errors).toEqual([
      'spec.leaderWorkerTemplate.leaderTemplate.spec.containers[0].ports[0].containerPort: must be integer (Kubernetes v1.36.0 PodTemplateSpec)',
      'spec.leaderWorkerTemplate.workerTemplate.spec: must have required property containers (Kubernetes v1.36.0 PodTemplateSpec)',
    ]);
  });

  test('a bad PodSpec inside a clique of a PodCliqueSet', () => {
    const o = pcs();
    const podSpec = o.spec.template.cliques[1].spec.podSpec;
    podSpec.containers[0].resources = { limits: { 'nvidia.com/gpu': 'eight' } };
    podSpec.restartPolicy = 'Sometimes';
    podSpec.nodeSelector = { gpu: true };
    expect(checkCrdObject(o).errors).toEqual([
      'spec.template.cliques[1].spec.podSpec.containers[0].resources.limits[nvidia.com/gpu]: must be number (Kubernetes v1.36.0 PodSpec)',
      'spec.template.cliques[1].spec.podSpec.containers[0].resources.limits[nvidia.com/gpu]: must match format "quantity" (Kubernetes v1.36.0 PodSpec)',
      'spec.template.cliques[1].spec.podSpec.containers[0].resources.limits[nvidia.com/gpu]: must match exactly one schema in "oneOf" (Kubernetes v1.36.0 PodSpec)',
      'spec.template.cliques[1].spec.podSpec.nodeSelector[gpu]: must be string (Kubernetes v1.36.0 PodSpec)',
      'spec.template.cliques[1].spec.podSpec.restartPolicy: must be equal to one of the allowed values (Kubernetes v1.36.0 PodSpec)',
    ]);
  });

  test('PVC claim templates of a LeaderWorkerSet, metrics and resource claim templates of a PodCliqueSet', () => {
    const l = lws();
    l.spec.leaderWorkerTemplate.volumeClaimTemplates = [{ metadata: { name: 'cache' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } }, size: '10Gi' } }];
    expect(checkCrdObject(l).errors).toEqual([
      'spec.leaderWorkerTemplate.volumeClaimTemplates[0].spec.size: unknown field "spec.leaderWorkerTemplate.volumeClaimTemplates[0].spec.size" (Kubernetes KubePersistentVolumeClaimProps)',
    ]);
    const p = pcs();
    p.spec.template.cliques[0].spec.autoScalingConfig = { maxReplicas: 4, metrics: [{ resource: { name: 'cpu', target: { type: 'Utilization' } } }] };
    p.spec.template.resourceClaimTemplates = [{ name: 'gpus', templateSpec: { spec: { devices: { requests: 'all' } } } }];
    expect(checkCrdObject(p).errors).toEqual([
      'spec.template.cliques[0].spec.autoScalingConfig.metrics[0]: must have required property type (Kubernetes v1.36.0 MetricSpecV2)',
      'spec.template.resourceClaimTemplates[0].templateSpec.spec.devices.requests: must be array (Kubernetes v1.36.0 ResourceClaimTemplateSpec)',
    ]);
  });
});

describe('CRD schema check: structural walk of the PodCliqueSet schema', () => {
  test('a missing required field of a clique and of a scaling group', () => {
    const o = pcs();
    delete o.spec.template.cliques[0].spec.roleName;
    delete o.spec.template.podCliqueScalingGroups[0].cliqueNames;
    expect(checkCrdObject(o).errors).toEqual([
      'spec.template.cliques[0].spec.roleName: Required value',
      'spec.template.podCliqueScalingGroups[0].cliqueNames: Required value',
    ]);
  });

  test('clique names are the keys of a list map: a duplicate name is an error', () => {
    const o = pcs();
    o.spec.template.cliques[2].name = 'decode-ldr';
    expect(checkCrdObject(o).errors).toEqual(['spec.template.cliques[2]: Duplicate value: {"name":"decode-ldr"}']);
  });

  test('wrong types, unknown fields, enum and topology pattern/length', () => {
    const o = pcs();
    o.spec.template.cliques[0].spec.replicas = '1';
    o.spec.template.cliques[0].spec.podSpec = [];
    o.spec.template.cliques[1].labels.gpu = 8;
    o.spec.template.cliqueStartupType = 'InOrder';
    o.spec.template.startupOrder = ['frontend'];
    o.spec.template.topologyConstraint = { pack: { required: 'Rack_1', preferred: 'x'.repeat(64) } };
    expect(checkCrdObject(o).errors).toEqual([
      'spec.template.cliqueStartupType: Unsupported value: "InOrder": supported values: "CliqueStartupTypeAnyOrder", "CliqueStartupTypeInOrder", "CliqueStartupTypeExplicit"',
      'spec.template.cliques[0].spec.replicas: Invalid value: "1": must be of type integer',
      'spec.template.cliques[0].spec.podSpec: Invalid value: []: must be of type object',
      'spec.template.cliques[1].labels[gpu]: Invalid value: 8: must be of type string',
      'spec.template.startupOrder: unknown field "spec.template.startupOrder"',
      'spec.template.topologyConstraint.pack.required: Invalid value: "Rack_1": should match \'^[a-z][a-z0-9-]*$\'',
      'spec.template.topologyConstraint.pack.preferred: Too long: may not be longer than 63',
    ]);
  });
});

describe('CRD schema check: CEL rules of the PodCliqueSet schema (create, no old object)', () => {
  test('a topology constraint needs pack or packDomain; pack needs required or preferred', () => {
    const o = pcs();
    o.spec.template.topologyConstraint = { topologyName: 'default' };
    o.spec.template.cliques[0].topologyConstraint = { pack: {} };
    expect(checkCrdObject(o).errors).toEqual([
      'spec.template.cliques[0].topologyConstraint.pack: Required value: pack must specify at least one of required or preferred',
      'spec.template.topologyConstraint.pack: Required value: topologyConstraint must specify pack or deprecated packDomain',
    ]);
  });

  test('packDomain is forbidden on new workloads (transition rules with optionalOldSelf), and never together with pack.required', () => {
    const o = pcs();
    o.spec.template.topologyConstraint = { packDomain: 'rack', pack: { required: 'rack' } };
    o.spec.template.podCliqueScalingGroups[0].topologyConstraint = { packDomain: 'host' };
    expect(checkCrdObject(o).errors).toEqual([
      'spec.template.topologyConstraint.packDomain: Forbidden: packDomain is deprecated and cannot be used on new workloads; use pack.required',
      'spec.template.podCliqueScalingGroups: Forbidden: packDomain is deprecated and cannot be used on new workloads; use pack.required',
      'spec.template.topologyConstraint.pack.required: Invalid value: "object": must not set both pack.required and deprecated packDomain',
    ]);
    o.spec.template.topologyConstraint = { pack: { required: 'rack', preferred: 'host' } };
    delete o.spec.template.podCliqueScalingGroups[0].topologyConstraint;
    expect(checkCrdObject(o).status).toBe('valid');
  });

  test('a rule outside the evaluated part of CEL is an error, never a pass', () => {
    expect(celRule('has(self.a) || !has(self.b)')({ b: 1 })).toBe(false);
    expect(celRule('self.list.all(x, has(x.name))')({ list: [{ name: 'a' }, {}] })).toBe(false);
    expect(() => celRule('self.replicas > 0')).toThrow('"self.replicas > 0" is outside the CEL subset this checker evaluates (at ">")');
  });
});

const describeGoldens = describeNeeding('conformance');

describeGoldens('CRD schema check of rendered objects (operator goldens)', () => {
  test('docs/design/render-multinode.md §9.2 dcd/lws: the LeaderWorkerSet the engine renders fits the LWS CRD', () => {
    const objects = renderDocuments(goldenScenario('dcd/lws').input, { output: 'workloads', operator: { groveAvailable: false } });
    const checks = checkCrdObjects(objects).filter(c => c.status !== 'not-crd');
    expect(checks).toEqual([{ apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', name: 'lws-manifest-0', status: 'valid', errors: [] }]);
  });

  test('docs/design/render-multinode.md §4 dgd/grove: the one PodCliqueSet the engine renders fits the PodCliqueSet CRD', () => {
    const objects = renderDocuments(goldenScenario('dgd/grove').input, { output: 'workloads', operator: { groveAvailable: true } });
    const checks = checkCrdObjects(objects).filter(c => c.status !== 'not-crd');
    expect(checks).toEqual([{ apiVersion: 'grove.io/v1alpha1', kind: 'PodCliqueSet', name: 'grove-manifest', status: 'valid', errors: [] }]);
  });

  test('the checker is not vacuous on rendered objects: a broken rendered PodCliqueSet fails', () => {
    const objects = renderDocuments(goldenScenario('dgd/grove').input, { output: 'workloads', operator: { groveAvailable: true } }) as any[];
    const broken = JSON.parse(JSON.stringify(objects.find(o => o.kind === 'PodCliqueSet')));
    broken.spec.template.cliques[0].spec.podSpec.containers[0].env[0].value = 8000;
    expect(checkCrdObject(broken).errors).toEqual([
      'spec.template.cliques[0].spec.podSpec.containers[0].env[0].value: must be string (Kubernetes v1.36.0 PodSpec)',
    ]);
  });
});
