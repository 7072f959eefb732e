/**
 * The CRD CEL rules (`x-kubernetes-validations`, kind `CEL` rows of docs/design/validation-rules.md) evaluated by
 * the CEL engine (src/admission/cel): every rule of every imported CRD schema has a passing and a
 * failing case, the failures read as the API server prints them, transition rules see the old
 * object, and the engine's own behaviour (messages, reasons, field paths, typing, errors) is pinned.
 */
import * as fs from 'fs';
import * as path from 'path';
import { PCS_V1ALPHA1_SCHEMA } from '../imports/grove.io.schema';
import { LWS_V1_SCHEMA } from '../imports/leaderworkerset.x-k8s.io.schema';
import { DCD_V1BETA1_SCHEMA, DGD_V1BETA1_SCHEMA } from '../imports/nvidia.com.schema';
import { dcd, dgd, dgdWith, found, frontend, podTemplate, worker } from './fixtures/validation/builders';
import { readDocuments } from './support/facade';
import {
  CEL_RULE, celPropertyName, CelRule, CelSchemaNode, checkCelRules, checkDynamoCelRules, compileExpression,
  DCD_CEL_SCHEMA, DGD_CEL_SCHEMA, DYNAMO_CEL_ROWS, DYNAMO_EMBEDDED_CEL, dynamoCelRow, INTERNAL_RULE,
  TARGET_API_COMPONENT_RULES, ViolationSink,
} from '../src/admission';
import { skippedBecause } from './support/shared';
import * as celCompile from '../src/admission/cel/compile';

const SHARED = path.resolve(__dirname, '..', '..', 'shared');
const CRD_DIR = process.env.DYNAMO_CRDS_DIR ? path.resolve(process.env.DYNAMO_CRDS_DIR) : path.join(SHARED, 'crds');
const RULES_MD = path.join(SHARED, 'reference', 'operator', 'validation-rules.md');

// ---------------------------------------------------------------------------------------------
// The rules of every schema, with where they sit
// ---------------------------------------------------------------------------------------------

interface RuleSite {
  readonly schema: string;
  readonly at: string;
  readonly node: CelSchemaNode;
  readonly rule: CelRule;
}

function collectRules(schema: string, node: CelSchemaNode, at: string, out: RuleSite[]): RuleSite[] {
  for (const rule of node['x-kubernetes-validations'] ?? []) out.push({ schema, at, node, rule });
  for (const [name, child] of Object.entries(node.properties ?? {})) collectRules(schema, child, at === '' ? name : `${at}.${name}`, out);
  if (node.items) collectRules(schema, node.items, `${at}[]`, out);
  if (typeof node.additionalProperties === 'object') collectRules(schema, node.additionalProperties, `${at}[*]`, out);
  return out;
}

/** Every CEL rule evaluated for the imported CRDs: the generated schemas, plus the embedded-type and target-API rules. */
const SITES: RuleSite[] = [
  ...collectRules('DynamoGraphDeployment', DGD_CEL_SCHEMA, '', []),
  ...collectRules('DynamoComponentDeployment', DCD_CEL_SCHEMA, '', []),
  ...collectRules('PodTemplateSpec (Dynamo)', DYNAMO_EMBEDDED_CEL.PodTemplateSpec, '', []),
  ...collectRules('PodCliqueSet', PCS_V1ALPHA1_SCHEMA, '', []),
  ...collectRules('LeaderWorkerSet', LWS_V1_SCHEMA, '', []),
];

const DISTINCT_RULES = [...new Set(SITES.map((s) => s.rule.rule))];

// ---------------------------------------------------------------------------------------------
// One passing and one failing case per rule, evaluated at every node that carries the rule
// ---------------------------------------------------------------------------------------------

interface Failure {
  readonly path: string;
  readonly message: string;
}

interface RuleCases {
  /** Values (at the rule's node) the rule accepts; `old` makes it an update. */
  readonly pass: ReadonlyArray<{ self: unknown; old?: unknown }>;
  /** Values the rule rejects, with the violation. */
  readonly fail: ReadonlyArray<{ self: unknown; old?: unknown; expect: Failure }>;
}

const invalid = (type: string, message: string, at = ''): Failure => ({ path: at, message: `Invalid value: "${type}": ${message}` });

const EPP_CONFIG_REF = { configMapRef: { name: 'epp', key: 'config.yaml' } };
const EPP_INLINE_CONFIG = { config: { plugins: [{ type: 'p' }], schedulingProfiles: [{ name: 's', plugins: [{ pluginRef: 'p' }] }] } };
const CLIENT_POD = { name: 'client', podTemplate: {} };
const PACK_DOMAIN_MESSAGE = 'packDomain is deprecated and cannot be used on new workloads; use pack.required';
const BACKEND = 'nvidia.com/vllm-distributed-executor-backend';

