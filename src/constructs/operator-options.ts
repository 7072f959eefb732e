/** The Dynamo operator installation a graph is rendered for. */

/** Settings of the Dynamo operator, with its Helm defaults. */
export interface OperatorOptions {
  /**
   * Operator version, stamped on new graphs as `nvidia.com/dynamo-operator-origin-version`.
   * @default "1.4.0"
   */
  readonly version?: string;
  /**
   * Whether Grove is installed and enabled (new graphs then take the Grove provider unless annotated
   * `nvidia.com/enable-grove: "false"`).
   * @default false
   */
  readonly groveAvailable?: boolean;
  /**
   * Whether LeaderWorkerSet (with Volcano) is installed, needed for multinode components without Grove.
   * @default true
   */
  readonly lwsAvailable?: boolean;
  /**
   * Service discovery backend (`discovery.backend`).
   * @default "kubernetes"
   */
  readonly discoveryBackend?: string;
}
