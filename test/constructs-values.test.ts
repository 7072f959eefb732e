/**
 * Every value handed to a construct is kept exactly, as the same value written in YAML would be, or
 * refused at once naming the prop path: pod templates, containers, resources, ports, env, envFrom
 * and volumes, typed (cdk8s-plus) or as plain JSON in Kubernetes shape.
 */
import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-34';
import * as YAML from 'yaml';
import { CheckpointConfig, ComponentProps, DynamoGraph } from '../src';
import { corpusFiles, describeNeeding } from './support/shared';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

function chart(): Chart {
  return new Chart(Testing.app(), 'test');
}

function graph(c: Chart = chart()): DynamoGraph {
  return new DynamoGraph(c, 'Graph', { metadata: { name: 'g' } });
}

/** The plain spec of a worker made with `props`. */
function workerSpec(props: unknown, c: Chart = chart()): any {
  const g = graph(c);
  g.addWorker('w', props as ComponentProps);
  return g.toJson().spec.components[0];
}

/** The error of making a worker with `props`, or '(no error)'. */
function workerError(props: unknown): string {
  try {
    workerSpec(props);
  } catch (e) {
    expect(e).not.toBeInstanceOf(TypeError);
    return (e as Error).message;
  }
  return '(no error)';
}

/** A pod template as YAML users write it: numbers for ports and GPU counts, strings for quantities. */
const PLAIN_TEMPLATE_YAML = `
metadata:
  labels: { team: a }
  annotations: { note: "x" }
spec:
  hostIPC: true
  setHostnameAsFQDN: false
  terminationGracePeriodSeconds: 60
  nodeSelector: { gpu: h100 }
  tolerations: [{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }]
  containers:
    - name: main
      image: ${IMAGE}
      command: [python3, -m, dynamo.vllm]
      args: [--model, Qwen/Qwen3-0.6B]
      ports:
        - { containerPort: 8000, name: http, protocol: TCP, hostIP: 0.0.0.0 }
      resources:
        limits: { nvidia.com/gpu: 1, cpu: "8", memory: 64Gi }
        requests: { cpu: 500m, memory: "34359738368" }
      readinessProbe:
        httpGet: { path: /health, port: 8000 }
        periodSeconds: 10
      livenessProbe:
        httpGet: { path: /live, port: http }
      env:
        - { name: A, value: "1" }
        - name: B
          valueFrom: { resourceFieldRef: { resource: limits.memory, divisor: 1Mi } }
      envFrom: [{ secretRef: { name: hf-token }, prefix: HF_ }]
      volumeMounts: [{ name: cache, mountPath: /cache, readOnly: false }]
  volumes:
    - { name: cache, emptyDir: { sizeLimit: 10Gi, medium: Memory } }
    - { name: data, hostPath: { path: /data, type: Directory } }
`;