const CASES: Readonly<Record<string, RuleCases>> = {
  // row 11 (optionalOldSelf: evaluated on create, satisfied on update)
  'oldSelf.hasValue() || !has(self.restart)': {
    pass: [{ self: {} }, { self: { restart: { id: 'r1' } }, old: {} }],
    fail: [{ self: { restart: { id: 'r1' } }, expect: invalid('object', 'spec.restart must be unset on create; set spec.restart.id after creation to request a restart') }],
  },
  // row 15
  'self.filter(c, has(c.type) && c.type == \'epp\').size() <= 1': {
    pass: [{ self: [{ name: 'a', type: 'epp' }, { name: 'b', type: 'worker' }] }],
    fail: [{ self: [{ name: 'a', type: 'epp' }, { name: 'b', type: 'epp' }], expect: invalid('array', 'at most one component may have type epp') }],
  },
  // row 16
  'self.all(c1, !has(c1.name) || self.filter(c2, has(c2.name) && c2.name.lowerAscii() == c1.name.lowerAscii()).size() == 1)': {
    pass: [{ self: [{ name: 'worker' }, { name: 'workers' }] }],
    fail: [{ self: [{ name: 'worker' }, { name: 'Worker' }], expect: invalid('array', 'component names must be unique case-insensitively') }],
  },
  // row 36
  '(has(self.labelKey) && !has(self.clusterTopologyName)) || (!has(self.labelKey) && has(self.clusterTopologyName))': {
    pass: [{ self: { domain: 'rack', labelKey: 'topology/rack' } }, { self: { domain: 'rack', clusterTopologyName: 'main' } }],
    fail: [
      { self: { domain: 'rack' }, expect: invalid('object', 'exactly one of labelKey or clusterTopologyName is required') },
      { self: { domain: 'rack', labelKey: 'k', clusterTopologyName: 'main' }, expect: invalid('object', 'exactly one of labelKey or clusterTopologyName is required') },
    ],
  },
  // row 37 (first rule)
  '!has(self.enforcement) || self.enforcement != \'preferred\' || has(self.preferredWeight)': {
    pass: [{ self: { domain: 'rack', labelKey: 'k', enforcement: 'preferred', preferredWeight: 0.5 } }, { self: { domain: 'rack', labelKey: 'k' } }],
    fail: [{ self: { domain: 'rack', labelKey: 'k', enforcement: 'preferred' }, expect: invalid('object', 'preferredWeight is required when enforcement is preferred') }],
  },
  // row 37 (second rule)
  '!has(self.preferredWeight) || (has(self.enforcement) && self.enforcement == \'preferred\')': {
    pass: [{ self: { domain: 'rack', labelKey: 'k', enforcement: 'preferred', preferredWeight: 1 } }],
    fail: [
      { self: { domain: 'rack', labelKey: 'k', enforcement: 'required', preferredWeight: 0.5 }, expect: invalid('object', 'preferredWeight may only be set when enforcement is preferred') },
      { self: { domain: 'rack', labelKey: 'k', preferredWeight: 0.5 }, expect: invalid('object', 'preferredWeight may only be set when enforcement is preferred') },
    ],
  },
  // row 38: size() counts code points, not UTF-16 units
  '!self.contains(\'/\') || self.split(\'/\')[0].size() <= 253': {
    pass: [{ self: `${'a'.repeat(253)}/zone` }, { self: `${'😀'.repeat(253)}/zone` }, { self: 'zone' }],
    fail: [{ self: `${'a'.repeat(254)}/zone`, expect: invalid('string', 'labelKey prefix must be 253 characters or less') }],
  },
  // row 44 (target API, transition: skipped on create)
  '!has(oldSelf.type) || (has(self.type) && self.type == oldSelf.type)': {
    pass: [{ self: { name: 'w', type: 'prefill' } }, { self: { name: 'w', type: 'worker' }, old: { name: 'w', type: 'worker' } }, { self: { name: 'w', type: 'worker' }, old: { name: 'w' } }],
    fail: [
      { self: { name: 'w', type: 'prefill' }, old: { name: 'w', type: 'worker' }, expect: invalid('object', 'type is immutable after it is set') },
      { self: { name: 'w' }, old: { name: 'w', type: 'worker' }, expect: invalid('object', 'type is immutable after it is set') },
    ],
  },
  // row 52
  '!has(self.eppConfig) || (has(self.type) && self.type == \'epp\')': {
    pass: [{ self: { name: 'epp', type: 'epp', eppConfig: EPP_CONFIG_REF } }, { self: { name: 'w', type: 'worker' } }],
    fail: [{ self: { name: 'w', type: 'worker', eppConfig: EPP_CONFIG_REF }, expect: invalid('object', 'eppConfig may only be set when type is epp') }],
  },
  // row 53
  'has(self.configMapRef) != has(self.config)': {
    pass: [{ self: EPP_CONFIG_REF }, { self: EPP_INLINE_CONFIG }],
    fail: [
      { self: {}, expect: invalid('object', 'exactly one of configMapRef or config must be specified') },
      { self: { ...EPP_CONFIG_REF, ...EPP_INLINE_CONFIG }, expect: invalid('object', 'exactly one of configMapRef or config must be specified') },
    ],
  },
  // row 62
  '!has(self.minAvailable) || (has(self.replicas) && self.replicas == 0) || self.minAvailable <= (has(self.replicas) ? self.replicas : 1)': {
    pass: [{ self: { name: 'w', minAvailable: 2, replicas: 3 } }, { self: { name: 'w', minAvailable: 5, replicas: 0 } }, { self: { name: 'w', minAvailable: 1 } }],
    fail: [
      { self: { name: 'w', minAvailable: 2 }, expect: invalid('object', 'minAvailable must be less than or equal to replicas unless replicas is 0') },
      { self: { name: 'w', minAvailable: 4, replicas: 3 }, expect: invalid('object', 'minAvailable must be less than or equal to replicas unless replicas is 0') },
    ],
  },
  // row 63 (transition: skipped on create)
  '!has(oldSelf.minAvailable) || (has(self.minAvailable) && self.minAvailable == oldSelf.minAvailable)': {
    pass: [{ self: { name: 'w', minAvailable: 1 } }, { self: { name: 'w', minAvailable: 1 }, old: { name: 'w', minAvailable: 1 } }, { self: { name: 'w', minAvailable: 1 }, old: { name: 'w' } }],
    fail: [
      { self: { name: 'w', minAvailable: 1, replicas: 2 }, old: { name: 'w', minAvailable: 2, replicas: 2 }, expect: invalid('object', 'minAvailable is immutable after creation') },
      { self: { name: 'w' }, old: { name: 'w', minAvailable: 1 }, expect: invalid('object', 'minAvailable is immutable after creation') },
    ],
  },
  // row 90
  'self.name == "main" || (has(self.image) && self.image != "")': {
    pass: [{ self: { name: 'main' } }, { self: { name: 'sidecar', image: 'busybox' } }],
    fail: [
      { self: { name: 'sidecar' }, expect: invalid('object', 'sidecar containers must specify a non-empty image') },
      { self: { name: 'sidecar', image: '' }, expect: invalid('object', 'sidecar containers must specify a non-empty image') },
    ],
  },
  // row 91
  'has(self.image) && self.image != ""': {
    pass: [{ self: { name: 'init', image: 'busybox' } }],
    fail: [{ self: { name: 'main' }, expect: invalid('object', 'init containers must specify a non-empty image') }],
  },
  // row 92: lowerAscii folds ASCII letters only
  '!("nvidia.com/vllm-distributed-executor-backend" in self) || self["nvidia.com/vllm-distributed-executor-backend"].lowerAscii() in ["mp", "ray"]': {
    pass: [{ self: {} }, { self: { [BACKEND]: 'RAY' } }, { self: { [BACKEND]: 'Mp', other: 'x' } }],
    fail: [
      { self: { [BACKEND]: 'mpi' }, expect: invalid('object', 'podTemplate backend annotation must be mp or ray, case-insensitively') },
      { self: { [BACKEND]: 'ＲＡＹ' }, expect: invalid('object', 'podTemplate backend annotation must be mp or ray, case-insensitively') },
    ],
  },
  // row 110
  '!has(self.extraClientContainers) || size(self.extraClientContainers) == 0 || self.mode == \'IntraPod\'': {
    pass: [{ self: { mode: 'IntraPod', extraClientContainers: ['client'] } }, { self: { mode: 'InterPod', extraClientContainers: [] } }],
    fail: [{ self: { mode: 'InterPod', extraClientContainers: ['client'] }, expect: invalid('object', 'extraClientContainers is only supported with mode=IntraPod') }],
  },
  // row 111
  '!has(self.extraClientPods) || size(self.extraClientPods) == 0 || self.mode == \'InterPod\'': {
    pass: [{ self: { mode: 'InterPod', extraClientPods: [CLIENT_POD] } }, { self: { mode: 'IntraPod' } }],
    fail: [{ self: { mode: 'IntraPod', extraClientPods: [CLIENT_POD] }, expect: invalid('object', 'extraClientPods is only supported with mode=InterPod') }],
  },
  // row 112
  '!has(self.extraClientPods) || size(self.extraClientPods) == 0': {
    pass: [{ self: { mode: 'InterPod', extraClientPods: [] } }],
    fail: [{ self: { mode: 'InterPod', extraClientPods: [CLIENT_POD] }, expect: invalid('object', 'extraClientPods is reserved for inter-pod GMS and is not implemented yet') }],
  },
  // row 139
  '!has(self.job) || !has(self.checkpointRef) || size(self.checkpointRef) == 0': {
    pass: [{ self: { enabled: true, job: {} } }, { self: { enabled: true, job: {}, checkpointRef: '' } }, { self: { enabled: true, checkpointRef: 'ckpt' } }],
    fail: [{ self: { enabled: true, job: {}, checkpointRef: 'ckpt' }, expect: invalid('object', 'checkpoint.job cannot be set when checkpointRef is specified') }],
  },
  // Grove topology constraint: reason FieldValueRequired, fieldPath .pack
  'has(self.pack) || has(self.packDomain)': {
    pass: [{ self: { pack: { required: 'rack' } } }, { self: { packDomain: 'rack' } }],
    fail: [{ self: {}, expect: { path: 'pack', message: 'Required value: topologyConstraint must specify pack or deprecated packDomain' } }],
  },
  // Grove topology constraint: no reason (Invalid), fieldPath .pack.required
  '!(has(self.packDomain) && has(self.pack) && has(self.pack.required))': {
    pass: [{ self: { packDomain: 'rack', pack: { preferred: 'host' } } }],
    fail: [{ self: { packDomain: 'rack', pack: { required: 'rack' } }, expect: invalid('object', 'must not set both pack.required and deprecated packDomain', 'pack.required') }],
  },
  // Grove pack: reason FieldValueRequired, no fieldPath
  'has(self.required) || has(self.preferred)': {
    pass: [{ self: { preferred: 'host' } }],
    fail: [{ self: {}, expect: { path: '', message: 'Required value: pack must specify at least one of required or preferred' } }],
  },
  // Grove PodCliqueSet: reason FieldValueForbidden, optionalOldSelf
  'oldSelf.hasValue() || !has(self.spec.template.topologyConstraint) || !has(self.spec.template.topologyConstraint.packDomain)': {
    pass: [
      { self: pcs({ topologyConstraint: { pack: { required: 'rack' } } }) },
      { self: pcs({ topologyConstraint: { packDomain: 'rack' } }), old: pcs({ topologyConstraint: { packDomain: 'rack' } }) },
    ],
    fail: [{ self: pcs({ topologyConstraint: { packDomain: 'rack' } }), expect: { path: 'spec.template.topologyConstraint.packDomain', message: `Forbidden: ${PACK_DOMAIN_MESSAGE}` } }],
  },
  'oldSelf.hasValue() || !has(self.spec.template.cliques) || self.spec.template.cliques.all(c, !has(c.topologyConstraint) || !has(c.topologyConstraint.packDomain))': {
    pass: [{ self: pcs({ cliques: [clique('a', { pack: { required: 'rack' } })] }) }, { self: pcs({ cliques: [clique('a', { packDomain: 'rack' })] }), old: pcs({}) }],
    fail: [{ self: pcs({ cliques: [clique('a'), clique('b', { packDomain: 'rack' })] }), expect: { path: 'spec.template.cliques', message: `Forbidden: ${PACK_DOMAIN_MESSAGE}` } }],
  },
  'oldSelf.hasValue() || !has(self.spec.template.podCliqueScalingGroups) || self.spec.template.podCliqueScalingGroups.all(g, !has(g.topologyConstraint) || !has(g.topologyConstraint.packDomain))': {
    pass: [{ self: pcs({ cliques: [], podCliqueScalingGroups: [{ name: 'g', cliqueNames: ['a'] }] }) }],
    fail: [{
      self: pcs({ cliques: [], podCliqueScalingGroups: [{ name: 'g', cliqueNames: ['a'], topologyConstraint: { packDomain: 'rack' } }] }),
      expect: { path: 'spec.template.podCliqueScalingGroups', message: `Forbidden: ${PACK_DOMAIN_MESSAGE}` },
    }],
  },
};

