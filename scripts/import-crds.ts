/**
 * Compact schema generator for the custom resources cdk8s-dynamo validates: the NVIDIA Dynamo resources
 * (nvidia.com/v1beta1), the workloads the Dynamo operator creates for multinode components, the
 * LeaderWorkerSet (leaderworkerset.x-k8s.io/v1) and the Grove PodCliqueSet (grove.io/v1alpha1), and the
 * Snapshot project's SnapshotJob and PodSnapshot (nvidia.com/v1alpha1) of experimental checkpointing.
 *
 * The CRD schemas repeat every embedded Kubernetes type (the pod template alone is about a thousand
 * schema nodes, and it is embedded several times) and share nothing between kinds. This generator
 * instead, for each API group (an `ImportUnit`):
 *
 * - reads only one version of the group's CRDs (`v1beta1` for Dynamo);
 * - replaces the embedded Kubernetes types (the unit's `embedded` table) by `{ k8sType }` marker nodes
 *   named after the types of the Kubernetes import of `cdk8s-plus-34`, and fails loudly when a schema
 *   node looks like an unmapped Kubernetes type;
 * - writes each structurally identical subtree (ignoring descriptions) once, under a deterministic name;
 * - writes `imports/<group>.schema.ts`: a compact structural schema of the kinds, without descriptions,
 *   that the library uses at run time for generic validation, defaulting and unknown-field detection.
 *
 * Usage: `npx projen import:crds`. The CRD folder is `$DYNAMO_CRDS_DIR`, or `../shared/crds` relative to
 * the project root. The output is deterministic: regenerating from the same CRDs gives identical bytes.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';

/** The file generated for the Dynamo CRDs. */
export const SCHEMA_FILE = 'nvidia.com.schema.ts';

/** The file generated for the LeaderWorkerSet CRD. */
export const LWS_SCHEMA_FILE = 'leaderworkerset.x-k8s.io.schema.ts';

/** The file generated for the Grove PodCliqueSet CRD. */
export const GROVE_SCHEMA_FILE = 'grove.io.schema.ts';

/**
 * The file generated for the Snapshot project's CRDs (SnapshotJob, PodSnapshot). They share the
 * `nvidia.com` group with the Dynamo CRDs but are a separate API (`v1alpha1`), hence their own unit.
 */
export const SNAPSHOT_SCHEMA_FILE = 'nvidia.com.snapshot.schema.ts';

/** Size budget for everything generated into imports/: a quarter of the 2.3 MB naive import of the DGD alone. */
export const IMPORTS_SIZE_BUDGET = 575_000;

/** Size budget of the LeaderWorkerSet schema file: under a fortieth of the naive `cdk8s import` of its CRD (1,879,170 bytes). */
export const LWS_IMPORT_SIZE_BUDGET = 46_000;

/** Size budget of the PodCliqueSet schema file: a tenth of the naive `cdk8s import` of its CRD (1,073,915 bytes). */
export const GROVE_IMPORT_SIZE_BUDGET = 107_000;

/** Size budget of the Snapshot schema file (SnapshotJob and PodSnapshot, with their status schemas; the pod template is a marker). */
export const SNAPSHOT_IMPORT_SIZE_BUDGET = 26_000;

interface KindSource {
  /** CRD file name in the CRD folder. */
  readonly file: string;
  /** Expected `spec.names.kind`. */
  readonly kind: string;
  /** Name of the exported schema constant in the schema file. */
  readonly schemaConst: string;
  /**
   * Path segments (array items singularized) of the nodes that hold a component spec: the subtrees below
   * them are named `Component...` when they are shared with another kind.
   */
  readonly componentRoot?: readonly string[];
}

// ---------------------------------------------------------------------------------------------------
// Embedded Kubernetes types
// ---------------------------------------------------------------------------------------------------

/** How an embedded Kubernetes type appears in the CRD. */
type K8sShape = 'object' | 'array' | 'intOrString';

interface K8sMapping {
  /** The name of the type in the Kubernetes import of cdk8s-plus-34 (`k8s.<name>`), written in the marker node. */
  readonly k8sType: string;
  /**
   * `object`: a struct; `array`: a list of the struct; `intOrString`: an int-or-string value (a class
   * with a `value` in cdk8s-plus-34: `k8s.Quantity`, `k8s.IntOrString`).
   */
  readonly shape: K8sShape;
}

/**
 * Embedded Kubernetes types of one API group, by property name within its schemas. Their schemas are
 * not copied: the compact schema holds a `{ k8sType }` marker node instead, named after the type of the
 * Kubernetes import of cdk8s-plus-34.
 */
type K8sMappingTable = { readonly [propertyName: string]: K8sMapping };

/** Names the schema file of a unit declares. */
interface SchemaNames {
  /** The union type of the `k8sType` markers. */
  readonly k8sType: string;
  /** The schema node interface. */
  readonly node: string;
  /** TSDoc body of the schema node interface. */
  readonly nodeDoc: readonly string[];
}

/** The CRDs of one API group and the schema file generated from them. */
interface ImportUnit {
  /** Generated compact schema (`<group>.schema.ts`). */
  readonly schemaFile: string;
  /** The CRD version to import. */
  readonly version: string;
  readonly sources: readonly KindSource[];
  readonly embedded: K8sMappingTable;
  readonly schemaNames: SchemaNames;
  /** Size budget of the schema file, in bytes (besides the budget of imports/ as a whole). */
  readonly sizeBudget?: number;
  /**
   * Schema nodes (`Kind.spec.a.b`) the CRD owns although they look like an embedded Kubernetes type
   * by their property names (e.g. a CRD struct with a `containers` list of names).
   */
  readonly crdOwned?: readonly string[];
}

/** The unit whose schema file declares `CrdValidationRule`; the others import it from there. */
const VALIDATION_RULE_UNIT = SCHEMA_FILE;

