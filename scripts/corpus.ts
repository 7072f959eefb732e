/**
 * Corpus runner: for every DynamoGraphDeployment / DynamoComponentDeployment in a folder of real
 * documents, import it into constructs and check that synthesis gives it back, validate it, and
 * render its DCDs. Then every graph is rendered in workloads output on two paths — operator
 * without Grove (multinode graphs render LeaderWorkerSets) and operator with Grove (a graph renders
 * one PodCliqueSet) — every core Kubernetes object produced is validated against the Kubernetes
 * OpenAPI schema (kubernetes-models), and every LeaderWorkerSet and PodCliqueSet against its CRD
 * schema (test/support/crd-schema.ts); graphs of later stages (experimental features, Grove-only
 * features without Grove) are counted as deferred.
 *
 *   ts-node --project tsconfig.dev.json scripts/corpus.ts [DIR]
 *
 * DIR (default `$DYNAMO_CORPUS_DIR`) is a corpus root with a `v1beta1/` folder, or that folder.
 * Placeholder image tags (`:my-tag`, `${VAR}`) are replaced by a semantic version before the
 * validation and rendering steps (the round trip uses the document as written). Exits 1 when a
 * round trip fails or rendering crashes; validation findings are reported per rule. Also exits 1 when a graph that is not deferred does
 * not render in workloads output on a path, when a deferred one crashes instead of being refused,
 * when a core object breaks the Kubernetes schema, when a LeaderWorkerSet or PodCliqueSet breaks
 * its CRD schema, when a multinode graph renders on one path only, or when an emitted object fails
 * its admission check (`checkEmittedObjects`: schema and CRD CEL rules; the count of objects checked
 * and of violations is printed per path).
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Chart, Testing } from 'cdk8s';
import { ComponentDeployment, DynamoGraph } from '../src';
import { checkEmittedObjects, isEmittedKindChecked } from '../src/admission/emitted-admission';
import { validateOptionsFor } from '../src/admission/stored-object';
import { validateDocument } from '../src/admission/validate';
import { parseYamlDocuments } from '../src/import/documents';
import { jsonEqual } from '../src/model/json';
import { resolveOperatorSettings } from '../src/model/operator-settings';
import { RenderError } from '../src/model/render-error';
import { isDcd, isDgd } from '../src/model/v1beta1';
import { formatViolation } from '../src/model/violation-report';
import { renderDocuments } from '../src/pipeline/check-and-render';
import {
  checkGraphs, DEFERRAL_REASONS, graphProblems, GraphWorkloads, multinodeGaps, renderGraphWorkloads, sortedEntries, WORKLOADS_PATH_TITLES,
  WORKLOADS_PATHS, workloadsTotals, WorkloadsPath,
} from '../test/support/corpus-workloads';
import { KUBERNETES_SCHEMA_VERSION, kubernetesModelsVersion } from '../test/support/kubernetes-schema';
import { withVersionedImages } from '../test/support/shared';

/** The corpus targets the full Dynamo platform: operator 1.4.0 with Grove and checkpointing. */
const PLATFORM = validateOptionsFor(resolveOperatorSettings({ groveAvailable: true, checkpointEnabled: true }));

function roundTrip(doc: any): string | undefined {
  const chart = new Chart(Testing.app(), 'corpus');
  const construct = isDgd(doc) ? DynamoGraph.fromObject(chart, 'Imported', doc) : ComponentDeployment.fromObject(chart, 'Imported', doc);
  const out = (construct.node.findChild('Resource') as ApiObject).toJson();
  return jsonEqual(out, doc) ? undefined : 'synthesized document differs from the input';
}