function pcs(template: Record<string, unknown>): unknown {
  return { apiVersion: 'grove.io/v1alpha1', kind: 'PodCliqueSet', metadata: { name: 'x' }, spec: { template: { cliques: [], ...template } } };
}

function clique(name: string, topologyConstraint?: unknown): unknown {
  return { name, spec: { roleName: name, replicas: 1, podSpec: { containers: [] } }, ...(topologyConstraint ? { topologyConstraint } : {}) };
}

/** The violations of one rule when the rules at a node are checked on `self` (paths relative to the node). */
function evaluateAt(site: RuleSite, self: unknown, old?: unknown): Failure[] {
  const sink = new ViolationSink();
  checkCelRules(self, site.node, sink, { old, embedded: DYNAMO_EMBEDDED_CEL, ruleId: (rule) => rule.rule });
  const internal = sink.all.filter((r) => r.rule === INTERNAL_RULE);
  expect(internal.map((r) => r.message)).toEqual([]);
  return sink.all.filter((r) => r.rule === site.rule.rule).map((r) => ({ path: r.path.toString(), message: r.message }));
}

describe('validation-rules CEL rows: every rule of every CRD schema', () => {
  test('the imported schemas carry the CEL rules of the Dynamo, Grove and LWS CRDs', () => {
    expect(SITES.filter((s) => s.schema === 'DynamoGraphDeployment').length).toBeGreaterThanOrEqual(16);
    expect(SITES.filter((s) => s.schema === 'PodCliqueSet').length).toBeGreaterThanOrEqual(6);
    expect(SITES.filter((s) => s.schema === 'LeaderWorkerSet')).toEqual([]);
  });

  test('every rule has a passing and a failing case (a new CRD rule needs cases here)', () => {
    const missing = DISTINCT_RULES.filter((rule) => !CASES[rule] || CASES[rule].pass.length === 0 || CASES[rule].fail.length === 0);
    expect(missing).toEqual([]);
    expect(Object.keys(CASES).filter((rule) => !DISTINCT_RULES.includes(rule))).toEqual([]);
  });

  test.each(SITES.map((site) => [`${site.schema} ${site.at === '' ? '<root>' : site.at}: ${site.rule.rule}`, site] as const))('%s', (_name, site) => {
    const cases = CASES[site.rule.rule];
    for (const { self, old } of cases.pass) expect(evaluateAt(site, self, old)).toEqual([]);
    for (const { self, old, expect: failure } of cases.fail) expect(evaluateAt(site, self, old)).toEqual([failure]);
  });

  test('every rule compiles once (cached), without undeclared functions or variables', () => {
    for (const rule of DISTINCT_RULES) {
      const compiled = compileExpression(rule);
      expect(compiled).not.toHaveProperty('error');
      expect(compileExpression(rule)).toBe(compiled);
    }
  });
});

