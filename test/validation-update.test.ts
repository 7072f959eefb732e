import { checkUpdateRules, FieldPath, formatViolation, UpdateOptions, validateDocument, validateUpdate, ViolationSink } from '../src/admission';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const OPERATOR = 'system:serviceaccount:dynamo-system:dynamo-platform-dynamo-operator-controller-manager';
const PROVIDER = 'nvidia.com/workload-provider';

/** A valid graph: a frontend and a one-GPU decode worker (component index 1). */
function graph(): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llm' },
    spec: {
      backendFramework: 'vllm',
      components: [
        { name: 'Frontend', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } },
        {
          name: 'decode',
          type: 'decode',
          podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE, resources: { limits: { 'nvidia.com/gpu': 1 } } }] } },
        },
      ],
    },
  };
}

/** A valid standalone DCD. */
function componentDeployment(): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoComponentDeployment',
    metadata: { name: 'worker' },
    spec: {
      backendFramework: 'vllm',
      type: 'worker',
      podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE, resources: { limits: { 'nvidia.com/gpu': 1 } } }] } },
    },
  };
}

/** Marks a document as read back from the cluster (so it is taken as stored, not as a manifest). */
function stored(doc: any): any {
  doc.metadata.resourceVersion = '42';
  return doc;
}

function decode(doc: any): any {
  return doc.spec.components[1];
}

/**
 * The formatted violations of an update (Grove off unless the options say otherwise), under the
 * rules of operator 1.6.0 (the newer update rules: rows 44, 50, 69) unless the options name another.
 */
function lines(old: unknown, next: unknown, options: UpdateOptions = {}): string[] {
  return validateUpdate(old, next, { groveAvailable: false, version: '1.6.0', ...options }).map(formatViolation);
}

const DGD = 'DynamoGraphDeployment/llm';
const DCD = 'DynamoComponentDeployment/worker';

describe('update validation basics', () => {
  test('an unchanged graph and an unchanged component deployment are valid updates', () => {
    expect(lines(graph(), graph())).toEqual([]);
    expect(lines(graph(), graph(), { groveAvailable: true })).toEqual([]);
    expect(lines(componentDeployment(), componentDeployment())).toEqual([]);
  });

  test('the create-time rules are re-run on the new object', () => {
    const next = graph();
    decode(next).type = 'router';
    expect(lines(graph(), next)).toEqual([
      `${DGD}: spec.components[1] (component "decode"): Invalid value: "object": type is immutable after it is set (rule 44)`,
      `${DGD}: spec.components[1].type (component "decode"): Unsupported value: "router": supported values: "frontend", "worker", "prefill", "decode", "planner", "epp" (rule 43)`,
    ]);
  });

  test('violations of both kinds come in document order of the new object', () => {
    const next = graph();
    next.spec.backendFramework = 'sglang';
    next.spec.components[0].type = 'router';
    expect(lines(graph(), next)).toEqual([
      `${DGD}: spec.backendFramework: Invalid value: "sglang": is immutable and cannot be changed after creation (rule 13)`,
      `${DGD}: spec.components[0] (component "Frontend"): Invalid value: "object": type is immutable after it is set (rule 44)`,
      `${DGD}: spec.components[0].type (component "Frontend"): Unsupported value: "router": supported values: "frontend", "worker", "prefill", "decode", "planner", "epp" (rule 43)`,
    ]);
  });

  test('a document that is not a supported object of the same kind is validated as a create', () => {
    const next = graph();
    next.spec.restart = { id: 'r1' };
    const asCreate = validateDocument(next, { groveAvailable: false }).map(formatViolation);
    expect(asCreate).toHaveLength(1);
    expect(lines(componentDeployment(), next)).toEqual(asCreate);
    expect(lines(null, next)).toEqual(asCreate);
  });

  test('the inputs are not modified', () => {
    const old = graph();
    const next = graph();
    validateUpdate(old, next, { groveAvailable: true });
    expect(old).toEqual(graph());
    expect(next).toEqual(graph());
  });

  test('checkUpdateRules reports into the given sink, on admitted objects', () => {
    const sink = new ViolationSink();
    const next = componentDeployment();
    next.spec.backendFramework = 'trtllm';
    checkUpdateRules(componentDeployment(), next, {}, sink);
    expect(sink.all.map((r) => [r.path.toString(), r.rule])).toEqual([['spec.backendFramework', '13']]);
    expect(sink.all[0].path).toBeInstanceOf(FieldPath);
  });
});

