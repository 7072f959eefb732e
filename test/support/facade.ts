/**
 * The one door from the tests into the library's internals: operations (render, admit, resolve
 * settings), not modules. A test that cannot go through the public API (`src/index.ts`: the
 * constructs and `DynamoDocuments`) goes through here, so that moving a file inside `src/` changes
 * this file and not the tests. Keep it small: add an operation only when several tests need it, and
 * keep the import list below short (it counts toward the internal modules the tests reach).
 */
import { admitNewComponent, admitNewGraph } from '../../src/admission/stored-object';
import { RenderError } from '../../src/engine/errors';
import { lastAppliedHash as hashOf } from '../../src/engine/hash/last-applied-hash';
import { OperatorSettings, resolveOperatorSettings } from '../../src/engine/operator-settings';
import type { DcdJson, DgdJson } from '../../src/model/v1beta1';
import { checkAndRender, OutputMode, Problem, renderDocuments } from '../../src/pipeline/check-and-render';

export { checkAndRender, formatProblem } from '../../src/pipeline/check-and-render';
export type { OutputMode, Problem } from '../../src/pipeline/check-and-render';
export type { OperatorSettings } from '../../src/engine/operator-settings';
export { RenderError };
export type { DcdJson, DgdJson, JsonObject } from '../../src/model/v1beta1';

// ---------------------------------------------------------------------------------------------
// Rendering (the engine behind the pipeline)
// ---------------------------------------------------------------------------------------------

/** How to render: the output (default `workloads`), the operator and the namespace of objects that name none. */
export interface RenderWith {
  /** @default 'workloads' */
  readonly output?: OutputMode;
  /** The operator installation; what is left out is the Helm default (see `settings`). */
  readonly settings?: Partial<OperatorSettings>;
  /** @default - objects the operator creates are in `default` */
  readonly namespace?: string;
}

/**
 * The objects one document (or a list of documents) renders to: each Dynamo document is admitted
 * as the operator admits it on create first, and one the operator would refuse is a RenderError
 * listing its violations (unlike `cdk8s-dynamo render`, the rendered objects are not checked as
 * the API server would check them).
 */
export function render(docs: unknown | readonly unknown[], options: RenderWith = {}): any[] {
  return renderDocuments(asList(docs), { output: options.output ?? 'workloads', operator: options.settings, namespace: options.namespace }) as any[];
}

/**
 * `render` without the admission check: for the tests that pin how the engine handles input the
 * operator would refuse (no cluster would hold the result).
 */
export function renderUnchecked(docs: unknown | readonly unknown[], options: RenderWith = {}): any[] {
  return renderDocuments(asList(docs), {
    output: options.output ?? 'workloads', operator: options.settings, namespace: options.namespace, checkAdmission: false,
  }) as any[];
}

/** The RenderError `fn` throws (returning, or throwing anything else, fails the test). */
export function renderError(fn: () => unknown): RenderError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RenderError) return e;
    throw e;
  }
  throw new Error('expected a RenderError');
}

/**
 * The `nvidia.com/last-applied-hash` the operator stamps on an object it creates (computed from
 * the object itself, so a test can check a rendered object carries the hash of what it holds).
 * `untyped`: hash the object as plain JSON, not through the Go type the operator hashes.
 */
export function lastAppliedHash(object: unknown, how: { untyped?: boolean } = {}): string {
  return hashOf(object as any, how.untyped ? { layout: null } : {});
}

/**
 * The worker hash the operator computes for a new graph (over its worker components as admission
 * stored them), read off the DynamoComponentDeployments it generates for it (the graph is rendered
 * on the component path whatever `partial` says of Grove; it is not checked).
 */
export function workerHashOf(dgd: unknown, partial: Partial<OperatorSettings> = {}): string {
  const dcds = renderUnchecked(dgd, { output: 'components', settings: { ...partial, groveAvailable: false }, namespace: 'ns' });
  const hash = dcds.map(d => d.metadata?.labels?.['nvidia.com/dynamo-worker-hash']).find(h => h !== undefined);
  if (hash === undefined) throw new Error('the graph has no worker component');
  return hash;
}

// ---------------------------------------------------------------------------------------------
// Admission and settings
// ---------------------------------------------------------------------------------------------

