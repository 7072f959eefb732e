/**
 * The contract of a component type's defaults: the base `main` container the user's container is
 * merged over, and the base pod spec the user's pod spec is merged over (docs/design/render-core.md §5.3).
 */
import { ComponentContext } from './defaults-context';
import { ContainerJson, PodSpecJson } from '../pod/k8s-json';

/** Why a component of this type cannot be rendered: the offending field and the rule. */
export interface DefaultsProblem {
  readonly field: string;
  readonly message: string;
}

export interface ComponentDefaults {
  /** The `main` container before the user's container is merged in. */
  baseContainer(context: ComponentContext): ContainerJson;
  /** The pod spec (without containers) before the user's pod spec is merged in. */
  basePodSpec(context: ComponentContext): Omit<PodSpecJson, 'containers'>;
  /** A reason the operator refuses to render this component, if any. */
  problem?(context: ComponentContext): DefaultsProblem | undefined;
}
