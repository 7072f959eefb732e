/** A Dynamo inference graph: the DynamoGraphDeployment custom resource and its components. */
import { ApiObject, ApiObjectMetadata, Chart, Lazy, Names } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-34';
import { Construct } from 'constructs';
import { Component, ComponentOptions, ComponentProps, ProviderOverride, providerOverrideJson } from './component';
import { BackendFramework, ComponentType, KvTransferEnforcement, OutputMode, RestartStrategyType } from './enums';
import { objectMetaJson, propsOf } from './kubernetes-values';
import { MultinodeWorker, MultinodeWorkerProps } from './multinode-worker';
import { explain, graphImport, pipeline } from './on-first-use';
import { operatorSettingsOf } from './operator-settings-of';
import { envVarJson } from './pod-template-json';
import { checkProps, GRAPH_PROPS } from './props-check';
import { RenderedObject } from './rendered-object';
import { RenderedWorkloads, renderOrReport } from './rendered-workloads';
import { SynthesisOptions } from './synthesis-options';
import { ValidationCache } from './validation';
import type { RenderError } from '../engine/errors';
import type { OperatorSettings } from '../engine/operator-settings';
import type { GraphFootprint } from '../explain/footprint-types';
import { deepClone } from '../model/json';
import { copyJson, shallowCopy } from '../model/json-copy';
import { API_VERSION, DCD_KIND, DGD_KIND, DgdJson, DgdSpecJson, JsonObject } from '../model/v1beta1';
import { ANNOTATION_KUBE_DISCOVERY_MODE } from '../model/well-known';

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
export class DynamoGraph extends Construct {
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
    if (props.topologyConstraint) spec.topologyConstraint = deepClone(props.topologyConstraint);
    if (props.restart) {
      spec.restart = { id: props.restart.id };
      if (props.restart.strategy !== undefined || props.restart.order !== undefined) {
        spec.restart.strategy = {};
        if (props.restart.strategy !== undefined) spec.restart.strategy.type = props.restart.strategy;
        if (props.restart.order !== undefined) spec.restart.strategy.order = [...props.restart.order];
      }
    }
    if (props.kvTransferPolicy) spec.experimental = { kvTransferPolicy: deepClone(props.kvTransferPolicy) as any };
    if (props.providerOverride) spec.providerOverride = providerOverrideJson(props.providerOverride, 'providerOverride') as any;
    return spec;
  }

  /** Name of the DynamoGraphDeployment. */
  public readonly name: string;
  /** Namespace of the graph, if set on it or its chart. */
  public readonly namespace?: string;
  /** What the graph synthesizes. */
  public readonly output: OutputMode;

  private readonly metadata: JsonObject;
  /** The DynamoGraphDeployment object of GRAPH output. */
  private resource?: ApiObject;
  private readonly settings: OperatorSettings;
  private spec: DgdSpecJson;
  private readonly componentList: Component[] = [];
  /** The rendered DCDs, until the graph or one of its components changes. */
  private renderedComponents?: JsonObject[];
  /** The rendered workloads, until the graph or one of its components changes. */
  private renderedWorkloads?: readonly unknown[];
  /** Parent of the rendered objects in WORKLOADS output. */
  private readonly workloads?: RenderedWorkloads;
  /** The validation of the document, until it changes. */
  private readonly validation: ValidationCache;

  constructor(scope: Construct, id: string, props: DynamoGraphProps = {}) {
    super(scope, id);
    checkProps(this, 'DynamoGraphProps', props, GRAPH_PROPS);
    this.output = props.output ?? OutputMode.GRAPH;
    try {
      this.settings = operatorSettingsOf(props.operator);
    } catch (e) {
      throw new Error(`${this.node.path}: ${(e as Error).message}`);
    }
    this.name = props.metadata?.name ?? Names.toDnsLabel(this);
    this.namespace = props.metadata?.namespace ?? Chart.of(this).namespace;
    this.metadata = { ...propsOf(this, () => objectMetaJson(props.metadata)), name: this.name };
    if (this.namespace) this.metadata.namespace = this.namespace;
    this.spec = propsOf(this, () => DynamoGraph.specOf(props));
    this.validation = new ValidationCache(this, this.settings, () => this._invalidate());

    if (this.output === OutputMode.GRAPH) {
      this.resource = new ApiObject(this, 'Resource', {
        apiVersion: API_VERSION,
        kind: DGD_KIND,
        metadata: this.metadata,
        spec: Lazy.any({ produce: () => this.toJson().spec }),
      });
    }
    if (this.output === OutputMode.WORKLOADS) this.workloads = new RenderedWorkloads(this);
    this.node.addValidation({ validate: () => this.validateAndRender() });
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
    const doc: DgdJson = { apiVersion: API_VERSION, kind: DGD_KIND, metadata: copyJson(this.metadata), spec };
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
    return explain().graphFootprint(this.admittedJson(), this.settings);
  }

  /**
   * A Mermaid flowchart (`flowchart LR`) of the graph: clients, the Gateway and endpoint picker,
   * the frontends with their router mode, the workers, the planner and what it scales, each with
   * its replicas and GPUs; the text `cdk8s-dynamo explain --mermaid` prints. Throws as `footprint()`.
   */
  public toMermaid(): string {
    return explain().graphMermaidText(this.admittedJson(), this.settings);
  }

  /** The document, when the graph's operator admits it; else throws the validation messages. */
  private admittedJson(): DgdJson {
    const doc: DgdJson = this.toJson();
    const violations = this.validation.violations(this.documentView(), () => doc);
    if (violations.length > 0) throw new Error(violations.join('\n'));
    return doc;
  }

  /** @internal Called by a component created in this graph. */
  public _attachComponent(component: Component): void {
    this._invalidate();
    if (component._needsContainerDiscovery()) this.useContainerDiscovery();
    const index = this.componentList.length;
    this.componentList.push(component);
    if (this.output === OutputMode.COMPONENTS) {
      new RenderedObject(component, 'Resource', API_VERSION, DCD_KIND, () => this.renderComponents()[index]);
    }
  }

  /**
   * Intra-pod failover needs container-level discovery (admission rule 6): a graph with a component
   * whose `experimental.failover` asks for it gets the annotation
   * `nvidia.com/dynamo-kube-discovery-mode: container`, unless its `metadata.annotations` set the mode
   * (then a mode other than `container` is a validation error naming that annotation).
   */
  private useContainerDiscovery(): void {
    const annotations = (this.metadata.annotations ?? {}) as { [key: string]: string };
    if (Object.prototype.hasOwnProperty.call(annotations, ANNOTATION_KUBE_DISCOVERY_MODE)) return;
    this.metadata.annotations = { ...annotations, [ANNOTATION_KUBE_DISCOVERY_MODE]: 'container' };
    this.resource?.metadata.addAnnotation(ANNOTATION_KUBE_DISCOVERY_MODE, 'container');
  }

  /** @internal Replaces the graph spec (import). */
  public _setSpec(spec: DgdSpecJson): void {
    this._invalidate();
    this.spec = copyJson(spec);
  }

  /** @internal Called whenever the graph or one of its components changes. */
  public _invalidate(): void {
    this.renderedComponents = undefined;
    this.renderedWorkloads = undefined;
  }

  /**
   * Synth-time validation: the graph's violations (validated again only when the document
   * changed); when there are none, the rendering of the output mode, whose RenderErrors become
   * validation errors. In WORKLOADS output the rendered objects are then materialized as the
   * children of `Workloads` (see RenderedWorkloads for why here), and what the API server would
   * reject of them is an error too.
   */
  private validateAndRender(): string[] {
    // validation and rendering read the document and leave it as it is: one copy serves both, made
    // only when one of them has work to do (cdk8s validates N + 1 times in an app of N charts)
    let doc: DgdJson | undefined;
    const document = (): DgdJson => (doc ??= this.toJson());
    const violations = this.validation.violations(this.documentView(), document);
    if (violations.length > 0) return violations;
    const scopeOf = (e: RenderError) => this.scopeOfField(e.field);
    if (this.output === OutputMode.COMPONENTS) return renderOrReport(() => this.renderComponents(document), scopeOf).errors;
    if (this.output !== OutputMode.WORKLOADS) return [];
    const { result, errors } = renderOrReport(() => this.renderWorkloads(document), scopeOf);
    if (!result) return errors;
    this.workloads!.materialize(result);
    return [...this.workloads!.problems()];
  }

  /**
   * The document as the graph holds it, the key of its validation: `this.toJson()` without the copy
   * (the graph's own plain data; what `toJson` copies). A subclass with its own `toJson` gives that.
   */
  private documentView(): unknown {
    if (this.toJson !== DynamoGraph.prototype.toJson) return this.toJson();
    const spec = this.componentList.length === 0
      ? this.spec
      : { ...this.spec, components: this.componentList.map(c => c._specJsonView()) };
    return { apiVersion: API_VERSION, kind: DGD_KIND, metadata: this.metadata, spec };
  }

  /** The component a field path of the graph points into, else the graph. */
  private scopeOfField(field: string): Construct {
    const match = /^spec\.components\[(\d+)\]/.exec(field);
    return (match && this.componentList[Number(match[1])]) || this;
  }

  /** The rendered DCDs (rendered from `document()`, the current document, when not known yet). */
  private renderComponents(document: () => DgdJson = () => this.toJson()): JsonObject[] {
    if (!this.renderedComponents) {
      // checked already by validation: rendered as admission stores it
      this.renderedComponents = pipeline().renderDocuments([document()], { output: 'components', operator: this.settings, checkAdmission: false }) as JsonObject[];
    }
    return this.renderedComponents;
  }

  /** The rendered workloads (rendered from `document()`, the current document, when not known yet). */
  private renderWorkloads(document: () => DgdJson): readonly unknown[] {
    if (!this.renderedWorkloads) {
      this.renderedWorkloads = pipeline().renderDocuments([document()], { output: 'workloads', operator: this.settings, checkAdmission: false });
    }
    return this.renderedWorkloads;
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
