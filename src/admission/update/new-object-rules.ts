/**
 * The create-time rules as they are re-run on the new object of an UPDATE. The differences from a
 * create (validate.ts):
 *
 * - the DGD provider context is the workload-provider annotation the object carries, not the one
 *   the defaulting webhook would write: an unsupported value is reported (row 5), an absent or
 *   empty one makes every provider override wait for the controller (row 81), and the Grove
 *   pathway of a graph without the annotation follows the operator's Grove gate and the
 *   `nvidia.com/enable-grove` annotation, with the matching Forbidden detail;
 * - the CEL rules see the stored object: `spec.restart` may be set (row 11), `type` and
 *   `minAvailable` may not change (rows 44, 63), and unchanged values are not re-checked (ratcheting);
 * - the runtime-version and EPP-contract checks (rows 46, 47, 49) are replaced by their update
 *   ratchets (rows 48, 50, in component-update-rules);
 * - an object that is being deleted skips the webhooks: only schema and CEL rules apply.
 *
 * Internal module.
 */
import { UpdateOptions } from './update-options';
import { JsonMap, mapAt, stringAt } from '../../model/json';
import { ANNOTATION_ENABLE_GROVE, ANNOTATION_WORKLOAD_PROVIDER, PROVIDER_COMPONENT, PROVIDER_GROVE } from '../../model/well-known';
import { GraphPathway, pathwayOf } from '../component-context';
import { STRUCTURAL_RULE } from '../dynamo-schema';
import { FieldPath } from '../field-path';
import { overrideSites } from '../graph-rules';
import { admittingOperator } from '../options';
import { OverrideSite } from '../provider-override-rules';
import { checkComponentDeployment, checkGraphDeployment, checkObjectName, DGD_KIND_NAME } from '../validate';
import { ViolationRecord, ViolationSink } from '../violation';

/** Rows replaced on UPDATE: rows 46/47/49 become the ratchets 48/50. */
const NOT_ON_UPDATE = new Set(['46', '47', '49']);

/** Provider-override rows that do not run while the workload provider is not materialised. */
const OVERRIDE_ROWS = new Set(['33', '82', '83', '84', '85', '86']);

/**
 * Rows the API server checks itself (Schema and CEL), which still apply to an object that is
 * being deleted; the operator's webhooks skip it.
 */
const API_SERVER_ROWS = new Set([
  STRUCTURAL_RULE,
  '11', '12', '14', '15', '16', '21', '22', '28', '35', '36', '37', '38', '41', '43', '44', '45', '52', '53', '54',
  '59', '61', '62', '63', '67', '70', '77', '78', '79', '89', '90', '91', '92', '99', '101', '102', '104', '107',
  '108', '109', '110', '111', '112', '113', '120', '121', '131', '132', '133', '134', '135', '136', '137', '138', '139',
]);

const UNMATERIALIZED = `requires controller-owned annotation ${JSON.stringify(ANNOTATION_WORKLOAD_PROVIDER)} to be materialized; wait for controller adoption and retry`;

/**
 * The create-time rules on the admitted new object of an UPDATE, with the differences above.
 * `old` is the admitted old object (the stored object the CEL transition rules compare with).
 */
export function checkNewObjectOnUpdate(doc: JsonMap, old: JsonMap, options: UpdateOptions): ViolationRecord[] {
  const sink = new ViolationSink();
  checkObjectName(doc, sink);
  const withOld: UpdateOptions = { ...options, old };
  let records: ViolationRecord[];
  if (doc.kind === DGD_KIND_NAME) {
    records = checkGraph(doc, withOld, sink);
  } else {
    checkComponentDeployment(doc, withOld, sink);
    records = [...sink.all];
  }
  records = records.filter((r) => !NOT_ON_UPDATE.has(r.rule));
  if (isTerminating(doc)) records = records.filter((r) => r.structural === true || API_SERVER_ROWS.has(r.rule));
  return records;
}

