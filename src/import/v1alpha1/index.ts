/**
 * Conversion of nvidia.com/v1alpha1 DynamoGraphDeployment and DynamoComponentDeployment
 * documents to nvidia.com/v1beta1, as the API server converts them through the operator's
 * conversion webhook (see `convert.ts` for the mapping).
 *
 * A document is first read as the API server reads a v1alpha1 request: null fields pruned, the
 * v1alpha1 schema's defaults applied, every field checked against the v1alpha1 API (a field it
 * does not have, or a value of the wrong type, is a problem naming the field, and nothing is
 * converted). Data the conversion would drop without keeping it anywhere (a resource quantity that
 * does not parse, an `extraPodSpec` container named `main`) is a problem too. Data v1beta1 has no
 * field for but the webhook keeps in its preservation annotation is converted and named in a
 * notice.
 *
 * Internal module.
 */
import { componentAlphaProblems, componentAlphaWarnings, graphAlphaProblems } from './alpha-admission';
import { convertComponentObject, ConvertedObject, convertGraphObject, V1BETA1 } from './convert';
import { GoMap } from './go-view';
import { DCD_SPEC_ANNOTATION, DGD_SPEC_ANNOTATION } from './preservation';
import { defaultedComponentSpec, defaultedGraphSpec, defaultedStatus, FieldProblem, readAs } from './read';
import { isMap, JsonMap, stringAt } from '../../model/json';

export { DCD_SPEC_ANNOTATION, DCD_STATUS_ANNOTATION, DGD_SPEC_ANNOTATION, DGD_STATUS_ANNOTATION } from './preservation';

export const V1ALPHA1 = 'nvidia.com/v1alpha1';
const DGD_KIND = 'DynamoGraphDeployment';
const DCD_KIND = 'DynamoComponentDeployment';
const TOP_LEVEL_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);

/** Whether the document is a nvidia.com/v1alpha1 DynamoGraphDeployment or DynamoComponentDeployment. */
export function isV1alpha1DynamoDocument(doc: unknown): doc is JsonMap {
  return isMap(doc) && doc.apiVersion === V1ALPHA1 && (doc.kind === DGD_KIND || doc.kind === DCD_KIND);
}

/** The outcome of converting one document. Problems, notices and admission problems start with `Kind/name: `. */
export interface DocumentConversion {
  /** The nvidia.com/v1beta1 document, unless there are problems. */
  readonly document?: JsonMap;
  /** Why the document cannot be converted: `Kind/name: path: message`. */
  readonly problems: string[];
  /** Data of the document v1beta1 has no field for (kept only in the preservation annotation), and deprecation warnings. */
  readonly notices: string[];
  /**
   * What the operator's webhook refuses in the v1alpha1 request itself (admission rule 148, with
   * v1alpha1 field paths): `Kind/name: path: message (rule 148)`. Checked by `validate` and `render`.
   */
  readonly admissionProblems: string[];
}

/** `apiVersion Kind/name` of the input, for messages. */
export function describeAlphaDocument(doc: JsonMap): string {
  return `${doc.kind}/${stringAt(doc.metadata, 'name') ?? ''}`;
}

/** Converts a nvidia.com/v1alpha1 DynamoGraphDeployment or DynamoComponentDeployment (see the module comment). */
export function convertV1alpha1Document(doc: JsonMap): DocumentConversion {
  const ref = describeAlphaDocument(doc);
  const graph = doc.kind === DGD_KIND;
  const problems: FieldProblem[] = [];
  for (const key of Object.keys(doc)) {
    if (!TOP_LEVEL_FIELDS.has(key) && doc[key] !== undefined) problems.push({ path: key, message: `unknown field ${JSON.stringify(key)}` });
  }
  if (doc.metadata !== undefined && doc.metadata !== null && !isMap(doc.metadata)) problems.push({ path: 'metadata', message: 'Invalid value: must be an object' });
  const spec = graph ? readGraphSpec(doc.spec, problems) : readComponentSpec(doc.spec, problems);
  let status: GoMap | undefined;
  if (doc.status !== undefined && doc.status !== null) status = readAs(defaultedStatus(doc.status, graph), graph ? 'A1DGDStatus' : 'A1DCDStatus', 'status', problems);
  const format = (p: FieldProblem, rule?: string) => `${ref}: ${p.path}: ${p.message}${rule ? ` (rule ${rule})` : ''}`;
  if (problems.length > 0 || spec === undefined) return { problems: problems.map(p => format(p)), notices: [], admissionProblems: [] };

  const converted = graph ? convertGraphObject(doc.metadata, spec, status) : convertComponentObject(doc.metadata, spec, status);
  if (converted.losses.length > 0) return { problems: converted.losses.map(p => format(p)), notices: [], admissionProblems: [] };
  const admission = graph ? graphAlphaProblems(spec) : componentAlphaProblems(spec);
  return {
    document: documentOf(doc, converted),
    problems: [],
    notices: noticesOf(spec, converted, graph).map(n => `${ref}: ${n}`),
    admissionProblems: admission.map(p => format(p, '148')),
  };
}