describe('CEL engine: the fields of self an expression reads', () => {
  const fieldsOf = (source: string) => {
    const compiled = compileExpression(source);
    if ('error' in compiled) throw new Error(compiled.error);
    return compiled.selfFields;
  };

  test('fields selected from self, tested with has(), or selected below', () => {
    expect(fieldsOf('self.b < 3 && self.a == "x"')).toEqual(['a', 'b']);
    expect(fieldsOf('!has(self.eppConfig) || self.type == "epp"')).toEqual(['eppConfig', 'type']);
    expect(fieldsOf('self.x.y.all(k, k != "")')).toEqual(['x']);
    expect(fieldsOf('true')).toEqual([]);
  });

  test('self read otherwise: as a whole, its size, iterated, indexed, beside oldSelf, or through an escaped field name', () => {
    for (const source of ['self == oldSelf', 'size(self) > 0', 'self.all(k, k != "")', 'self["a"] == 1', 'self.a == 1 && self != null', 'self.__dash__x == 1', 'self.__namespace__ == "x"']) {
      expect([source, fieldsOf(source)]).toEqual([source, undefined]);
    }
  });

  test('a comprehension variable named self is not self', () => {
    expect(fieldsOf('self.items.all(self, self > 0)')).toEqual(['items']);
  });
});

describe('validation-rules CEL rows: rule ids', () => {
  const dynamoRules = SITES.filter((s) => !['PodCliqueSet', 'LeaderWorkerSet'].includes(s.schema)).map((s) => s.rule);

  test('every Dynamo CEL rule maps to its row; no row is left without a rule', () => {
    expect(dynamoRules.filter((rule) => dynamoCelRow(rule) === CEL_RULE).map((r) => r.rule)).toEqual([]);
    expect(Object.keys(DYNAMO_CEL_ROWS).filter((text) => !dynamoRules.some((r) => r.rule === text))).toEqual([]);
    expect([...new Set(Object.values(DYNAMO_CEL_ROWS))].sort((a, b) => Number(a) - Number(b))).toEqual(
      ['11', '15', '16', '36', '37', '38', '44', '52', '53', '62', '63', '90', '91', '92', '110', '111', '112', '139'],
    );
  });

  test('a rule no row names is reported under `cel`', () => {
    expect(dynamoCelRow({ rule: 'self.x == 1' })).toBe(CEL_RULE);
  });

  (fs.existsSync(RULES_MD) ? test : test.skip)('each row of validation-rules.md quotes its rule text and message', () => {
    const lines = fs.readFileSync(RULES_MD, 'utf8').split('\n');
    for (const rule of dynamoRules) {
      const row = DYNAMO_CEL_ROWS[rule.rule];
      const line = lines.find((l) => l.startsWith(`| ${row} |`));
      expect(line).toBeDefined();
      expect(line).toContain(rule.rule.replace(/\|/g, '\\|'));
      expect(line).toContain(rule.message);
    }
  });
});

