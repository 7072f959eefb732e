/** A standalone DynamoComponentDeployment: one component managed on its own. */
import { ApiObject, ApiObjectMetadata, Chart, Lazy, Names } from 'cdk8s';
import { Construct } from 'constructs';
import { Component, ComponentProps, MultinodeOptions } from './component';
import { BackendFramework } from './enums';
import { constructValidation } from './validation';
import { componentDocumentOfYaml, importComponentDeployment } from '../import/component-import';
import { deepClone } from '../model/json';
import { API_VERSION, DCD_KIND, DcdJson, DcdSpecJson, JsonObject } from '../model/v1beta1';

/** Props of a standalone component deployment. */
export interface ComponentDeploymentProps extends ComponentProps {
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
  /** Builds a component deployment from a DynamoComponentDeployment document (a plain object). */
  public static fromObject(scope: Construct, id: string, document: any): ComponentDeployment {
    return importComponentDeployment(scope, id, document);
  }

  /** Builds a component deployment from YAML holding one DynamoComponentDeployment. */
  public static fromYaml(scope: Construct, id: string, yamlText: string): ComponentDeployment {
    return importComponentDeployment(scope, id, componentDocumentOfYaml(yamlText));
  }

  /** Name of the DynamoComponentDeployment. */
  public readonly name: string;
  /** The component this deployment runs. */
  public readonly component: Component;

  private readonly metadata: JsonObject;
  private backendFramework?: string;
  private specName?: string;

  constructor(scope: Construct, id: string, props: ComponentDeploymentProps = {}) {
    super(scope, id);
    this.name = props.metadata?.name ?? Names.toDnsLabel(this);
    const namespace = props.metadata?.namespace ?? Chart.of(this).namespace;
    this.metadata = { ...deepClone(props.metadata ?? {}), name: this.name };
    if (namespace) this.metadata.namespace = namespace;
    this.backendFramework = props.backendFramework;
    this.specName = props.name;
    this.component = new Component(this, 'Component', { ...props, name: props.name ?? this.name });
    new ApiObject(this, 'Resource', {
      apiVersion: API_VERSION,
      kind: DCD_KIND,
      metadata: this.metadata,
      spec: Lazy.any({ produce: () => this.toJson().spec }),
    });
    this.node.addValidation({ validate: () => constructValidation(this, this.toJson(), undefined) });
  }

  /** The DynamoComponentDeployment as a plain object. */
  public toJson(): any {
    const spec: DcdSpecJson = {};
    if (this.backendFramework !== undefined) spec.backendFramework = this.backendFramework as DcdSpecJson['backendFramework'];
    Object.assign(spec, this.component._toSpecJson());
    if (this.specName === undefined) delete spec.name;
    const doc: DcdJson = { apiVersion: API_VERSION, kind: DCD_KIND, metadata: deepClone(this.metadata), spec };
    return doc;
  }

  /** @internal Replaces the whole spec (import). */
  public _setSpec(spec: DcdSpecJson): void {
    const { backendFramework, ...rest } = deepClone(spec);
    this.backendFramework = backendFramework;
    this.specName = rest.name;
    this.component._replaceSpec(rest);
  }
}
