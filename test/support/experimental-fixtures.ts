/**
 * Shared fixtures of the experimental-feature rendering tests (GPU memory service, failover):
 * corpus graphs, workloads rendering and lookups in the rendered objects.
 */
import { OperatorSettings, renderUnchecked } from './facade';
import { corpusFiles, describeNeeding, withVersionedImages } from './shared';

export const COMPONENT_PATH: Partial<OperatorSettings> = { groveAvailable: false };
export const GROVE_PATH: Partial<OperatorSettings> = { groveAvailable: true };

/** The first document of a v1beta1 corpus file, with a versioned image. */
export function corpusGraph(file: string): any {
  const found = corpusFiles().find(f => f.file === file);
  if (!found) throw new Error(`corpus file ${file} not found`);
  return withVersionedImages(found.docs[0]);
}

/**
 * A describe that needs the corpus (`../shared/corpus` or $DYNAMO_CORPUS_DIR); without it the block
 * is skipped without evaluating its body (which reads corpus graphs).
 */
export function describeCorpus(name: string, body: () => void): void {
  describeNeeding('corpus')(name, body);
}

/** Workloads output in namespace `ns`, without the admission check (some inputs are deliberately inadmissible). */
export function render(doc: any, operator: Partial<OperatorSettings> = {}): any[] {
  return renderUnchecked(doc, { namespace: 'ns', settings: operator });
}

/** The pod spec of the Deployment of a component (worker DCD names carry a worker-hash suffix). */
export function podSpecOf(objects: any[], dcdName: string): any {
  const found = objects.find(o => o.kind === 'Deployment' && (o.metadata.name === dcdName || o.metadata.name.startsWith(`${dcdName}-`)));
  if (!found) throw new Error(`no Deployment for ${dcdName}`);
  return found.spec.template.spec;
}

/** The clique `name` of the graph's PodCliqueSet. */
export function clique(objects: any[], name: string): any {
  const pcs = objects.find(o => o.kind === 'PodCliqueSet');
  const found = pcs.spec.template.cliques.find((c: any) => c.name === name);
  if (!found) throw new Error(`clique ${name} not rendered`);
  return found;
}

export { envOf, renderError as errorOf } from './facade';

