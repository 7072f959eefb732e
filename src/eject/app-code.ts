/**
 * The whole cdk8s app of the documents of one file: one chart per DynamoGraphDeployment or
 * DynamoComponentDeployment (its id the object's name), in file order; every other document as an
 * `ApiObject` in the chart of the Dynamo document that follows it (the last chart for documents
 * after the last one), so objects a graph reads (a ConfigMap, a PVC) are written with it. The app
 * is built once as a language-neutral program (code.ts) and printed in the language asked for
 * (print-typescript.ts, print-python.ts, print-java.ts, print-go.ts).
 */
import { cdk8s, construct, Program, Statement, str, variable } from './code';
import { ComponentContext } from './component-props';
import { componentDeploymentStatements, graphStatements } from './document-code';
import { EjectLanguage } from './languages';
import { operatorDeclaration } from './operator-code';
import { printGo } from './print-go';
import { printJava } from './print-java';
import { printPython } from './print-python';
import { printTypeScript } from './print-typescript';
import { EjectProblems } from './problems';
import { ChartReferences, ConstructIds, ProgramNames } from './program';
import { isMap } from '../model/json';
import type { OperatorSettings } from '../model/operator-settings';
import { isDcd, isDgd } from '../model/v1beta1';

/** The generated program, or the problems that keep it from being written. */
export interface EjectResult {
  /** The program (`main.ts`, `main.py`, `Main.java`, `main.go`; only when there are no problems). */
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
 * The cdk8s app, in `language` (default TypeScript), that synthesizes `documents` (nvidia.com/v1beta1
 * Dynamo documents and others) for the operator `settings` (the app names them when they differ
 * from a default install; see operator-code.ts).
 */
export function ejectDocuments(documents: readonly unknown[], settings?: OperatorSettings, language: EjectLanguage = 'typescript'): EjectResult {
  const result = ejectProgram(documents, settings, language !== 'go');
  if (result.program === undefined) return { problems: result.problems, notices: result.notices };
  return { code: PRINTERS[language](result.program), problems: result.problems, notices: result.notices };
}

const PRINTERS: { readonly [language in EjectLanguage]: (program: Program) => string } = {
  typescript: printTypeScript,
  python: printPython,
  java: printJava,
  go: printGo,
};

/**
 * The language-neutral program of `documents`, or the problems that keep it from being written;
 * `orderedMaps`: whether the language keeps a map in the order written (Go does not).
 */
export function ejectProgram(documents: readonly unknown[], settings?: OperatorSettings, orderedMaps = true): {
  readonly program?: Program; readonly problems: readonly string[]; readonly notices: readonly string[];
} {
  const dynamo = documents.map(doc => isDgd(doc) || isDcd(doc));
  const count = dynamo.filter(d => d).length;
  if (count === 0) return { problems: ['no nvidia.com/v1beta1 DynamoGraphDeployment or DynamoComponentDeployment to eject'], notices: [] };
  const names = new ProgramNames();
  const chartIds = new ConstructIds();
  const operatorVariable = names.variable('operator');
  const operator = operatorDeclaration(settings, operatorVariable);
  const problems: string[] = [];
  const notices: string[] = [];
  const charts: Array<{ readonly header: Statement; readonly variable: string; readonly ids: ConstructIds; readonly body: Statement[] }> = [];
  let pending: unknown[] = [];

  const objectStatement = (doc: unknown, chart: string, ids: ConstructIds): Statement => {
    const kind = isMap(doc) && typeof doc.kind === 'string' ? doc.kind : 'Object';
    const name = isMap(doc) && isMap(doc.metadata) && typeof doc.metadata.name === 'string' ? doc.metadata.name : '';
    const id = ids.unique(name === '' ? kind : `${kind}-${name}`);
    return { kind: 'object', chart, id, doc };
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
    const holder = names.variable(`${isDgd(d) ? 'graph' : 'deployment'}${suffix}`);
    const ids = new ConstructIds();
    const docProblems = new EjectProblems(describe(doc));
    const ctx: ComponentContext = {
      names,
      refs: new ChartReferences(names, chart, ids),
      problems: docProblems,
      operator: operator === undefined ? undefined : operatorVariable,
      orderedMaps,
    };
    const body: Statement[] = pending.map(other => objectStatement(other, chart, ids));
    pending = [];
    if (d.status !== undefined) notices.push(`${describe(doc)}: status: left out (the API server sets it; a manifest's status is ignored)`);
    const statements = isDgd(d) ? graphStatements(d, chart, holder, ids, ctx) : componentDeploymentStatements(d, chart, holder, ids, ctx);
    problems.push(...docProblems.all);
    body.push(...ctx.refs.declarations, ...statements);
    const header: Statement = { kind: 'declare', name: chart, value: construct(cdk8s('Chart'), 3, variable('app'), str(chartId)) };
    charts.push({ header, variable: chart, ids, body });
  });
  const last = charts[charts.length - 1];
  last.body.push(...pending.map(other => objectStatement(other, last.variable, last.ids)));
  if (problems.length > 0) return { problems, notices };
  return { program: { operator, charts: charts.map(c => [c.header, ...c.body]) }, problems, notices };
}