function readGraphSpec(input: unknown, problems: FieldProblem[]): GoMap | undefined {
  if (input !== undefined && input !== null && !isMap(input)) {
    problems.push({ path: 'spec', message: 'Invalid value: must be an object' });
    return undefined;
  }
  const { services, ...rest } = defaultedGraphSpec(input ?? {}) as JsonMap;
  const spec = readAs(rest, 'A1DGDSpec', 'spec', problems);
  if (services === undefined) return spec;
  if (!isMap(services)) {
    problems.push({ path: 'spec.services', message: 'Invalid value: must be an object' });
    return undefined;
  }
  const read: GoMap = {};
  for (const [name, svc] of Object.entries(services)) read[name] = readAs(svc, 'A1SharedSpec', `spec.services[${name}]`, problems);
  if (spec) spec.services = read;
  return spec;
}

function readComponentSpec(input: unknown, problems: FieldProblem[]): GoMap | undefined {
  if (input !== undefined && input !== null && !isMap(input)) {
    problems.push({ path: 'spec', message: 'Invalid value: must be an object' });
    return undefined;
  }
  const spec = defaultedComponentSpec(input ?? {}) as JsonMap;
  // the v1alpha1 DynamoComponentDeployment schema has no multinode roles (only nodeCount)
  for (const role of ['leader', 'worker']) {
    if (isMap(spec.multinode) && spec.multinode[role] !== undefined) {
      problems.push({ path: `spec.multinode.${role}`, message: `unknown field "spec.multinode.${role}"` });
    }
  }
  if (problems.length > 0) return undefined;
  return readAs(spec, 'A1DCDSpec', 'spec', problems);
}

function documentOf(input: JsonMap, converted: ConvertedObject): JsonMap {
  const out: JsonMap = { apiVersion: V1BETA1, kind: input.kind };
  if (input.metadata !== undefined || Object.keys(converted.metadata).length > 0) out.metadata = converted.metadata;
  out.spec = converted.spec;
  if (converted.status !== undefined) out.status = converted.status;
  return out;
}

/** The names of the v1alpha1 component's volume mounts flagged as compilation cache, in order. */
function compilationCacheMounts(src: GoMap): string[] {
  const mounts: unknown[] = Array.isArray(src.volumeMounts) ? src.volumeMounts : [];
  return mounts.filter((m): m is GoMap => isMap(m) && m.useAsCompilationCache === true).map(m => JSON.stringify(m.name ?? ''));
}

/** The fields whose data only the preservation annotation keeps, and the webhook's deprecation warnings. */
function noticesOf(spec: GoMap, converted: ConvertedObject, graph: boolean): string[] {
  const annotation = graph ? DGD_SPEC_ANNOTATION : DCD_SPEC_ANNOTATION;
  const kept = `has no v1beta1 field; kept only in annotation ${annotation}`;
  const out: string[] = [];
  const save = converted.savedSpec;
  if (save.pvcs !== undefined) out.push(`spec.pvcs: ${kept} (the operator creates the PersistentVolumeClaims marked create: true and fails to reconcile the graph while any other is missing from the namespace)`);
  const components: Array<[string, GoMap, GoMap]> = graph
    ? Object.entries((save.services ?? {}) as GoMap).filter(([, s]) => s !== null).map(([name, s]) => [`spec.services[${name}]`, s, spec.services?.[name] ?? {}])
    : [['spec', save, spec]];
  for (const [path, s, src] of components) {
    for (const field of ['subComponentType', 'ingress', 'annotations', 'labels']) {
      if (s[field] !== undefined) out.push(`${path}.${field}: ${kept}`);
    }
    if (s.serviceName !== undefined) out.push(`${path}.serviceName: ${JSON.stringify(s.serviceName)} differs from the service key; the v1beta1 component is named by the key, the value is kept only in annotation ${annotation}`);
    const [cache, ...others] = compilationCacheMounts(src);
    if (others.length > 0) {
      out.push(`${path}.volumeMounts: only the first mount with useAsCompilationCache (${cache}) becomes compilationCache; the others `
        + `(${others.join(', ')}) are plain mounts of the main container, their flag kept only in annotation ${annotation}`);
    }
    out.push(...componentAlphaWarnings(src, path));
  }
  return out;
}
