/**
 * A document that is not a Dynamo resource, for the languages whose structs hold only the fields
 * they declare (Python, Java, Go): `new ApiObject(chart, id, { apiVersion, kind, metadata })` and,
 * for every other field (`data`, `spec`, a metadata field ApiObjectMetadata has not), one
 * `addJsonPatch(JsonPatch.add("/field", value))`, which cdk8s applies when it writes the object.
 * (TypeScript passes the whole document as the props: ApiObject writes every field it is given.)
 */
import { cdk8s, construct, json, methodCall, Program, Statement, staticCall, str, struct, variable } from './code';
import { metadataStruct } from './document-code';
import { isMap } from '../model/json';

const METADATA_FIELDS = ['name', 'namespace', 'labels', 'annotations', 'finalizers', 'ownerReferences'];

/** A JSON pointer to a top-level field (RFC 6901: `~` and `/` escaped). */
function pointer(...keys: string[]): string {
  return keys.map(k => `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** `program` with each `object` statement written as an ApiObject and its JSON patches. */
export function withPatchedObjects(program: Program): Program {
  const taken = new Set<string>(['app']);
  for (const s of [program.operator, ...program.charts.flat()]) if (s?.kind === 'declare') taken.add(s.name);
  const name = (): string => {
    let candidate = 'apiObject';
    for (let n = 2; taken.has(candidate); n++) candidate = `apiObject${n}`;
    taken.add(candidate);
    return candidate;
  };
  return { ...program, charts: program.charts.map(chart => chart.flatMap(s => (s.kind === 'object' ? objectStatements(s, name()) : [s]))) };
}

function objectStatements(s: Extract<Statement, { kind: 'object' }>, holder: string): Statement[] {
  const doc = isMap(s.doc) ? s.doc : {};
  const metadata = isMap(doc.metadata) ? doc.metadata : undefined;
  const known = metadata === undefined ? undefined : Object.fromEntries(Object.entries(metadata).filter(([k]) => METADATA_FIELDS.includes(k)));
  const props = struct(cdk8s('ApiObjectProps'), [
    ['apiVersion', str(String(doc.apiVersion))],
    ['kind', str(String(doc.kind))],
    ['metadata', known === undefined ? undefined : metadataStruct(known)],
  ]);
  const patches: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'apiVersion' || key === 'kind' || value === undefined) continue;
    if (key !== 'metadata') {patches.push([pointer(key), value]);} else if (!isMap(value)) {patches.push([pointer(key), value]);} else {
      for (const [field, v] of Object.entries(value)) if (!METADATA_FIELDS.includes(field) && v !== undefined) patches.push([pointer(key, field), v]);
    }
  }
  const patch = (path: string, value: unknown) => methodCall(holder, 'addJsonPatch', 1, staticCall(cdk8s('JsonPatch'), 'add', 2, str(path), json(value)));
  if (patches.length === 0) return [{ kind: 'do', value: construct(cdk8s('ApiObject'), 3, variable(s.chart), str(s.id), props) }];
  return [
    { kind: 'declare', name: holder, value: construct(cdk8s('ApiObject'), 3, variable(s.chart), str(s.id), props) },
    ...patches.map(([path, value]): Statement => ({ kind: 'do', value: patch(path, value) })),
  ];
}
