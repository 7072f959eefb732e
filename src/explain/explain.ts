/**
 * `explain`: a graph's footprint (`footprint.ts`), as a table or as a Mermaid flowchart
 * (`mermaid.ts`). The command line and `DynamoGraph.footprint()` / `toMermaid()` call these.
 */
import { graphFootprint, storedGraph } from './footprint';
import { ComponentFootprint, GraphFootprint } from './footprint-types';
import { graphMermaid } from './mermaid';
import { OperatorSettings } from '../model/operator-settings';
import { DgdJson } from '../model/v1beta1';

export { graphFootprint } from './footprint';

/** The Mermaid flowchart of a graph; `documents` and `namespace` as for `graphFootprint`. */
export function graphMermaidText(doc: DgdJson, settings: OperatorSettings, documents: readonly unknown[] = [], namespace?: string): string {
  return graphMermaid(storedGraph(doc, settings, namespace), graphFootprint(doc, settings, documents, namespace));
}

const HEADERS = ['COMPONENT', 'TYPE', 'REPLICAS', 'NODES', 'PODS', 'GPUS/POD', 'GPUS', 'DRA CLAIMS'];

/** `template (N × G device-class)` for each claim template, or `-`. */
function claimsCell(c: ComponentFootprint): string {
  if (c.draClaims.length === 0) return '-';
  return c.draClaims.map(d => `${d.templateName} (${d.claims} × ${d.gpusPerClaim} ${d.deviceClassName})`).join(', ');
}

function row(c: ComponentFootprint): string[] {
  const replicas = `${c.replicas}${c.replicasDefaulted ? '*' : ''}${c.scalingAdapter ? '+' : ''}`;
  return [c.name, c.type ?? '-', replicas, String(c.nodesPerReplica), String(c.replicas * c.podsPerReplica), String(c.gpusPerPod), String(c.totalGpus), claimsCell(c)];
}

/**
 * The footprint as a table: a heading line, one row per component (replicas marked `*` when
 * defaulted, `+` with a scaling adapter; PODS is replicas × pods per replica), the total, then the
 * notes of each component.
 */
export function formatFootprint(footprint: GraphFootprint): string {
  const rows = [HEADERS, ...footprint.components.map(row), ['total', '', '', '', '', '', String(footprint.totalGpus), '']];
  const widths = HEADERS.map((_, col) => Math.max(...rows.map(r => r[col].length)));
  const lines = rows.map(r => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]))).join('  ').trimEnd());
  const out = [`DynamoGraphDeployment ${footprint.namespace}/${footprint.name} (workload provider: ${footprint.workloadProvider})`, ...lines];
  const marks: string[] = [];
  if (footprint.components.some(c => c.replicasDefaulted)) marks.push('* replicas not set: the operator\'s default');
  if (footprint.components.some(c => c.scalingAdapter)) marks.push('+ scaling adapter: an autoscaler or the planner sets the replicas');
  out.push(...marks);
  for (const c of footprint.components) {
    for (const note of c.notes) out.push(`${c.name}: ${note}`);
  }
  return `${out.join('\n')}\n`;
}
