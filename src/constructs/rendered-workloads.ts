/**
 * The `Workloads` child of a graph or component deployment in `OutputMode.WORKLOADS`: one
 * RenderedObject per Kubernetes object the engine renders. The set of objects is only known after
 * rendering, so the children are (re)created at synth-time validation, which cdk8s runs before it
 * collects the ApiObjects of a chart.
 */
import { Construct } from 'constructs';
import { RenderedObject } from './rendered-object';
import { RenderError } from '../engine/errors';
import { isMap } from '../model/json';
import { copyJsonForOutput } from '../model/json-copy';
import { checkEmittedObject, formatEmittedViolation } from '../validation/emitted-admission';

/** Construct id of the child holding the rendered objects. */
export const WORKLOADS_ID = 'Workloads';

export class RenderedWorkloads extends Construct {
  /** The objects the children currently synthesize (compared by identity). */
  private materialized?: readonly unknown[];
  /** The admission problems of the materialized objects. */
  private problems: readonly string[] = [];

  constructor(scope: Construct) {
    super(scope, WORKLOADS_ID);
  }

  /**
   * Makes the children synthesize exactly `objects`, in order, with ids `<Kind>.<name>` (a second
   * object of the same kind and name gets `.2`, and so on). A new array replaces all children; the
   * same array again changes nothing.
   *
   * Returns what the API server would reject when the operator creates the objects (schema and CRD
   * CEL rules, `checkEmittedObject`): one validation message per violation, prefixed by the
   * construct path of the object's child. Checked once per array.
   */
  public materialize(objects: readonly unknown[]): readonly string[] {
    if (objects === this.materialized) return this.problems;
    for (const child of [...this.node.children]) this.node.tryRemoveChild(child.node.id);
    const seen = new Map<string, number>();
    const problems: string[] = [];
    objects.forEach((object, index) => {
      const { apiVersion, kind, name } = identityOf(object);
      const base = kind && name ? `${kind}.${name}` : `Object.${index}`;
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      const id = count === 1 ? base : `${base}.${count}`;
      const child = new RenderedObject(this, id, apiVersion, kind, () => copyJsonForOutput(object), name || undefined);
      for (const violation of checkEmittedObject(object)) problems.push(`${child.node.path}: ${formatEmittedViolation(violation)}`);
    });
    this.materialized = objects;
    this.problems = problems;
    return problems;
  }
}

function identityOf(object: unknown): { apiVersion: string; kind: string; name: string } {
  const doc = isMap(object) ? object : {};
  const metadata = isMap(doc.metadata) ? doc.metadata : {};
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  return { apiVersion: text(doc.apiVersion), kind: text(doc.kind), name: text(metadata.name) };
}

/**
 * Runs `render`; a RenderError becomes one validation message prefixed by the construct path that
 * `scopeOf` picks for the error's field (for example the component the field points into). Any
 * other exception is reported the same way, as an internal error quoting the original message.
 */
export function renderOrReport<T>(render: () => T, scopeOf: (error: RenderError) => Construct): { result?: T; errors: string[] } {
  try {
    return { result: render(), errors: [] };
  } catch (e) {
    const error = e instanceof RenderError ? e : internalError(e);
    return { errors: [`${scopeOf(error).node.path}: ${error.message}`] };
  }
}

function internalError(e: unknown): RenderError {
  const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new RenderError('render', '(the object)', `internal error: rendering failed unexpectedly (${detail}); please report it`);
}
