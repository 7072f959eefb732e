/**
 * The objects the graph controller creates for an EPP component (docs/design/render-core.md §10.2–§10.4, §17):
 * its ConfigMap, InferencePool and Istio DestinationRule, asserted on the rendered workloads.
 */
import { DgdJson, lastAppliedHash, OperatorSettings, render, RenderError, renderError, renderUnchecked } from './support/facade';
// the sigs.k8s.io/yaml emulation the EPP configuration is written with, unit-tested on its edge cases
import { formatGoFloatG, goYamlKeyLess, marshalSigsYaml, resolvesAsString } from '../src/go';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const EPP_CONFIGURATION_REQUIRED = 'EPP configuration is required: either eppConfig.configMapRef or eppConfig.config must be specified';
/** The EPP objects of the graph controller, in creation order. */
const EPP_KINDS = ['ConfigMap', 'InferencePool', 'DestinationRule'];

/** Every object rendered for the graph (not checked: some inputs are deliberately refused by admission). */
function workloads(dgd: DgdJson, operator: Partial<OperatorSettings> = {}): any[] {
  return renderUnchecked(dgd, { settings: operator });
}

/** The EPP objects among the workloads, in order (the ConfigMap is the EPP's, not the wait-for-leader one). */
function eppResources(dgd: DgdJson, operator: Partial<OperatorSettings> = {}): any[] {
  return workloads(dgd, operator).filter(o => EPP_KINDS.includes(o.kind) && !o.metadata.name.endsWith('-wait-leader-script'));
}

const renderEppConfigMap = (dgd: DgdJson, operator: Partial<OperatorSettings> = {}): any => eppResources(dgd, operator).find(o => o.kind === 'ConfigMap');
const renderInferencePool = (dgd: DgdJson): any => eppResources(dgd).find(o => o.kind === 'InferencePool');
const renderEppDestinationRule = (dgd: DgdJson, operator: Partial<OperatorSettings> = {}): any =>
  eppResources(dgd, operator).find(o => o.kind === 'DestinationRule');

function eppGraph(eppExtra: Record<string, unknown>, metadata: any = { name: 'llm', namespace: 'team-a' }): DgdJson {
  const dgd: DgdJson = {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata,
    spec: {
      backendFramework: 'vllm',
      components: [
        { name: 'Frontend', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } },
        { name: 'EPP', type: 'epp', podTemplate: { spec: { containers: [{ name: 'main', image: 'nvcr.io/epp:1.4.0' }] } }, ...eppExtra },
      ],
    },
  };
  return dgd;
}

const CONFIG = {
  apiVersion: 'example.com/v9',
  kind: 'Ignored',
  featureGates: ['prepareDataPlugins'],
  plugins: [
    { type: 'single-profile-handler' },
    { name: 'kv', type: 'kv-cache-utilization-scorer', parameters: { threshold: 0.8, blockSize: 16, mode: 'on', label: 'a: b' } },
    { type: 'max-score-picker', unknownField: 'dropped' },
  ],
  schedulingProfiles: [{ name: 'default', plugins: [{ pluginRef: 'kv', weight: 2 }, { pluginRef: 'max-score-picker' }] }],
  saturationDetector: { queueDepthThreshold: 5, kvCacheUtilThreshold: 0.8 },
};

const CONFIG_YAML = [
  'apiVersion: inference.networking.x-k8s.io/v1alpha1',
  'featureGates:',
  '- prepareDataPlugins',
  'kind: EndpointPickerConfig',
  'plugins:',
  '- name: ""',
  '  parameters: null',
  '  type: single-profile-handler',
  '- name: kv',
  '  parameters:',
  '    blockSize: 16',
  '    label: \'a: b\'',
  '    mode: "on"',
  '    threshold: 0.8',
  '  type: kv-cache-utilization-scorer',
  '- name: ""',
  '  parameters: null',
  '  type: max-score-picker',
  'saturationDetector:',
  '  kvCacheUtilThreshold: 0.8',
  '  metricsStalenessThreshold: 0s',
  '  queueDepthThreshold: 5',
  'schedulingProfiles:',
  '- name: default',
  '  plugins:',
  '  - pluginRef: kv',
  '    weight: 2',
  '  - pluginRef: max-score-picker',
  '    weight: null',
  '',
].join('\n');