/** Whether the object carries a deletion timestamp (the webhooks then let every update through). */
export function isTerminating(doc: JsonMap): boolean {
  const value = mapAt(doc, 'metadata')?.deletionTimestamp;
  return value !== undefined && value !== null && value !== '';
}

/** The pathway of a DGD on UPDATE, with the Forbidden detail that explains why it is not Grove. */
interface ProviderContext extends GraphPathway {
  /** Whether the annotation is absent or empty: provider overrides must wait (row 81). */
  readonly unmaterialized: boolean;
}

/** The pathway of `provider` with `requirement` as the Forbidden detail of Grove-only rules. */
function context(provider: string, requirement: string | undefined, unmaterialized: boolean): ProviderContext {
  const pathway = pathwayOf(provider);
  return { ...pathway, groveRequirement: requirement ?? pathway.groveRequirement, unmaterialized };
}

function providerContext(doc: JsonMap, options: UpdateOptions): ProviderContext {
  const annotations = mapAt(mapAt(doc, 'metadata'), 'annotations');
  const annotation = stringAt(annotations, ANNOTATION_WORKLOAD_PROVIDER);
  if (annotation !== undefined) {
    const known = annotation === PROVIDER_GROVE || annotation === PROVIDER_COMPONENT;
    const requirement = known
      ? undefined
      : `requires the Grove pathway, but annotation ${JSON.stringify(ANNOTATION_WORKLOAD_PROVIDER)} has unsupported value ${JSON.stringify(annotation)}`;
    return context(annotation === '' ? PROVIDER_COMPONENT : annotation, requirement, annotation === '');
  }
  // a graph stored before the annotation existed: the pathway the operator would pick today
  if (!admittingOperator(options).groveAvailable) {
    return context(PROVIDER_COMPONENT, 'requires the Grove pathway, but Grove is disabled in the operator configuration', true);
  }
  const enableGrove = stringAt(annotations, ANNOTATION_ENABLE_GROVE);
  if (enableGrove !== undefined && enableGrove.toLowerCase() === 'false') {
    const requirement = `requires the Grove pathway; remove or unset annotation ${JSON.stringify(ANNOTATION_ENABLE_GROVE)} (currently ${JSON.stringify(enableGrove)})`;
    return context(PROVIDER_COMPONENT, requirement, true);
  }
  return context(PROVIDER_GROVE, undefined, true);
}

function checkGraph(doc: JsonMap, options: UpdateOptions, sink: ViolationSink): ViolationRecord[] {
  // row 5: on create the defaulting webhook overwrites the annotation; on update it is kept as sent
  const annotations = mapAt(mapAt(doc, 'metadata'), 'annotations');
  const annotation = stringAt(annotations, ANNOTATION_WORKLOAD_PROVIDER);
  if (annotation !== undefined && annotation !== PROVIDER_COMPONENT && annotation !== PROVIDER_GROVE) {
    const path = FieldPath.of('metadata', 'annotations').key(ANNOTATION_WORKLOAD_PROVIDER);
    sink.notSupported(path, annotation, [PROVIDER_COMPONENT, PROVIDER_GROVE], '5');
  }
  const pathway = providerContext(doc, options);
  checkGraphDeployment(doc, pathway, options, sink);
  if (!pathway.unmaterialized) return [...sink.all];
  const records = sink.all.filter((r) => !OVERRIDE_ROWS.has(r.rule));
  const waiting = new ViolationSink();
  for (const site of interpretedOverrideSites(mapAt(doc, 'spec'))) waiting.forbidden(site.path, site.override, UNMATERIALIZED, '81');
  return [...records, ...waiting.all];
}

/** Every provider override the webhook interprets: root, components, leader/worker roles of multinode components. */
function interpretedOverrideSites(spec: JsonMap | undefined): OverrideSite[] {
  return overrideSites(spec).filter((site) => site.scope === 'root' || site.scope === 'component' || mapAt(site.component, 'multinode') !== undefined);
}
