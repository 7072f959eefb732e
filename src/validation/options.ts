/**
 * What validation assumes about the operator that will admit the object.
 */
export interface ValidateOptions {
  /**
   * Version of the Dynamo operator. When set, it is stamped into the
   * `nvidia.com/dynamo-operator-origin-version` annotation of a DGD that has none, as the operator
   * does on create (row 10), and the rules are those of that operator (rules that differ between
   * operator versions are listed in src/engine/operator-version.ts). Default: not stamped, and the
   * rules of the default operator version (also used for a version the library does not render
   * for).
   */
  readonly operatorVersion?: string;

  /**
   * Whether the operator's Grove feature gate is on. On create, a DGD gets the `grove` workload
   * provider when this is on and its `nvidia.com/enable-grove` annotation is not `false`, else the
   * `component` provider (row 9); several rules depend on it. Default: true.
   */
  readonly groveEnabled?: boolean;

  /**
   * Whether the operator's checkpoint feature gate is on (row 140). Default: true.
   */
  readonly checkpointEnabled?: boolean;

  /**
   * The object as stored before this update (already defaulted), for an update. When given, the
   * CRD's CEL transition rules are evaluated against it: `type` and `minAvailable` may not change
   * (rows 44, 63) and `spec.restart` may be set (row 11); unchanged values are not re-checked by CEL
   * rules (ratcheting). Default: the object is checked as created.
   */
  readonly old?: unknown;

  /**
   * Objects the operator reads from the cluster while it admits a new graph, as the cluster returns
   * them (`kubectl get -o yaml`): the cluster-scoped `grove.io/v1alpha1` ClusterTopologyBindings named
   * by `spec.topologyConstraint.clusterTopologyName` and
   * `spec.experimental.kvTransferPolicy.clusterTopologyName` (rows 31, 32, 39, 105). Other documents
   * are ignored. A binding that is not given is not looked up: the rules that need it are not checked
   * (`uncheckedClusterRules` names them). Default: none.
   */
  readonly clusterObjects?: readonly unknown[];
}
