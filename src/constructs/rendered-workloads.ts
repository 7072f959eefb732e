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
 * objects, and an ApiObject synthesizes exactly one manifest). So the owner's validation renders
 * (and checks what it renders, in the same pipeline call: see DynamoResource), then `materialize`
 * makes the children match the rendered objects.
 */
import { Construct } from 'constructs';
import { RenderedObject } from './rendered-object';
import { isMap } from '../model/json';
import { copyJsonForOutput } from '../model/json-copy';

/** Construct id of the child holding the rendered objects. */
export const WORKLOADS_ID = 'Workloads';

export class RenderedWorkloads extends Construct {
  /** The objects the children currently synthesize (compared by identity). */
  private materialized?: readonly unknown[];
  /** Each child with the object it synthesizes, in order. */
  private rendered: ReadonlyArray<{ readonly child: RenderedObject; readonly object: unknown }> = [];

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
  }

  /** The construct path of the child that synthesizes the materialized object at `index`. */
  public childPath(index: number): string {
    return this.rendered[index]?.child.node.path ?? this.node.path;
  }
}

function identityOf(object: unknown): { apiVersion: string; kind: string; name: string } {
  const doc = isMap(object) ? object : {};
  const metadata = isMap(doc.metadata) ? doc.metadata : {};
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  return { apiVersion: text(doc.apiVersion), kind: text(doc.kind), name: text(metadata.name) };
}
