/** DynamoComponentDeployment documents → ComponentDeployment constructs. */
import { Construct } from 'constructs';
import { ComponentDeployment } from './component-deployment';
import { ImportOptions } from './graph';
import { assertImportable, v1beta1DocumentOf } from './graph-import';
import { parseYamlDocuments, singleDocumentOfKind } from '../import/documents';
import { importableMetadata } from '../import/metadata';
import { copyJson } from '../model/json-copy';
import { DCD_KIND, DcdJson } from '../model/v1beta1';

export function componentDocumentOfYaml(text: string): any {
  return singleDocumentOfKind(parseYamlDocuments(text), DCD_KIND);
}

export function importComponentDeployment(scope: Construct, id: string, doc: any, options: ImportOptions = {}): ComponentDeployment {
  // a nvidia.com/v1alpha1 component deployment is imported as the v1beta1 object it converts to
  doc = v1beta1DocumentOf(doc);
  assertImportable(doc, DCD_KIND);
  const input = copyJson(doc) as DcdJson;
  const metadata = importableMetadata(`${DCD_KIND}/${input.metadata?.name}`, input.metadata);
  const deployment = new ComponentDeployment(scope, id, { metadata, name: input.spec?.name, output: options.output, operator: options.operator });
  deployment._setSpec(input.spec ?? {});
  return deployment;
}