describe('a pod template given as plain JSON in Kubernetes shape', () => {
  test('is kept exactly, as the same template written in YAML', () => {
    const template = YAML.parse(PLAIN_TEMPLATE_YAML);
    expect(workerSpec({ podTemplate: template }).podTemplate).toEqual(template);
  });

  test('reads the same as the graph imported from YAML', () => {
    const template = YAML.parse(PLAIN_TEMPLATE_YAML);
    const c = chart();
    const built = graph(c);
    built.addComponent('w', { podTemplate: template, replicas: 2 });
    const imported = DynamoGraph.fromObject(c, 'Imported', {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'g' },
      spec: { components: [{ name: 'w', replicas: 2, podTemplate: YAML.parse(PLAIN_TEMPLATE_YAML) }] },
    });
    expect(built.toJson()).toEqual(imported.toJson());
  });

  test('keeps GPU limits given as numbers or strings (a GPU worker is scheduled with its GPU)', () => {
    for (const gpu of [1, '1']) {
      const spec = workerSpec({ podTemplate: { spec: { containers: [{ name: 'main', resources: { limits: { 'nvidia.com/gpu': gpu } } }] } } });
      expect(spec.podTemplate.spec.containers[0].resources).toEqual({ limits: { 'nvidia.com/gpu': gpu } });
    }
  });

  test('a kplus Pod\'s JSON is taken as its template', () => {
    const c = chart();
    new kplus.Pod(c, 'Pod', { containers: [{ name: 'main', image: IMAGE, portNumber: 8000, securityContext: { ensureNonRoot: false } }] });
    const spec = Testing.synth(c).find(o => o.kind === 'Pod').spec;
    expect(spec.containers[0].ports).toEqual([{ containerPort: 8000 }]);
    expect(workerSpec({ podTemplate: { spec } }, c).podTemplate).toEqual({ spec });
  });

  test('null stays null (the pipeline reads it as the API server does)', () => {
    const spec = workerSpec({ podTemplate: { metadata: null, spec: { containers: [{ name: 'main', image: IMAGE, args: null }] } } });
    expect(spec.podTemplate).toEqual({ metadata: null, spec: { containers: [{ name: 'main', image: IMAGE, args: null }] } });
  });

  test.each([
    [{ spec: { containers: [{ name: 'main', resourcez: {} }] } },
      'test/Graph/w: podTemplate.spec.containers[0].resourcez: unknown field "resourcez" of Container (did you mean "resources"?)'],
    [{ spec: { containers: [{ name: 'main', ports: [8000] }] } },
      'test/Graph/w: podTemplate.spec.containers[0].ports[0]: Invalid value: 8000: must be an object (ContainerPort), not a number'],
    [{ spec: { containers: [{ name: 'main', ports: [{ containerPort: '8000' }] }] } },
      'test/Graph/w: podTemplate.spec.containers[0].ports[0].containerPort: Invalid value: "8000": must be a 32-bit integer, not a string'],
    [{ spec: { containers: [{ name: 'main', resources: { limits: { cpu: true } } }] } },
      'test/Graph/w: podTemplate.spec.containers[0].resources.limits.cpu: Invalid value: true: must be a quantity'],
    [{ spec: { containers: [{ name: 'main', readinessProbe: { httpGet: { port: 80.5 } } }] } },
      'test/Graph/w: podTemplate.spec.containers[0].readinessProbe.httpGet.port: Invalid value: 80.5: must be an integer or a string'],
    [{ spec: { containers: { name: 'main' } } },
      'test/Graph/w: podTemplate.spec.containers: Invalid value: {"name":"main"}: must be a list, not an object'],
    [{ spec: { hostIPC: true, hostIpc: true } },
      'test/Graph/w: podTemplate.spec.hostIpc: field "hostIPC" given twice (as "hostIPC" and "hostIpc"): give it once'],
    [{ apiVersion: 'v1', kind: 'Pod', spec: {} },
      'test/Graph/w: podTemplate.apiVersion: unknown field "apiVersion" of PodTemplateSpec'],
    [{ spec: { containers: [{ name: 'main', image: 3 }] } },
      'test/Graph/w: podTemplate.spec.containers[0].image: Invalid value: 3: must be a string, not a number'],
    [{ spec: { containers: [{ name: 'main', command: ['a', undefined] }] } },
      'test/Graph/w: podTemplate.spec.containers[0].command[1]: Invalid value: undefined: must be a list item'],
  ])('refuses %j at once, naming the path', (podTemplate, message) => {
    expect(workerError({ podTemplate })).toContain(message);
  });
});

describe('a typed pod template (kplus.k8s structs)', () => {
  test('is written with the wire names and the values of its Quantity and IntOrString', () => {
    const podTemplate: kplus.k8s.PodTemplateSpec = {
      spec: {
        hostIpc: true,
        setHostnameAsFqdn: true,
        containers: [{
          name: 'main',
          ports: [{ containerPort: 8000, hostIp: '0.0.0.0' }],
          resources: { limits: { 'nvidia.com/gpu': kplus.k8s.Quantity.fromString('2'), 'cpu': kplus.k8s.Quantity.fromNumber(4) } },
          readinessProbe: { httpGet: { port: kplus.k8s.IntOrString.fromNumber(8000) } },
          livenessProbe: { tcpSocket: { port: kplus.k8s.IntOrString.fromString('http') } },
        }],
      },
    };
    expect(workerSpec({ podTemplate }).podTemplate).toEqual({
      spec: {
        hostIPC: true,
        setHostnameAsFQDN: true,
        containers: [{
          name: 'main',
          ports: [{ containerPort: 8000, hostIP: '0.0.0.0' }],
          resources: { limits: { 'nvidia.com/gpu': '2', 'cpu': 4 } },
          readinessProbe: { httpGet: { port: 8000 } },
          livenessProbe: { tcpSocket: { port: 'http' } },
        }],
      },
    });
  });

  test('the high-level props go on top of its main container', () => {
    const spec = workerSpec({
      image: IMAGE,
      gpus: 2,
      podTemplate: { spec: { containers: [{ name: 'main', resources: { limits: { memory: kplus.k8s.Quantity.fromString('64Gi') } } }] } },
    });
    expect(spec.podTemplate.spec.containers).toEqual([{ name: 'main', image: IMAGE, resources: { limits: { 'memory': '64Gi', 'nvidia.com/gpu': '2' } } }]);
  });
});

