/**
 * What the per-component rules need to know about the component and its owner.
 *
 * Internal module.
 */
import { FieldPath } from './field-path';
import { ValidateOptions } from './options';
import { JsonMap } from '../model/json';
import { PROVIDER_GROVE } from '../model/well-known';

export interface ComponentContext {
  /** `DGD` for an entry of `spec.components`, `DCD` for a standalone DynamoComponentDeployment. */
  readonly owner: 'DGD' | 'DCD';
  /** The (defaulted) component spec. */
  readonly component: JsonMap;
  /** `spec.components[i]` or `spec`. */
  readonly path: FieldPath;
  /** The backend framework of the owner (`spec.backendFramework`), '' when unset. */
  readonly backendFramework: string;
  /** The workload provider of a DGD after defaulting; undefined for a DCD. */
  readonly provider?: string;
  /** Whether the component is rendered by Grove (DGD on the Grove pathway). */
  readonly grovePathway: boolean;
  /** The Forbidden detail of rules that require the Grove pathway. */
  readonly groveRequirement: string;
  /** The whole (defaulted) document. */
  readonly document: JsonMap;
  readonly options: ValidateOptions;
}

/** The Forbidden detail used when a DGD's workload provider is not Grove. */
export function groveRequirementDetail(provider: string): string {
  return `requires the Grove pathway, but workload provider ${JSON.stringify(provider)} is selected`;
}

/** What the rules of a DGD need to know about its workload provider. */
export interface GraphPathway {
  /** The workload provider the rules run with (provider overrides are read for it). */
  readonly provider: string;
  /** Whether the graph is rendered by Grove. */
  readonly grovePathway: boolean;
  /** The Forbidden detail of rules that require the Grove pathway. */
  readonly groveRequirement: string;
}

/** The pathway of a DGD whose workload provider is `provider`, with the standard Forbidden detail. */
export function pathwayOf(provider: string): GraphPathway {
  return { provider, grovePathway: provider === PROVIDER_GROVE, groveRequirement: groveRequirementDetail(provider) };
}