function crdRules(file: string, version: string): string[] {
  const [crd] = readDocuments(fs.readFileSync(path.join(CRD_DIR, file), 'utf8'), file) as any[];
  const schema = crd.spec.versions.find((v: any) => v.name === version).schema.openAPIV3Schema;
  const rules: string[] = [];
  const walk = (node: any): void => {
    if (node === null || typeof node !== 'object') return;
    for (const rule of node['x-kubernetes-validations'] ?? []) rules.push(rule.rule);
    for (const child of Object.values(node.properties ?? {})) walk(child);
    walk(node.items);
    walk(node.additionalProperties);
  };
  walk(schema);
  return [...new Set(rules)].sort();
}

(fs.existsSync(CRD_DIR) ? describe : (name: string) => describe(name, () => test.skip(skippedBecause('crds'), () => undefined)))('validation-rules CEL rows: nothing of the CRD files is left out', () => {
  const distinct = (schema: string) => [...new Set(SITES.filter((s) => s.schema === schema).map((s) => s.rule.rule))];
  const targetOnly = TARGET_API_COMPONENT_RULES.map((r) => r.rule);

  test('DGD and DCD: the generated schemas plus the pod-template rules are exactly the CRD rules', () => {
    const embedded = distinct('PodTemplateSpec (Dynamo)');
    for (const [file, schema] of [['nvidia.com_dynamographdeployments.yaml', 'DynamoGraphDeployment'], ['nvidia.com_dynamocomponentdeployments.yaml', 'DynamoComponentDeployment']]) {
      const ours = [...new Set([...distinct(schema).filter((r) => !targetOnly.includes(r)), ...embedded])].sort();
      expect(ours).toEqual(crdRules(file, 'v1beta1'));
    }
  });

  test('the pod-template rules are quoted with the CRD messages', () => {
    const [crd] = readDocuments(fs.readFileSync(path.join(CRD_DIR, 'nvidia.com_dynamocomponentdeployments.yaml'), 'utf8')) as any[];
    const text = JSON.stringify(crd.spec.versions.find((v: any) => v.name === 'v1beta1'));
    for (const site of SITES.filter((s) => s.schema === 'PodTemplateSpec (Dynamo)')) {
      expect(text).toContain(JSON.stringify({ rule: site.rule.rule, message: site.rule.message }).slice(1, -1));
    }
  });

  test('PodCliqueSet and LeaderWorkerSet: the generated schemas hold every CRD rule', () => {
    expect(distinct('PodCliqueSet').sort()).toEqual(crdRules('grove.io_podcliquesets.yaml', 'v1alpha1'));
    expect(distinct('LeaderWorkerSet')).toEqual(crdRules('leaderworkerset.x-k8s.io_leaderworkersets.yaml', 'v1'));
  });
});

// ---------------------------------------------------------------------------------------------
// Through validateDocument: create, and update with the stored object (transition rules)
// ---------------------------------------------------------------------------------------------

