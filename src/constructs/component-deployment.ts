/** A standalone DynamoComponentDeployment: one component managed on its own. */
import { ApiObject, ApiObjectMetadata, Chart, Lazy, Names } from 'cdk8s';
import { Construct } from 'constructs';
import { Component, ComponentProps, MultinodeOptions } from './component';
import { BackendFramework, OutputMode } from './enums';
import type { ImportOptions } from './graph';
import { objectMetaJson, propsOf } from './kubernetes-values';
import { componentImport, pipeline } from './on-first-use';
import { operatorSettingsOf } from './operator-settings-of';
import { checkProps, COMPONENT_DEPLOYMENT_PROPS } from './props-check';
import { RenderedWorkloads, renderOrReport } from './rendered-workloads';
import { SynthesisOptions } from './synthesis-options';
import { ValidationCache } from './validation';
import type { OperatorSettings } from '../engine/operator-settings';
import { deepClone } from '../model/json';
import { copyJson } from '../model/json-copy';
import { API_VERSION, DCD_KIND, DcdJson, DcdSpecJson, JsonObject } from '../model/v1beta1';

/** Props of a standalone component deployment. */
export interface ComponentDeploymentProps extends ComponentProps, SynthesisOptions {
  /**
   * Metadata of the DynamoComponentDeployment.
   * @default - a name generated from the construct path
   */
  readonly metadata?: ApiObjectMetadata;
  /**
   * Backend framework of the component.
   * @default - none
   */
  readonly backendFramework?: BackendFramework;
  /**
   * Multinode layout, for a worker-class component spanning several nodes.
   * @default - single node
   */
  readonly multinode?: MultinodeOptions;
}

/** A standalone DynamoComponentDeployment. */
export class ComponentDeployment extends Construct {
  /**
   * Builds a component deployment from a DynamoComponentDeployment document (a plain object). A
   * `nvidia.com/v1alpha1` document is converted to `nvidia.com/v1beta1` first, as the API server converts it.
   */
  public static fromObject(scope: Construct, id: string, document: any, options: ImportOptions = {}): ComponentDeployment {
    return componentImport().importComponentDeployment(scope, id, document, options);
  }

  /**
   * Builds a component deployment from YAML holding one DynamoComponentDeployment. A
   * `nvidia.com/v1alpha1` document is converted to `nvidia.com/v1beta1` first, as the API server converts it.
   */
  public static fromYaml(scope: Construct, id: string, yamlText: string, options: ImportOptions = {}): ComponentDeployment {
    const { componentDocumentOfYaml, importComponentDeployment } = componentImport();
    return importComponentDeployment(scope, id, componentDocumentOfYaml(yamlText), options);
  }

  /** Name of the DynamoComponentDeployment. */
  public readonly name: string;
  /** The component this deployment runs. */
  public readonly component: Component;
  /** What the deployment synthesizes. */
  public readonly output: OutputMode;

  private readonly metadata: JsonObject;
  private readonly settings: OperatorSettings;
  private backendFramework?: string;
  private specName?: string;
  /** The rendered workloads, until the deployment changes. */
  private renderedWorkloads?: readonly unknown[];
  /** Parent of the rendered objects in WORKLOADS output. */
  private readonly workloads?: RenderedWorkloads;
  /** The validation of the document, until it changes. */
  private readonly validation: ValidationCache;

