/**
 * Synth-time admission check of an UPDATE of a DynamoGraphDeployment or DynamoComponentDeployment
 * (nvidia.com/v1beta1): the operator's update-only webhook rules (WH-U: immutability and
 * transition rules, rows 7, 8, 13, 18, 27, 34, 40, 48, 50, 66, 68, 69, 75, 76, 88, 97, 98, 106,
 * 119, 127, 128, 130) on the old and the new object, plus the create-time rules the webhooks re-run
 * on the new object.
 *
 * The CRD's CEL rules run with the stored object: transition rules (rows 44 and 63, `oldSelf`)
 * apply and unchanged values are not re-checked (ratcheting). Not covered here: rules that read
 * the cluster.
 */
import { inDocumentOrder } from './document-order';
import { admitNew, admitOld } from './update/admit-update';
import { checkComponentDeploymentUpdate, checkGraphUpdate } from './update/graph-update-rules';
import { checkNewObjectOnUpdate, isTerminating } from './update/new-object-rules';
import { UpdateOptions } from './update/update-options';
import { DCD_KIND_NAME, DGD_KIND_NAME, SUPPORTED_API_VERSION, unexpectedFailure, validateDocument } from './validate';
import { attachObject, ViolationSink } from './violation';
import { isMap, JsonMap, mapAt, stringAt } from '../model/json';
import { Violation } from '../model/violation-report';

export type { UpdateOptions, SubmitMode, OldSource } from './update/update-options';
export { admitNew, admitOld } from './update/admit-update';
export { checkNewObjectOnUpdate } from './update/new-object-rules';

const KINDS = [DGD_KIND_NAME, DCD_KIND_NAME];

/**
 * Every update-only rule (WH-U) the change from `oldDoc` to `newDoc` breaks. Both documents are
 * the admitted objects as the validating webhook sees them (see `admitOld` / `admitNew`) and of the
 * same kind. Nothing is checked when the new object is being deleted (it carries a
 * `metadata.deletionTimestamp`), as the operator lets such updates through.
 */
export function checkUpdateRules(oldDoc: JsonMap, newDoc: JsonMap, options: UpdateOptions, sink: ViolationSink): void {
  if (isTerminating(newDoc)) return;
  if (newDoc.kind === DGD_KIND_NAME) {
    checkGraphUpdate(newDoc, oldDoc, options, sink);
  } else {
    checkComponentDeploymentUpdate(newDoc, oldDoc, options, sink);
  }
}

/**
 * Every admission rule an UPDATE from `oldDoc` to `newDoc` breaks, in document order of the new
 * object: the create-time rules as the webhooks re-run them on the new object, and the update-only
 * rules. `oldDoc` is the object as stored or the manifest it was created from (see
 * `UpdateOptions.oldSource`); `newDoc` is the manifest applied now (see `UpdateOptions.submit`).
 * When `oldDoc` is not a supported object of the same kind (and apiVersion), `newDoc` is validated
 * as on create. Never throws; the inputs are not modified.
 */
export function validateUpdate(oldDoc: unknown, newDoc: unknown, options: UpdateOptions = {}): Violation[] {
  if (!isSupported(newDoc) || !isSupported(oldDoc) || oldDoc.kind !== newDoc.kind) {
    return validateDocument(newDoc, options);
  }
  const kind = stringAt(newDoc, 'kind') ?? '';
  const name = stringAt(mapAt(newDoc, 'metadata'), 'name') ?? '';
  try {
    const previous = admitOld(oldDoc, options);
    const next = admitNew(newDoc, previous, options);
    if (isTerminating(previous) && !isTerminating(next)) {
      // the API server keeps the deletion timestamp of the stored object
      const metadata = mapAt(next, 'metadata');
      if (metadata) metadata.deletionTimestamp = mapAt(previous, 'metadata')?.deletionTimestamp;
    }
    const sink = new ViolationSink();
    checkUpdateRules(previous, next, options, sink);
    const records = [...checkNewObjectOnUpdate(next, previous, options), ...sink.all];
    return inDocumentOrder(records, next).map((record) => attachObject(record, kind, name, next));
  } catch (error) {
    return unexpectedFailure(error, kind, name);
  }
}

function isSupported(doc: unknown): doc is JsonMap {
  return isMap(doc) && doc.apiVersion === SUPPORTED_API_VERSION && KINDS.includes(String(doc.kind)) && isMap(doc.metadata) && isMap(doc.spec);
}