describe('validation-rules update differences of the create-time rules (rows 5, 11, 81, deletion)', () => {
  test('docs/design/validation-rules.md row 11: spec.restart may be set on update', () => {
    const next = graph();
    next.spec.restart = { id: 'restart-1' };
    expect(lines(graph(), next)).toEqual([]);
  });

  test('docs/design/validation-rules.md row 5: an unsupported workload-provider value is reported on update', () => {
    const old = stored(graph());
    const next = stored(graph());
    next.metadata.annotations = { [PROVIDER]: 'lws' };
    next.spec.priorityClassName = 'high';
    expect(lines(old, next)).toEqual([
      `${DGD}: metadata.annotations[${PROVIDER}]: Unsupported value: "lws": supported values: "component", "grove" (rule 5)`,
      `${DGD}: spec.priorityClassName: Forbidden: requires the Grove pathway, but annotation "${PROVIDER}" has unsupported value "lws" (rule 20)`,
    ]);
  });

  test('docs/design/validation-rules.md row 81: provider overrides of a graph without the provider annotation wait for the controller', () => {
    // a graph stored before the annotation existed
    const old = stored(graph());
    const next = stored(graph());
    decode(next).providerOverride = { apiVersion: 'grove.io/v1alpha1', value: { topologyConstraint: { packDomain: 'rack' } } };
    expect(lines(old, next, { groveAvailable: true })).toEqual([
      `${DGD}: spec.components[1].providerOverride (component "decode"): Forbidden: requires controller-owned annotation "${PROVIDER}" to be materialized; wait for controller adoption and retry (rule 81)`,
    ]);
  });

  test('a graph without the provider annotation takes the Grove pathway from the operator gate and enable-grove', () => {
    const next = stored(graph());
    next.spec.priorityClassName = 'high';
    expect(lines(stored(graph()), next, { groveAvailable: false })).toEqual([
      `${DGD}: spec.priorityClassName: Forbidden: requires the Grove pathway, but Grove is disabled in the operator configuration (rule 20)`,
    ]);
    next.metadata.annotations = { 'nvidia.com/enable-grove': 'False' };
    expect(lines(stored(graph()), next, { groveAvailable: true })).toEqual([
      `${DGD}: spec.priorityClassName: Forbidden: requires the Grove pathway; remove or unset annotation "nvidia.com/enable-grove" (currently "False") (rule 20)`,
    ]);
    delete next.metadata.annotations;
    expect(lines(stored(graph()), next, { groveAvailable: true })).toEqual([]);
  });

  test('the stored provider decides the pathway, not the operator gate of today', () => {
    const old = graph(); // created while Grove was off: provider "component"
    const next = graph();
    next.spec.priorityClassName = 'high';
    expect(lines(old, next, { groveAvailable: false })).toEqual([
      `${DGD}: spec.priorityClassName: Forbidden: requires the Grove pathway, but workload provider "component" is selected (rule 20)`,
    ]);
    const stamped = stored(graph());
    stamped.metadata.annotations = { [PROVIDER]: 'component' };
    const nextStamped = stored(graph());
    nextStamped.spec.priorityClassName = 'high';
    expect(lines(stamped, nextStamped, { groveAvailable: true })).toHaveLength(1);
  });

  test('an object being deleted is checked by the API server only (schema and CEL rules)', () => {
    const old = stored(graph());
    old.metadata.deletionTimestamp = '2026-11-29T10:00:00Z';
    const next = graph();
    next.spec.backendFramework = 'sglang';
    decode(next).replicas = -1;
    decode(next).sharedMemorySize = '-1Gi';
    expect(lines(old, next)).toEqual([
      `${DGD}: spec.components[1].replicas (component "decode"): Invalid value: -1: should be greater than or equal to 0 (rule 59)`,
    ]);
  });
});

