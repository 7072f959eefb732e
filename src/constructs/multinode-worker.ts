/** A worker-class component spanning several nodes (LeaderWorkerSet or Grove scaling group). */
import { Construct, IConstruct } from 'constructs';
import { Component, ComponentProps, MultinodeOptions } from './component';
import { ComponentType } from './enums';

/** Props of a multinode worker. */
export interface MultinodeWorkerProps extends ComponentProps {
  /** Nodes and roles of one component instance. */
  readonly multinode: MultinodeOptions;
}

/** The types that make a graph disaggregated. */
const DISAGGREGATED: ReadonlySet<string> = new Set([ComponentType.PREFILL, ComponentType.DECODE]);

/** What a graph offers: its components, in order. */
interface ComponentsParent {
  readonly components: readonly Component[];
}

/** The prefill and decode components of `scope`, when it is a graph (or anything listing components). */
function disaggregatedComponents(scope: IConstruct): Component[] {
  const list = (scope as Partial<ComponentsParent>).components;
  if (!Array.isArray(list)) return [];
  return list.filter(c => c.type !== undefined && DISAGGREGATED.has(c.type));
}

/** The message for an untyped multinode worker in a graph of prefill or decode workers. */
function ambiguousTypeMessage(path: string, others: readonly Component[]): string {
  const names = others.map(c => `${c.name} (${c.type})`).join(', ');
  return `${path}: type: Required value: the graph has prefill or decode workers (${names}), so a multinode `
    + 'worker needs its role: set type to ComponentType.PREFILL or ComponentType.DECODE, or to '
    + 'ComponentType.WORKER for an aggregated worker beside them';
}

/**
 * A worker, prefill or decode component whose every instance spans `multinode.nodeCount` nodes.
 *
 * Without `type` it is an aggregated worker (`ComponentType.WORKER`), but only in a graph without
 * prefill or decode workers: in a disaggregated graph the role is ambiguous, so the constructor
 * throws when the graph already has one, and synthesis fails when one is added later.
 */
export class MultinodeWorker extends Component {
  /**
   * Creates a multinode worker in a graph (as `addMultinodeWorker` does).
   *
   * @param scope the graph the worker belongs to
   * @param id the worker's id, unique in its graph, and its name unless `props.name` is set
   * @param props what the worker runs, and its nodes and roles
   */
  constructor(scope: Construct, id: string, props: MultinodeWorkerProps) {
    const typed = props.type !== undefined;
    if (!typed) {
      // checked before the component joins the graph, so a refused one leaves the graph as it was
      const others = disaggregatedComponents(scope);
      if (others.length > 0) throw new Error(ambiguousTypeMessage(scope.node.path ? `${scope.node.path}/${id}` : id, others));
    }
    super(scope, id, { ...props, type: props.type ?? ComponentType.WORKER });
    if (!typed) {
      // checked again at synthesis, by the graph (a component is not a construct of its own)
      scope.node.addValidation({
        validate: () => {
          const others = disaggregatedComponents(scope);
          return others.length > 0 ? [ambiguousTypeMessage(this._path, others)] : [];
        },
      });
    }
  }
}
