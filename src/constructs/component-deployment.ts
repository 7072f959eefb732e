/** A standalone DynamoComponentDeployment: one component managed on its own. */
import { ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { Component, ComponentProps, MultinodeOptions } from './component';
import { BackendFramework, OutputMode } from './enums';
import type { ImportOptions } from './graph';
import { checkProps, COMPONENT_DEPLOYMENT_PROPS } from './props-check';
import { DynamoResource, DynamoResourceProps } from './resource';
import { SynthesisOptions } from './synthesis-options';
import { componentImport } from '../lazy-modules';
import { copyJson } from '../model/json-copy';
import { API_VERSION, DCD_KIND, DcdJson, DcdSpecJson } from '../model/v1beta1';

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
export class ComponentDeployment extends DynamoResource {
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

  /** The component this deployment runs. */
  public readonly component: Component;

  private backendFramework?: string;
  private specName?: string;

  constructor(scope: Construct, id: string, props: ComponentDeploymentProps = {}) {
    super(scope, id, props);
    this.backendFramework = props.backendFramework;
    this.specName = props.name;
    // the component takes the component props; the deployment's own (metadata, output, ...) stay here
    const { metadata: _metadata, backendFramework: _backendFramework, output: _output, operator: _operator, ...componentProps } = props;
    this.component = new Component(this, 'Component', { ...componentProps, name: props.name ?? this.name });
    if (this.output !== OutputMode.WORKLOADS) this._resourceObject(DCD_KIND, () => this.toJson().spec);
  }

  /** The DynamoComponentDeployment as a plain object. */
  public toJson(): any {
    const spec: DcdSpecJson = {};
    if (this.backendFramework !== undefined) spec.backendFramework = this.backendFramework as DcdSpecJson['backendFramework'];
    Object.assign(spec, this.component._toSpecJson());
    if (this.specName === undefined) delete spec.name;
    const doc: DcdJson = { apiVersion: API_VERSION, kind: DCD_KIND, metadata: copyJson(this._metadata), spec };
    return doc;
  }

  /** @internal Replaces the whole spec (import). */
  public _setSpec(spec: DcdSpecJson): void {
    this._invalidate();
    const { backendFramework, ...rest } = copyJson(spec);
    this.backendFramework = backendFramework;
    this.specName = rest.name;
    this.component._replaceSpec(rest);
  }

  /** @internal */
  protected _checkProps(props: DynamoResourceProps): void {
    checkProps(this, 'ComponentDeploymentProps', props, COMPONENT_DEPLOYMENT_PROPS);
  }

  /** @internal The document is the deployment's own while `toJson` is (every change of it calls `_invalidate`). */
  protected _documentTracked(): boolean {
    return this.toJson === ComponentDeployment.prototype.toJson;
  }
}