describe('docs/design/validation-rules.md §1.1 workload-provider annotation on update', () => {
  test('docs/design/validation-rules.md row 7: only the operator may add the annotation when its identity is known', () => {
    const old = stored(graph());
    const next = stored(graph());
    next.metadata.annotations = { [PROVIDER]: 'component' };
    expect(lines(old, next, { operatorPrincipal: OPERATOR, requester: 'jane@example.com' })).toEqual([
      `${DGD}: metadata.annotations[${PROVIDER}]: Forbidden: may only be materialized by the Dynamo operator (rule 7)`,
    ]);
    expect(lines(old, next, { operatorPrincipal: OPERATOR })).toHaveLength(1);
    expect(lines(old, next, { operatorPrincipal: OPERATOR, requester: OPERATOR })).toEqual([]);
    expect(lines(old, next, { requester: 'jane@example.com' })).toEqual([]);
  });

  test('docs/design/validation-rules.md row 8: once present the annotation can be neither changed nor removed', () => {
    const next = graph();
    next.metadata.annotations = { [PROVIDER]: 'grove' };
    expect(lines(graph(), next)).toEqual([
      `${DGD}: metadata.annotations[${PROVIDER}]: Invalid value: "grove": field is immutable (rule 8)`,
    ]);
    // kubectl apply keeps the annotation the operator wrote; a full replace removes it
    expect(lines(graph(), graph())).toEqual([]);
    expect(lines(graph(), graph(), { submit: 'replace' })).toEqual([
      `${DGD}: metadata.annotations[${PROVIDER}]: Invalid value: null: field is immutable (rule 8)`,
    ]);
  });
});

describe('docs/design/validation-rules.md §1.2 graph spec on update', () => {
  test('docs/design/validation-rules.md row 13: backendFramework is immutable (DGD and DCD)', () => {
    const next = graph();
    delete next.spec.backendFramework;
    expect(lines(graph(), next)).toEqual([
      `${DGD}: spec.backendFramework: Invalid value: "": is immutable and cannot be changed after creation (rule 13)`,
    ]);
    const dcd = componentDeployment();
    dcd.spec.backendFramework = 'sglang';
    expect(lines(componentDeployment(), dcd)).toEqual([
      `${DCD}: spec.backendFramework: Invalid value: "sglang": is immutable and cannot be changed after creation (rule 13)`,
    ]);
  });

  test('docs/design/validation-rules.md row 18: components can be neither added nor removed', () => {
    const frontend = graph().spec.components[0];
    const added = graph();
    added.spec.components.push({ ...frontend, name: 'b-extra' }, { ...frontend, name: 'a-extra' });
    expect(lines(graph(), added)).toEqual([
      `${DGD}: spec.components: Forbidden: component topology is immutable and cannot be modified after creation: components added: [a-extra b-extra] (rule 18)`,
    ]);
    const removed = graph();
    removed.spec.components.pop();
    expect(lines(graph(), removed)).toEqual([
      `${DGD}: spec.components: Forbidden: component topology is immutable and cannot be modified after creation: components removed: [decode] (rule 18)`,
    ]);
    const reordered = graph();
    reordered.spec.components.reverse();
    expect(lines(graph(), reordered)).toEqual([]);
    const renamed = graph();
    decode(renamed).name = 'Decode';
    expect(lines(graph(), renamed)).toEqual([
      `${DGD}: spec.components: Forbidden: component topology is immutable and cannot be modified after creation: components added: [Decode], components removed: [decode] (rule 18)`,
    ]);
  });

  test('docs/design/validation-rules.md row 27: restart.id is frozen while a rolling update is pending or in progress', () => {
    const old = stored(graph());
    old.spec.restart = { id: 'r1' };
    old.status = { rollingUpdate: { phase: 'InProgress' } };
    const next = graph();
    next.spec.restart = { id: 'r2' };
    expect(lines(old, next)).toEqual([
      `${DGD}: spec.restart.id: Invalid value: "r2": cannot be changed while a rolling update is InProgress (rule 27)`,
    ]);
    old.status.rollingUpdate.phase = 'Pending';
    delete next.spec.restart;
    expect(lines(old, next)).toEqual([
      `${DGD}: spec.restart.id: Invalid value: "": cannot be changed while a rolling update is Pending (rule 27)`,
    ]);
    old.status.rollingUpdate.phase = 'Completed';
    expect(lines(old, next)).toEqual([]);
  });

  test('docs/design/validation-rules.md row 34: spec.topologyConstraint cannot be added, removed or changed', () => {
    const old = graph();
    old.spec.topologyConstraint = { clusterTopologyName: 'topo', packDomain: 'rack' };
    const next = graph();
    next.spec.topologyConstraint = { clusterTopologyName: 'topo', packDomain: 'zone' };
    const detail = 'is immutable and cannot be added, removed, or changed after creation; delete and recreate the DynamoGraphDeployment to change topology constraints';
    expect(lines(old, next)).toEqual([
      `${DGD}: spec.topologyConstraint: Invalid value: {"clusterTopologyName":"topo","packDomain":"zone"}: ${detail} (rule 34)`,
    ]);
    expect(lines(old, graph())).toEqual([`${DGD}: spec.topologyConstraint: Invalid value: null: ${detail} (rule 34)`]);
    expect(lines(graph(), next)).toHaveLength(1);
    expect(lines(old, old)).toEqual([]);
  });

  test('docs/design/validation-rules.md row 40: the KV transfer policy cannot be added, removed or changed', () => {
    const old = graph();
    old.spec.experimental = { kvTransferPolicy: { labelKey: 'topology.kubernetes.io/zone', domain: 'zone' } };
    const detail = 'is immutable and cannot be added, removed, or changed after creation; delete and recreate the DynamoGraphDeployment to change the KV transfer policy';
    const changed = graph();
    changed.spec.experimental = { kvTransferPolicy: { labelKey: 'topology.kubernetes.io/zone', domain: 'rack' } };
    expect(lines(old, changed)).toEqual([
      `${DGD}: spec.experimental.kvTransferPolicy: Invalid value: {"labelKey":"topology.kubernetes.io/zone","domain":"rack","enforcement":"required"}: ${detail} (rule 40)`,
    ]);
    expect(lines(old, graph())).toEqual([`${DGD}: spec.experimental.kvTransferPolicy: Invalid value: null: ${detail} (rule 40)`]);
    // the default enforcement is the same policy
    const explicit = graph();
    explicit.spec.experimental = { kvTransferPolicy: { labelKey: 'topology.kubernetes.io/zone', domain: 'zone', enforcement: 'required' } };
    expect(lines(old, explicit)).toEqual([]);
  });
});

