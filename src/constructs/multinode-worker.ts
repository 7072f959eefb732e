/** A worker-class component spanning several nodes (LeaderWorkerSet or Grove scaling group). */
import { Construct } from 'constructs';
import { Component, ComponentProps, MultinodeOptions } from './component';
import { ComponentType } from './enums';

/** Props of a multinode worker. */
export interface MultinodeWorkerProps extends ComponentProps {
  /** Nodes and roles of one component instance. */
  readonly multinode: MultinodeOptions;
}

/** A worker, prefill or decode component whose every instance spans `multinode.nodeCount` nodes. */
export class MultinodeWorker extends Component {
  constructor(scope: Construct, id: string, props: MultinodeWorkerProps) {
    super(scope, id, { type: ComponentType.WORKER, ...props });
  }
}
