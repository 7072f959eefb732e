/**
 * The create-time rules as they are re-run on the new object of an UPDATE. The differences from a
 * create (validate.ts):
 *
 * - the DGD provider context is the workload-provider annotation the object carries, not the one
 *   the defaulting webhook would write: an unsupported value is reported (row 5), an absent or
 *   empty one makes every provider override wait for the controller (row 81), and the Grove
 *   pathway of a graph without the annotation follows the operator's Grove gate and the
 *   `nvidia.com/enable-grove` annotation, with the matching Forbidden detail;
 * - `spec.restart` may be set (row 11 is a create-only CEL rule);
 * - the runtime-version and EPP-contract checks (rows 46, 47, 49) are replaced by their update
 *   ratchets (rows 48, 50, in component-update-rules);
 * - an object that is being deleted skips the webhooks: only schema and CEL rules apply.
 *
 * Internal module.
 */
import { UpdateOptions } from './update-options';
import { isMap, JsonMap, listAt, mapAt, stringAt } from '../../model/json';
import { ANNOTATION_ENABLE_GROVE, ANNOTATION_WORKLOAD_PROVIDER, PROVIDER_COMPONENT, PROVIDER_GROVE } from '../../model/well-known';
import { ComponentContext, groveRequirementDetail } from '../component-context';
import { checkComponent } from '../component-rules';
import { componentEntries } from '../component-shape';
import { DCD_SCHEMA, DGD_SCHEMA, STRUCTURAL_RULE } from '../dynamo-schema';
import { FieldPath } from '../field-path';
import { checkGraphSpec } from '../graph-rules';
import { checkGraphAnnotations } from '../metadata-rules';
import { roleScope } from '../provider-override-rules';
import { checkStructure } from '../structural-check';
import { ViolationRecord, ViolationSink } from '../violation';

const DGD_KIND = 'DynamoGraphDeployment';

/** Rows replaced on UPDATE: row 11 never fires, rows 46/47/49 become the ratchets 48/50. */
const NOT_ON_UPDATE = new Set(['11', '46', '47', '49']);

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

