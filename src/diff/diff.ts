/**
 * The difference between two renderings (lists of Kubernetes objects) with its rollout impact: the
 * objects added, removed and modified, the fields that changed, and whether the change replaces
 * pods.
 *
 * - Objects are matched by apiVersion, kind, namespace and name (the n-th object of a key in the old
 *   rendering with the n-th of the new one).
 * - A worker-hash rollout: the operator names the objects of a worker component after the graph's
 *   worker hash (`<graph>-<component>-<hash>`) and rolls out a worker change as new objects. An
 *   object removed and one added of the same apiVersion, kind and namespace whose names are equal
 *   once the worker hash is taken out (the same graph and component) are one entry: `modified`,
 *   named by the new name, with `previousName` and `rollout: 'new worker hash'`; its fields are
 *   those that differ besides the worker hash itself (the old object is compared with its hash
 *   replaced by the new one). It replaces pods when its kind runs pods.
 * - The operator's `nvidia.com/last-applied-hash` annotation, a digest of the rest of the object, is
 *   a changed field only when nothing else changed, and never of a worker-hash rollout.
 * - `restartsPods` of a workload: see `workloadRestarts` (pod-template fields). Of a
 *   DynamoGraphDeployment or DynamoComponentDeployment: whether any workload the operator creates for
 *   it (`belongsTo`) replaces pods, judged on the workloads rendering of both sides; without one,
 *   on its own fields (`dynamoFieldsRestart`). Objects added or removed replace no pods (they start
 *   or stop them), nor do objects of kinds without pods.
 *
 * Internal module.
 */
import { changedFields } from './object-diff';
import {
  belongsTo, dynamoFieldsRestart, identityOf, isDynamoKind, ObjectIdentity, replaceInStrings, runsPods, withoutWorkerHash,
  workerHashes, workloadRestarts,
} from './rollout';
import { ANNOTATION_LAST_APPLIED_HASH } from '../model/well-known';

export type ChangeKind = 'added' | 'removed' | 'modified';

/** One object that differs. */
export interface DiffEntry {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /** Absent for cluster-scoped objects and objects that name none. */
  readonly namespace?: string;
  readonly change: ChangeKind;
  readonly restartsPods: boolean;
  /** The changed fields of a modified object (none for added and removed ones). */
  readonly fields: readonly string[];
  /** A worker-hash rollout: the name of the object it replaces. */
  readonly previousName?: string;
  /** A worker-hash rollout: `new worker hash`. */
  readonly rollout?: 'new worker hash';
}

/** The renderings of both sides in workloads output, which the rollout of Dynamo resources is read from. */
export interface WorkloadRenderings {
  readonly before: readonly unknown[];
  readonly after: readonly unknown[];
}

interface Compared {
  readonly entry: DiffEntry;
  readonly before?: unknown;
  readonly after?: unknown;
}

/**
 * The objects of `after` that differ from `before`. `workloads`: both sides rendered in workloads
 * output (the same arrays when `before` and `after` are that rendering), to judge the rollout of
 * Dynamo resources from; undefined when it could not be rendered.
 */
export function diffRenderings(before: readonly unknown[], after: readonly unknown[], workloads?: WorkloadRenderings): DiffEntry[] {
  const compared = compareObjects(before, after);
  const view = workloads === undefined ? undefined
    : workloads.before === before && workloads.after === after ? compared : compareObjects(workloads.before, workloads.after);
  const owned = workloads === undefined ? [] : [...workloads.before, ...workloads.after].map(identityOf);
  return compared.map(({ entry, before: old, after: now }) => {
    if (entry.change !== 'modified' || entry.rollout !== undefined || !isDynamoKind(entry.apiVersion, entry.kind)) return entry;
    const owner = now ?? old;
    const mine = (identity: ObjectIdentity): boolean => belongsTo(owner, identity);
    // the workloads the operator creates for it replace pods, or it has none rendered: its own fields say
    const restartsPods = view !== undefined && owned.some(mine)
      ? view.some(c => c.entry.restartsPods && mine(identityOf(c.after ?? c.before)))
      : dynamoFieldsRestart(entry.kind, entry.fields);
    return { ...entry, restartsPods };
  });
}

/** The identifying part of an entry. */
function baseOf(identity: ObjectIdentity): Pick<DiffEntry, 'apiVersion' | 'kind' | 'name' | 'namespace'> {
  const base = { apiVersion: identity.apiVersion, kind: identity.kind, name: identity.name };
  return identity.namespace === undefined ? base : { ...base, namespace: identity.namespace };
}

function keyOf(identity: ObjectIdentity): string {
  return JSON.stringify([identity.apiVersion, identity.kind, identity.namespace ?? '', identity.name]);
}

