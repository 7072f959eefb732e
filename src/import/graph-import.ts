/** DynamoGraphDeployment documents → DynamoGraph constructs. */
import { Construct } from 'constructs';
import { parseYamlDocuments, singleDocumentOfKind } from './documents';
import { importableMetadata } from './metadata';
import { structureProblems } from './structure';
import { DGD_V1BETA1_SCHEMA } from '../../imports/nvidia.com.schema';
import { Component } from '../constructs/component';
import { DynamoGraph, GraphImportOptions } from '../constructs/graph';
import { deepClone } from '../engine/json';
import { API_VERSION, DGD_KIND, DgdJson } from '../model/v1beta1';

export function graphDocumentOfYaml(text: string): any {
  return singleDocumentOfKind(parseYamlDocuments(text), DGD_KIND);
}

/** Throws one error listing every structural problem of a document of `kind`. */
export function assertImportable(doc: any, kind: string, schema: any): void {
  const name = doc?.metadata?.name ?? '<unnamed>';
  const ref = `${kind}/${name}`;
  if (doc?.apiVersion !== API_VERSION || doc?.kind !== kind) {
    throw new Error(`${ref}: expected apiVersion ${API_VERSION} and kind ${kind}, got ${doc?.apiVersion} ${doc?.kind}`);
  }
  const { status, ...rest } = doc;
  const problems = structureProblems({ apiVersion: rest.apiVersion, kind: rest.kind, spec: rest.spec ?? {} }, schema, '');
  if (problems.length > 0) {
    throw new Error(`${ref}: cannot import:\n${problems.map(p => `  ${p.path}: ${p.message}`).join('\n')}`);
  }
}

export function importGraph(scope: Construct, id: string, doc: any, options: GraphImportOptions = {}): DynamoGraph {
  assertImportable(doc, DGD_KIND, DGD_V1BETA1_SCHEMA);
  const input = deepClone(doc) as DgdJson;
  const metadata = importableMetadata(`${DGD_KIND}/${input.metadata?.name}`, input.metadata);
  const graph = new DynamoGraph(scope, id, { metadata, output: options.output, operator: options.operator });
  const { components, ...spec } = input.spec ?? {};
  graph._setSpec(spec);
  (components ?? []).forEach((component, i) => {
    Component._fromSpec(graph, component.name || `Component${i}`, component);
  });
  return graph;
}
