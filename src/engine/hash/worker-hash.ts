/**
 * The operator's worker hash (`nvidia.com/dynamo-worker-hash`, worker DCD name suffix): the first
 * 8 hex characters of the SHA-256 of the Go JSON of a map from component name to record.
 *
 * A record is a Go struct with fields, in this order: `labels` (map, omitempty), `annotations`
 * (map, omitempty), `runtimeVersion` (string, omitempty) and `spec` (the DCD spec struct, always
 * written, never normalised). The map is written with its keys sorted; no worker components give
 * `{}` and the hash `44136fa3`.
 */
import * as crypto from 'node:crypto';
import { goJsonEncode } from '../../go/marshal';

/** SHA-256 of the UTF-8 bytes of `s`, lowercase hex. */
export function sha256Hex(s: string): string {
  return ONE_SHOT_HASH ? ONE_SHOT_HASH('sha256', s, 'hex') : crypto.createHash('sha256').update(s, 'utf8').digest('hex');
}

/** Node's one-shot `crypto.hash` (Node 20.12 and later; faster for small inputs), when present. */
const ONE_SHOT_HASH: ((algorithm: string, data: string, encoding: 'hex') => string) | undefined =
  typeof (crypto as { hash?: unknown }).hash === 'function' ? (crypto as any).hash : undefined;

export interface WorkerHashRecord {
  /** Workload labels of the worker DCD. */
  labels?: Record<string, string>;
  /** Workload annotations of the worker DCD. */
  annotations?: Record<string, string>;
  /** Canonical MAJOR.MINOR.PATCH runtime version, only when it takes part in the hash. */
  runtimeVersion?: string;
  /**
   * DCD spec wire JSON; the caller has already removed `replicas`, `minAvailable`,
   * `scalingAdapter` and `runtimeVersionOverride`.
   */
  spec: any;
}

/** Layout of one record (see src/go/types.ts for the notation). */
export const WORKER_HASH_TYPES: Readonly<Record<string, string>> = Object.freeze({
  WorkerHashRecord: 'labels?:{}s annotations?:{}s runtimeVersion?:s spec:DynamoComponentDeploymentSpec',
});

/** The Go JSON the worker hash is taken over. */
export function workerHashInput(records: Record<string, WorkerHashRecord>): string {
  return goJsonEncode(records ?? {}, '{}WorkerHashRecord', { types: WORKER_HASH_TYPES, unknownFields: 'append' });
}

/** The 8-hex-character worker hash of the given worker records (keyed by component name). */
export function computeWorkerHash(records: Record<string, WorkerHashRecord>): string {
  return sha256Hex(workerHashInput(records)).slice(0, 8);
}