describe('docs/design/render-core.md §10.2 EPP ConfigMap', () => {
  test('inline config: <graph>-epp-config with the YAML the operator writes, EPP labels, bookkeeping', () => {
    const configMap: any = renderEppConfigMap(eppGraph({ eppConfig: { config: CONFIG } }));
    expect(configMap.apiVersion).toBe('v1');
    expect(configMap.kind).toBe('ConfigMap');
    expect(configMap.metadata.name).toBe('llm-epp-config');
    expect(configMap.metadata.namespace).toBe('team-a');
    expect(configMap.metadata.labels).toEqual({
      'nvidia.com/dynamo-graph-deployment-name': 'llm',
      'nvidia.com/dynamo-component': 'EPP',
      'nvidia.com/dynamo-component-type': 'epp',
    });
    expect(configMap.data).toEqual({ 'epp-config-dynamo.yaml': CONFIG_YAML });
    expect(configMap.metadata.annotations).toEqual({
      'nvidia.com/last-applied-hash': lastAppliedHash(configMap),
      'nvidia.com/last-applied-generation': '1',
    });
  });

  test('the YAML text: Go type fields in sorted order, non-omitempty fields present, unknown fields dropped, type metadata replaced', () => {
    const eppConfigYaml = (config: unknown): string => renderEppConfigMap(eppGraph({ eppConfig: { config } })).data['epp-config-dynamo.yaml'];
    expect(eppConfigYaml(CONFIG)).toBe(CONFIG_YAML);
    expect(eppConfigYaml({})).toBe([
      'apiVersion: inference.networking.x-k8s.io/v1alpha1',
      'kind: EndpointPickerConfig',
      'plugins: null',
      'schedulingProfiles: null',
      '',
    ].join('\n'));
    expect(eppConfigYaml({ plugins: [], schedulingProfiles: [{ name: 'p', plugins: [] }] })).toBe([
      'apiVersion: inference.networking.x-k8s.io/v1alpha1',
      'kind: EndpointPickerConfig',
      'plugins: []',
      'schedulingProfiles:',
      '- name: p',
      '  plugins: []',
      '',
    ].join('\n'));
  });

  test('configMapRef: the user manages the ConfigMap, none is generated', () => {
    expect(renderEppConfigMap(eppGraph({ eppConfig: { configMapRef: { name: 'mine', key: 'cfg.yaml' } } }))).toBeUndefined();
    expect(renderEppConfigMap(eppGraph({ eppConfig: { configMapRef: { name: 'mine' }, config: CONFIG } }))).toBeUndefined();
  });

  test('no eppConfig: an error under the 1.4 and 1.5 operators, the native EPP (no ConfigMap) from 1.6.0 (newer sources)', () => {
    const dgd = eppGraph({});
    for (const version of ['1.4.2', '1.5.0']) {
      expect(renderError(() => workloads(dgd, { version })).message)
        .toContain(`DynamoGraphDeployment/llm: spec.components[1].eppConfig: ${EPP_CONFIGURATION_REQUIRED}`);
    }
    expect(renderEppConfigMap(dgd, { version: '1.6.0' })).toBeUndefined();
    expect(renderEppConfigMap(dgd, { version: 'v1.6.1-rc.1' })).toBeUndefined();
    for (const version of ['1.5.9', '1.4.9']) expect(renderError(() => workloads(dgd, { version })).message).toContain(EPP_CONFIGURATION_REQUIRED);
    // the InferencePool is still rendered for the native EPP
    expect(eppResources(dgd, { version: '1.6.0' }).map(o => o.kind)).toEqual(['InferencePool']);
  });

  test('a config that does not fit the Go type is an error naming the field', () => {
    // admission refuses it first (the CRD schema types the EndpointPickerConfig), naming the field
    const dgd = eppGraph({ eppConfig: { config: { schedulingProfiles: [{ name: 'p', plugins: [{ pluginRef: 'x', weight: 1.5 }] }] } } });
    expect(renderError(() => render(dgd)).message)
      .toMatch(/spec\.components\[1\]\.eppConfig\.config\.schedulingProfiles\[0\]\.plugins\[0\]\.weight: Invalid value: 1\.5: must be of type integer/);
  });

  test('no EPP component, no EPP objects', () => {
    const dgd: DgdJson = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'llm', namespace: 'team-a' },
      spec: { components: [{ name: 'f', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } }] },
    };
    expect(eppResources(dgd, { serviceMeshProvider: 'istio' })).toEqual([]);
  });
});

