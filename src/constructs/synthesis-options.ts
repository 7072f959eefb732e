/** What a graph or component deployment synthesizes, and for which operator. */
import { OutputMode } from './enums';
import { OperatorOptions } from './operator-options';

/**
 * Options shared by `DynamoGraph`, `ComponentDeployment` and their `fromObject` / `fromYaml`
 * imports.
 */
export interface SynthesisOptions {
  /**
   * What to synthesize: the custom resource as authored (`GRAPH`), the DynamoComponentDeployments
   * the operator generates from a graph (`COMPONENTS`; a component deployment gives itself), or
   * every object the operator creates (`WORKLOADS`).
   *
   * In `OutputMode.WORKLOADS` the set of objects is only known once the input is rendered, so
   * rendering happens during synth-time validation: when the construct's own validation finds no
   * violation, it is rendered once (again only after a change) and every rendered object becomes a
   * child of the construct `Workloads` with id `<Kind>.<name>`, which cdk8s then synthesizes. Input
   * the operator cannot render is reported as a validation error naming the component, the field
   * and the reason; nothing is synthesized then.
   * @default OutputMode.GRAPH
   */
  readonly output?: OutputMode;
  /**
   * The operator installation to render for (validation uses the same).
   * @default - the operator's Helm defaults
   */
  readonly operator?: OperatorOptions;
}