describe('docs/design/validation-rules.md §1.3 runtime-version and EPP ratchets', () => {
  test('docs/design/validation-rules.md row 48: a missing runtimeVersionOverride is reported only when image or override change', () => {
    const old = graph();
    decode(old).podTemplate.spec.containers[0].image = 'registry.local/vllm:nightly';
    expect(validateDocument(old, { groveAvailable: false }).map((v) => v.rule)).toEqual(['47']);
    const same = graph();
    decode(same).podTemplate.spec.containers[0].image = 'registry.local/vllm:nightly';
    expect(lines(old, same)).toEqual([]);
    const changed = graph();
    decode(changed).podTemplate.spec.containers[0].image = 'registry.local/vllm:nightly-2';
    expect(lines(old, changed)).toEqual([
      `${DGD}: spec.components[1].runtimeVersionOverride (component "decode"): Required value: is required when the specified main container image has no parseable semantic-version tag (rule 48)`,
    ]);
  });

  test('docs/design/validation-rules.md row 48: removing a main image the old object had is required', () => {
    const next = graph();
    delete decode(next).podTemplate.spec.containers[0].image;
    expect(lines(graph(), next)).toEqual([
      `${DGD}: spec.components[1].podTemplate.spec.containers[0].image (component "decode"): Required value: is required (rule 48)`,
    ]);
    // an object created without a main image may stay so
    const old = graph();
    delete decode(old).podTemplate.spec.containers[0].image;
    expect(lines(old, next)).toEqual([]);
  });

  test('docs/design/validation-rules.md row 50: an EPP contract violation is tolerated only while nothing it depends on changes', () => {
    const epp = (key: string): any => {
      const doc = graph();
      doc.spec.components[0] = {
        name: 'epp',
        type: 'epp',
        eppConfig: { configMapRef: { name: 'epp-config', key } },
        podTemplate: { spec: { containers: [{ name: 'main', image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0' }] } },
      };
      return doc;
    };
    expect(validateDocument(epp('a'), { groveAvailable: false, version: '1.6.0' }).map((v) => v.rule)).toEqual(['49']);
    expect(lines(epp('a'), epp('a'))).toEqual([]);
    expect(lines(epp('a'), epp('b'))).toEqual([
      `${DGD}: spec.components[0].eppConfig (component "epp"): Forbidden: must be omitted for native Rust EPP images with runtime version 1.5.0 or later (rule 50)`,
    ]);
  });
});

describe('docs/design/validation-rules.md §1.4 replicas with a scaling adapter', () => {
  const scaled = (replicas?: number): any => {
    const doc = graph();
    decode(doc).scalingAdapter = {};
    if (replicas !== undefined) decode(doc).replicas = replicas;
    return doc;
  };
  const forbidden = `${DGD}: spec.components[1].replicas (component "decode"): Forbidden: cannot be modified directly when scaling adapter is enabled; scale or update the related DynamoGraphDeploymentScalingAdapter instead (rule 66)`;

  test('docs/design/validation-rules.md row 66: an ordinary user cannot change replicas of a scaled component', () => {
    expect(lines(scaled(2), scaled(3))).toEqual([forbidden]);
    expect(lines(scaled(2), scaled(3), { requester: 'jane@example.com' })).toEqual([forbidden]);
    expect(lines(scaled(2), scaled(3), { requester: 'system:serviceaccount:team-a:deployer' })).toEqual([forbidden]);
    // adding or removing the adapter while changing replicas counts too (absent replicas are 1)
    expect(lines(graph(), scaled(2))).toEqual([forbidden]);
    expect(lines(scaled(1), scaled())).toEqual([]);
  });

  test('docs/design/validation-rules.md row 66: the planner and the operator service accounts may change them', () => {
    expect(lines(scaled(2), scaled(3), { requester: 'system:serviceaccount:team-a:planner-serviceaccount' })).toEqual([]);
    expect(lines(scaled(2), scaled(3), { requester: OPERATOR, operatorPrincipal: OPERATOR })).toEqual([]);
    expect(lines(scaled(2), scaled(3), { requester: OPERATOR })).toEqual([forbidden]);
  });

  test('docs/design/validation-rules.md row 66: a manifest without replicas keeps the adapter-managed count (kubectl apply)', () => {
    const live = stored(scaled(5));
    expect(lines(live, scaled())).toEqual([]);
    expect(lines(live, scaled(), { submit: 'replace' })).toEqual([forbidden]);
  });

  test('docs/design/validation-rules.md row 66: standalone DCDs may always change replicas', () => {
    const old = componentDeployment();
    old.spec.scalingAdapter = {};
    old.spec.replicas = 1;
    const next = componentDeployment();
    next.spec.scalingAdapter = {};
    next.spec.replicas = 4;
    expect(lines(old, next)).toEqual([]);
  });
});

describe('docs/design/validation-rules.md §1.5 multinode and roles on update', () => {
  const multinode = (nodeCount: number, roles?: unknown[]): any => {
    const doc = graph();
    decode(doc).multinode = { nodeCount };
    if (roles) decode(doc).roles = roles;
    return doc;
  };

  test('docs/design/validation-rules.md row 68: single-node and multi-node cannot be switched', () => {
    expect(lines(graph(), multinode(2))).toEqual([
      `${DGD}: spec.components[1].multinode (component "decode"): Invalid value: {"nodeCount":2}: cannot change node topology between single-node and multi-node after creation (rule 68)`,
    ]);
    expect(lines(multinode(2), graph())).toEqual([
      `${DGD}: spec.components[1].multinode (component "decode"): Invalid value: null: cannot change node topology between single-node and multi-node after creation (rule 68)`,
    ]);
  });

  test('docs/design/validation-rules.md row 69: nodeCount is immutable', () => {
    expect(lines(multinode(2), multinode(4))).toEqual([
      `${DGD}: spec.components[1].multinode.nodeCount (component "decode"): Invalid value: 4: field is immutable (rule 69)`,
    ]);
  });

  test('docs/design/validation-rules.md row 75: implicit and explicit roles switch only when equivalent', () => {
    expect(lines(multinode(3), multinode(3, [{ name: 'leader' }, { name: 'worker', replicas: 2 }]))).toEqual([]);
    const override = { apiVersion: 'grove.io/v1alpha1', value: { topologyConstraint: { packDomain: 'rack' } } };
    const explicit = multinode(3, [{ name: 'leader', providerOverride: override }, { name: 'worker' }]);
    expect(lines(multinode(3), explicit, { groveAvailable: true })).toEqual([
      `${DGD}: spec.components[1].roles (component "decode"): Forbidden: cannot switch between implicit and explicit roles while changing the resolved role model; make the equivalent role structure explicit first (rule 75)`,
    ]);
  });

  test('docs/design/validation-rules.md row 76: explicit role names are immutable', () => {
    const old = multinode(2, [{ name: 'leader' }, { name: 'worker' }]);
    expect(lines(old, multinode(2, [{ name: 'leader' }]))).toEqual([
      `${DGD}: spec.components[1].roles (component "decode"): Required value: must contain the "worker" role (rule 72)`,
      `${DGD}: spec.components[1].roles (component "decode"): Invalid value: [{"name":"leader","replicas":1}]: role names are immutable after creation (rule 76)`,
    ]);
    expect(lines(old, multinode(2, [{ name: 'worker' }, { name: 'leader' }]))).toEqual([]);
  });
});

describe('docs/design/validation-rules.md §1.6 provider overrides on update', () => {
  const override = (extra: Record<string, unknown> = {}): any => ({
    apiVersion: 'grove.io/v1alpha1',
    ...extra,
    value: { topologyConstraint: { packDomain: 'rack' } },
  });

  test('docs/design/validation-rules.md row 88: the target of a component override is immutable', () => {
    const old = graph();
    decode(old).providerOverride = override();
    const next = graph();
    decode(next).providerOverride = override({ target: 'PodCliqueScalingGroupConfig' });
    expect(lines(old, next, { groveAvailable: true })).toEqual([
      `${DGD}: spec.components[1].providerOverride.target (component "decode"): Invalid value: "PodCliqueScalingGroupConfig": must match the provider-context target "PodCliqueTemplateSpec" (rule 85)`,
      `${DGD}: spec.components[1].providerOverride.target (component "decode"): Invalid value: "PodCliqueScalingGroupConfig": field is immutable (rule 88)`,
    ]);
  });

  test('docs/design/validation-rules.md row 88: the apiVersion of the root override is immutable', () => {
    const old = graph();
    old.spec.providerOverride = { apiVersion: 'grove.io/v1alpha1', value: { spec: { template: { topologyConstraint: { packDomain: 'rack' } } } } };
    const next = graph();
    next.spec.providerOverride = { apiVersion: 'grove.io/v1beta1', target: 'PodCliqueSet', value: old.spec.providerOverride.value };
    expect(lines(old, next, { groveAvailable: true })).toEqual([
      `${DGD}: spec.providerOverride.apiVersion: Unsupported value: "grove.io/v1beta1": supported values: "grove.io/v1alpha1" (rule 83)`,
      `${DGD}: spec.providerOverride.apiVersion: Invalid value: "grove.io/v1beta1": field is immutable (rule 88)`,
    ]);
  });
});

describe('docs/design/validation-rules.md §1.7 power limit and component topology on update', () => {
  const POWER = 'dynamo.nvidia.com/gpu-power-limit';
  const powered = (watts?: string, gpus: number = 1): any => {
    const doc = graph();
    if (watts !== undefined) decode(doc).podTemplate.metadata = { annotations: { [POWER]: watts } };
    decode(doc).podTemplate.spec.containers[0].resources.limits['nvidia.com/gpu'] = gpus;
    return doc;
  };

  test('docs/design/validation-rules.md row 97: the GPU power-limit annotation cannot be added, removed or changed', () => {
    expect(lines(powered(), powered('300'))).toEqual([
      `${DGD}: spec.components[1].podTemplate.metadata.annotations[${POWER}] (component "decode"): Invalid value: "300": field is immutable (rule 97)`,
    ]);
    expect(lines(powered('300'), powered('350'))).toEqual([
      `${DGD}: spec.components[1].podTemplate.metadata.annotations[${POWER}] (component "decode"): Invalid value: "350": field is immutable (rule 97)`,
    ]);
    expect(lines(powered('300'), powered())).toEqual([
      `${DGD}: spec.components[1].podTemplate.metadata.annotations[${POWER}] (component "decode"): Invalid value: null: field is immutable (rule 97)`,
    ]);
  });

  test('docs/design/validation-rules.md row 98: while the old object has the power limit, the main container GPU count is frozen', () => {
    expect(lines(powered('300'), powered('300', 2))).toEqual([
      `${DGD}: spec.components[1].podTemplate.spec.containers[0].resources.limits[nvidia.com/gpu] (component "decode"): Invalid value: "2": field is immutable (rule 98)`,
    ]);
    // the same quantity written differently is the same count
    const quoted = powered('300');
    decode(quoted).podTemplate.spec.containers[0].resources.limits['nvidia.com/gpu'] = '1';
    expect(lines(powered('300'), quoted)).toEqual([]);
    // without the annotation in the old object the count may change
    expect(lines(powered(), powered(undefined, 2))).toEqual([]);
  });

  test('docs/design/validation-rules.md row 106: a component topology constraint cannot be added, removed or changed', () => {
    const topology = (packDomain?: string): any => {
      const doc = graph();
      doc.spec.topologyConstraint = { clusterTopologyName: 'topo' };
      if (packDomain !== undefined) decode(doc).topologyConstraint = { packDomain };
      return doc;
    };
    const detail = 'is immutable and cannot be added, removed, or changed after creation; delete and recreate the DynamoGraphDeployment to change topology constraints';
    expect(lines(topology('rack'), topology('host'))).toEqual([
      `${DGD}: spec.components[1].topologyConstraint (component "decode"): Invalid value: {"packDomain":"host"}: ${detail} (rule 106)`,
    ]);
    const old = componentDeployment();
    old.spec.topologyConstraint = { packDomain: 'rack' };
    expect(lines(old, componentDeployment())).toEqual([
      `${DCD}: spec.topologyConstraint: Invalid value: null: is immutable and cannot be added, removed, or changed after creation; delete and recreate the DynamoComponentDeployment to change topology constraints (rule 106)`,
    ]);
  });
});

describe('docs/design/validation-rules.md §1.8-1.10 experimental layouts on update', () => {
  const experimental = (value?: unknown): any => {
    const doc = graph();
    if (value !== undefined) decode(doc).experimental = value;
    return doc;
  };
  const interPod = { gpuMemoryService: { mode: 'InterPod' } };
  const interPodFailover = { gpuMemoryService: { mode: 'InterPod' }, failover: { mode: 'InterPod' } };
  const grove = { groveAvailable: true };

  test('docs/design/validation-rules.md row 119: the inter-pod GMS layout cannot be toggled', () => {
    expect(lines(experimental(interPod), experimental({ gpuMemoryService: { mode: 'IntraPod' } }), grove)).toEqual([
      `${DGD}: spec.components[1].experimental.gpuMemoryService.mode (component "decode"): Invalid value: "IntraPod": the inter-pod GMS layout cannot be toggled after creation; delete and recreate the DynamoGraphDeployment (rule 119)`,
    ]);
    expect(lines(experimental(interPod), experimental(), grove)).toEqual([
      `${DGD}: spec.components[1].experimental.gpuMemoryService.mode (component "decode"): Invalid value: null: the inter-pod GMS layout cannot be toggled after creation; delete and recreate the DynamoGraphDeployment (rule 119)`,
    ]);
  });

  test('docs/design/validation-rules.md row 127: inter-pod failover cannot be toggled', () => {
    expect(lines(experimental(interPodFailover), experimental(interPod), grove)).toEqual([
      `${DGD}: spec.components[1].experimental.failover (component "decode"): Invalid value: null: inter-pod GMS failover cannot be toggled after creation; delete and recreate the DynamoGraphDeployment (rule 127)`,
    ]);
  });

  test('docs/design/validation-rules.md row 128: numShadows of inter-pod failover is immutable', () => {
    const next = experimental({ gpuMemoryService: { mode: 'InterPod' }, failover: { mode: 'InterPod', numShadows: 2 } });
    expect(lines(experimental(interPodFailover), next, grove)).toContain(
      `${DGD}: spec.components[1].experimental.failover.numShadows (component "decode"): Invalid value: 2: is immutable for inter-pod GMS failover; delete and recreate the DynamoGraphDeployment to change it (rule 128)`,
    );
  });

  test('docs/design/validation-rules.md row 130: forceScalingGroup cannot be toggled', () => {
    const forced = { grove: { forceScalingGroup: true } };
    expect(lines(experimental(forced), experimental({ grove: { forceScalingGroup: false } }), grove)).toEqual([
      `${DGD}: spec.components[1].experimental.grove.forceScalingGroup (component "decode"): Invalid value: false: cannot be toggled after creation; delete and recreate the DynamoGraphDeployment to change it (rule 130)`,
    ]);
    expect(lines(experimental(forced), experimental(), grove)).toEqual([
      `${DGD}: spec.components[1].experimental.grove.forceScalingGroup (component "decode"): Invalid value: null: cannot be toggled after creation; delete and recreate the DynamoGraphDeployment to change it (rule 130)`,
    ]);
    // false and absent mean the same
    expect(lines(experimental({ grove: {} }), experimental({ grove: { forceScalingGroup: false } }), grove)).toEqual([]);
    // a standalone DCD names its own kind
    const old = componentDeployment();
    old.spec.experimental = { grove: { forceScalingGroup: true } };
    expect(lines(stored(old), componentDeployment())).toEqual([
      `${DCD}: spec.experimental.grove.forceScalingGroup: Invalid value: null: cannot be toggled after creation; delete and recreate the DynamoComponentDeployment to change it (rule 130)`,
    ]);
  });
});

describe('validation-rules CEL rules of the CRDs on update (rows 16, 44, 62, 63; ratcheting)', () => {
  /** A stored graph on the Grove pathway whose decode worker has `minAvailable` and `replicas`. */
  function groveGraph(minAvailable: number, replicas = 2): any {
    const doc = stored(graph());
    doc.metadata.annotations = { [PROVIDER]: 'grove' };
    decode(doc).replicas = replicas;
    decode(doc).minAvailable = minAvailable;
    return doc;
  }

  test('docs/design/validation-rules.md row 44: a component type may not change once set', () => {
    const next = graph();
    decode(next).type = 'prefill';
    expect(lines(graph(), next)).toEqual([
      `${DGD}: spec.components[1] (component "decode"): Invalid value: "object": type is immutable after it is set (rule 44)`,
    ]);
    const changedDcd = componentDeployment();
    changedDcd.spec.type = 'prefill';
    expect(lines(componentDeployment(), changedDcd)).toEqual([
      `${DCD}: spec: Invalid value: "object": type is immutable after it is set (rule 44)`,
    ]);
  });

  test('docs/design/validation-rules.md row 44: an unchanged type, or a type set where there was none, passes', () => {
    expect(lines(graph(), graph()).filter((l) => l.endsWith('(rule 44)'))).toEqual([]);
    const untyped = componentDeployment();
    delete untyped.spec.type;
    expect(lines(untyped, componentDeployment())).toEqual([]);
  });

  test('docs/design/validation-rules.md row 63: minAvailable may not change once set', () => {
    expect(lines(groveGraph(1), groveGraph(2), { groveAvailable: true })).toEqual([
      `${DGD}: spec.components[1] (component "decode"): Invalid value: "object": minAvailable is immutable after creation (rule 63)`,
    ]);
  });

  test('docs/design/validation-rules.md row 63: an unchanged minAvailable passes, also when other fields change', () => {
    expect(lines(groveGraph(2), groveGraph(2), { groveAvailable: true })).toEqual([]);
    expect(lines(groveGraph(2, 2), groveGraph(2, 3), { groveAvailable: true })).toEqual([]);
  });

  test('docs/design/validation-rules.md row 16: a create-time CEL rule is re-checked on the new object', () => {
    const next = graph();
    next.spec.components.push({ ...graph().spec.components[0], name: 'frontend' });
    expect(lines(graph(), next).filter((l) => l.endsWith('(rule 16)'))).toEqual([
      `${DGD}: spec.components: Invalid value: "array": component names must be unique case-insensitively (rule 16)`,
    ]);
  });

  test('ratcheting: an unchanged value that breaks a CEL rule is tolerated, a changed one is reported', () => {
    // stored before the rule existed: minAvailable 3 above replicas 1 (row 62)
    const old = groveGraph(3, 1);
    const unchanged = groveGraph(3, 1);
    unchanged.spec.components[0].replicas = 2;
    expect(validateDocument(unchanged, { groveAvailable: true }).map((v) => v.rule)).toContain('62');
    expect(lines(old, unchanged, { groveAvailable: true })).toEqual([]);
    const changed = groveGraph(3, 2);
    expect(lines(old, changed, { groveAvailable: true }).filter((l) => l.endsWith('(rule 62)'))).toHaveLength(1);
  });
});

describe('Kubernetes object metadata on update: metadata.name is a DNS-1123 subdomain', () => {
  test('a new object whose name is not a DNS-1123 subdomain is reported on update as on create', () => {
    const old = graph();
    old.metadata.name = 'g_graph';
    const next = graph();
    next.metadata.name = 'g_graph';
    expect(validateUpdate(old, next, { groveAvailable: false }).map((v) => [v.path, v.rule])).toEqual([['metadata.name', 'schema']]);
  });
});