describe('docs/design/render-core.md §10.2 EPP configuration YAML (sigs.k8s.io/yaml over go-yaml v2)', () => {
  test('sequences are not indented under their key; nested sequences and mappings in sequences', () => {
    expect(marshalSigsYaml({ v: ['A', 1, { B: [2, 3] }], w: [[1], []] })).toBe('v:\n- A\n- 1\n- B:\n  - 2\n  - 3\nw:\n- - 1\n- []\n');
  });

  test('strings that would read back as another type are double-quoted', () => {
    expect(marshalSigsYaml({ a: 'true', b: 'on', c: 'y', d: '10', e: '', f: '1e3', g: '0x1F', h: '2024-01-31', i: '~', j: '1:30', k: '.5' }))
      .toBe('a: "true"\nb: "on"\nc: "y"\nd: "10"\ne: ""\nf: "1e3"\ng: "0x1F"\nh: "2024-01-31"\ni: "~"\nj: "1:30"\nk: ".5"\n');
    expect(resolvesAsString('0s')).toBe(true);
    expect(resolvesAsString('2024-02-30')).toBe(true); // not a valid date
    expect(resolvesAsString('1_000')).toBe(false);
    expect(resolvesAsString('-')).toBe(true);
  });

  test('strings plain YAML cannot carry are single-quoted; quotes and control characters escape', () => {
    expect(marshalSigsYaml({ a: '- x', b: 'x: y', c: 'x #y', d: ' lead', e: '*ref', f: 'it\'s', g: '\'q\'' }))
      .toBe('a: \'- x\'\nb: \'x: y\'\nc: \'x #y\'\nd: \' lead\'\ne: \'*ref\'\nf: it\'s\ng: \'\'\'q\'\'\'\n');
    expect(marshalSigsYaml({ a: 'tab\there', b: 'emoji \u{1F600}', c: 'é' })).toBe('a: "tab\\there"\nb: "emoji \\U0001F600"\nc: é\n');
  });

  test('multi-line strings use literal blocks with chomping indicators', () => {
    expect(marshalSigsYaml({ a: 'x\ny', b: 'x\ny\n', c: 'x\n\n', d: ' x\ny' }))
      .toBe('a: |-\n  x\n  y\nb: |\n  x\n  y\nc: |+\n  x\n\nd: |2-\n   x\n  y\n');
    expect(marshalSigsYaml({ a: 'trailing \nspace' })).toBe('a: "trailing \\nspace"\n');
  });

  test('numbers: integers as integers, other numbers in Go %g form', () => {
    expect(marshalSigsYaml({ a: 1, b: -0, c: 0.5, d: 1e-7, e: 1234567.5, f: 100000.5, g: 1e21, h: 0.0001 }))
      .toBe('a: 1\nb: 0\nc: 0.5\nd: 1e-07\ne: 1.2345675e+06\nf: 100000.5\ng: 1e+21\nh: 0.0001\n');
    expect(formatGoFloatG(0.30000000000000004)).toBe('0.30000000000000004');
    expect(formatGoFloatG(-2.5e-5)).toBe('-2.5e-05');
  });

  test('key order: digit runs compare as numbers, non-letters before letters', () => {
    expect(marshalSigsYaml({ b10: 1, b9: 2, bA: 3, b_: 4, a: 5 })).toBe('a: 5\nb_: 4\nb9: 2\nb10: 1\nbA: 3\n');
    expect(goYamlKeyLess('a/002', 'a/3')).toBe(true);
    expect(goYamlKeyLess('b01', 'b1')).toBe(false);
    expect(goYamlKeyLess('d7abc', 'd12')).toBe(true);
  });

  test('long strings fold at the first space after column 80; keys and empty collections', () => {
    const long = Array.from({ length: 20 }, (_, i) => `word${i}`).join(' ');
    expect(marshalSigsYaml({ k: long })).toBe(
      // the break replaces the first space after column 80 (here after "word12", which ends at column 83)
      'k: word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12\n'
      + '  word13 word14 word15 word16 word17 word18 word19\n');
    expect(marshalSigsYaml({})).toBe('{}\n');
    expect(marshalSigsYaml({ m: {}, true: 1 })).toBe('m: {}\n"true": 1\n');
  });
});

describe('docs/design/render-core.md §10.3 InferencePool', () => {
  test('<graph>-pool selecting worker-class pods of the EPP Dynamo namespace, picked by the EPP Service', () => {
    const pool: any = renderInferencePool(eppGraph({ eppConfig: { config: CONFIG } }));
    expect(pool.apiVersion).toBe('inference.networking.k8s.io/v1');
    expect(pool.kind).toBe('InferencePool');
    expect(pool.metadata.name).toBe('llm-pool');
    expect(pool.metadata.namespace).toBe('team-a');
    expect(pool.metadata.labels).toEqual({
      'nvidia.com/dynamo-graph-deployment-name': 'llm',
      'nvidia.com/dynamo-component': 'EPP',
      'nvidia.com/dynamo-component-type': 'epp',
    });
    expect(pool.spec).toEqual({
      selector: { matchLabels: { 'nvidia.com/dynamo-component-class': 'worker', 'nvidia.com/dynamo-namespace': 'team-a-llm' } },
      targetPorts: [{ number: 8000 }],
      endpointPickerRef: { kind: 'Service', name: 'llm-epp', port: { number: 9002 } },
    });
    expect(pool.metadata.annotations['nvidia.com/last-applied-hash']).toBe(lastAppliedHash(pool));
  });

  test('the picker reference keeps dots of the graph name; a global EPP selects the namespace "dynamo"', () => {
    const pool: any = renderInferencePool(eppGraph({ globalDynamoNamespace: true, eppConfig: { config: CONFIG } }, { name: 'llm.v2', namespace: 'team-a' }));
    expect(pool.metadata.name).toBe('llm.v2-pool');
    expect(pool.spec.endpointPickerRef.name).toBe('llm.v2-epp');
    expect(pool.spec.selector.matchLabels['nvidia.com/dynamo-namespace']).toBe('dynamo');
  });
});

