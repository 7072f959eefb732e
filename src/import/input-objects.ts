/**
 * The objects of input documents as kubectl sends them to the API server.
 *
 * - Lists: kubectl (apimachinery's unstructured JSON decoding, `staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/helpers.go`)
 *   reads every document with an `items` field as a list and applies each item as an object of
 *   its own; an item without `kind` and `apiVersion` takes the list's apiVersion and its kind
 *   without the `List` suffix (a `DynamoGraphDeploymentList` of `kubectl get --raw`). What
 *   `kubectl get dgd -o yaml` prints (`apiVersion: v1`, `kind: List`) is such a list, and an item
 *   may itself be a list. `flattenLists` turns each document into the objects kubectl would send,
 *   each with its place (`document 1: items[2]`, `document 1: items[0].items[1]`).
 * - Duplicates: the API server keeps one object per API group, kind, namespace and name; a second
 *   input object with the same four would replace the first (`kubectl apply` applies both, the last
 *   one wins). `duplicateObjects` names both places of each such pair.
 */
import { objectShapeProblem } from './document-kinds';
import { isMap, JsonMap, stringAt } from '../model/json';
import { isClusterScopedKind } from '../model/well-known';

/** One object of an input file: a document, or an item of a list document (nested lists flattened). */
export interface InputObject {
  readonly value: unknown;
  /** Where it is in its file: `document 1`, or `document 1: items[2]` (`document 1: items[0].items[1]`) for a list item. */
  readonly place: string;
  /** Whether it is an item of a list document. */
  readonly inList: boolean;
}

/** Whether kubectl reads the document as a list: it has an `items` field that is not null. */
export function isListDocument(doc: unknown): doc is JsonMap {
  return isMap(doc) && doc.items !== undefined && doc.items !== null;
}

/** `Kind/name` of a document, as the problems name it. */
function kindAndName(doc: unknown): string {
  const kind = isMap(doc) ? stringAt(doc, 'kind') ?? '' : '';
  const name = isMap(doc) ? stringAt(doc.metadata, 'name') : undefined;
  return name === undefined ? kind : `${kind}/${name}`;
}

/**
 * The objects of `docs`, every list replaced by its items (in order, nested lists too), and the
 * problems of lists kubectl could not read or would read otherwise than they look (each a line
 * starting with the place).
 */
export function flattenLists(docs: readonly unknown[]): { objects: InputObject[]; problems: string[] } {
  const objects: InputObject[] = [];
  const problems: string[] = [];
  const visit = (value: unknown, document: number, itemPath: string): void => {
    const place = itemPath === '' ? `document ${document + 1}` : `document ${document + 1}: ${itemPath}`;
    if (!isListDocument(value)) {
      objects.push({ value, place, inList: itemPath !== '' });
      return;
    }
    const kind = stringAt(value, 'kind') ?? '';
    const what = kindAndName(value);
    const at = what === '' ? place : `${place} (${what})`;
    if (!kind.endsWith('List')) {
      // kubectl would apply the items and drop the object itself: nothing of it may be lost unsaid
      problems.push(`${at}: items: Invalid value: kubectl reads a document with an items field as a list of objects and drops `
        + `everything else in it; a ${kind === '' ? 'document without a kind' : kind} is not a list kind (KindList): remove items, or write the objects as documents of their own`);
      return;
    }
    const items = value.items;
    if (!Array.isArray(items)) {
      problems.push(`${at}: items: Invalid value: ${typeof items}: must be a list of objects`);
      return;
    }
    const apiVersion = value.apiVersion;
    const itemKind = kind.slice(0, -'List'.length);
    items.forEach((item, i) => {
      const path = `${itemPath === '' ? '' : `${itemPath}.`}items[${i}]`;
      // an item of a typed list (the API server leaves kind and apiVersion out of them) is of the list's kind
      const typed = isMap(item) && item.kind === undefined && item.apiVersion === undefined && itemKind !== '' && apiVersion !== undefined
        ? { apiVersion, kind: itemKind, ...item } : item;
      visit(typed, document, path);
    });
  };
  docs.forEach((doc, document) => visit(doc, document, ''));
  return { objects, problems };
}

/** The objects of one input file. */
export interface InputFileObjects {
  readonly file: string;
  readonly objects: ReadonlyArray<Pick<InputObject, 'value' | 'place'>>;
}

/**
 * Problems for every object that is the same API object (group, kind, namespace, name) as an
 * earlier one of `inputs`, naming both places. `namespace` is the namespace of namespaced objects
 * that name none (`--namespace`); without it, such objects are the same only as others naming none.
 * Objects without a name (`generateName`) are never the same.
 */
export function duplicateObjects(inputs: readonly InputFileObjects[], namespace?: string): string[] {
  const seen = new Map<string, { file: string; object: Pick<InputObject, 'value' | 'place'> }>();
  const problems: string[] = [];
  for (const { file, objects } of inputs) {
    for (const object of objects) {
      const doc = object.value;
      if (!isMap(doc)) continue;
      const apiVersion = stringAt(doc, 'apiVersion');
      const kind = stringAt(doc, 'kind');
      const name = stringAt(doc.metadata, 'name');
      if (apiVersion === undefined || kind === undefined || name === undefined || name === '') continue;
      const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
      const ns = isClusterScopedKind(kind) ? '' : stringAt(doc.metadata, 'namespace') || namespace || '';
      const key = JSON.stringify([group, kind, ns, name]);
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, { file, object });
        continue;
      }
      const where = (f: string, o: Pick<InputObject, 'value' | 'place'>) => `${f}: ${o.place} (${kindAndName(o.value)})`;
      const identity = `group ${group === '' ? '"" (core)' : group}, kind ${kind}, ${isClusterScopedKind(kind) ? 'cluster-scoped' : `namespace ${ns === '' ? '(none given)' : ns}`}, name ${name}`;
      problems.push(`${where(file, object)}: metadata.name: Duplicate value: ${JSON.stringify(name)}: the same object as ${where(first.file, first.object)} `
        + `(${identity}); the API server keeps one of them (kubectl apply applies the second over the first): give each its own name, or remove one`);
    }
  }
  return problems;
}

/**
 * The objects of a file's documents as kubectl sends them (lists flattened) and the problems of any
 * kubectl could not send: a list it reads otherwise than it looks, an object without apiVersion or
 * kind, a misspelled Dynamo kind (each a line starting with the place).
 */
export function inputObjectsOf(docs: readonly unknown[]): { objects: InputObject[]; problems: string[] } {
  const { objects, problems } = flattenLists(docs);
  const shapeProblems = objects.map(o => objectShapeProblem(o.value, o.place)).filter((p): p is string => p !== undefined);
  return { objects, problems: [...problems, ...shapeProblems] };
}