/** Operator settings: `partial` over the defaults of a default platform install. */
export function settings(partial: Partial<OperatorSettings> = {}): OperatorSettings {
  return resolveOperatorSettings(partial);
}

/**
 * The problems the operator (and the API server) find in documents created together, as
 * `cdk8s-dynamo validate` finds them: empty when every document would be admitted. The documents
 * are also the cluster state admission may read (a DeviceClass, a ClusterTopologyBinding).
 */
export function admit(docs: unknown | readonly unknown[], partial: Partial<OperatorSettings> = {}): Problem[] {
  return checkAndRender([{ documents: asList(docs) }], { settings: settings(partial) }).problems;
}

/**
 * A new graph as admission stores it on create (defaults filled in, the operator's origin-version
 * annotation set), without checking it: what the operator's controllers then read.
 */
export function storedGraph(dgd: DgdJson, partial: Partial<OperatorSettings> = {}): DgdJson {
  return admitNewGraph(dgd, settings(partial));
}

/** A new standalone DynamoComponentDeployment as admission stores it on create, without checking it. */
export function storedComponent(dcd: DcdJson): DcdJson {
  return admitNewComponent(dcd);
}

function asList(docs: unknown | readonly unknown[]): readonly unknown[] {
  return Array.isArray(docs) ? docs : [docs];
}

// ---------------------------------------------------------------------------------------------
// Looking things up in rendered objects
// ---------------------------------------------------------------------------------------------

/** The one rendered object of `kind` (named `name`, or whose name starts with `name-` as a worker DCD's hash suffix does). */
export function objectOf(objects: readonly any[], kind: string, name?: string): any {
  const found = objects.filter(o => o.kind === kind && (name === undefined || o.metadata?.name === name || o.metadata?.name?.startsWith(`${name}-`)));
  const exact = found.filter(o => o.metadata?.name === name);
  const one = exact.length === 1 ? exact : found;
  if (one.length !== 1) throw new Error(`expected one ${kind}${name === undefined ? '' : ` named ${name}`}, found ${one.length}`);
  return one[0];
}

/**
 * The pod template of the workload a DynamoComponentDeployment renders to (its Deployment's, or its
 * LeaderWorkerSet's leader template), as the operator sends it. `ownerGraph` names the graph that
 * owns the DCD (an owner reference, as on the DCDs a graph generates). Not checked.
 */
export function podTemplateOf(dcd: DcdJson, partial: Partial<OperatorSettings> = {}, ownerGraph?: string): any {
  const owned = ownerGraph === undefined ? dcd
    : { ...dcd, metadata: { ...dcd.metadata, ownerReferences: [{ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', name: ownerGraph, uid: '' }] } };
  const objects = renderUnchecked(owned, { settings: partial });
  const lws = objects.find(o => o.kind === 'LeaderWorkerSet');
  return lws !== undefined ? lws.spec.leaderWorkerTemplate.leaderTemplate : objectOf(objects, 'Deployment').spec.template;
}

/**
 * The leader and worker pod specs of multinode component `component` (lowercase): the
 * LeaderWorkerSet's templates on the LWS path, the `<component>-ldr` / `-wkr` cliques on Grove.
 */
export function multinodePods(objects: readonly any[], component: string): { leader: any; worker: any } {
  const pcs = objects.find(o => o.kind === 'PodCliqueSet');
  if (pcs !== undefined) {
    const clique = (name: string) => {
      const found = pcs.spec.template.cliques.find((c: any) => c.name === name);
      if (!found) throw new Error(`no clique ${name}`);
      return found.spec.podSpec;
    };
    return { leader: clique(`${component}-ldr`), worker: clique(`${component}-wkr`) };
  }
  const lws = objectOf(objects, 'LeaderWorkerSet');
  return { leader: lws.spec.leaderWorkerTemplate.leaderTemplate.spec, worker: lws.spec.leaderWorkerTemplate.workerTemplate.spec };
}

/** The `main` container (always first) of a pod template or pod spec. */
export function mainOf(template: any): any {
  return (template.spec ?? template).containers[0];
}

/** A container's env as name → value (or valueFrom). */
export function envOf(container: any): Record<string, any> {
  return Object.fromEntries((container.env ?? []).map((e: any) => [e.name, e.value ?? e.valueFrom]));
}

// ---- admission, command line, import (testsB26) ----
