/**
 * The operator versions this library renders for, and the behaviours that differ between them.
 *
 * A Dynamo operator calls itself by the version it is started with (`--operator-version`, which the
 * Helm chart sets to its `appVersion`). Rendering and admission follow the operator of
 * `OperatorSettings.version`; what that operator does is known from the public history of the
 * Dynamo repository:
 *
 * | version | what it is | verified |
 * | --- | --- | --- |
 * | `1.4.0` | the 1.4.0 release line: the tree of the "bump version to 1.5.0 post 1.4.0 branch cut" commit `c13fdcec6` (2026-08-15) | yes |
 * | `1.5.0` | the main branch of 2026-08-21 (`2a6da14`, charts at 1.5.0), where the operator goldens come from | yes |
 * | `1.6.0` | behaviours known only from single newer files of the repository, after 2026-08-21 | no |
 *
 * Every behaviour that differs is a gate here, at the first version that has it. A version is read
 * by its MAJOR.MINOR.PATCH (a pre-release or build of 1.5.0 counts as 1.5.0); a version between two
 * rows behaves as the lower row; versions before 1.4.0 are not supported.
 */
import { compareVersions, RuntimeVersion } from './runtime-version';

/** The 1.4.0 release line. */
export const OPERATOR_1_4 = '1.4.0';
/** The main branch of 2026-08-21 (charts at 1.5.0): the goldens' operator. */
export const OPERATOR_1_5 = '1.5.0';
/** Behaviours known only from newer single files (unverified against a release). */
export const OPERATOR_NEWER = '1.6.0';

/** One operator version this library renders for. */
export interface SupportedOperatorVersion {
  readonly version: string;
  /** What the version stands for in the public history. */
  readonly source: string;
  /** Whether its behaviour was read from a complete tree of that version. */
  readonly verified: boolean;
}

export const SUPPORTED_OPERATOR_VERSIONS: readonly SupportedOperatorVersion[] = [
  { version: OPERATOR_1_4, source: 'the 1.4.0 release line (public tree at the 1.4.0 branch cut, 2026-08-15)', verified: true },
  { version: OPERATOR_1_5, source: 'the main branch of 2026-08-21 (charts at 1.5.0), the operator goldens', verified: true },
  { version: OPERATOR_NEWER, source: 'newer single files of the repository, after 2026-08-21', verified: false },
];

/** A behaviour that an operator version introduced. */
export interface OperatorGate {
  /** The first operator version with the behaviour. */
  readonly since: string;
  /** What changes from that version on. */
  readonly what: string;
  /** What the older versions do instead. */
  readonly before: string;
}

const GATES = {
  groveWorkerHashSuffix: {
    since: OPERATOR_1_5,
    what: 'Grove worker cliques carry the `nvidia.com/dynamo-worker-hash` label and their pods `DYN_NAMESPACE_WORKER_SUFFIX`; '
      + 'the worker components\' Services carry the label too (Dynamo #12769)',
    before: 'no worker-hash label on Grove cliques, pods or Services, no `DYN_NAMESPACE_WORKER_SUFFIX` on Grove pods',
  },
  groveCheckpointBeforeWorkerHash: {
    since: OPERATOR_1_5,
    what: 'the Grove path reconciles checkpoints before it first records the worker hash (that is recorded after the PodCliqueSet, '
      + 'Dynamo #12769): the first reconcile of a new graph creates the automatic DynamoCheckpoint of each worker-class component '
      + 'without the worker hash, the next one the checkpoint with it, and nothing deletes the first while the graph lives',
    before: 'the Grove path records the worker hash before it reconciles checkpoints: one automatic DynamoCheckpoint per component',
  },
  elasticEpLeaderService: {
    since: OPERATOR_1_5,
    what: 'a single-pod elastic-EP leader on Grove gets the headless Service `<component service>-ray` (Dynamo #13178)',
    before: 'no elastic-EP leader Service',
  },
  providerOverride: {
    since: OPERATOR_1_5,
    what: '`providerOverride` on the graph, its components and their roles: admitted (rows 33, 78-88) and applied to the PodCliqueSet (Dynamo #13273)',
    before: 'the field does not exist: admission reports it as an unknown field',
  },
  snapshotJobCheckpoint: {
    since: OPERATOR_NEWER,
    what: 'automatic checkpoints are Snapshot `SnapshotJob`s, `checkpointRef` names a `PodSnapshot`, restore is gated by a compatibility hash',
    before: 'automatic checkpoints are `nvidia.com/v1alpha1` `DynamoCheckpoint`s named `checkpoint-<id>`; `checkpointRef` names a DynamoCheckpoint',
  },
  runtimeGatedDefaults: {
    since: OPERATOR_NEWER,
    what: 'workers of runtime 1.5.0 or later get liveness `failureThreshold: 3` and `DYN_HEALTH_CHECK_ENABLED=true`; '
      + 'an EPP without `eppConfig` is the native Rust EPP',
    before: 'one worker liveness failure, `DYN_HEALTH_CHECK_ENABLED=false`, and every EPP needs `eppConfig`',
  },
  eppRuntimeContract: {
    since: OPERATOR_NEWER,
    what: 'admission asks `eppConfig` of EPP images before runtime 1.5.0 and refuses it from 1.5.0 on (rows 49, 50)',
    before: 'every EPP component must set `eppConfig` (row 51)',
  },
  standaloneEppRuntimeVersion: {
    since: OPERATOR_NEWER,
    what: 'a standalone EPP DynamoComponentDeployment whose image tag is not a version needs `runtimeVersionOverride` (row 47)',
    before: 'standalone DynamoComponentDeployments may omit `runtimeVersionOverride`',
  },
  nodeCountImmutable: {
    since: OPERATOR_NEWER,
    what: '`multinode.nodeCount` is immutable for every multinode component (row 69)',
    before: 'only a graph component whose stored pod template has the GPU power annotation keeps its node count (row 98)',
  },
  typeImmutable: {
    since: OPERATOR_NEWER,
    what: 'a component `type` cannot change once set (CRD transition rule, row 44)',
    before: 'no transition rule on `type`',
  },
  vllmFlagSpellings: {
    since: OPERATOR_NEWER,
    what: 'the vLLM multinode launch also reads the short aliases `-tp`, `-pp`, `-dp`, `-dpl`, `-dpb`, underscore spellings '
      + '(`--tensor_parallel_size`) and `flag=value` in `args`; the wait-for-leader init container also follows those spellings '
      + 'of `--distributed-executor-backend mp`',
    before: 'the multinode launch reads only the exact long flags as separate words of `args` (`--tensor-parallel-size 16`): '
      + '`-tp 16` or `--tensor-parallel-size=16` is not read, so that size counts as 1; wait-for-leader needs '
      + '`--distributed-executor-backend mp` (or `=mp`) in `command` or `args`',
  },
  standaloneWorkerCheckpointRef: {
    since: OPERATOR_NEWER,
    what: 'a worker-class DynamoComponentDeployment may set `checkpointRef` only when a DynamoGraphDeployment controls it (row 145)',
    before: 'no such rule',
  },
};

