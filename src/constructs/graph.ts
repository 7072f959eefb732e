/** A Dynamo inference graph: the DynamoGraphDeployment custom resource and its components. */
import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-34';
import { Construct } from 'constructs';
import { Component, ComponentOptions, ComponentProps, ProviderOverride, providerOverrideJson } from './component';
import { BackendFramework, ComponentType, KvTransferEnforcement, OutputMode, RestartStrategyType } from './enums';
import { propsOf } from './kubernetes-values';
import { MultinodeWorker, MultinodeWorkerProps } from './multinode-worker';
import { envVarJson } from './pod-template-json';
import { checkProps, GRAPH_PROPS } from './props-check';
import { RenderedObject } from './rendered-object';
import { DynamoResource, DynamoResourceProps } from './resource';
import { SynthesisOptions } from './synthesis-options';
import type { GraphFootprint } from '../explain/footprint-types';
import { explain, graphImport } from '../lazy-modules';
import { copyJson, shallowCopy } from '../model/json-copy';
import { API_VERSION, DCD_KIND, DGD_KIND, DgdJson, DgdSpecJson } from '../model/v1beta1';
import { ANNOTATION_KUBE_DISCOVERY_MODE } from '../model/well-known';
import type { OutputMode as RenderedOutput } from '../pipeline/check-and-render';

/** Graph-level topology constraint. */
export interface GraphTopologyConstraint {
  /** Name of the Grove ClusterTopology defining the topology levels. */
  readonly clusterTopologyName: string;
  /**
   * Default topology domain to pack pods within.
   * @default - only components carry constraints
   */
  readonly packDomain?: string;
}

/** Restart of the graph; change `id` to trigger one. */
export interface GraphRestart {
  /** Any string; a change starts a restart. */
  readonly id: string;
  /**
   * Whether components restart one at a time or all at once.
   * @default RestartStrategyType.SEQUENTIAL
   */
  readonly strategy?: RestartStrategyType;
  /**
   * Order of a sequential restart (every component name once).
   * @default - the controller's order
   */
  readonly order?: string[];
}

/** Topology-aware KV-cache transfer between prefill and decode workers (preview). */
export interface KvTransferPolicy {
  /** Logical name of the topology level, for example `zone`. */
  readonly domain: string;
  /**
   * Node label key identifying the worker's domain (exclusive with `clusterTopologyName`).
   * @default - none
   */
  readonly labelKey?: string;
  /**
   * Grove ClusterTopology to read the levels from (exclusive with `labelKey`).
   * @default - none
   */
  readonly clusterTopologyName?: string;
  /**
   * How the prefill worker's domain constrains decode routing.
   * @default KvTransferEnforcement.REQUIRED
   */
  readonly enforcement?: KvTransferEnforcement;
  /**
   * Strength of the same-domain preference, 0 to 1 (required with `PREFERRED`).
   * @default - none
   */
  readonly preferredWeight?: number;
}

/** Props of a graph. */
export interface DynamoGraphProps extends SynthesisOptions {
  /**
   * Metadata of the DynamoGraphDeployment.
   * @default - a name generated from the construct path
   */
  readonly metadata?: ApiObjectMetadata;
  /**
   * Backend framework of the graph's workers.
   * @default - detected by the operator from the workers' commands
   */
  readonly backendFramework?: BackendFramework;
  /**
   * Environment variables given to every component (a component's own entry wins).
   * @default - none
   */
  readonly env?: { [name: string]: kplus.EnvValue };
  /**
   * Annotations propagated to all child resources.
   * @default - none
   */
  readonly annotations?: { [key: string]: string };
  /**
   * Labels propagated to all child resources.
   * @default - none
   */
  readonly labels?: { [key: string]: string };
  /**
   * PriorityClass of the Grove PodCliqueSet.
   * @default - none
   */
  readonly priorityClassName?: string;
  /**
   * Deployment-level topology constraint.
   * @default - none
   */
  readonly topologyConstraint?: GraphTopologyConstraint;
  /**
   * Restart request (cannot be set when the graph is created).
   * @default - none
   */
  readonly restart?: GraphRestart;
  /**
   * Topology-aware KV transfer (preview).
   * @default - none
   */
  readonly kvTransferPolicy?: KvTransferPolicy;
  /**
   * Provider configuration of the graph's workload (Grove PodCliqueSet).
   * @default - none
   */
  readonly providerOverride?: ProviderOverride;
}

/** Options for importing a DynamoGraphDeployment or DynamoComponentDeployment document. */
export interface ImportOptions extends SynthesisOptions {}

/** A Dynamo inference graph (DynamoGraphDeployment). */
export class DynamoGraph extends DynamoResource {
  /**
   * Builds a graph from a DynamoGraphDeployment document (a plain object). A `nvidia.com/v1alpha1`
   * document is converted to `nvidia.com/v1beta1` first, as the API server converts it.
   */
  public static fromObject(scope: Construct, id: string, document: any, options: ImportOptions = {}): DynamoGraph {
    return graphImport().importGraph(scope, id, document, options);
  }