/** The create-time rules on the admitted new object of an UPDATE, with the differences above. */
export function checkNewObjectOnUpdate(doc: JsonMap, options: UpdateOptions): ViolationRecord[] {
  const sink = new ViolationSink();
  checkObjectName(doc, sink);
  let records: ViolationRecord[];
  if (doc.kind === DGD_KIND) {
    records = checkGraph(doc, options, sink);
  } else {
    checkStructure(doc, DCD_SCHEMA, sink);
    checkComponentDeployment(doc, options, sink);
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

/** The provider context of a DGD on UPDATE: the rules' provider and the Grove-pathway detail. */
interface ProviderContext {
  /** Provider the create-time rules are run with (it decides the Grove pathway). */
  readonly provider: string;
  /** The Forbidden detail of rules that need the Grove pathway. */
  readonly requirement: string;
  /** Whether the annotation is absent or empty: provider overrides must wait (row 81). */
  readonly unmaterialized: boolean;
}

function providerContext(doc: JsonMap, options: UpdateOptions): ProviderContext {
  const annotations = mapAt(mapAt(doc, 'metadata'), 'annotations');
  const annotation = stringAt(annotations, ANNOTATION_WORKLOAD_PROVIDER);
  if (annotation !== undefined) {
    const known = annotation === PROVIDER_GROVE || annotation === PROVIDER_COMPONENT;
    const requirement = known
      ? groveRequirementDetail(annotation)
      : `requires the Grove pathway, but annotation ${JSON.stringify(ANNOTATION_WORKLOAD_PROVIDER)} has unsupported value ${JSON.stringify(annotation)}`;
    return { provider: annotation === '' ? PROVIDER_COMPONENT : annotation, requirement, unmaterialized: annotation === '' };
  }
  // a graph stored before the annotation existed: the pathway the operator would pick today
  if (!(options.groveEnabled ?? true)) {
    return { provider: PROVIDER_COMPONENT, requirement: 'requires the Grove pathway, but Grove is disabled in the operator configuration', unmaterialized: true };
  }
  const enableGrove = stringAt(annotations, ANNOTATION_ENABLE_GROVE);
  if (enableGrove !== undefined && enableGrove.toLowerCase() === 'false') {
    const requirement = `requires the Grove pathway; remove or unset annotation ${JSON.stringify(ANNOTATION_ENABLE_GROVE)} (currently ${JSON.stringify(enableGrove)})`;
    return { provider: PROVIDER_COMPONENT, requirement, unmaterialized: true };
  }
  return { provider: PROVIDER_GROVE, requirement: '', unmaterialized: true };
}

function checkGraph(doc: JsonMap, options: UpdateOptions, sink: ViolationSink): ViolationRecord[] {
  checkStructure(doc, DGD_SCHEMA, sink);
  checkGraphAnnotations(doc, sink);
  // row 5: on create the defaulting webhook overwrites the annotation; on update it is kept as sent
  const annotations = mapAt(mapAt(doc, 'metadata'), 'annotations');
  const annotation = stringAt(annotations, ANNOTATION_WORKLOAD_PROVIDER);
  if (annotation !== undefined && annotation !== PROVIDER_COMPONENT && annotation !== PROVIDER_GROVE) {
    const path = FieldPath.of('metadata', 'annotations').key(ANNOTATION_WORKLOAD_PROVIDER);
    sink.notSupported(path, annotation, [PROVIDER_COMPONENT, PROVIDER_GROVE], '5');
  }
  const context = providerContext(doc, options);
  checkGraphSpec(doc, context.provider, options, sink);

  const ruleDetail = `Forbidden: ${groveRequirementDetail(context.provider)}`;
  let records = sink.all.map((record) =>
    (record.message === ruleDetail && context.requirement !== '' ? { ...record, message: `Forbidden: ${context.requirement}` } : record));
  if (context.unmaterialized) {
    records = records.filter((r) => !OVERRIDE_ROWS.has(r.rule));
    const waiting = new ViolationSink();
    for (const site of overrideSites(mapAt(doc, 'spec'))) waiting.forbidden(site.path, site.override, UNMATERIALIZED, '81');
    records.push(...waiting.all);
  }
  return records;
}

/** Every provider override the webhook interprets: root, components, leader/worker roles of multinode components. */
function overrideSites(spec: JsonMap | undefined): Array<{ override: JsonMap; path: FieldPath }> {
  const sites: Array<{ override: JsonMap; path: FieldPath }> = [];
  const root = mapAt(spec, 'providerOverride');
  if (root) sites.push({ override: root, path: FieldPath.of('spec', 'providerOverride') });
  for (const { component, index } of componentEntries(spec)) {
    const path = FieldPath.of('spec', 'components').index(index);
    const override = mapAt(component, 'providerOverride');
    if (override) sites.push({ override, path: path.child('providerOverride') });
    if (!mapAt(component, 'multinode')) continue;
    (listAt(component, 'roles') ?? []).forEach((role, roleIndex) => {
      const roleOverride = isMap(role) ? mapAt(role, 'providerOverride') : undefined;
      if (roleOverride && roleScope(stringAt(role, 'name'))) {
        sites.push({ override: roleOverride, path: path.child('roles').index(roleIndex).child('providerOverride') });
      }
    });
  }
  return sites;
}

function checkComponentDeployment(doc: JsonMap, options: UpdateOptions, sink: ViolationSink): void {
  const spec = mapAt(doc, 'spec') ?? {};
  const ctx: ComponentContext = {
    owner: 'DCD',
    component: spec,
    path: FieldPath.of('spec'),
    backendFramework: stringAt(spec, 'backendFramework') ?? '',
    grovePathway: false,
    groveRequirement: '',
    document: doc,
    options,
  };
  checkComponent(ctx, sink);
}

/** Kubernetes object metadata: a name (or generateName) is required (as on create). */
function checkObjectName(doc: JsonMap, sink: ViolationSink): void {
  const metadata = doc.metadata;
  if (metadata !== undefined && metadata !== null && !isMap(metadata)) return; // a type error, reported by the schema check
  const name = stringAt(metadata, 'name') ?? '';
  const generateName = stringAt(metadata, 'generateName') ?? '';
  if (name === '' && generateName === '') {
    sink.required(FieldPath.of('metadata', 'name'), 'name or generateName is required', STRUCTURAL_RULE);
  }
}