describe('docs/design/validation-rules.md rows 11, 44, 63: transition rules with options.old', () => {
  const stored = (components: unknown[]) => dgdWith(...components);

  test('row 11: spec.restart is rejected on create and accepted on update', () => {
    const withRestart = dgd({ restart: { id: 'r1' } });
    expect(found(withRestart).filter((v) => v.rule === '11')).toHaveLength(1);
    expect(found(withRestart, { old: dgd() }).filter((v) => v.rule === '11')).toEqual([]);
  });

  test('row 63: minAvailable may not change; the old component is found by name, not position', () => {
    const old = stored([frontend(), worker({ replicas: 3, minAvailable: 2 })]);
    const next = stored([worker({ replicas: 3, minAvailable: 1 }), frontend()]);
    expect(found(next).filter((v) => v.rule === '63')).toEqual([]);
    expect(found(next, { old }).filter((v) => v.rule === '63')).toEqual([
      { path: 'spec.components[0]', message: 'Invalid value: "object": minAvailable is immutable after creation', rule: '63' },
    ]);
    expect(found(stored([worker({ replicas: 3, minAvailable: 2 }), frontend()]), { old }).filter((v) => v.rule === '63')).toEqual([]);
    // a component added by the update has no old value
    expect(found(stored([frontend(), worker({ name: 'decode', replicas: 3, minAvailable: 1 })]), { old }).filter((v) => v.rule === '63')).toEqual([]);
  });

  test('row 44: type may not change once set (DGD and DCD), in the CRDs of operator 1.6.0', () => {
    const old = stored([frontend(), worker()]);
    const newer = { version: '1.6.0' };
    expect(found(stored([frontend(), worker({ type: 'decode' })]), { old, ...newer }).filter((v) => v.rule === '44')).toEqual([
      { path: 'spec.components[1]', message: 'Invalid value: "object": type is immutable after it is set', rule: '44' },
    ]);
    expect(found(dcd({ type: 'prefill' }), { old: dcd(), ...newer }).filter((v) => v.rule === '44')).toEqual([
      { path: 'spec', message: 'Invalid value: "object": type is immutable after it is set', rule: '44' },
    ]);
    expect(found(dcd({ type: 'prefill' }), newer).filter((v) => v.rule === '44')).toEqual([]);
    // the CRDs of operators 1.4.0 and 1.5.0 have no such rule
    expect(found(stored([frontend(), worker({ type: 'decode' })]), { old }).filter((v) => v.rule === '44')).toEqual([]);
    expect(found(dcd({ type: 'prefill' }), { old: dcd(), version: '1.4.0' }).filter((v) => v.rule === '44')).toEqual([]);
  });

  test('ratcheting: a rule that fails on a value unchanged from the old object is not re-reported', () => {
    const rows = (doc: unknown, old?: unknown): string[] => {
      const sink = new ViolationSink();
      checkDynamoCelRules(doc, sink, old);
      return sink.all.map((r) => `${r.path.toString()} ${r.rule}`);
    };
    const bad = () => frontend({ eppConfig: { configMapRef: { name: 'c', key: 'k' } } });
    expect(rows(dgdWith(bad(), worker()))).toEqual(['spec.components[0] 52']);
    expect(rows(dgdWith(bad(), worker()), dgdWith(bad(), worker()))).toEqual([]);
    expect(rows(dgdWith({ ...bad(), replicas: 2 }, worker()), dgdWith(bad(), worker()))).toEqual(['spec.components[0] 52']);
  });

  test('checkDynamoCelRules picks the schema by kind', () => {
    const sink = new ViolationSink();
    checkDynamoCelRules(dcd({ eppConfig: { configMapRef: { name: 'c', key: 'k' } } }), sink);
    expect(sink.all.map((r) => [r.path.toString(), r.rule])).toEqual([['spec', '52']]);
  });

  test('rows 90-92 are evaluated in the pod template, not in preserve-unknown-fields pod templates', () => {
    const sidecar = podTemplate('1');
    sidecar.spec.containers.push({ name: 'sidecar' });
    expect(found(dgdWith(frontend(), worker({ podTemplate: sidecar }))).filter((v) => v.rule === '90')).toEqual([
      { path: 'spec.components[1].podTemplate.spec.containers[1]', message: 'Invalid value: "object": sidecar containers must specify a non-empty image', rule: '90' },
    ]);
    const sink = new ViolationSink();
    const job = { podTemplate: { spec: { initContainers: [{ name: 'no-image' }] } } };
    checkDynamoCelRules(dcd({ experimental: { checkpoint: { enabled: true, job } } }), sink);
    expect(sink.all.filter((r) => r.rule === '91')).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The engine
// ---------------------------------------------------------------------------------------------

function check(node: CelSchemaNode, self: unknown, old?: unknown): Array<{ path: string; message: string; rule: string }> {
  const sink = new ViolationSink();
  checkCelRules(self, node, sink, old === undefined ? {} : { old });
  return sink.all.map((r) => ({ path: r.path.toString(), message: r.message, rule: r.rule }));
}

const withRules = (properties: Record<string, CelSchemaNode>, ...rules: CelRule[]): CelSchemaNode => ({ 'type': 'object', properties, 'x-kubernetes-validations': rules });
const INT = { type: 'integer' };
const STRING = { type: 'string' };

describe('CEL engine: messages', () => {
  test('messageExpression gives the message', () => {
    const node = withRules({ a: INT }, { rule: 'self.a < 3', message: 'static', messageExpression: '\'a is \' + string(self.a) + \', at most 2\'' });
    expect(check(node, { a: 5 })).toEqual([{ path: '', message: 'Invalid value: "object": a is 5, at most 2', rule: CEL_RULE }]);
  });

  test('messageExpression falls back to message when it fails, is empty or spans lines', () => {
    for (const messageExpression of ['self.missing', '\' \'', '\'two\\nlines\'', '1']) {
      expect(check(withRules({ a: INT }, { rule: 'self.a < 3', message: 'static', messageExpression }), { a: 5 })).toEqual([
        { path: '', message: 'Invalid value: "object": static', rule: CEL_RULE },
      ]);
    }
  });

  test('without a message: failed rule: <rule>', () => {
    expect(check(withRules({ a: INT }, { rule: ' self.a < 3 ' }), { a: 5 })).toEqual([
      { path: '', message: 'Invalid value: "object": failed rule: self.a < 3', rule: CEL_RULE },
    ]);
  });

  test('reasons: Forbidden, Required, Duplicate, Invalid', () => {
    const rule = (reason?: string): CelRule => ({ rule: 'false', message: 'no', ...(reason ? { reason } : {}) });
    expect(check(withRules({}, rule('FieldValueForbidden')), {})[0].message).toBe('Forbidden: no');
    expect(check(withRules({}, rule('FieldValueRequired')), {})[0].message).toBe('Required value: no');
    expect(check(withRules({}, rule('FieldValueDuplicate')), {})[0].message).toBe('Duplicate value: "object"');
    expect(check(withRules({}, rule('FieldValueInvalid')), {})[0].message).toBe('Invalid value: "object": no');
    expect(check({ 'type': 'array', 'items': INT, 'x-kubernetes-validations': [rule()] }, [1])[0].message).toBe('Invalid value: "array": no');
    expect(check({ 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': [rule()] }, 1)[0].message).toBe('Invalid value: "": no');
  });

  test('fieldPath: fields, map keys and list indexes below the node', () => {
    const node: CelSchemaNode = {
      'type': 'object',
      'properties': { labels: { type: 'object', additionalProperties: STRING }, items: { type: 'array', items: { type: 'object', properties: { a: STRING } } } },
      'x-kubernetes-validations': [
        { rule: 'false', message: 'm', fieldPath: '.labels[\'app.kubernetes.io/name\']' },
        { rule: 'false', message: 'm', fieldPath: '.items[2].a' },
      ],
    };
    expect(check(node, {}).map((v) => v.path)).toEqual(['labels[app.kubernetes.io/name]', 'items[2].a']);
  });

  test('rules at nested nodes report the node path; rules below absent fields do not run', () => {
    const node: CelSchemaNode = {
      type: 'object',
      properties: {
        list: { type: 'array', items: withRules({ n: INT }, { rule: 'self.n > 0', message: 'positive' }) },
        map: { type: 'object', additionalProperties: { 'type': 'string', 'x-kubernetes-validations': [{ rule: 'self != "bad"', message: 'not bad' }] } },
        absent: withRules({}, { rule: 'false', message: 'never' }),
      },
    };
    expect(check(node, { list: [{ n: 1 }, { n: 0 }], map: { a: 'ok', b: 'bad' } })).toEqual([
      { path: 'list[1]', message: 'Invalid value: "object": positive', rule: CEL_RULE },
      { path: 'map[b]', message: 'Invalid value: "string": not bad', rule: CEL_RULE },
    ]);
  });
});

describe('CEL engine: typing of self', () => {
  test('integer is int, number is double, int-or-string is int or string', () => {
    const node = withRules(
      { i: INT, d: { type: 'number' }, q: { 'x-kubernetes-int-or-string': true } },
      { rule: 'type(self.i) == int && type(self.d) == double', message: 'types' },
      { rule: '!has(self.q) || type(self.q) == int || type(self.q) == string', message: 'int-or-string' },
    );
    expect(check(node, { i: 1, d: 1, q: 3 })).toEqual([]);
    expect(check(node, { i: 1, d: 0.5, q: '3Gi' })).toEqual([]);
  });

  test('only declared fields are reachable; names are escaped as Kubernetes escapes them', () => {
    const node = withRules(
      { 'foo-bar': STRING, 'namespace': STRING, 'a.b': STRING, 'x__y': STRING },
      { rule: 'self.foo__dash__bar == "1" && self.__namespace__ == "2" && self.a__dot__b == "3" && self.x__underscores__y == "4"', message: 'escaped' },
      { rule: '!has(self.undeclared)', message: 'undeclared' },
    );
    expect(check(node, { 'foo-bar': '1', 'namespace': '2', 'a.b': '3', 'x__y': '4', 'undeclared': 1 })).toEqual([]);
    expect(celPropertyName('a/b')).toBe('a__slash__b');
    expect(celPropertyName('1abc')).toBeUndefined();
  });

  test('an object that does not fit its schema is not checked by a rule that fails on it', () => {
    const node = withRules({ a: INT }, { rule: 'self.a < 3', message: 'small' });
    expect(check(node, { a: 'three' })).toEqual([]);
    expect(check(withRules({ a: INT, b: INT }, { rule: 'self.b > 0', message: 'm' }), { a: 1 }).map((v) => v.rule)).toEqual([INTERNAL_RULE]);
  });
});

describe('CEL engine: Kubernetes library functions the CRDs use', () => {
  const one = (rule: string, self: unknown, node: CelSchemaNode = {}): boolean => check({ ...node, 'x-kubernetes-validations': [{ rule, message: 'm' }] }, self).length === 0;

  test('has(), size() (function and method), filter/all/exists/exists_one/map macros, in', () => {
    const list = { type: 'array', items: withRules({ name: STRING }) };
    expect(one('self.exists(c, c.name == "a") && self.exists_one(c, c.name == "b") && self.map(c, c.name) == ["a", "b"]', [{ name: 'a' }, { name: 'b' }], list)).toBe(true);
    expect(one('size(self) == 2 && self.size() == 2 && "a" in self.map(c, c.name)', [{ name: 'a' }, { name: 'b' }], list)).toBe(true);
    expect(one('self.all(c, has(c.name))', [{ name: 'a' }, {}], list)).toBe(false);
  });

  test('strings: lowerAscii, split, contains, startsWith, matches', () => {
    expect(one('self.lowerAscii() == "abc" && self.split("-") == ["ABC"] && self.contains("B") && self.startsWith("A") && self.matches("^[A-Z]+$")', 'ABC', STRING)).toBe(true);
  });

  test('optional oldSelf: hasValue()', () => {
    const node = (optionalOldSelf: boolean): CelSchemaNode => withRules({}, { rule: 'oldSelf.hasValue()', message: 'needs old', optionalOldSelf });
    expect(check(node(true), {})).toEqual([{ path: '', message: 'Invalid value: "object": needs old', rule: CEL_RULE }]);
    expect(check(node(true), {}, {})).toEqual([]);
    // not an optional: hasValue() does not apply
    expect(check(node(false), {}, {}).map((v) => v.rule)).toEqual([INTERNAL_RULE]);
  });

  test('transition rules without optionalOldSelf are skipped on create and see oldSelf on update', () => {
    const node = withRules({ a: INT }, { rule: 'self.a >= oldSelf.a', message: 'may not decrease' });
    expect(check(node, { a: 1 })).toEqual([]);
    expect(check(node, { a: 1 }, { a: 2 })).toEqual([{ path: '', message: 'Invalid value: "object": may not decrease', rule: CEL_RULE }]);
  });
});

describe('CEL engine: rules that cannot run are reported, never thrown', () => {
  test('syntax errors, unknown functions and undeclared variables are internal violations quoting the rule', () => {
    for (const rule of ['self.a <', 'self.a.frobnicate()', 'other.a == 1', 'quantity(self.a).isZero()']) {
      const violations = check(withRules({ a: STRING }, { rule, message: 'm' }), { a: '1' });
      expect(violations).toHaveLength(1);
      expect(violations[0].rule).toBe(INTERNAL_RULE);
      expect(violations[0].message).toContain(JSON.stringify(rule));
      expect(violations[0].message).toContain('does not compile');
    }
  });

  test('evaluation errors and non-bool results are internal violations', () => {
    expect(check(withRules({ a: STRING }, { rule: 'self.a', message: 'm' }), { a: 'x' })[0].message).toBe('Internal error: CEL rule "self.a" did not evaluate to a bool');
    expect(check(withRules({ a: INT }, { rule: 'self.a / 0 == 1', message: 'm' }), { a: 1 })[0].message).toMatch(/^Internal error: CEL rule "self.a \/ 0 == 1" failed to evaluate: /);
  });

  test('an internal error is reported through ViolationSink.internal: no offending value, the message names the rule', () => {
    const sink = new ViolationSink();
    checkCelRules({ a: 1 }, withRules({ a: INT }, { rule: 'self.a.frobnicate()', message: 'm' }), sink);
    expect(sink.all).toHaveLength(1);
    const [record] = sink.all;
    expect(record.rule).toBe(INTERNAL_RULE);
    expect(record.value).toBeUndefined();
    expect(record.message).toMatch(/^Internal error: CEL rule "self\.a\.frobnicate\(\)" does not compile: /);
  });

  test('validateDocument stays total on documents of the wrong shape', () => {
    expect(found(dgd({ components: 'nope' })).every((v) => v.rule !== INTERNAL_RULE)).toBe(true);
    expect(found(dgd({ experimental: { kvTransferPolicy: { domain: 'rack', labelKey: 7 } } })).every((v) => v.rule !== INTERNAL_RULE)).toBe(true);
  });
});

describe('CEL engine: schemas are the imported ones', () => {
  test('the Dynamo CEL schemas extend the generated ones by the target-API rule only', () => {
    const count = (node: CelSchemaNode) => collectRules('', node, '', []).length;
    expect(count(DGD_CEL_SCHEMA)).toBe(count(DGD_V1BETA1_SCHEMA as CelSchemaNode) + TARGET_API_COMPONENT_RULES.length);
    expect(count(DCD_CEL_SCHEMA)).toBe(count(DCD_V1BETA1_SCHEMA as CelSchemaNode) + TARGET_API_COMPONENT_RULES.length);
  });
});

describe('CEL engine: a value a node\'s rules passed on at create is not evaluated again', () => {
  const listOf = (item: CelSchemaNode): CelSchemaNode => ({ type: 'object', properties: { items: { type: 'array', items: item } } });

  test('the same value at another place (or in another object) passes without evaluating the rule again', () => {
    const item = withRules({ a: INT }, { rule: 'self.a < 3', message: 'small' });
    const compile = jest.spyOn(celCompile, 'compileExpression');
    try {
      expect(check(listOf(item), { items: [{ a: 1 }, { a: 1 }, { a: 2 }] })).toEqual([]);
      expect(check(listOf(item), { items: [{ a: 2 }, { a: 1 }] })).toEqual([]);
      // the rule is compiled (looked up) once to learn the fields it reads, then once per
      // evaluation: { a: 1 } and { a: 2 }
      expect(compile.mock.calls.filter(([source]) => source === 'self.a < 3')).toHaveLength(3);
    } finally {
      compile.mockRestore();
    }
  });

  test('failures are reported every time, at their own paths; a failing value after passing ones is still found', () => {
    const item = withRules({ a: INT }, { rule: 'self.a < 3', message: 'small' });
    const failure = (at: string) => ({ path: at, message: 'Invalid value: "object": small', rule: CEL_RULE });
    expect(check(listOf(item), { items: [{ a: 1 }, { a: 5 }, { a: 1 }, { a: 5 }] })).toEqual([failure('items[1]'), failure('items[3]')]);
    expect(check(listOf(item), { items: [{ a: 5 }] })).toEqual([failure('items[0]')]);
  });

  test('values JSON text confuses are told apart: NaN, the infinities and -0 are not null or 0', () => {
    const node = withRules({ n: { type: 'number' } },
      { rule: '!has(self.n) || self.n == self.n', message: 'a number' },
      { rule: '!has(self.n) || self.n != 1.0 / 0.0', message: 'finite' },
      { rule: '!has(self.n) || 1.0 / self.n != -1.0 / 0.0', message: 'not -0' });
    expect(check(node, { n: null })).toEqual([]);
    expect(check(node, { n: 0 })).toEqual([]);
    expect(check(node, { n: NaN }).map((v) => v.message)).toEqual(['Invalid value: "object": a number']);
    expect(check(node, { n: Infinity }).map((v) => v.message)).toEqual(['Invalid value: "object": finite']);
    expect(check(node, { n: -0 }).map((v) => v.message)).toEqual(['Invalid value: "object": not -0']);
  });

  test('whether rules lie below a marker node is known per set of embedded schemas', () => {
    // the same schema object, its marker node without rules in one check and with them in the next
    const root: CelSchemaNode = { type: 'object', properties: { pod: { k8sType: 'Pod' } } };
    const embedded = { Pod: withRules({ a: INT }, { rule: 'self.a < 3', message: 'small' }) };
    const checkWith = (schemas?: Record<string, CelSchemaNode>) => {
      const sink = new ViolationSink();
      checkCelRules({ pod: { a: 5 } }, root, sink, schemas === undefined ? {} : { embedded: schemas });
      return sink.all.map((r) => `${r.path.toString()}: ${r.message}`);
    };
    expect(checkWith()).toEqual([]);
    expect(checkWith(embedded)).toEqual(['pod: Invalid value: "object": small']);
    expect(checkWith({})).toEqual([]);
    expect(checkWith(embedded)).toEqual(['pod: Invalid value: "object": small']);
  });

  test('rules that read only some fields of an object are not evaluated again when only the other fields differ', () => {
    const item = withRules({ a: INT, name: STRING }, { rule: 'self.a < 3', message: 'small' });
    const compile = jest.spyOn(celCompile, 'compileExpression');
    try {
      expect(check(listOf(item), { items: [{ a: 1, name: 'x' }, { a: 1, name: 'y' }, { a: 1 }] })).toEqual([]);
      // once for the fields it reads, once for the one evaluation
      expect(compile.mock.calls.filter(([source]) => source === 'self.a < 3')).toHaveLength(2);
    } finally {
      compile.mockRestore();
    }
  });

  test('a field read is told apart by its presence and value; a rule reading self otherwise keys on the whole value', () => {
    const present = withRules({ a: INT, b: INT }, { rule: '!has(self.b) || self.b > 0', message: 'positive' });
    expect(check(listOf(present), { items: [{ a: 1 }, { a: 1, b: 1 }, { a: 1, b: -1 }] }))
      .toEqual([{ path: 'items[2]', message: 'Invalid value: "object": positive', rule: CEL_RULE }]);
    const whole = withRules({ a: INT, b: INT, c: INT }, { rule: 'size(self) < 3 && self.a > 0', message: 'few' });
    expect(check(listOf(whole), { items: [{ a: 1 }, { a: 1, b: 2 }, { a: 1, b: 2, c: 3 }] }))
      .toEqual([{ path: 'items[2]', message: 'Invalid value: "object": few', rule: CEL_RULE }]);
  });

  test('on update, a value is evaluated against the old object every time', () => {
    const node = withRules({ a: INT }, { rule: 'self.a == oldSelf.a', message: 'immutable' });
    expect(check(node, { a: 1 }, { a: 1 })).toEqual([]);
    expect(check(node, { a: 1 }, { a: 2 })).toEqual([{ path: '', message: 'Invalid value: "object": immutable', rule: CEL_RULE }]);
  });
});