describe('resources', () => {
  test('in Kubernetes shape are kept', () => {
    const resources = { limits: { 'nvidia.com/gpu': '1', 'cpu': 2 }, requests: { memory: '8Gi' } };
    expect(workerSpec({ resources }).podTemplate.spec.containers[0].resources).toEqual(resources);
  });

  test('as kplus ContainerResources become quantities (memory in whole Mi, else Ki)', () => {
    const spec = workerSpec({
      resources: {
        cpu: { request: kplus.Cpu.millis(500), limit: kplus.Cpu.units(2) },
        memory: { limit: Size.gibibytes(4), request: Size.kibibytes(1536) },
        ephemeralStorage: { limit: Size.gibibytes(20) },
      },
    });
    expect(spec.podTemplate.spec.containers[0].resources).toEqual({
      limits: { 'cpu': '2', 'memory': '4096Mi', 'ephemeral-storage': '20480Mi' },
      requests: { cpu: '500m', memory: '1536Ki' },
    });
  });

  test.each([
    [{ cpu: { limit: kplus.Cpu.units(1) }, limits: { cpu: '1' } }, 'test/Graph/w: resources.limits: unknown field "limits": give ContainerResources'],
    [{ cpu: { limit: '1' } }, 'test/Graph/w: resources.cpu.limit: Invalid value: "1": must be a Cpu'],
    [{ memory: { limit: '4Gi' } }, 'test/Graph/w: resources.memory.limit: Invalid value: "4Gi": must be a Size'],
    [{ cpu: { max: kplus.Cpu.units(1) } }, 'test/Graph/w: resources.cpu.max: unknown field "max"; known fields: limit, request'],
    [{ limitz: { cpu: '1' } }, 'test/Graph/w: resources.limitz: unknown field "limitz" of ResourceRequirements (did you mean "limits"?)'],
  ])('refuses %j', (resources, message) => {
    expect(workerError({ resources })).toContain(message);
  });
});

describe('env', () => {
  test('takes EnvValues and Kubernetes-shape bodies, from props and addEnv', () => {
    const c = chart();
    const g = graph(c);
    const secret = kplus.Secret.fromSecretName(c, 'S', 'hf');
    const worker = g.addWorker('w', {
      env: {
        A: kplus.EnvValue.fromValue(''),
        B: kplus.EnvValue.fromSecretValue({ secret, key: 'token' }, { optional: true }),
        C: { valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } } as any,
        D: kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.MEMORY_LIMIT, { divisor: '1Mi' }),
      },
    });
    worker.addEnv('E', { value: 'e' } as any);
    g.addEnv('G', kplus.EnvValue.fromConfigMap(kplus.ConfigMap.fromConfigMapName(c, 'M', 'cm'), 'k'));
    const spec = g.toJson().spec;
    expect(spec.components[0].podTemplate.spec.containers[0].env).toEqual([
      { name: 'A', value: '' },
      { name: 'B', valueFrom: { secretKeyRef: { name: 'hf', key: 'token', optional: true } } },
      { name: 'C', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'D', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
      { name: 'E', value: 'e' },
    ]);
    expect(spec.env).toEqual([{ name: 'G', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }]);
  });

  test.each([
    ['X', null, 'test/Graph/w: addEnv("X"): Invalid value: null: must be an EnvValue'],
    ['X', 'v', 'test/Graph/w: addEnv("X"): Invalid value: "v": must be an EnvValue'],
    ['X', 3, 'test/Graph/w: addEnv("X"): Invalid value: 3: must be an EnvValue'],
    ['X', { value: 3 }, 'test/Graph/w: addEnv("X").value: Invalid value: 3: must be a string'],
    ['X', { valu: 'v' }, 'test/Graph/w: addEnv("X"): Invalid value: {"valu":"v"}: must be an EnvValue'],
    ['', kplus.EnvValue.fromValue('v'), 'test/Graph/w: addEnv(""): Required value: an environment variable name must not be empty'],
    ['A=B', kplus.EnvValue.fromValue('v'), 'test/Graph/w: addEnv("A=B"): Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than \'=\''],
    ['X', { valueFrom: { secretKeyRef: { name: 's', keey: 'k' } } }, 'test/Graph/w: addEnv("X").valueFrom.secretKeyRef.keey: unknown field "keey" of SecretKeySelector (did you mean "key"?)'],
  ])('addEnv(%j, %j) is refused and changes nothing', (name, value, message) => {
    const g = graph();
    const worker = g.addWorker('w', { image: IMAGE });
    const before = JSON.stringify(g.toJson());
    expect(() => worker.addEnv(name, value as any)).toThrow(message);
    expect(JSON.stringify(g.toJson())).toBe(before);
  });
});

