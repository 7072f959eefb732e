/** DynamoGraphDeployment documents → DynamoGraph constructs. */
import { Construct } from 'constructs';
import { Component } from './component';
import { DynamoGraph, ImportOptions } from './graph';
import { parseYamlDocuments, singleDocumentOfKind } from '../import/documents';
import { importableMetadata } from '../import/metadata';
import { convertV1alpha1Document, isV1alpha1DynamoDocument, V1ALPHA1 } from '../import/v1alpha1';
import { copyJson } from '../model/json-copy';
import { DEFAULT_OPERATOR_SETTINGS } from '../model/operator-settings';
import { API_VERSION, DGD_KIND, DgdJson } from '../model/v1beta1';
import { formatViolation } from '../model/violation-report';
import { checkAndRender } from '../pipeline/check-and-render';

/**
 * The document itself, or, for a nvidia.com/v1alpha1 DynamoGraphDeployment or
 * DynamoComponentDeployment, the v1beta1 document it converts to (an error lists what cannot be
 * converted).
 */
export function v1beta1DocumentOf(doc: any): any {
  if (!isV1alpha1DynamoDocument(doc)) return doc;
  const outcome = convertV1alpha1Document(doc);
  if (!outcome.document) throw new Error(`cannot convert from ${V1ALPHA1}:\n${outcome.problems.map(p => `  ${p}`).join('\n')}`);
  return outcome.document;
}

export function graphDocumentOfYaml(text: string): any {
  return singleDocumentOfKind(parseYamlDocuments(text), DGD_KIND);
}

/**
 * Throws one error listing every structural problem (unknown field, wrong type) of a document of
 * `kind`, so that nothing is silently lost. Other rule violations are left to synth validation.
 */
export function assertImportable(doc: any, kind: string): void {
  const name = doc?.metadata?.name ?? '<unnamed>';
  const ref = `${doc?.kind ?? kind}/${name}`;
  if (doc?.apiVersion !== API_VERSION || doc?.kind !== kind) {
    throw new Error(`${ref}: expected apiVersion ${API_VERSION} and kind ${kind}, got ${doc?.apiVersion} ${doc?.kind}`);
  }
  // the pipeline's check, under the default operator: only what does not fit the schema at all
  const problems = checkAndRender([{ documents: [doc] }], { settings: DEFAULT_OPERATOR_SETTINGS }).problems
    .map(p => p.violation!).filter(v => v.structural === true);
  if (problems.length > 0) {
    throw new Error(`${ref}: cannot import:\n${problems.map(v => `  ${formatViolation(v)}`).join('\n')}`);
  }
}

export function importGraph(scope: Construct, id: string, doc: any, options: ImportOptions = {}): DynamoGraph {
  // a nvidia.com/v1alpha1 graph is imported as the v1beta1 object the API server converts it to
  doc = v1beta1DocumentOf(doc);
  assertImportable(doc, DGD_KIND);
  const input = copyJson(doc) as DgdJson;
  const metadata = importableMetadata(`${DGD_KIND}/${input.metadata?.name}`, input.metadata);
  const graph = new DynamoGraph(scope, id, { metadata, output: options.output, operator: options.operator });
  const { components, ...spec } = input.spec ?? {};
  graph._setSpec(spec);
  (components ?? []).forEach((component, i) => {
    Component._fromSpec(graph, component.name || `Component${i}`, component);
  });
  return graph;
}