  /**
   * Builds a graph from YAML holding one DynamoGraphDeployment (other documents are ignored). A
   * `nvidia.com/v1alpha1` document is converted to `nvidia.com/v1beta1` first, as the API server converts it.
   */
  public static fromYaml(scope: Construct, id: string, yamlText: string, options: ImportOptions = {}): DynamoGraph {
    const { graphDocumentOfYaml, importGraph } = graphImport();
    return importGraph(scope, id, graphDocumentOfYaml(yamlText), options);
  }

  /** Whether `x` is a DynamoGraph. */
  public static isDynamoGraph(x: any): x is DynamoGraph {
    return x instanceof DynamoGraph;
  }

  private static specOf(props: DynamoGraphProps): DgdSpecJson {
    const spec: DgdSpecJson = {};
    if (props.backendFramework !== undefined) spec.backendFramework = props.backendFramework;
    if (props.env) spec.env = Object.entries(props.env).map(([name, value]) => envVarJson(name, value, `env.${name}`));
    if (props.annotations) spec.annotations = { ...props.annotations };
    if (props.labels) spec.labels = { ...props.labels };
    if (props.priorityClassName !== undefined) spec.priorityClassName = props.priorityClassName;
    if (props.topologyConstraint) spec.topologyConstraint = copyJson(props.topologyConstraint);
    if (props.restart) {
      spec.restart = { id: props.restart.id };
      if (props.restart.strategy !== undefined || props.restart.order !== undefined) {
        spec.restart.strategy = {};
        if (props.restart.strategy !== undefined) spec.restart.strategy.type = props.restart.strategy;
        if (props.restart.order !== undefined) spec.restart.strategy.order = [...props.restart.order];
      }
    }
    if (props.kvTransferPolicy) spec.experimental = { kvTransferPolicy: copyJson(props.kvTransferPolicy) as any };
    if (props.providerOverride) spec.providerOverride = providerOverrideJson(props.providerOverride, 'providerOverride') as any;
    return spec;
  }

  /** The DynamoGraphDeployment object of GRAPH output. */
  private readonly resource?: ApiObject;
  private spec: DgdSpecJson;
  private readonly componentList: Component[] = [];
  /** The parent of the DynamoComponentDeployments of COMPONENTS output. */
  private componentObjects?: Construct;

  constructor(scope: Construct, id: string, props: DynamoGraphProps = {}) {
    super(scope, id, props);
    this.spec = propsOf(this, () => DynamoGraph.specOf(props));
    if (this.output === OutputMode.GRAPH) this.resource = this._resourceObject(DGD_KIND, () => this.toJson().spec);
  }

  /** Components of the graph, in order. */
  public get components(): Component[] {
    return [...this.componentList];
  }

  /** Adds a component. */
  public addComponent(id: string, props: ComponentProps = {}): Component {
    return new Component(this, id, props);
  }

  /** Adds the HTTP frontend. */
  public addFrontend(id: string, options: ComponentOptions = {}): Component {
    return this.addComponent(id, withType(options, ComponentType.FRONTEND));
  }

  /** Adds an aggregated worker. */
  public addWorker(id: string, options: ComponentOptions = {}): Component {
    return this.addComponent(id, withType(options, ComponentType.WORKER));
  }

  /** Adds a prefill worker. */
  public addPrefillWorker(id: string, options: ComponentOptions = {}): Component {
    return this.addComponent(id, withType(options, ComponentType.PREFILL));
  }

  /** Adds a decode worker. */
  public addDecodeWorker(id: string, options: ComponentOptions = {}): Component {
    return this.addComponent(id, withType(options, ComponentType.DECODE));
  }

  /** Adds the planner. */
  public addPlanner(id: string, options: ComponentOptions = {}): Component {
    return this.addComponent(id, withType(options, ComponentType.PLANNER));
  }

  /** Adds the endpoint picker (at most one per graph). */
  public addEpp(id: string, options: ComponentOptions = {}): Component {
    return this.addComponent(id, withType(options, ComponentType.EPP));
  }

  /**
   * Adds a multinode worker, prefill or decode component. Without `type` it is an aggregated
   * worker, and only in a graph without prefill or decode workers: in a disaggregated graph this
   * throws (and synthesis fails if one is added later) until `type` names its role.
   */
  public addMultinodeWorker(id: string, props: MultinodeWorkerProps): MultinodeWorker {
    return new MultinodeWorker(this, id, props);
  }

  /** Sets an environment variable given to every component. */
  public addEnv(name: string, value: kplus.EnvValue): void {
    const variable = propsOf(this, () => envVarJson(name, value, `addEnv(${JSON.stringify(name) ?? String(name)})`));
    this._invalidate();
    const env = (this.spec.env ?? []).filter(e => e.name !== name);
    env.push(variable);
    this.spec.env = env;
  }