describe('envFrom', () => {
  test('takes Env.fromSecret / Env.fromConfigMap (with a prefix) and Kubernetes-shape sources', () => {
    const c = chart();
    const spec = workerSpec({
      envFrom: [
        kplus.Env.fromSecret(kplus.Secret.fromSecretName(c, 'S', 'hf')),
        kplus.Env.fromConfigMap(kplus.ConfigMap.fromConfigMapName(c, 'M', 'cm'), 'CM_'),
        { secretRef: { name: 'plain', optional: true } },
      ],
    }, c);
    expect(spec.podTemplate.spec.containers[0].envFrom).toEqual([
      { secretRef: { name: 'hf' } },
      { configMapRef: { name: 'cm' }, prefix: 'CM_' },
      { secretRef: { name: 'plain', optional: true } },
    ]);
  });

  test.each([
    [[{}], 'test/Graph/w: envFrom[0]: Invalid value: {}: names no secret or config map'],
    [[{ prefix: 'P_' }], 'test/Graph/w: envFrom[0]: Invalid value: {"prefix":"P_"}: names no secret or config map'],
    [['hf'], 'test/Graph/w: envFrom[0]: Invalid value: "hf": must be an EnvFrom'],
    [[{ secretRef: 'hf' }], 'test/Graph/w: envFrom[0].secretRef: Invalid value: "hf": must be an object (SecretEnvSource)'],
    ['hf', 'test/Graph/w: envFrom: Invalid value: "hf": must be a list'],
  ])('refuses %j', (envFrom, message) => {
    expect(workerError({ envFrom })).toContain(message);
  });
});

describe('volumeMounts', () => {
  test('take kplus Volumes and Kubernetes-shape volumes; readOnly and subPath are kept as given', () => {
    const c = chart();
    const spec = workerSpec({
      volumeMounts: [
        { volume: kplus.Volume.fromSecret(c, 'V', kplus.Secret.fromSecretName(c, 'S', 'hf')), path: '/secret', readOnly: true },
        { volume: { name: 'cache', persistentVolumeClaim: { claimName: 'cache-pvc' } }, path: '/cache', readOnly: false, subPath: '' },
        { volume: { name: 'cache', persistentVolumeClaim: { claimName: 'cache-pvc' } }, path: '/other' },
      ],
    }, c);
    expect(spec.podTemplate.spec.volumes).toEqual([
      { name: 'secret-hf', secret: { secretName: 'hf' } },
      { name: 'cache', persistentVolumeClaim: { claimName: 'cache-pvc' } },
    ]);
    expect(spec.podTemplate.spec.containers[0].volumeMounts).toEqual([
      { name: 'secret-hf', mountPath: '/secret', readOnly: true },
      { name: 'cache', mountPath: '/cache', readOnly: false, subPath: '' },
      { name: 'cache', mountPath: '/other' },
    ]);
  });

  test.each([
    [[{ path: 3 }], 'test/Graph/w: volumeMounts[0].volume: Required value: the volume to mount'],
    [[{ volume: { name: 'v', emptyDir: {} }, path: 3 }], 'test/Graph/w: volumeMounts[0].path: Invalid value: 3: must be a string'],
    [[{ volume: { name: 'v', emptyDir: {} }, path: '/v', mountPath: '/v' }], 'test/Graph/w: volumeMounts[0].mountPath: unknown field "mountPath"'],
    [[{ volume: { emptyDir: {} }, path: '/v' }], 'test/Graph/w: volumeMounts[0].volume.name: Required value'],
    [[{ volume: { name: 'v', emptyDir: {} }, path: '/a' }, { volume: { name: 'v', hostPath: { path: '/x' } }, path: '/b' }],
      'test/Graph/w: volumeMounts[1].volume: Invalid value: {"name":"v","hostPath":{"path":"/x"}}: the pod already has a different volume named "v"'],
  ])('refuses %j', (volumeMounts, message) => {
    expect(workerError({ volumeMounts })).toContain(message);
  });
});