const DYNAMO: ImportUnit = {
  schemaFile: SCHEMA_FILE,
  version: 'v1beta1',
  sources: [
    {
      file: 'nvidia.com_dynamographdeployments.yaml',
      kind: 'DynamoGraphDeployment',
      schemaConst: 'DGD_V1BETA1_SCHEMA',
      componentRoot: ['spec', 'component'],
    },
    {
      file: 'nvidia.com_dynamocomponentdeployments.yaml',
      kind: 'DynamoComponentDeployment',
      schemaConst: 'DCD_V1BETA1_SCHEMA',
      componentRoot: ['spec'],
    },
  ],
  embedded: {
    podTemplate: { k8sType: 'PodTemplateSpec', shape: 'object' },
    env: { k8sType: 'EnvVar', shape: 'array' },
    configMapRef: { k8sType: 'ConfigMapKeySelector', shape: 'object' },
    sharedMemorySize: { k8sType: 'Quantity', shape: 'intOrString' },
  },
  schemaNames: {
    k8sType: 'CrdK8sType',
    node: 'CrdSchemaNode',
    nodeDoc: [
      'A node of the compact structural schema of a Dynamo CRD: the OpenAPI v3 keywords the CRD uses,',
      'without descriptions. An embedded Kubernetes type is a marker node `{ k8sType }` (an `env` list is',
      'an array of `{ k8sType: \'EnvVar\' }`), to be validated against the Kubernetes schema of that type.',
    ],
  },
};

const LEADER_WORKER_SET: ImportUnit = {
  schemaFile: LWS_SCHEMA_FILE,
  version: 'v1',
  sources: [
    { file: 'leaderworkerset.x-k8s.io_leaderworkersets.yaml', kind: 'LeaderWorkerSet', schemaConst: 'LWS_V1_SCHEMA' },
  ],
  embedded: {
    leaderTemplate: { k8sType: 'PodTemplateSpec', shape: 'object' },
    workerTemplate: { k8sType: 'PodTemplateSpec', shape: 'object' },
    // the type of `StatefulSetSpec.volumeClaimTemplates` in the Kubernetes import (no apiVersion, kind, status)
    volumeClaimTemplates: { k8sType: 'KubePersistentVolumeClaimProps', shape: 'array' },
    maxSurge: { k8sType: 'IntOrString', shape: 'intOrString' },
    maxUnavailable: { k8sType: 'IntOrString', shape: 'intOrString' },
  },
  sizeBudget: LWS_IMPORT_SIZE_BUDGET,
  schemaNames: {
    k8sType: 'LwsK8sType',
    node: 'LwsSchemaNode',
    nodeDoc: [
      'A node of the compact structural schema of the LeaderWorkerSet CRD: the OpenAPI v3 keywords the CRD',
      'uses, without descriptions (the same keywords as `CrdSchemaNode`). An embedded Kubernetes type is a',
      'marker node `{ k8sType }`, to be validated against the Kubernetes schema of that type.',
    ],
  },
};

const GROVE: ImportUnit = {
  schemaFile: GROVE_SCHEMA_FILE,
  version: 'v1alpha1',
  sources: [
    { file: 'grove.io_podcliquesets.yaml', kind: 'PodCliqueSet', schemaConst: 'PCS_V1ALPHA1_SCHEMA' },
  ],
  embedded: {
    podSpec: { k8sType: 'PodSpec', shape: 'object' },
    // autoscaling/v2 MetricSpec of the clique and scaling group autoscaling configurations
    metrics: { k8sType: 'MetricSpecV2', shape: 'array' },
    // resource.k8s.io/v1 (device requests with `exactly` / `firstAvailable`)
    templateSpec: { k8sType: 'ResourceClaimTemplateSpec', shape: 'object' },
  },
  sizeBudget: GROVE_IMPORT_SIZE_BUDGET,
  schemaNames: {
    k8sType: 'GroveK8sType',
    node: 'GroveSchemaNode',
    nodeDoc: [
      'A node of the compact structural schema of the Grove PodCliqueSet CRD: the OpenAPI v3 keywords the',
      'CRD uses, without descriptions (the same keywords as `CrdSchemaNode`). An embedded Kubernetes type is',
      'a marker node `{ k8sType }`, to be validated against the Kubernetes schema of that type.',
    ],
  },
};

const SNAPSHOT: ImportUnit = {
  schemaFile: SNAPSHOT_SCHEMA_FILE,
  version: 'v1alpha1',
  sources: [
    { file: 'nvidia.com_snapshotjobs.yaml', kind: 'SnapshotJob', schemaConst: 'SNAPSHOT_JOB_V1ALPHA1_SCHEMA' },
    { file: 'nvidia.com_podsnapshots.yaml', kind: 'PodSnapshot', schemaConst: 'POD_SNAPSHOT_V1ALPHA1_SCHEMA' },
  ],
  embedded: {
    // the capture workload of a SnapshotJob
    podTemplate: { k8sType: 'PodTemplateSpec', shape: 'object' },
  },
  sizeBudget: SNAPSHOT_IMPORT_SIZE_BUDGET,
  // the captured pod's name, UID and container names (a Snapshot struct, not core/v1)
  crdOwned: ['PodSnapshot.spec.source.podRef'],
  schemaNames: {
    k8sType: 'SnapshotK8sType',
    node: 'SnapshotSchemaNode',
    nodeDoc: [
      'A node of the compact structural schema of the Snapshot CRDs (SnapshotJob, PodSnapshot): the OpenAPI v3',
      'keywords the CRDs use, without descriptions (the same keywords as `CrdSchemaNode`). An embedded',
      'Kubernetes type is a marker node `{ k8sType }`, to be validated against the Kubernetes schema of that type.',
    ],
  },
};

/** Everything generated, in generation order. */
const UNITS: readonly ImportUnit[] = [DYNAMO, LEADER_WORKER_SET, GROVE, SNAPSHOT];

/**
 * Property names that only occur in embedded Kubernetes (core/v1, meta/v1) types: an unmapped object
 * having one of them is an embedded Kubernetes type the mapping table does not know.
 */
const K8S_SIGNATURE_PROPERTIES: ReadonlySet<string> = new Set([
  'affinity', 'configMapKeyRef', 'containers', 'fieldRef', 'imagePullSecrets', 'initContainers', 'limits',
  'livenessProbe', 'matchExpressions', 'matchLabels', 'nodeAffinity', 'podAffinity', 'readinessProbe',
  'requests', 'resourceFieldRef', 'secretKeyRef', 'securityContext', 'tolerations', 'valueFrom',
  'volumeMounts', 'volumes',
]);

/** An unmapped object with more direct properties than this looks like an embedded Kubernetes type (PodSpec has 40+). */
const MAX_DIRECT_PROPERTIES = 30;

/**
 * An unmapped object with more properties than this in its subtree (mapped nodes counted as one)
 * looks like an embedded Kubernetes type. The largest Dynamo-owned subtree (the DGD spec) has about 110;
 * a PodTemplateSpec has over a thousand.
 */
const MAX_NESTED_PROPERTIES = 200;

// ---------------------------------------------------------------------------------------------------
// Compact schema
// ---------------------------------------------------------------------------------------------------

/** Raw OpenAPI v3 schema node as found in the CRD. */
type RawSchema = { readonly [key: string]: any };