  /** The DynamoGraphDeployment as a plain object (the input of the render engine). */
  public toJson(): any {
    const spec: DgdSpecJson = copyJson(this.spec);
    if (this.componentList.length > 0) spec.components = this.componentList.map(c => c._toSpecJson());
    const doc: DgdJson = { apiVersion: API_VERSION, kind: DGD_KIND, metadata: copyJson(this._metadata), spec };
    return doc;
  }

  /**
   * What the graph occupies once the graph's operator runs it: per component its type, replicas,
   * nodes, pods, GPUs per pod and in total, and the DRA ResourceClaimTemplates the operator creates;
   * and the graph's total GPUs. Read from the graph as admission stores it, as `cdk8s-dynamo
   * explain` reads it. Throws when the operator would refuse the graph (the validation messages) or
   * cannot render it.
   */
  public footprint(): GraphFootprint {
    return explain().graphFootprint(this.admittedJson(), this._settings);
  }

  /**
   * A Mermaid flowchart (`flowchart LR`) of the graph: clients, the Gateway and endpoint picker,
   * the frontends with their router mode, the workers, the planner and what it scales, each with
   * its replicas and GPUs; the text `cdk8s-dynamo explain --mermaid` prints. Throws as `footprint()`.
   */
  public toMermaid(): string {
    return explain().graphMermaidText(this.admittedJson(), this._settings);
  }

  /** The document, when the graph's operator admits it; else throws the validation messages. */
  private admittedJson(): DgdJson {
    const violations = this._synthesis().violations;
    if (violations.length > 0) throw new Error(violations.map(v => `${this.node.path}: ${v}`).join('\n'));
    return this.toJson();
  }

  /** @internal Called by a component created in this graph before it checks its props: ids are unique in a graph. */
  public _checkComponentId(id: string): void {
    if (this.componentList.some(c => c._id === id)) {
      throw new Error(`${this.node.path}: component id: Duplicate value: ${JSON.stringify(id)}: the graph already has a component of this id`);
    }
  }

  /**
   * @internal Called by a component created in this graph. In COMPONENTS output its
   * DynamoComponentDeployment is the child `Components/<id>` of the graph.
   */
  public _attachComponent(component: Component): void {
    this._invalidate();
    if (component._needsContainerDiscovery()) this.useContainerDiscovery();
    const index = this.componentList.length;
    this.componentList.push(component);
    if (this.output === OutputMode.COMPONENTS) {
      this.componentObjects ??= new Construct(this, 'Components');
      new RenderedObject(this.componentObjects, component._id, API_VERSION, DCD_KIND, () => this._renderedObjects()[index]);
    }
  }

  /**
   * Intra-pod failover needs container-level discovery (admission rule 6): a graph with a component
   * whose `experimental.failover` asks for it gets the annotation
   * `nvidia.com/dynamo-kube-discovery-mode: container`, unless its `metadata.annotations` set the mode
   * (then a mode other than `container` is a validation error naming that annotation).
   */
  private useContainerDiscovery(): void {
    const annotations = (this._metadata.annotations ?? {}) as { [key: string]: string };
    if (Object.prototype.hasOwnProperty.call(annotations, ANNOTATION_KUBE_DISCOVERY_MODE)) return;
    this._invalidate();
    this._metadata.annotations = { ...annotations, [ANNOTATION_KUBE_DISCOVERY_MODE]: 'container' };
    this.resource?.metadata.addAnnotation(ANNOTATION_KUBE_DISCOVERY_MODE, 'container');
  }

  /** @internal Replaces the graph spec (import). */
  public _setSpec(spec: DgdSpecJson): void {
    this._invalidate();
    this.spec = copyJson(spec);
  }

  /** @internal */
  protected _checkProps(props: DynamoResourceProps): void {
    checkProps(this, 'DynamoGraphProps', props, GRAPH_PROPS);
  }

  /** @internal The document is the graph's own while `toJson` is (every change of it calls `_invalidate`). */
  protected _documentTracked(): boolean {
    return this.toJson === DynamoGraph.prototype.toJson;
  }

  /** @internal The graph, rendered in COMPONENTS and WORKLOADS output. */
  protected _synthesisInput(): { readonly document: unknown; readonly render?: RenderedOutput } {
    return { document: this.toJson(), render: this.output === OutputMode.GRAPH ? undefined : this.output };
  }

  /** @internal The path of the component a field path of the graph points into, else the graph's. */
  protected _pathOfField(field: string): string {
    const match = /^spec\.components\[(\d+)\]/.exec(field);
    const component = match ? this.componentList[Number(match[1])] : undefined;
    return component?._path ?? this.node.path;
  }
}

/**
 * `{ ...options, type }` (without spread syntax, whose objects are slow to extend; see
 * `shallowCopy`).
 */
function withType(options: ComponentOptions, type: ComponentType): ComponentProps {
  const props: ComponentProps = shallowCopy(options);
  (props as { type?: ComponentType }).type = type;
  return props;
}