describe('other Kubernetes values', () => {
  test('addSidecar takes a plain container and keeps its quantities and ports', () => {
    const g = graph();
    const worker = g.addWorker('w', { image: IMAGE });
    worker.addSidecar({ name: 'log', image: 'busybox', resources: { limits: { cpu: '100m' } }, ports: [{ containerPort: 9000 }] } as any);
    expect(g.toJson().spec.components[0].podTemplate.spec.containers[1]).toEqual(
      { name: 'log', image: 'busybox', resources: { limits: { cpu: '100m' } }, ports: [{ containerPort: 9000 }] });
    expect(() => worker.addSidecar({ image: 'busybox' } as any)).toThrow('test/Graph/w: addSidecar(container).name: Required value: a container needs a name');
    expect(() => worker.addSidecar({ name: 'x', imagePullPolicy: 1 } as any)).toThrow('test/Graph/w: addSidecar(container).imagePullPolicy: Invalid value: 1: must be a string (one of "Always", "IfNotPresent", "Never")');
  });

  test('sharedMemorySize takes a k8s.Quantity, or a quantity as in Kubernetes', () => {
    expect(workerSpec({ sharedMemorySize: kplus.k8s.Quantity.fromString('16Gi') }).sharedMemorySize).toBe('16Gi');
    expect(workerSpec({ sharedMemorySize: '16Gi' }).sharedMemorySize).toBe('16Gi');
    expect(workerError({ sharedMemorySize: { size: '16Gi' } })).toContain('test/Graph/w: sharedMemorySize: Invalid value: {"size":"16Gi"}: must be a quantity');
  });

  test('a provider override value is JSON, kept exactly', () => {
    const value = { spec: { leaderWorkerTemplate: { size: 2 } }, list: [1, 'a', null, true] };
    expect(workerSpec({ providerOverride: { apiVersion: 'v1', value } }).providerOverride).toEqual({ apiVersion: 'v1', value });
    expect(workerError({ providerOverride: { apiVersion: 'v1', value: { at: new Date(0) } } }))
      .toContain('test/Graph/w: providerOverride.value.at: Invalid value: "1970-01-01T00:00:00.000Z": must be a JSON value');
    expect(workerError({ providerOverride: { apiVersion: 'v1', value: { n: NaN } } })).toContain('test/Graph/w: providerOverride.value.n: Invalid value: NaN: must be a finite number');
  });

  test('an experimental checkpoint job template in Kubernetes shape is kept', () => {
    const jobPodTemplate = { spec: { containers: [{ name: 'main', resources: { limits: { 'nvidia.com/gpu': 1 } } }] } };
    const spec = workerSpec({ image: IMAGE, experimental: { checkpoint: new CheckpointConfig({ jobPodTemplate: jobPodTemplate as any }) } });
    expect(spec.experimental.checkpoint.job.podTemplate).toEqual(jobPodTemplate);
  });
});

describe('metadata', () => {
  test('takes the fields of ObjectMeta and refuses others', () => {
    const c = chart();
    const metadata = { name: 'g', generateName: 'g-', labels: { a: 'b' }, annotations: { n: 'v' }, finalizers: ['f'] };
    expect(new DynamoGraph(c, 'G', { metadata }).toJson().metadata).toEqual(metadata);
    expect(() => new DynamoGraph(c, 'H', { metadata: { name: 'h', labelz: { a: 'b' } } as any }))
      .toThrow('test/H: metadata.labelz: unknown field "labelz" of ObjectMeta (did you mean "labels"?)');
  });
});

describeNeeding('corpus')('the corpus pod templates given as plain JSON', () => {
  test('every component of every corpus graph built from its plain pod template reads the same as the imported graph', () => {
    let compared = 0;
    for (const { file, docs } of corpusFiles()) {
      for (const doc of docs) {
        if (doc?.kind !== 'DynamoGraphDeployment' || !Array.isArray(doc.spec?.components)) continue;
        const c = chart();
        const imported = DynamoGraph.fromObject(c, 'Imported', doc).toJson();
        const built = new DynamoGraph(c, 'Built', { metadata: { name: imported.metadata.name } });
        for (const component of imported.spec.components) {
          built.addComponent(`c${compared++}`, { name: component.name, podTemplate: component.podTemplate });
        }
        const templates = (g: any) => g.spec.components.map((x: any) => x.podTemplate);
        expect([file, templates(built.toJson())]).toEqual([file, templates(imported)]);
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});