/** Numbered rules in numeric order, then named ones (`schema`, `internal`) byte-wise. */
function compareRuleIds(a: string, b: string): number {
  const na = /^\d+$/.test(a) ? Number(a) : Infinity;
  const nb = /^\d+$/.test(b) ? Number(b) : Infinity;
  if (na !== nb) return na < nb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function runCorpus(dir: string, log: (line: string) => void = console.log): number {
  const folder = fs.existsSync(path.join(dir, 'v1beta1')) ? path.join(dir, 'v1beta1') : dir;
  const files = fs.readdirSync(folder).filter(f => f.endsWith('.yaml')).sort();
  let passed = 0;
  let failed = 0;
  const graphs: Record<WorkloadsPath, GraphWorkloads[]> = { lws: [], grove: [] };
  const asWritten = new Map<string, number>();
  const versioned = new Map<string, number>();
  const count = (map: Map<string, number>, rule: string) => map.set(rule, (map.get(rule) ?? 0) + 1);
  for (const file of files) {
    const docs = parseYamlDocuments(fs.readFileSync(path.join(folder, file), 'utf8'), file);
    docs.filter(doc => isDgd(doc) || isDcd(doc)).forEach((doc, i) => {
      if (!isDgd(doc) && !isDcd(doc)) return;
      if (isDgd(doc)) for (const p of WORKLOADS_PATHS) graphs[p].push(renderGraphWorkloads(`${file}#${i}`, doc, p));
      const id = `${file}#${i} ${doc.kind}/${doc.metadata?.name}`;
      const problems: string[] = [];
      try {
        const difference = roundTrip(doc);
        if (difference) problems.push(`round trip: ${difference}`);
      } catch (e) {
        problems.push(`round trip: ${(e as Error).message}`);
      }
      for (const v of validateDocument(doc, PLATFORM)) count(asWritten, v.rule);
      const fixed = withVersionedImages(doc);
      for (const v of validateDocument(fixed, PLATFORM)) count(versioned, v.rule);
      try {
        renderDocuments([fixed], { output: 'components' });
      } catch (e) {
        if (!(e instanceof RenderError)) problems.push(`components: ${(e as Error).stack}`);
      }
      if (problems.length > 0) {
        failed++;
        log(`FAILED ${id}`);
        for (const p of problems) log(`  ${p}`);
      } else {
        passed++;
      }
    });
  }
  const summary = (map: Map<string, number>) => [...map.entries()].sort((a, b) => compareRuleIds(a[0], b[0]))
    .map(([rule, n]) => `${rule}: ${n}`).join(', ') || 'none';
  log(`corpus: ${files.length} files in ${folder}`);
  log(`violations as written, per rule: ${summary(asWritten)}`);
  log(`violations with semantic-version images, per rule: ${summary(versioned)}`);
  log(`${passed} passed, ${failed} failed`);
  let workloadsFailed = 0;
  for (const p of WORKLOADS_PATHS) workloadsFailed += reportWorkloads(p, graphs[p], log);
  const gaps = multinodeGaps(graphs.lws, graphs.grove);
  for (const gap of gaps) log(`FAILED multinode graph on one path only: ${gap}`);
  let emittedViolations = 0;
  for (const p of WORKLOADS_PATHS) emittedViolations += reportEmittedAdmission(p, graphs[p], log);
  return failed > 0 || workloadsFailed > 0 || gaps.length > 0 || emittedViolations > 0 ? 1 : 0;
}

/**
 * The admission check of the emitted objects (`checkEmittedObjects`: schema and CRD CEL rules, as
 * the API server checks the objects the operator creates) on one path; prints the count of objects
 * checked and every violation; returns the violation count (must be 0).
 */
function reportEmittedAdmission(workloadsPath: WorkloadsPath, rendered: readonly GraphWorkloads[], log: (line: string) => void): number {
  let checked = 0;
  let violations = 0;
  // a graph the API server refuses is never rendered by the operator: its objects are not held to the checks of created objects
  const refused = rendered.filter(g => !g.admitted);
  if (refused.length > 0) log(`emitted-object admission, ${workloadsPath} path: ${refused.length} graphs the API server refuses as input left out (${refused.map(g => g.id).join(', ')})`);
  for (const g of rendered.filter(r => r.admitted)) {
    checked += g.objects.filter(o => {
      const obj = o as { apiVersion?: unknown; kind?: unknown };
      return isEmittedKindChecked(String(obj.apiVersion ?? ''), String(obj.kind ?? ''));
    }).length;
    for (const v of checkEmittedObjects(g.objects)) {
      violations++;
      log(`FAILED emitted object admission (${workloadsPath} path) ${g.id}: ${formatViolation(v)}`);
    }
  }
  log(`emitted-object admission, ${workloadsPath} path: ${checked} objects checked (schema and CRD CEL rules), ${violations} violations`);
  return violations;
}

/** Schema-checks the graphs' workloads on one path, prints problems and totals; returns the failed graph count. */
function reportWorkloads(workloadsPath: WorkloadsPath, rendered: readonly GraphWorkloads[], log: (line: string) => void): number {
  const graphs = checkGraphs(rendered);
  for (const g of graphs) {
    const problems = graphProblems(g);
    if (problems.length === 0) continue;
    log(`FAILED workloads (${workloadsPath} path) ${g.id}`);
    for (const p of problems) log(`  ${p}`);
  }
  const t = workloadsTotals(graphs);
  const total = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
  log(`workloads output, ${workloadsPath} path (${WORKLOADS_PATH_TITLES[workloadsPath]}): ${t.graphs} graphs, ${t.rendered} rendered, ${t.deferred} deferred, ${t.failed} failed`);
  if (t.notSupportedYet > 0) log(`  graphs the engine refuses as "not supported yet" (counted as failed): ${t.notSupportedYet}`);
  log(`  multinode graphs: ${t.multinode}, rendered: ${t.multinodeRendered}`);
  for (const [reason, n] of sortedEntries(t.deferredByReason)) log(`  deferred, ${DEFERRAL_REASONS[reason as keyof typeof DEFERRAL_REASONS]}: ${n}`);
  if (t.deferredButRendered > 0) log(`  deferred graphs that rendered anyway (later stage landed?): ${t.deferredButRendered}`);
  log(`  core objects valid against the Kubernetes ${KUBERNETES_SCHEMA_VERSION} schema (kubernetes-models ${kubernetesModelsVersion()}): ${total(t.validatedByKind)}`);
  for (const [kind, n] of sortedEntries(t.validatedByKind)) log(`    ${kind}: ${n}`);
  log(`  LeaderWorkerSets and PodCliqueSets valid against their CRD schemas: ${total(t.crdValidatedByKind)}`);
  for (const [kind, n] of sortedEntries(t.crdValidatedByKind)) log(`    ${kind}: ${n}`);
  log(`  objects of other APIs, not schema-checked: ${total(t.skippedByKind)}`);
  for (const [kind, n] of sortedEntries(t.skippedByKind)) log(`    ${kind}: ${n}`);
  return t.failed;
}

if (require.main === module) {
  const dir = process.argv[2] ?? process.env.DYNAMO_CORPUS_DIR;
  if (!dir) {
    console.log('corpus: no folder given (argument or $DYNAMO_CORPUS_DIR); nothing to do');
  } else {
    process.exitCode = runCorpus(dir);
  }
}
