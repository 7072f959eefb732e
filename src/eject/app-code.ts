/**
 * The whole cdk8s app of the documents of one file: one chart per DynamoGraphDeployment or
 * DynamoComponentDeployment (its id the object's name), in file order; every other document as an
 * `ApiObject` in the chart of the Dynamo document that follows it (the last chart for documents
 * after the last one), so objects a graph reads (a ConfigMap, a PVC) are written with it.
 */
import { call, json, print, raw, str } from './code';
import { ComponentContext } from './component-props';
import { componentDeploymentStatements, graphStatements } from './document-code';
import { operatorDeclaration } from './operator-code';
import { EjectProblems } from './problems';
import { ChartReferences, ConstructIds, ProgramNames } from './program';
import type { OperatorSettings } from '../engine/operator-settings';
import { isMap } from '../model/json';
import { isDcd, isDgd } from '../model/v1beta1';

/** The generated program, or the problems that keep it from being written. */
export interface EjectResult {
  /** `main.ts` (only when there are no problems). */
  readonly code?: string;
  /** One line per field that cannot be ejected, naming the document and the field. */
  readonly problems: readonly string[];
  /** What was left out on purpose (one line each). */
  readonly notices: readonly string[];
}

/** `Kind/name` of a document, for problems. */
function describe(doc: unknown): string {
  const kind = isMap(doc) && typeof doc.kind === 'string' ? doc.kind : '(no kind)';
  const name = isMap(doc) && isMap(doc.metadata) && typeof doc.metadata.name === 'string' ? doc.metadata.name : '(no name)';
  return `${kind}/${name}`;
}

/**
 * The TypeScript of a cdk8s app that synthesizes `documents` (nvidia.com/v1beta1 Dynamo documents
 * and others) for the operator `settings` (the app names them when they differ from a default
 * install; see operator-code.ts).
 */
export function ejectDocuments(documents: readonly unknown[], settings?: OperatorSettings): EjectResult {
  const dynamo = documents.map(doc => isDgd(doc) || isDcd(doc));
  const count = dynamo.filter(d => d).length;
  if (count === 0) return { problems: ['no nvidia.com/v1beta1 DynamoGraphDeployment or DynamoComponentDeployment to eject'], notices: [] };
  const names = new ProgramNames();
  const chartIds = new ConstructIds();
  const operatorVariable = names.variable('operator');
  const operator = operatorDeclaration(settings, names, operatorVariable);
  const problems: string[] = [];
  const notices: string[] = [];
  const charts: Array<{ readonly header: string; readonly variable: string; readonly ids: ConstructIds; readonly body: string[] }> = [];
  let pending: unknown[] = [];

  const objectStatement = (doc: unknown, chart: string, ids: ConstructIds): string => {
    const kind = isMap(doc) && typeof doc.kind === 'string' ? doc.kind : 'Object';
    const name = isMap(doc) && isMap(doc.metadata) && typeof doc.metadata.name === 'string' ? doc.metadata.name : '';
    names.cdk8s.add('ApiObject');
    const id = ids.unique(name === '' ? kind : `${kind}-${name}`);
    return `${print(call('new ApiObject', raw(chart), str(id), json(doc)))};`;
  };

  documents.forEach((doc, i) => {
    if (!dynamo[i]) {
      pending.push(doc);
      return;
    }
    const d = doc as Record<string, any>;
    const chartId = chartIds.unique(typeof d.metadata?.name === 'string' && d.metadata.name !== '' ? d.metadata.name : d.kind);
    const suffix = count === 1 ? '' : String(charts.length + 1);
    const chart = names.variable(`chart${suffix}`);
    const variable = names.variable(`${isDgd(d) ? 'graph' : 'deployment'}${suffix}`);
    const ids = new ConstructIds();
    const docProblems = new EjectProblems(describe(doc));
    const ctx: ComponentContext = {
      names, refs: new ChartReferences(names, chart, ids), problems: docProblems, operator: operator === undefined ? undefined : operatorVariable,
    };
    const body: string[] = pending.map(other => objectStatement(other, chart, ids));
    pending = [];
    if (d.status !== undefined) notices.push(`${describe(doc)}: status: left out (the API server sets it; a manifest's status is ignored)`);
    const statements = isDgd(d) ? graphStatements(d, chart, variable, ids, ctx) : componentDeploymentStatements(d, chart, variable, ids, ctx);
    problems.push(...docProblems.all);
    body.push(...ctx.refs.declarations, ...statements.filter(s => s !== ''));
    charts.push({ header: `const ${chart} = new Chart(app, ${JSON.stringify(chartId)});`, variable: chart, ids, body });
  });
  const last = charts[charts.length - 1];
  last.body.push(...pending.map(other => objectStatement(other, last.variable, last.ids)));
  if (problems.length > 0) return { problems, notices };

  const chartText = charts.map(c => [c.header, ...c.body].join('\n')).join('\n\n');
  const imports = [`import { ${[...names.cdk8s].sort().join(', ')} } from "cdk8s";`];
  if (chartText.includes('kplus.')) imports.push('import * as kplus from "cdk8s-plus-34";');
  imports.push(`import { ${[...names.dynamo].sort().join(', ')} } from "cdk8s-dynamo";`);
  const head = operator === undefined ? 'const app = new App();' : `const app = new App();\n${operator}`;
  const code = `${imports.join('\n')}\n\n${head}\n\n${chartText}\n\napp.synth();\n`;
  return { code, problems, notices };
}
