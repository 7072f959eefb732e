import { DEFAULT_OPERATOR_SETTINGS, OperatorSettings } from '../model/operator-settings';

/**
 * What admission depends on of the operator, in the words of `OperatorSettings`: `version` (the
 * rules of that operator, see src/model/operator-version.ts, and the
 * `nvidia.com/dynamo-operator-origin-version` a new graph without one is stamped with, row 10),
 * `groveAvailable` (the Grove feature gate: a new graph gets the `grove` workload provider when it
 * is on and its `nvidia.com/enable-grove` annotation is not `false`, else `component`, row 9) and
 * `checkpointEnabled` (the checkpoint feature gate, row 140).
 */
export type AdmittingOperator = Pick<OperatorSettings, 'version' | 'groveAvailable' | 'checkpointEnabled'>;

/**
 * What validation assumes about the operator that will admit the object: the operator fields default
 * as in `OperatorSettings` (a default platform install: `DEFAULT_OPERATOR_SETTINGS`).
 */
export interface ValidateOptions extends Partial<AdmittingOperator> {
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

/** The operator of `options`, its missing fields those of a default platform install. */
export function admittingOperator(options: ValidateOptions): AdmittingOperator {
  return {
    version: options.version ?? DEFAULT_OPERATOR_SETTINGS.version,
    groveAvailable: options.groveAvailable ?? DEFAULT_OPERATOR_SETTINGS.groveAvailable,
    checkpointEnabled: options.checkpointEnabled ?? DEFAULT_OPERATOR_SETTINGS.checkpointEnabled,
  };
}
