/**
 * What an input document must be before anything reads it as an object: a mapping with
 * `apiVersion` and `kind` (as kubectl requires), and, for the Dynamo API group, a kind and version
 * the group has (a misspelled Dynamo kind would otherwise pass on as an unknown kind, unchecked).
 */
import { editDistance } from '../model/did-you-mean';
import { isMap, stringAt } from '../model/json';

const DYNAMO_GROUP = 'nvidia.com';
/** The API server refuses a request body (one object, as JSON) larger than this. */
export const MAX_OBJECT_BYTES = 3 * 1024 * 1024;
const DYNAMO_VERSIONS = ['v1alpha1', 'v1beta1'];
/** The kinds a misspelling is compared with. */
const DYNAMO_KINDS = ['DynamoGraphDeployment', 'DynamoComponentDeployment'];

/** Why a document cannot be taken as a Kubernetes object, or undefined. `index` counts from 0. */
export function documentShapeProblem(doc: unknown, index: number): string | undefined {
  return objectShapeProblem(doc, `document ${index + 1}`);
}

/** `documentShapeProblem` of an object at `where` in its file (`document 1: items[2]` for an item of a list). */
export function objectShapeProblem(doc: unknown, where: string): string | undefined {
  if (!isMap(doc)) return `${where}: not an object: a Kubernetes object is a mapping with apiVersion and kind`;
  const apiVersion = doc.apiVersion;
  const kind = doc.kind;
  if (kind === undefined || kind === null || kind === '') return `${where}: kind: Required value: every object needs apiVersion and kind`;
  if (typeof kind !== 'string') return `${where}: kind: Invalid value: must be a string`;
  if (apiVersion === undefined || apiVersion === null || apiVersion === '') return `${where}: apiVersion: Required value: every object needs apiVersion and kind`;
  if (typeof apiVersion !== 'string') return `${where}: apiVersion: Invalid value: must be a string`;
  const name = stringAt(doc.metadata, 'name');
  const object = `${where} (${kind}${name !== undefined ? `/${name}` : ''})`;
  const size = Buffer.byteLength(JSON.stringify(doc), 'utf8');
  if (size > MAX_OBJECT_BYTES) {
    return `${object}: Too long: the object is ${size} bytes as JSON; the API server accepts at most ${MAX_OBJECT_BYTES} bytes (3 MiB) per request`;
  }
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  if (DYNAMO_KINDS.includes(kind)) {
    if (group !== DYNAMO_GROUP || !DYNAMO_VERSIONS.includes(version)) {
      return `${object}: apiVersion: Unsupported value: "${apiVersion}": ${kind} is served as ${DYNAMO_VERSIONS.map(v => `"${DYNAMO_GROUP}/${v}"`).join(', ')}`;
    }
    return undefined;
  }
  const near = DYNAMO_KINDS.find(known => closeTo(kind, known));
  if (near !== undefined && (group === DYNAMO_GROUP || group === '')) {
    return `${object}: kind: Unsupported value: "${kind}": not a kind of ${DYNAMO_GROUP}; did you mean "${near}"?`;
  }
  return undefined;
}

/** Whether two kind names differ by case or by at most three single-character edits (a swap of two neighbours is two). */
function closeTo(a: string, b: string): boolean {
  return editDistance(a.toLowerCase(), b.toLowerCase(), 3, false) <= 3;
}