/** A compact schema node (the shape written to the schema file). */
type SchemaNode = { [key: string]: any };

/** Schema keywords copied as they are into the compact schema, in output order. */
const SCALAR_KEYWORDS = [
  'type', 'format', 'enum', 'default', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems',
  'required', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
] as const;

/** Fields of an `x-kubernetes-validations` rule copied into the compact schema, in output order. */
const VALIDATION_FIELDS = ['rule', 'message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf'] as const;

/** Keywords read by the generator but not copied into the compact schema. */
const CONSUMED_KEYWORDS: ReadonlySet<string> = new Set([
  'description', 'properties', 'items', 'additionalProperties', 'x-kubernetes-validations',
]);

function k8sShapeMatches(mapping: K8sMapping, raw: RawSchema): boolean {
  switch (mapping.shape) {
    case 'object':
      return raw.type === 'object' && (raw.properties !== undefined || raw['x-kubernetes-preserve-unknown-fields'] === true);
    case 'array':
      return raw.type === 'array' && raw.items?.type === 'object';
    case 'intOrString':
      return raw['x-kubernetes-int-or-string'] === true;
  }
}

function countNestedProperties(raw: RawSchema, embedded: K8sMappingTable): number {
  let count = 0;
  for (const [name, child] of Object.entries<RawSchema>(raw.properties ?? {})) {
    count += 1;
    if (embedded[name] === undefined) {
      count += countNestedProperties(child, embedded);
    }
  }
  if (raw.items) {
    count += countNestedProperties(raw.items, embedded);
  }
  if (raw.additionalProperties && typeof raw.additionalProperties === 'object') {
    count += countNestedProperties(raw.additionalProperties, embedded);
  }
  return count;
}

/** Why an unmapped schema node looks like an embedded Kubernetes type, judging by the node alone. */
function k8sLookalikeReasons(raw: RawSchema): string[] {
  const reasons: string[] = [];
  if (raw['x-kubernetes-int-or-string'] || raw.anyOf) {
    reasons.push('it is an int-or-string (Quantity or IntOrString)');
  }
  if (raw['x-kubernetes-map-type']) {
    reasons.push(`it has x-kubernetes-map-type: ${raw['x-kubernetes-map-type']}`);
  }
  const names = Object.keys(raw.properties ?? {});
  const signature = names.filter(n => K8S_SIGNATURE_PROPERTIES.has(n));
  if (signature.length > 0) {
    reasons.push(`it has Kubernetes properties (${signature.join(', ')})`);
  }
  if (names.length > MAX_DIRECT_PROPERTIES) {
    reasons.push(`it has ${names.length} properties (more than ${MAX_DIRECT_PROPERTIES})`);
  }
  return reasons;
}

/**
 * Throws when an unmapped schema node below `raw` looks like an embedded Kubernetes type: first by the
 * nodes themselves (top down, so that the outermost such node is reported), then by subtree size.
 */
function assertNoUnmappedK8s(raw: RawSchema, where: string, embedded: K8sMappingTable, crdOwned: readonly string[] = []): void {
  const fail = (at: string, reasons: readonly string[]): never => {
    throw new Error(`${at} looks like an embedded Kubernetes type (${reasons.join('; ')}) but is not mapped: `
      + 'add its property name to the embedded table of its unit in scripts/import-crds.ts (or, if the CRD owns it, adjust the checks there)');
  };
  const walk = (node: RawSchema, at: string, bySize: boolean): void => {
    const reasons = bySize || crdOwned.includes(at) ? [] : k8sLookalikeReasons(node);
    if (bySize) {
      const nested = countNestedProperties(node, embedded);
      if (nested > MAX_NESTED_PROPERTIES) {
        reasons.push(`it has ${nested} nested properties (more than ${MAX_NESTED_PROPERTIES})`);
      }
    }
    if (reasons.length > 0) {
      fail(at, reasons);
    }
    for (const name of sortedKeys(node.properties ?? {})) {
      if (embedded[name] === undefined) {
        walk(node.properties[name], `${at}.${name}`, bySize);
      }
    }
    if (node.items) {
      walk(node.items, `${at}[]`, bySize);
    }
    if (node.additionalProperties && typeof node.additionalProperties === 'object') {
      walk(node.additionalProperties, `${at}{}`, bySize);
    }
  };
  walk(raw, where, false);
  walk(raw, where, true);
}

/**
 * Builds the compact schema of a node: no descriptions, embedded Kubernetes types replaced by
 * `{ k8sType }` markers. Throws on keywords it does not know, so that no constraint is dropped silently.
 */