  constructor(scope: Construct, id: string, props: ComponentDeploymentProps = {}) {
    super(scope, id);
    checkProps(this, 'ComponentDeploymentProps', props, COMPONENT_DEPLOYMENT_PROPS);
    this.output = props.output ?? OutputMode.GRAPH;
    try {
      this.settings = operatorSettingsOf(props.operator);
    } catch (e) {
      throw new Error(`${this.node.path}: ${(e as Error).message}`);
    }
    this.name = props.metadata?.name ?? Names.toDnsLabel(this);
    const namespace = props.metadata?.namespace ?? Chart.of(this).namespace;
    this.metadata = { ...propsOf(this, () => objectMetaJson(props.metadata)), name: this.name };
    if (namespace) this.metadata.namespace = namespace;
    this.backendFramework = props.backendFramework;
    this.specName = props.name;
    this.validation = new ValidationCache(this, this.settings, () => this._invalidate());
    // the component takes the component props; the deployment's own (metadata, output, ...) stay here
    const { metadata: _metadata, backendFramework: _backendFramework, output: _output, operator: _operator, ...componentProps } = props;
    this.component = new Component(this, 'Component', { ...componentProps, name: props.name ?? this.name });
    if (this.output === OutputMode.WORKLOADS) {
      this.workloads = new RenderedWorkloads(this);
    } else {
      new ApiObject(this, 'Resource', {
        apiVersion: API_VERSION,
        kind: DCD_KIND,
        metadata: this.metadata,
        spec: Lazy.any({ produce: () => this.toJson().spec }),
      });
    }
    this.node.addValidation({ validate: () => this.validateAndRender() });
  }

  /** The DynamoComponentDeployment as a plain object. */
  public toJson(): any {
    const spec: DcdSpecJson = {};
    if (this.backendFramework !== undefined) spec.backendFramework = this.backendFramework as DcdSpecJson['backendFramework'];
    Object.assign(spec, this.component._toSpecJson());
    if (this.specName === undefined) delete spec.name;
    const doc: DcdJson = { apiVersion: API_VERSION, kind: DCD_KIND, metadata: copyJson(this.metadata), spec };
    return doc;
  }

  /** @internal Replaces the whole spec (import). */
  public _setSpec(spec: DcdSpecJson): void {
    this._invalidate();
    const { backendFramework, ...rest } = deepClone(spec);
    this.backendFramework = backendFramework;
    this.specName = rest.name;
    this.component._replaceSpec(rest);
  }

  /** @internal Called whenever the deployment or its component changes. */
  public _invalidate(): void {
    this.renderedWorkloads = undefined;
  }

  /**
   * Synth-time validation: the DCD's violations (validated again only when the document changed);
   * when there are none in WORKLOADS output, the rendered workloads are materialized as the
   * children of `Workloads` (see RenderedWorkloads for why here), and RenderErrors become
   * validation errors, as do the violations of the rendered objects (what the API server would
   * reject of them).
   */
  private validateAndRender(): string[] {
    // validation and rendering read the document and leave it as it is: one copy serves both, made
    // only when one of them has work to do (cdk8s validates N + 1 times in an app of N charts)
    let doc: DcdJson | undefined;
    const document = (): DcdJson => (doc ??= this.toJson());
    const violations = this.validation.violations(this.documentView(), document);
    if (violations.length > 0 || this.output !== OutputMode.WORKLOADS) return violations;
    const { result, errors } = renderOrReport(() => this.renderWorkloads(document), () => this);
    if (!result) return errors;
    this.workloads!.materialize(result);
    return [...this.workloads!.problems()];
  }

  /**
   * The document as the deployment holds it, the key of its validation: `this.toJson()` without the
   * copy (see `DynamoGraph`'s). A subclass with its own `toJson` gives that.
   */
  private documentView(): unknown {
    if (this.toJson !== ComponentDeployment.prototype.toJson) return this.toJson();
    const spec: DcdSpecJson = {};
    if (this.backendFramework !== undefined) spec.backendFramework = this.backendFramework as DcdSpecJson['backendFramework'];
    Object.assign(spec, this.component._specJsonView());
    if (this.specName === undefined) delete spec.name;
    return { apiVersion: API_VERSION, kind: DCD_KIND, metadata: this.metadata, spec };
  }

  /** The rendered workloads (rendered from `document()`, the current document, when not known yet). */
  private renderWorkloads(document: () => DcdJson): readonly unknown[] {
    if (!this.renderedWorkloads) {
      this.renderedWorkloads = pipeline().renderDocuments([document()], { output: 'workloads', operator: this.settings, checkAdmission: false });
    }
    return this.renderedWorkloads;
  }
}
