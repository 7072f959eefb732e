/**
 * The old and the new object of an UPDATE as the Dynamo validating webhook sees them.
 *
 * - The old object is stored: it went through the create-time admission once (workload-provider
 *   and origin-version annotations, replicas, minAvailable, override targets) and carries the CRD
 *   schema defaults. A manifest given as the old document is admitted as on create first.
 * - The new object gets the CRD schema defaults and the defaulting webhook's UPDATE pass: nothing
 *   is written to the annotations (rows 9, 10 are CREATE only, row 42 too); the provider context is
 *   the workload-provider annotation the object carries (rows 60, 65, 74, 87).
 *
 * Internal module.
 */
import { OldSource, UpdateOptions } from './update-options';
import { has, JsonMap, mapAt, stringAt } from '../../model/json';
import { copyJson } from '../../model/json-copy';
import { ANNOTATION_ORIGIN_VERSION, ANNOTATION_WORKLOAD_PROVIDER } from '../../model/well-known';
import { componentEntries } from '../component-shape';
import { defaultComponentDeployment, defaultGraphDeployment } from '../defaulting';
import { applyStoredDefaults } from '../stored-defaults';
import { DGD_KIND_NAME } from '../validate';

/** Annotations the operator materialises on a graph; `kubectl apply` keeps them when a manifest omits them. */
const OPERATOR_ANNOTATIONS = [ANNOTATION_WORKLOAD_PROVIDER, ANNOTATION_ORIGIN_VERSION];

/** Whether a document looks like an object read back from the API server. */
export function looksStored(doc: JsonMap): boolean {
  const metadata = mapAt(doc, 'metadata');
  return has(metadata, 'resourceVersion') || has(metadata, 'uid') || has(metadata, 'creationTimestamp');
}

/** The old object as stored. The input is not modified. */
export function admitOld(input: JsonMap, options: UpdateOptions): JsonMap {
  const source: OldSource = options.oldSource ?? (looksStored(input) ? 'stored' : 'manifest');
  if (source === 'stored') {
    const doc = copyJson(input);
    applyStoredDefaults(doc);
    return doc;
  }
  return input.kind === DGD_KIND_NAME ? defaultGraphDeployment(input, options).doc : defaultComponentDeployment(input);
}

/** The new object as the validating webhook sees it on UPDATE. The inputs are not modified. */
export function admitNew(input: JsonMap, old: JsonMap, options: UpdateOptions): JsonMap {
  const doc = copyJson(input);
  if ((options.submit ?? 'apply') === 'apply') keepOperatorState(doc, old);
  if (doc.kind === DGD_KIND_NAME) return defaultGraphDeployment(doc, options, 'update').doc;
  applyStoredDefaults(doc);
  return doc;
}

/** The `kubectl apply` view: what the operator (or a scaling adapter) owns and the manifest omits stays. */
function keepOperatorState(doc: JsonMap, old: JsonMap): void {
  const oldAnnotations = mapAt(mapAt(old, 'metadata'), 'annotations');
  const metadata = mapAt(doc, 'metadata');
  if (oldAnnotations && metadata) {
    for (const key of OPERATOR_ANNOTATIONS) {
      const value = oldAnnotations[key];
      if (typeof value !== 'string') continue;
      if (metadata.annotations === undefined || metadata.annotations === null) metadata.annotations = {};
      const annotations = mapAt(metadata, 'annotations');
      if (annotations && !(key in annotations)) annotations[key] = value;
    }
  }
  if (doc.kind !== DGD_KIND_NAME) return;
  const oldByName = componentsByName(mapAt(old, 'spec'));
  for (const { component } of componentEntries(mapAt(doc, 'spec'))) {
    const previous = oldByName.get(stringAt(component, 'name') ?? '');
    if (!previous || has(component, 'replicas') || !has(previous, 'replicas')) continue;
    if (has(component, 'scalingAdapter') || has(previous, 'scalingAdapter')) component.replicas = previous.replicas;
  }
}

/** The components of a DGD spec by name (the first of equal names). */
export function componentsByName(spec: JsonMap | undefined): Map<string, JsonMap> {
  const out = new Map<string, JsonMap>();
  for (const { component } of componentEntries(spec)) {
    const name = stringAt(component, 'name');
    if (name !== undefined && !out.has(name)) out.set(name, component);
  }
  return out;
}