describe('docs/design/render-core.md §10.4 Istio DestinationRule', () => {
  const dgd = eppGraph({ eppConfig: { config: CONFIG } }, { name: 'llm.v2', namespace: 'team-a' });

  test('only under the Istio service mesh', () => {
    expect(renderEppDestinationRule(dgd)).toBeUndefined();
    expect(eppResources(dgd).map(o => o.kind)).toEqual(['ConfigMap', 'InferencePool']);
  });

  test('default: SIMPLE TLS, skip verification, host of the normalised EPP Service name', () => {
    const rule: any = renderEppDestinationRule(dgd, { serviceMeshProvider: 'istio' });
    expect(rule.apiVersion).toBe('networking.istio.io/v1beta1');
    expect(rule.kind).toBe('DestinationRule');
    expect(rule.metadata.name).toBe('llm-v2-epp');
    expect(rule.metadata.namespace).toBe('team-a');
    expect(rule.spec).toEqual({
      host: 'llm-v2-epp.team-a.svc.cluster.local',
      trafficPolicy: { tls: { mode: 'SIMPLE', insecureSkipVerify: true } },
    });
    expect(rule.metadata.annotations['nvidia.com/last-applied-hash']).toBe(lastAppliedHash(rule));
    expect(eppResources(dgd, { serviceMeshProvider: 'istio' }).map(o => o.kind))
      .toEqual(['ConfigMap', 'InferencePool', 'DestinationRule']);
  });

  test('TLS modes: DISABLE is the protobuf zero value and is omitted; MUTUAL carries the configured paths; unknown means SIMPLE', () => {
    const istio = { serviceMeshProvider: 'istio' };
    const istioClientTls = (operator: Partial<OperatorSettings>): unknown => renderEppDestinationRule(dgd, operator).spec.trafficPolicy.tls;
    expect(istioClientTls(({ ...istio, istioTlsMode: 'DISABLE', istioInsecureSkipVerify: false })))
      .toEqual({ insecureSkipVerify: false });
    expect(istioClientTls(({ ...istio, istioTlsMode: 'ISTIO_MUTUAL' }))).toEqual({ mode: 'ISTIO_MUTUAL', insecureSkipVerify: true });
    expect(istioClientTls(({
      ...istio, istioTlsMode: 'MUTUAL', istioClientCertificate: '/etc/certs/cert.pem', istioPrivateKey: '/etc/certs/key.pem',
    }))).toEqual({ mode: 'MUTUAL', clientCertificate: '/etc/certs/cert.pem', privateKey: '/etc/certs/key.pem', insecureSkipVerify: true });
    expect(istioClientTls(({ ...istio, istioTlsMode: 'SIMPLE', istioClientCertificate: '/ignored' })))
      .toEqual({ mode: 'SIMPLE', insecureSkipVerify: true });
    expect(istioClientTls(({ ...istio, istioTlsMode: 'strict' }))).toEqual({ mode: 'SIMPLE', insecureSkipVerify: true });
  });
});

describe('docs/design/render-core.md §17 a native Rust EPP image on an operator without the native EPP (1.4.0, 1.5.0)', () => {
  test('the refusal says which operator renders it', () => {
    const graph = eppGraph({ podTemplate: { spec: { containers: [{ name: 'main', image: 'nvcr.io/epp:1.5.0' }] } } });
    const renderFor = (version: string): any[] => workloads(graph, { version });
    for (const version of ['1.4.0', '1.5.0']) {
      expect(() => renderFor(version)).toThrow(RenderError);
      expect(() => renderFor(version)).toThrow('spec.components[1].eppConfig: EPP configuration is required: either eppConfig.configMapRef or eppConfig.config must be specified '
        + '(runtime 1.5.0 is a native Rust EPP, which only operators 1.6.0 and later render (unverified): set the operator version)');
    }
    // an operator that renders the native EPP: no configuration needed
    expect(renderFor('1.6.0').some((o: any) => o.kind === 'Deployment' && o.metadata.name === 'llm-epp')).toBe(true);
  });
});
