/**
 * The Dynamo operator settings that change what the operator renders or admits.
 *
 * Plain data, resolved once per render. Names follow the operator's configuration where one exists.
 */
export interface OperatorSettings {
  /** Operator build version; stamped on new graphs as `nvidia.com/dynamo-operator-origin-version`. */
  readonly version: string;
  /** Whether the Grove API is available and enabled (`orchestrators.grove`). */
  readonly groveAvailable: boolean;
  /** Whether LeaderWorkerSet (and Volcano) are available (`lws` gate). */
  readonly lwsAvailable: boolean;
  /** `discovery.backend`: `kubernetes` (default) or another backend such as `etcd`. */
  readonly discoveryBackend: string;
}

/** The operator version this library renders for unless told otherwise. */
export const DEFAULT_OPERATOR_VERSION = '1.4.0';

export const DEFAULT_OPERATOR_SETTINGS: OperatorSettings = {
  version: DEFAULT_OPERATOR_VERSION,
  groveAvailable: false,
  lwsAvailable: true,
  discoveryBackend: 'kubernetes',
};

export function resolveOperatorSettings(partial?: Partial<OperatorSettings>): OperatorSettings {
  const out: { [k: string]: any } = { ...DEFAULT_OPERATOR_SETTINGS };
  for (const [key, value] of Object.entries(partial ?? {})) {
    if (value !== undefined) out[key] = value;
  }
  return out as OperatorSettings;
}