function compactSchema(raw: RawSchema, propertyName: string | undefined, where: string, embedded: K8sMappingTable): SchemaNode {
  const mapping = propertyName === undefined ? undefined : embedded[propertyName];
  if (mapping) {
    if (!k8sShapeMatches(mapping, raw)) {
      throw new Error(`${where} is mapped to k8s.${mapping.k8sType} (${mapping.shape}) by the embedded table but its schema does not have that shape`);
    }
    if (mapping.shape !== 'array') {
      const marker: SchemaNode = { k8sType: mapping.k8sType };
      if (raw.default !== undefined) {
        // e.g. the LeaderWorkerSet rolling update maxSurge (0) and maxUnavailable (1)
        marker.default = raw.default;
      }
      if (raw['x-kubernetes-preserve-unknown-fields'] === true) {
        // a preserve-unknown-fields Kubernetes object is neither pruned nor defaulted by the API server
        marker['x-kubernetes-preserve-unknown-fields'] = true;
      }
      return marker;
    }
    const list: SchemaNode = { type: 'array' };
    for (const key of ['maxItems', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys']) {
      if (raw[key] !== undefined) {
        list[key] = raw[key];
      }
    }
    list.items = { k8sType: mapping.k8sType };
    return list;
  }

  for (const key of Object.keys(raw)) {
    if (!CONSUMED_KEYWORDS.has(key) && !(SCALAR_KEYWORDS as readonly string[]).includes(key)) {
      throw new Error(`${where}: schema keyword '${key}' is not supported by scripts/import-crds.ts (extend CrdSchemaNode)`);
    }
  }

  const node: SchemaNode = {};
  for (const key of SCALAR_KEYWORDS) {
    const value = raw[key];
    if (value === undefined || (key === 'required' && value.length === 0)) {
      continue;
    }
    node[key] = value;
  }
  const validations = raw['x-kubernetes-validations'];
  if (validations !== undefined) {
    node['x-kubernetes-validations'] = validations.map((rule: RawSchema, i: number) => {
      const out: SchemaNode = {};
      for (const key of Object.keys(rule)) {
        if (!(VALIDATION_FIELDS as readonly string[]).includes(key)) {
          throw new Error(`${where}: x-kubernetes-validations[${i}] field '${key}' is not supported by scripts/import-crds.ts`);
        }
      }
      for (const key of VALIDATION_FIELDS) {
        if (rule[key] !== undefined) {
          out[key] = rule[key];
        }
      }
      return out;
    });
  }
  if (raw.items !== undefined) {
    node.items = compactSchema(raw.items, undefined, `${where}[]`, embedded);
  }
  if (raw.additionalProperties !== undefined) {
    node.additionalProperties = typeof raw.additionalProperties === 'object'
      ? compactSchema(raw.additionalProperties, undefined, `${where}{}`, embedded)
      : raw.additionalProperties;
  }
  if (raw.properties !== undefined) {
    const properties: SchemaNode = {};
    for (const name of sortedKeys(raw.properties)) {
      properties[name] = compactSchema(raw.properties[name], name, `${where}.${name}`, embedded);
    }
    node.properties = properties;
  }
  return node;
}

// ---------------------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------------------

interface LoadedKind {
  readonly source: KindSource;
  /** The openAPIV3Schema of that version. */
  readonly root: RawSchema;
}

function loadKind(crdDir: string, source: KindSource, wanted: string): LoadedKind {
  const file = path.join(crdDir, source.file);
  const docs = YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'));
  for (const doc of docs) {
    if (doc.errors.length > 0) {
      throw new Error(`${file}: ${doc.errors[0].message}`);
    }
  }
  const crds = docs.map(d => d.toJS()).filter(d => d && d.kind === 'CustomResourceDefinition');
  if (crds.length !== 1) {
    throw new Error(`${file}: expected exactly one CustomResourceDefinition, found ${crds.length}`);
  }
  const crd = crds[0];
  if (crd.spec?.names?.kind !== source.kind) {
    throw new Error(`${file}: expected kind ${source.kind}, found ${crd.spec?.names?.kind}`);
  }
  const version = (crd.spec.versions ?? []).find((v: RawSchema) => v.name === wanted);
  if (!version) {
    throw new Error(`${file}: no ${wanted} version`);
  }
  if (version.served !== true) {
    throw new Error(`${file}: ${wanted} is not served`);
  }
  const root = version.schema?.openAPIV3Schema;
  if (!root?.properties?.spec) {
    throw new Error(`${file}: ${wanted} has no openAPIV3Schema with a spec`);
  }
  for (const name of Object.keys(root.properties)) {
    if (!['apiVersion', 'kind', 'metadata', 'spec', 'status'].includes(name)) {
      throw new Error(`${file}: unexpected top-level property '${name}'`);
    }
  }
  return { source, root };
}

// ---------------------------------------------------------------------------------------------------
// Groups of identical subtrees and their names
// ---------------------------------------------------------------------------------------------------

/** One place of a named schema node (an object that is not a map) in a kind. */
interface Occurrence {
  readonly kind: string;
  /** Property path from the kind root; array items use the singularized property name. */
  readonly segments: readonly string[];
  readonly raw: RawSchema;
  readonly compact: SchemaNode;
}

/** Structurally identical schema nodes (ignoring descriptions), written once when shared. */
interface Group {
  readonly key: string;
  readonly occurrences: Occurrence[];
  name: string;
}

function singular(name: string): string {
  if (name.endsWith('ies')) {
    return `${name.slice(0, -3)}y`;
  }
  if (name.endsWith('s') && !name.endsWith('ss')) {
    return name.slice(0, -1);
  }
  return `${name}Item`;
}

function pascal(segments: readonly string[]): string {
  return segments
    .flatMap(s => s.split(/[^A-Za-z0-9]+/))
    .filter(s => s.length > 0)
    .map(s => s[0].toUpperCase() + s.slice(1))
    .join('');
}

function commonPrefixLength(lists: readonly (readonly string[])[]): number {
  let n = 0;
  while (lists.every(l => n < l.length && l[n] === lists[0][n])) {
    n++;
  }
  return n;
}

function commonSuffixLength(lists: readonly (readonly string[])[], maxLength: number): number {
  let n = 0;
  while (n < maxLength && lists.every(l => n < l.length && l[l.length - 1 - n] === lists[0][lists[0].length - 1 - n])) {
    n++;
  }
  return n;
}

/** Whether a schema node is grouped: an object that is not a map, with properties when it keeps unknown fields. */
function isGrouped(raw: RawSchema): boolean {
  if (raw.type !== 'object' || (raw.additionalProperties !== undefined && raw.properties === undefined)) {
    return false;
  }
  return raw['x-kubernetes-preserve-unknown-fields'] !== true || raw.properties !== undefined;
}

/** Stable JSON: sorted object keys; enum values sorted (their order does not matter). */
function stableKey(value: any, parentKey?: string): string {
  if (Array.isArray(value)) {
    const items = value.map(v => stableKey(v));
    return `[${(parentKey === 'enum' ? [...items].sort(compareStrings) : items).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    return `{${sortedKeys(value).map(k => `${JSON.stringify(k)}:${stableKey(value[k], k)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

class Registry {
  public readonly groups: Group[] = [];
  private readonly byKey = new Map<string, Group>();
  private readonly byRaw = new Map<RawSchema, Group>();

  public add(occurrence: Occurrence): void {
    const last = occurrence.segments[occurrence.segments.length - 1];
    // the property name is part of the key, so that only like-named nodes are merged
    const key = `${last}:${stableKey(occurrence.compact)}`;
    let group = this.byKey.get(key);
    if (!group) {
      group = { key, occurrences: [], name: '' };
      this.byKey.set(key, group);
      this.groups.push(group);
    }
    group.occurrences.push(occurrence);
    this.byRaw.set(occurrence.raw, group);
  }

  public groupOf(raw: RawSchema): Group | undefined {
    return this.byRaw.get(raw);
  }
}

/**
 * Walks a kind's spec and records the named nodes, depth first, properties in sorted order.
 * `compact` is the compact schema of `raw` (built once per kind).
 */
function collect(registry: Registry, kind: string, raw: RawSchema, compact: SchemaNode, segments: string[]): void {
  if (compact.k8sType !== undefined || compact.items?.k8sType !== undefined) {
    return; // embedded Kubernetes type
  }
  if (isGrouped(raw)) {
    registry.add({ kind, segments, raw, compact });
  }
  for (const name of sortedKeys(raw.properties ?? {})) {
    collect(registry, kind, raw.properties[name], compact.properties[name], [...segments, name]);
  }
  if (raw.items !== undefined) {
    const itemSegments = [...segments.slice(0, -1), singular(segments[segments.length - 1])];
    collect(registry, kind, raw.items, compact.items, itemSegments);
  }
  if (raw.additionalProperties !== undefined && typeof raw.additionalProperties === 'object') {
    collect(registry, kind, raw.additionalProperties, compact.additionalProperties, [...segments, 'value']);
  }
}

/**
 * Names the groups (a shared subtree is written as a constant of its group's name):
 * - a node found once is named after its kind and path (`DynamoGraphDeploymentSpecRestart`); array items
 *   use the singular (`...SpecComponent`);
 * - a node shared only below the component roots (the DGD `spec.components[*]` and the DCD `spec`) is named
 *   `Component` + its path below the root (`ComponentExperimentalCheckpoint`), or + the common start and end
 *   of its paths when they differ;
 * - any other shared node is named after the common end of its paths (`ProviderOverride`).
 */
function nameGroups(groups: readonly Group[], roots: ReadonlyMap<string, readonly string[]>): void {
  const taken = new Map<string, Group>();
  for (const group of groups) {
    const occ = group.occurrences;
    let name: string;
    if (occ.length === 1) {
      name = occ[0].kind + pascal(occ[0].segments);
    } else {
      const relative = occ.map(o => {
        const root = roots.get(o.kind);
        return root && root.every((s, i) => o.segments[i] === s) && o.segments.length > root.length
          ? o.segments.slice(root.length)
          : undefined;
      });
      if (relative.every(r => r !== undefined)) {
        const rels = relative as string[][];
        const prefix = commonPrefixLength(rels);
        const shortest = Math.min(...rels.map(r => r.length));
        const suffix = commonSuffixLength(rels, shortest - prefix);
        name = 'Component' + pascal([...rels[0].slice(0, prefix), ...rels[0].slice(rels[0].length - suffix)]);
      } else {
        const all = occ.map(o => o.segments);
        const suffix = commonSuffixLength(all, Math.min(...all.map(s => s.length)));
        name = pascal(all[0].slice(all[0].length - suffix));
      }
    }
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) {
      throw new Error(`name '${name}' is not a valid constant name (${describeGroup(group)})`);
    }
    const clash = taken.get(name);
    if (clash) {
      throw new Error(`name '${name}' is used twice: ${describeGroup(group)} and ${describeGroup(clash)}; `
        + 'refine the naming rules in scripts/import-crds.ts');
    }
    taken.set(name, group);
    group.name = name;
  }
}

function describeGroup(group: Group): string {
  return group.occurrences.map(o => `${o.kind}:${o.segments.join('.')}`).join(', ');
}

// ---------------------------------------------------------------------------------------------------
// Rendering helpers
// ---------------------------------------------------------------------------------------------------

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedKeys(obj: object): string[] {
  return Object.keys(obj).sort(compareStrings);
}

/** A single-quoted TypeScript string literal. */
function str(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, '\\\'').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;
}

/** A TypeScript literal for a JSON value (single-line). */
function literal(value: any): string {
  if (typeof value === 'string') {
    return str(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map(literal).join(', ')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value).map(k => `${propertyKey(k)}: ${literal(value[k])}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return JSON.stringify(value);
}

function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : str(name);
}

// ---------------------------------------------------------------------------------------------------
// Compact schema file (<group>.schema.ts)
// ---------------------------------------------------------------------------------------------------

/** The declarations of a schema file before its constants: the node interface and the types it uses. */
function schemaPreamble(unit: ImportUnit): string {
  const { k8sType, node, nodeDoc } = unit.schemaNames;
  const k8sTypes = Object.values(unit.embedded).map(m => str(m.k8sType)).filter((v, i, a) => a.indexOf(v) === i).sort(compareStrings);
  const rule = unit.schemaFile === VALIDATION_RULE_UNIT
    ? [
      '/** A CEL validation rule of a schema node (`x-kubernetes-validations`). */',
      'export interface CrdValidationRule {',
      '  readonly rule: string;',
      '  readonly message?: string;',
      '  readonly messageExpression?: string;',
      '  readonly reason?: string;',
      '  readonly fieldPath?: string;',
      '  /** The rule is a transition rule that also applies when there is no old object. */',
      '  readonly optionalOldSelf?: boolean;',
      '}',
    ]
    : [`import { CrdValidationRule } from './${DYNAMO.schemaFile.replace(/\.ts$/, '')}';`];
  return [
    ...rule,
    '',
    '/** The embedded Kubernetes types (from the Kubernetes import of cdk8s-plus-34) the schema refers to. */',
    `export type ${k8sType} = ${k8sTypes.join(' | ')};`,
    '',
    '/**',
    ...nodeDoc.map(l => ` * ${l}`),
    ' */',
    `export interface ${node} {`,
    `  readonly k8sType?: ${k8sType};`,
    '  readonly type?: \'object\' | \'array\' | \'string\' | \'integer\' | \'number\' | \'boolean\';',
    '  readonly format?: string;',
    '  readonly enum?: readonly (string | number | boolean)[];',
    '  readonly default?: unknown;',
    '  readonly pattern?: string;',
    '  readonly minLength?: number;',
    '  readonly maxLength?: number;',
    '  readonly minimum?: number;',
    '  readonly maximum?: number;',
    '  readonly minItems?: number;',
    '  readonly maxItems?: number;',
    '  readonly required?: readonly string[];',
    '  readonly \'x-kubernetes-int-or-string\'?: boolean;',
    '  readonly \'x-kubernetes-preserve-unknown-fields\'?: boolean;',
    '  readonly \'x-kubernetes-list-type\'?: \'atomic\' | \'set\' | \'map\';',
    '  readonly \'x-kubernetes-list-map-keys\'?: readonly string[];',
    '  readonly \'x-kubernetes-validations\'?: readonly CrdValidationRule[];',
    `  readonly items?: ${node};`,
    `  readonly additionalProperties?: ${node} | boolean;`,
    `  readonly properties?: { readonly [name: string]: ${node} };`,
    '}',
  ].join('\n');
}

/** A node of a schema tree to render: the compact node and, when known, the raw CRD node it comes from. */
interface TreeNode {
  readonly raw?: RawSchema;
  readonly node: SchemaNode;
}

function childrenOf(t: TreeNode): TreeNode[] {
  const { raw, node } = t;
  if (node.k8sType !== undefined) {
    return [];
  }
  const out: TreeNode[] = [];
  for (const name of Object.keys(node.properties ?? {})) {
    out.push({ raw: raw?.properties?.[name], node: node.properties[name] });
  }
  if (node.items !== undefined) {
    out.push({ raw: raw?.items, node: node.items });
  }
  if (node.additionalProperties !== undefined && typeof node.additionalProperties === 'object') {
    out.push({ raw: typeof raw?.additionalProperties === 'object' ? raw.additionalProperties : undefined, node: node.additionalProperties });
  }
  return out;
}

/**
 * Subtrees written once, as constants, and referenced by name: among the candidates (`bodies`, by id),
 * those referenced at least twice once the chosen ones are factored out (a fixed point).
 */
class SharedSubtrees {
  public readonly chosen: Set<string>;

  public constructor(
    private readonly roots: readonly TreeNode[],
    private readonly bodies: ReadonlyMap<string, TreeNode>,
    private readonly idOf: (t: TreeNode) => string | undefined,
    private readonly nameOf: (id: string) => string,
    /** The schema node interface the constants are declared with. */
    private readonly nodeType: string,
  ) {
    this.chosen = new Set(bodies.keys());
    for (;;) {
      const counts = new Map<string, number>();
      const visit = (t: TreeNode, top: boolean): void => {
        const id = top ? undefined : this.idOf(t);
        if (id !== undefined && this.chosen.has(id)) {
          counts.set(id, (counts.get(id) ?? 0) + 1);
          return;
        }
        childrenOf(t).forEach(c => visit(c, false));
      };
      this.roots.forEach(r => visit(r, true));
      this.chosen.forEach(id => visit(this.bodies.get(id)!, true));
      const drop = [...this.chosen].filter(id => (counts.get(id) ?? 0) < 2);
      if (drop.length === 0) {
        break;
      }
      drop.forEach(id => this.chosen.delete(id));
    }
  }

  /** The constant name a (non-top) node is written as, if it is shared. */
  public refOf(t: TreeNode): string | undefined {
    const id = this.idOf(t);
    return id !== undefined && this.chosen.has(id) ? this.nameOf(id) : undefined;
  }

  /** The constants, each after the constants it refers to, in order of first use from the roots. */
  public renderConstants(): string[] {
    const out: string[] = [];
    const done = new Set<string>();
    const emit = (id: string): void => {
      if (done.has(id)) {
        return;
      }
      done.add(id);
      const body = this.bodies.get(id)!;
      this.sharedBelow(body).forEach(emit);
      out.push(`const ${this.nameOf(id)}: ${this.nodeType} = ${renderTree(body, '', this, true)};`, '');
    };
    this.roots.forEach(r => this.sharedBelow(r).forEach(emit));
    return out;
  }

  private sharedBelow(t: TreeNode): string[] {
    const found: string[] = [];
    const visit = (n: TreeNode, top: boolean): void => {
      const id = top ? undefined : this.idOf(n);
      if (id !== undefined && this.chosen.has(id)) {
        if (!found.includes(id)) {
          found.push(id);
        }
        return;
      }
      childrenOf(n).forEach(c => visit(c, false));
    };
    visit(t, true);
    return found;
  }
}

/** Renders a compact schema node as a TypeScript literal; leaves on one line, shared subtrees by name. */
function renderTree(t: TreeNode, indent: string, shared: SharedSubtrees, top = false): string {
  const ref = top ? undefined : shared.refOf(t);
  if (ref !== undefined) {
    return ref;
  }
  const { raw, node } = t;
  const inner = `${indent}  `;
  const simple: string[] = [];
  for (const key of ['k8sType', ...SCALAR_KEYWORDS]) {
    if (node[key] !== undefined) {
      simple.push(`${propertyKey(key)}: ${literal(node[key])}`);
    }
  }
  const nested: string[] = [];
  if (node['x-kubernetes-validations'] !== undefined) {
    const rules = node['x-kubernetes-validations'].map((r: SchemaNode) => `${inner}  ${literal(r)},`);
    nested.push(`${inner}'x-kubernetes-validations': [\n${rules.join('\n')}\n${inner}],`);
  }
  if (node.items !== undefined) {
    nested.push(`${inner}items: ${renderTree({ raw: raw?.items, node: node.items }, inner, shared)},`);
  }
  if (node.additionalProperties !== undefined) {
    const value = typeof node.additionalProperties === 'object'
      ? renderTree({ raw: raw?.additionalProperties, node: node.additionalProperties }, inner, shared)
      : literal(node.additionalProperties);
    nested.push(`${inner}additionalProperties: ${value},`);
  }
  if (node.properties !== undefined) {
    const props = Object.keys(node.properties).map(name =>
      `${inner}  ${propertyKey(name)}: ${renderTree({ raw: raw?.properties?.[name], node: node.properties[name] }, `${inner}  `, shared)},`);
    nested.push(props.length === 0 ? `${inner}properties: {},` : `${inner}properties: {\n${props.join('\n')}\n${inner}},`);
  }
  const oneLine = `{ ${simple.join(', ')} }`;
  if (nested.length === 0 && (indent.length + oneLine.length) <= 140) {
    return simple.length === 0 ? '{}' : oneLine;
  }
  return ['{', ...simple.map(s => `${inner}${s},`), ...nested, `${indent}}`].join('\n');
}

/** Repeated subtrees of the embedded defaults with at least this many nodes are written once. */
const MIN_SHARED_DEFAULTS_NODES = 4;

function countNodes(node: SchemaNode): number {
  return 1 + childrenOf({ node }).reduce((n, c) => n + countNodes(c.node), 0);
}

/** Renders the schema file. */
function renderSchemaFile(
  unit: ImportUnit,
  header: string,
  registry: Registry,
  roots: readonly { readonly constName: string; readonly tree: TreeNode }[],
  k8sDefaults: ReadonlyMap<string, SchemaNode>,
): string {
  // the kinds' schemas (the DGD and DCD) share the subtrees of the shared types (objects with properties)
  const bodies = new Map<string, TreeNode>();
  for (const group of registry.groups) {
    const occ = group.occurrences[0];
    if (group.occurrences.length > 1 && Object.keys(occ.raw.properties ?? {}).length > 0) {
      bodies.set(group.key, { raw: occ.raw, node: occ.compact });
    }
  }
  const groupNames = new Map(registry.groups.map(g => [g.key, g.name]));
  const schemaShared = new SharedSubtrees(
    roots.map(r => r.tree),
    bodies,
    t => (t.raw === undefined ? undefined : registry.groupOf(t.raw)?.key),
    id => groupNames.get(id)!,
    unit.schemaNames.node,
  );

  // the defaults skeletons of the embedded Kubernetes types share their repeated subtrees (e.g. containers)
  const defaultRoots: TreeNode[] = [...k8sDefaults.values()].map(node => ({ node }));
  const defaultBodies = new Map<string, TreeNode>();
  const defaultNames = new Map<string, string>();
  const defaultUses = new Map<string, string[]>();
  const collectDefaults = (t: TreeNode, name: string, top: boolean): void => {
    if (!top && countNodes(t.node) >= MIN_SHARED_DEFAULTS_NODES) {
      const key = stableKey(t.node);
      if (!defaultBodies.has(key)) {
        defaultBodies.set(key, t);
      }
      defaultUses.set(key, [...(defaultUses.get(key) ?? []), name]);
    }
    const node = t.node;
    for (const prop of sortedKeys(node.properties ?? {})) {
      collectDefaults({ node: node.properties[prop] }, prop, false);
    }
    if (node.items !== undefined) {
      collectDefaults({ node: node.items }, singular(name), false);
    }
    if (node.additionalProperties !== undefined && typeof node.additionalProperties === 'object') {
      collectDefaults({ node: node.additionalProperties }, `${name}Value`, false);
    }
  };
  [...k8sDefaults].forEach(([k8sType, node]) => collectDefaults({ node }, k8sType, true));
  const defaultsShared = new SharedSubtrees(
    defaultRoots,
    defaultBodies,
    t => (countNodes(t.node) >= MIN_SHARED_DEFAULTS_NODES ? stableKey(t.node) : undefined),
    id => defaultNames.get(id)!,
    unit.schemaNames.node,
  );
  // named after the common end of the property names that hold them (`containers`, `initContainers`: `ContainersDefaults`)
  const usedNames = new Set<string>(groupNames.values());
  for (const key of defaultBodies.keys()) {
    if (!defaultsShared.chosen.has(key)) {
      continue;
    }
    const words = [...new Set(defaultUses.get(key))].map(n => n.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(' '));
    const suffix = commonSuffixLength(words.map(w => w.map(x => x.toLowerCase())), Math.min(...words.map(w => w.length)));
    const base = pascal(suffix > 0 ? words[0].slice(words[0].length - suffix) : words[0]);
    let constName = `${base}Defaults`;
    for (let i = 2; usedNames.has(constName); i++) {
      constName = `${base}Defaults${i}`;
    }
    usedNames.add(constName);
    defaultNames.set(key, constName);
  }

  const out: string[] = [header, '', schemaPreamble(unit), ''];
  out.push(...schemaShared.renderConstants());
  for (const root of roots) {
    out.push(`export const ${root.constName}: ${unit.schemaNames.node} = ${renderTree(root.tree, '', schemaShared, true)};`, '');
  }
  out.push(...defaultsShared.renderConstants());
  out.push(
    '/**',
    ' * The defaults the API server applies inside the embedded Kubernetes types, by `k8sType`: only the',
    ' * `default`s of their CRD schema and the path to them. Not applied below a marker node that has',
    ' * `x-kubernetes-preserve-unknown-fields` (the CRD has no schema there).',
    ' */',
    `export const EMBEDDED_K8S_DEFAULTS: { readonly [k8sType: string]: ${unit.schemaNames.node} } = {`,
  );
  for (const [k8sType, node] of k8sDefaults) {
    out.push(`  ${propertyKey(k8sType)}: ${renderTree({ node }, '  ', defaultsShared, true)},`);
  }
  out.push('};');
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------------
// Defaults of the embedded Kubernetes types
// ---------------------------------------------------------------------------------------------------

/** The schemas of the embedded Kubernetes types (the items, for a list) below a node, by k8s type name. */
function collectEmbedded(raw: RawSchema, table: K8sMappingTable, out: Map<string, RawSchema[]>): void {
  for (const name of sortedKeys(raw.properties ?? {})) {
    const child = raw.properties[name];
    const mapping = table[name];
    if (mapping === undefined) {
      collectEmbedded(child, table, out);
    } else {
      const list = out.get(mapping.k8sType) ?? [];
      list.push(mapping.shape === 'array' ? child.items : child);
      out.set(mapping.k8sType, list);
    }
  }
  if (raw.items) {
    collectEmbedded(raw.items, table, out);
  }
  if (raw.additionalProperties && typeof raw.additionalProperties === 'object') {
    collectEmbedded(raw.additionalProperties, table, out);
  }
}

/** The `default`s below a schema node, with the path to them (`type`, `properties`, `items`, `additionalProperties`). */
function defaultsSkeleton(raw: RawSchema): SchemaNode | undefined {
  const node: SchemaNode = {};
  if (raw.type !== undefined) {
    node.type = raw.type;
  }
  let found = false;
  if (raw.default !== undefined) {
    node.default = raw.default;
    found = true;
  }
  if (raw.items !== undefined) {
    const items = defaultsSkeleton(raw.items);
    if (items) {
      node.items = items;
      found = true;
    }
  }
  if (raw.additionalProperties && typeof raw.additionalProperties === 'object') {
    const value = defaultsSkeleton(raw.additionalProperties);
    if (value) {
      node.additionalProperties = value;
      found = true;
    }
  }
  const properties: SchemaNode = {};
  for (const name of sortedKeys(raw.properties ?? {})) {
    const child = defaultsSkeleton(raw.properties[name]);
    if (child) {
      properties[name] = child;
      found = true;
    }
  }
  if (Object.keys(properties).length > 0) {
    node.properties = properties;
  }
  return found ? node : undefined;
}

/**
 * The defaults the API server applies inside each embedded Kubernetes type (the CRD carries the full
 * structural schema of, e.g., the pod template). Occurrences without a schema (preserve-unknown-fields)
 * are not defaulted; the others must agree.
 */
function embeddedDefaults(specs: readonly RawSchema[], table: K8sMappingTable): Map<string, SchemaNode> {
  const embedded = new Map<string, RawSchema[]>();
  specs.forEach(spec => collectEmbedded(spec, table, embedded));
  const result = new Map<string, SchemaNode>();
  for (const k8sType of [...embedded.keys()].sort(compareStrings)) {
    const skeletons = embedded.get(k8sType)!
      .filter(raw => raw.properties !== undefined)
      .map(raw => defaultsSkeleton(raw));
    const distinct = [...new Set(skeletons.map(s => stableKey(s ?? null)))];
    if (distinct.length > 1) {
      throw new Error(`the embedded k8s.${k8sType} schemas have different defaults in different places; EMBEDDED_K8S_DEFAULTS cannot hold them`);
    }
    if (skeletons[0] !== undefined) {
      result.set(k8sType, skeletons[0]);
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------------

/** What was generated for one unit. */
export interface ImportUnitResult {
  /** Absolute path of the unit's compact schema. */
  readonly file: string;
  /** Its size, in bytes. */
  readonly bytes: number;
}

export interface ImportResult {
  /** Absolute paths of the written files. */
  readonly files: string[];
  /** Total size of the written files, in bytes. */
  readonly totalBytes: number;
  /** By schema file name (`nvidia.com.schema.ts`, `leaderworkerset.x-k8s.io.schema.ts`, ...). */
  readonly units: { readonly [schemaFile: string]: ImportUnitResult };
}

/** Checks that the marker names are types of the Kubernetes import of cdk8s-plus-34. */
function checkK8sMappings(): void {
  const k8sTypes = path.join(path.dirname(require.resolve('cdk8s-plus-34')), 'imports', 'k8s.d.ts');
  const text = fs.readFileSync(k8sTypes, 'utf8');
  for (const unit of UNITS) {
    for (const [prop, mapping] of Object.entries(unit.embedded)) {
      const declared = mapping.shape === 'intOrString'
        ? text.includes(`export declare class ${mapping.k8sType} {`)
        : text.includes(`export interface ${mapping.k8sType} {`);
      if (!declared) {
        throw new Error(`${unit.schemaFile} embedded.${prop}: k8s.${mapping.k8sType} is not declared in ${k8sTypes}`);
      }
    }
  }
}

/** The root keywords of a CRD schema kept in the compact schema (besides its properties). */
const ROOT_KEYWORDS = ['required', 'x-kubernetes-validations'] as const;

/** Generates the compact schema text of one unit. */
function generateUnit(crdDir: string, unit: ImportUnit): string {
  const kinds = unit.sources.map(s => loadKind(crdDir, s, unit.version));

  const registry = new Registry();
  const compactRoots = new Map<LoadedKind, SchemaNode>();
  for (const kind of kinds) {
    const spec = kind.root.properties.spec;
    assertNoUnmappedK8s(spec, `${kind.source.kind}.spec`, unit.embedded, unit.crdOwned);
    const compactSpec = compactSchema(spec, 'spec', `${kind.source.kind}.spec`, unit.embedded);
    compactRoots.set(kind, compactSpec);
    collect(registry, kind.source.kind, spec, compactSpec, ['spec']);
  }
  const roots = new Map<string, readonly string[]>();
  for (const s of unit.sources) {
    if (s.componentRoot) {
      roots.set(s.kind, s.componentRoot);
    }
  }
  nameGroups(registry.groups, roots);

  // one schema constant per kind (the DGD and DCD for Dynamo)
  const schemaRoots = kinds.map(k => {
    const compactSpec = compactRoots.get(k)!;
    // the root's own constraints (e.g. the PodCliqueSet's required spec and its CEL rules on the whole object)
    const rawRoot: { [key: string]: any } = { type: 'object' };
    for (const key of ROOT_KEYWORDS) {
      if (k.root[key] !== undefined) {
        rawRoot[key] = k.root[key];
      }
    }
    const rootNode = compactSchema(rawRoot, undefined, k.source.kind, unit.embedded);
    const raw: RawSchema = {
      ...rawRoot,
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec: k.root.properties.spec },
    };
    const compact: SchemaNode = {
      ...rootNode,
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec: compactSpec },
    };
    return { constName: k.source.schemaConst, tree: { raw, node: compact } };
  });
  const schemaHeader = `// generated by scripts/import-crds.ts from ${kinds.map(k => k.source.file).join(', ')}; do not edit`;
  const k8sDefaults = embeddedDefaults(kinds.map(k => k.root.properties.spec), unit.embedded);
  return renderSchemaFile(unit, schemaHeader, registry, schemaRoots, k8sDefaults);
}

/**
 * Generates the compact schema of each unit into `outDir` from the CRD files in `crdDir`:
 * `nvidia.com.schema.ts`, `leaderworkerset.x-k8s.io.schema.ts`, `grove.io.schema.ts` and
 * `nvidia.com.snapshot.schema.ts`. Nothing is written when a unit fails.
 */
export function importCrds(crdDir: string, outDir: string): ImportResult {
  checkK8sMappings();
  const generated = UNITS.map(unit => ({ unit, schemaText: generateUnit(crdDir, unit) }));

  fs.mkdirSync(outDir, { recursive: true });
  const files: string[] = [];
  let totalBytes = 0;
  const units: { [schemaFile: string]: ImportUnitResult } = {};
  for (const { unit, schemaText } of generated) {
    const file = path.join(outDir, unit.schemaFile);
    fs.writeFileSync(file, schemaText);
    const bytes = Buffer.byteLength(schemaText);
    files.push(file);
    totalBytes += bytes;
    units[unit.schemaFile] = { file, bytes };
  }
  return { files, totalBytes, units };
}

/** The project root (the folder above scripts/). */
export const PROJECT_ROOT = path.resolve(__dirname, '..');

/** The CRD folder: `$DYNAMO_CRDS_DIR`, or `../shared/crds` relative to the project root. */
export function defaultCrdDir(): string {
  return process.env.DYNAMO_CRDS_DIR || path.resolve(PROJECT_ROOT, '..', 'shared', 'crds');
}

function main(): void {
  const crdDir = defaultCrdDir();
  const outDir = path.join(PROJECT_ROOT, 'imports');
  const result = importCrds(crdDir, outDir);
  for (const file of result.files) {
    console.log(`wrote ${path.relative(PROJECT_ROOT, file)} (${fs.statSync(file).size} bytes)`);
  }
  for (const unit of UNITS) {
    const { bytes } = result.units[unit.schemaFile];
    if (unit.sizeBudget !== undefined && bytes > unit.sizeBudget) {
      console.error(`${unit.schemaFile} (${bytes} bytes) exceeds its size budget of ${unit.sizeBudget} bytes`);
      process.exitCode = 1;
    }
  }
  console.log(`imports from ${crdDir}: ${result.totalBytes} bytes in total (budget ${IMPORTS_SIZE_BUDGET})`);
  if (result.totalBytes > IMPORTS_SIZE_BUDGET) {
    console.error(`the generated imports exceed the size budget of ${IMPORTS_SIZE_BUDGET} bytes`);
    process.exitCode = 1;
  }
}

if (require.main === module) {
  main();
}
