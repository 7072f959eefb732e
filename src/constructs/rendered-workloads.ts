/**
 * The `Workloads` child of a graph or component deployment in `OutputMode.WORKLOADS`: one
 * RenderedObject per Kubernetes object the engine renders.
 *
 * Why the children are created during synth-time validation: the set of objects is only known
 * after rendering, and rendering needs the finished graph (components can be added and changed
 * until synthesis, and input the operator cannot render must be reported as a validation error,
 * not thrown while the app is being built). Between the start of a synthesis and the moment cdk8s
 * collects a chart's ApiObjects, the only code of the library cdk8s runs is the constructs'
 * validations: `App.synth()`, `App.synthYaml()`, `chart.toJson()` and `Testing.synth(chart)` (which
 * calls `chart.toJson()`) all validate the whole app and then walk the chart's construct tree for
 * its ApiObjects (`App._synthChart` validates again for every chart it synthesizes). cdk8s has no
 * other hook there (it runs no aspects and calls nothing on a construct before it collects the
 * objects, and an ApiObject synthesizes exactly one manifest). So the owner's validation renders,
 * then `materialize` makes the children match the rendered objects, then `problems` checks them:
 * two steps, each doing one thing.
 */
import { Construct } from 'constructs';
import { emittedAdmission } from './on-first-use';
import { RenderedObject } from './rendered-object';
import { RenderError } from '../engine/errors';
import { isMap } from '../model/json';
import { copyJsonForOutput } from '../model/json-copy';

/** Construct id of the child holding the rendered objects. */
export const WORKLOADS_ID = 'Workloads';

export class RenderedWorkloads extends Construct {
  /** The objects the children currently synthesize (compared by identity). */
  private materialized?: readonly unknown[];
  /** Each child with the object it synthesizes, in order. */
  private rendered: ReadonlyArray<{ readonly child: RenderedObject; readonly object: unknown }> = [];
  /** The admission problems of the children's objects, once checked. */
  private checked?: readonly string[];

  constructor(scope: Construct) {
    super(scope, WORKLOADS_ID);
  }

  /**
   * Makes the children synthesize exactly `objects`, in order, with ids `<Kind>.<name>` (a second
   * object of the same kind and name gets `.2`, and so on). A new array replaces all children; the
   * same array again changes nothing.
   */
  public materialize(objects: readonly unknown[]): void {
    if (objects === this.materialized) return;
    for (const child of [...this.node.children]) this.node.tryRemoveChild(child.node.id);
    const seen = new Map<string, number>();
    this.rendered = objects.map((object, index) => {
      const { apiVersion, kind, name } = identityOf(object);
      const base = kind && name ? `${kind}.${name}` : `Object.${index}`;
      const count = (seen.get(base) ?? 0) + 1;
      seen.set(base, count);
      const id = count === 1 ? base : `${base}.${count}`;
      return { child: new RenderedObject(this, id, apiVersion, kind, () => copyJsonForOutput(object), name || undefined), object };
    });
    this.materialized = objects;
    this.checked = undefined;
  }

  /**
   * What the API server would reject when the operator creates the materialized objects (schema
   * and CRD CEL rules, `checkEmittedObject`): one validation message per violation, prefixed by the
   * construct path of the object's child. Checked once per `materialize`d array.
   */
  public problems(): readonly string[] {
    if (this.checked === undefined) {
      const { checkEmittedObject, formatEmittedViolation } = emittedAdmission();
      this.checked = this.rendered.flatMap(({ child, object }) =>
        checkEmittedObject(object).map(violation => `${child.node.path}: ${formatEmittedViolation(violation)}`));
    }
    return this.checked;
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