export type OperatorGateName = keyof typeof GATES;

/** Every version-dependent behaviour, by the first version that has it. */
export const OPERATOR_GATES: Readonly<Record<OperatorGateName, OperatorGate>> = GATES;

const LENIENT_OPERATOR_VERSION = /^[vV]?([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** The MAJOR.MINOR.PATCH of an operator version (`1.5.0`, `v1.5`, `1.5.0-rc.1`), or undefined. */
export function parseOperatorVersion(version: string): RuntimeVersion | undefined {
  const match = LENIENT_OPERATOR_VERSION.exec(version.trim());
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2] ?? 0), patch: Number(match[3] ?? 0) };
}

const OLDEST: RuntimeVersion = { major: 1, minor: 4, patch: 0 };

/**
 * Why the operator version cannot be rendered for, or undefined: it must be a semantic version
 * (the operator does not start otherwise) of 1.4.0 or later.
 */
export function operatorVersionProblem(version: string): string | undefined {
  const parsed = parseOperatorVersion(version);
  if (parsed === undefined) {
    return `must be a semantic version such as "${OPERATOR_1_5}" (the operator refuses to start with ${JSON.stringify(version)}); `
      + `versions rendered: ${supportedVersionList()}`;
  }
  if (compareVersions(parsed, OLDEST) < 0) {
    return `operator ${JSON.stringify(version)} is not supported: this library renders operators ${OPERATOR_1_4} and later (${supportedVersionList()})`;
  }
  return undefined;
}

/** The supported operator versions, for a message. */
function supportedVersionList(): string {
  return SUPPORTED_OPERATOR_VERSIONS.map(v => v.version).join(', ');
}

/** The first version of each gate, read once. */
const GATE_SINCE = new Map<OperatorGateName, RuntimeVersion>();

function gateSince(gate: OperatorGateName): RuntimeVersion {
  let since = GATE_SINCE.get(gate);
  if (since === undefined) {
    since = parseOperatorVersion(OPERATOR_GATES[gate].since)!;
    GATE_SINCE.set(gate, since);
  }
  return since;
}

/** Whether the operator of `version` has the behaviour of `gate` (an unreadable version has none). */
export function operatorHas(version: string, gate: OperatorGateName): boolean {
  const parsed = parseOperatorVersion(version);
  return parsed !== undefined && compareVersions(parsed, gateSince(gate)) >= 0;
}

/** The supported version whose behaviour `version` has (the highest row not above it), or undefined. */
export function operatorBehaviourVersion(version: string): string | undefined {
  const parsed = parseOperatorVersion(version);
  if (parsed === undefined) return undefined;
  let found: string | undefined;
  for (const row of SUPPORTED_OPERATOR_VERSIONS) {
    if (compareVersions(parsed, parseOperatorVersion(row.version)!) >= 0) found = row.version;
  }
  return found;
}