/** The entries of the objects that differ, the objects of both sides with them. */
function compareObjects(before: readonly unknown[], after: readonly unknown[]): Compared[] {
  // the n-th object of a key in `before` pairs with the n-th of the same key in `after`
  const pending = new Map<string, number[]>();
  before.forEach((object, index) => {
    const key = keyOf(identityOf(object));
    pending.set(key, [...(pending.get(key) ?? []), index]);
  });
  const pairedBefore = new Set<number>();
  const pairs: Array<{ afterIndex: number; beforeIndex?: number }> = after.map((object, afterIndex) => {
    const queue = pending.get(keyOf(identityOf(object)));
    const beforeIndex = queue?.shift();
    if (beforeIndex !== undefined) pairedBefore.add(beforeIndex);
    return { afterIndex, beforeIndex };
  });
  const removed = before.map((_, i) => i).filter(i => !pairedBefore.has(i));

  // worker-hash rollouts: a removed and an added object with the same name but for the worker hash
  const oldHashes = workerHashes(before);
  const newHashes = workerHashes(after);
  const replaced = new Map<number, { beforeIndex: number; oldHash: string; newHash: string }>();
  const replacedBefore = new Set<number>();
  for (const pair of pairs) {
    if (pair.beforeIndex !== undefined) continue;
    const added = identityOf(after[pair.afterIndex]);
    const addedName = withoutWorkerHash(added.name, newHashes);
    if (addedName === undefined) continue;
    const match = removed.find(i => {
      if (replacedBefore.has(i)) return false;
      const old = identityOf(before[i]);
      const oldName = withoutWorkerHash(old.name, oldHashes);
      return oldName !== undefined && oldName.hash !== addedName.hash && oldName.stem === addedName.stem
        && old.apiVersion === added.apiVersion && old.kind === added.kind && old.namespace === added.namespace;
    });
    if (match === undefined) continue;
    replacedBefore.add(match);
    const oldHash = withoutWorkerHash(identityOf(before[match]).name, oldHashes)!.hash;
    replaced.set(pair.afterIndex, { beforeIndex: match, oldHash, newHash: addedName.hash });
  }

  const out: Compared[] = [];
  for (const { afterIndex, beforeIndex } of pairs) {
    const now = after[afterIndex];
    const identity = identityOf(now);
    const base = baseOf(identity);
    const rollout = replaced.get(afterIndex);
    if (rollout !== undefined) {
      const old = before[rollout.beforeIndex];
      // the digest covers the worker hash too: it is no change of its own here
      const fields = changedFields(replaceInStrings(old, rollout.oldHash, rollout.newHash), now).filter(field => field !== DIGEST_FIELD);
      out.push({
        entry: { ...base, change: 'modified', restartsPods: runsPods(identity.apiVersion, identity.kind), fields, previousName: identityOf(old).name, rollout: 'new worker hash' },
        before: old,
        after: now,
      });
      continue;
    }
    if (beforeIndex === undefined) {
      out.push({ entry: { ...base, change: 'added', restartsPods: false, fields: [] }, after: now });
      continue;
    }
    const old = before[beforeIndex];
    const fields = withoutDigest(changedFields(old, now));
    if (fields.length === 0) continue;
    const restartsPods = workloadRestarts(identity.apiVersion, identity.kind, fields) ?? false;
    out.push({ entry: { ...base, change: 'modified', restartsPods, fields }, before: old, after: now });
  }
  for (const beforeIndex of removed) {
    if (replacedBefore.has(beforeIndex)) continue;
    const old = before[beforeIndex];
    out.push({ entry: { ...baseOf(identityOf(old)), change: 'removed', restartsPods: false, fields: [] }, before: old });
  }
  return out;
}

const DIGEST_FIELD = `metadata.annotations[${ANNOTATION_LAST_APPLIED_HASH}]`;

/**
 * The changed fields without the operator's `nvidia.com/last-applied-hash` annotation, a digest of
 * the object that changes with every other field, unless it is the only change.
 */
function withoutDigest(fields: string[]): string[] {
  const others = fields.filter(field => field !== DIGEST_FIELD);
  return others.length > 0 ? others : fields;
}

/** `Kind/namespace/name`, or `Kind/name` without a namespace. */
export function describeEntry(entry: DiffEntry): string {
  return entry.namespace === undefined ? `${entry.kind}/${entry.name}` : `${entry.kind}/${entry.namespace}/${entry.name}`;
}

/**
 * One line per object: `+ Kind/ns/name` added, `- Kind/ns/name` removed,
 * `~ Kind/ns/name (restarts pods): field, field` modified; a worker-hash rollout reads
 * `~ Kind/ns/new-name (restarts pods; new worker hash, was old-name): field, ...`. No differences:
 * nothing.
 */
export function formatDiffText(entries: readonly DiffEntry[]): string {
  return entries.map(entry => {
    const sign = entry.change === 'added' ? '+' : entry.change === 'removed' ? '-' : '~';
    const notes: string[] = [];
    if (entry.restartsPods) notes.push('restarts pods');
    if (entry.rollout !== undefined) notes.push(`${entry.rollout}, was ${entry.previousName}`);
    const note = notes.length === 0 ? '' : ` (${notes.join('; ')})`;
    const fields = entry.fields.length === 0 ? '' : `: ${entry.fields.join(', ')}`;
    return `${sign} ${describeEntry(entry)}${note}${fields}\n`;
  }).join('');
}

/** The JSON entry of the command: `{kind, name, namespace, change, restartsPods, fields}` (+ `previousName`, `rollout`). */
export function diffEntryJson(entry: DiffEntry): Record<string, unknown> {
  return {
    kind: entry.kind,
    name: entry.name,
    namespace: entry.namespace ?? null,
    change: entry.change,
    restartsPods: entry.restartsPods,
    fields: [...entry.fields],
    ...(entry.rollout !== undefined ? { rollout: entry.rollout, previousName: entry.previousName } : {}),
  };
}

/** The entries as a JSON array (`[]` for none), indented, with a final newline. */
export function formatDiffJson(entries: readonly DiffEntry[]): string {
  return `${JSON.stringify(entries.map(diffEntryJson), null, 2)}\n`;
}
