/** A component of a Dynamo graph: frontend, worker, prefill, decode, planner, EPP or untyped. */
import type * as kplus from 'cdk8s-plus-34';
import { Construct } from 'constructs';
import { ComponentType, MultinodeRoleName } from './enums';
import { EppConfig } from './epp-config';
import { ExperimentalOptions, Failover } from './experimental';
import { plainJson, propsOf, quantityJson } from './kubernetes-values';
import { PodOptions } from './pod-template';
import { containerJson, envVarJson, mainContainerOf, podTemplateJson, upsertEnv } from './pod-template-json';
import { checkProps, COMPONENT_PROPS } from './props-check';
import { copyJson } from '../model/json-copy';
import { ComponentSpecJson, JsonObject, ProviderOverrideJson } from '../model/v1beta1';

const COMPONENT_NAME = /^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?$/;

/** The model a component serves; the operator creates a headless Service for it. */
export interface ModelRef {
  /** Base model identifier, for example `Qwen/Qwen3-0.6B`. */
  readonly name: string;
  /**
   * Model revision.
   * @default - none
   */
  readonly revision?: string;
}

/** A PVC-backed compilation cache. */
export interface CompilationCache {
  /** Name of an existing PVC in the deployment's namespace. */
  readonly pvcName: string;
  /**
   * Mount path of the cache.
   * @default - the backend framework's default path
   */
  readonly mountPath?: string;
}

/** Provider-specific configuration of a generated workload unit (for example a Grove clique). */
export interface ProviderOverride {
  /** API version of the override's value, for example `grove.io/v1alpha1`. */
  readonly apiVersion: string;
  /**
   * The workload unit the override targets.
   * @default - resolved by the operator when unambiguous
   */
  readonly target?: string;
  /** The override, in the shape of the target's API. */
  readonly value: { [key: string]: any };
}

/** Topology placement of a component. */
export interface ComponentTopologyConstraint {
  /** Topology domain to pack the component's pods within. */
  readonly packDomain: string;
}

/** One role of a multinode component. */
export interface ComponentRole {
  /** The role. */
  readonly name: MultinodeRoleName;
  /**
   * Pods of this role in one component instance.
   * @default - 1 for the leader, nodeCount - 1 for the worker
   */
  readonly replicas?: number;
  /**
   * Provider configuration of the role's workload unit (graphs only).
   * @default - none
   */
  readonly providerOverride?: ProviderOverride;
}

/** Everything a component can set besides its name and type. */
export interface ComponentOptions extends PodOptions {
  /**
   * Number of component instances.
   * @default 1
   */
  readonly replicas?: number;
  /**
   * Minimum available instances (Grove).
   * @default - 1 on the Grove provider, unset otherwise
   */
  readonly minAvailable?: number;
  /**
   * Size of the `/dev/shm` tmpfs; `Quantity.fromString('0')` disables it.
   * @default - the operator's default, 8Gi
   */
  readonly sharedMemorySize?: kplus.k8s.Quantity;
  /**
   * Register in the global Dynamo namespace instead of the graph's.
   * @default false
   */
  readonly globalDynamoNamespace?: boolean;
  /**
   * The model the component serves.
   * @default - none
   */
  readonly modelRef?: ModelRef;
  /**
   * Create a DynamoGraphDeploymentScalingAdapter owning `replicas`.
   * @default false
   */
  readonly scalingAdapter?: boolean;
  /**
   * Name of a container in the pod template that receives frontend-sidecar defaults.
   * @default - none
   */
  readonly frontendSidecar?: string;
  /**
   * PVC-backed compilation cache.
   * @default - none
   */
  readonly compilationCache?: CompilationCache;
  /**
   * Legacy EPP configuration (`epp` components before runtime 1.5.0 only).
   * @default - none (native EPP)
   */
  readonly eppConfig?: EppConfig;
  /**
   * Topology placement.
   * @default - the graph's topology constraint
   */
  readonly topologyConstraint?: ComponentTopologyConstraint;
  /**
   * Runtime version, when the `main` image tag is not a semantic version (`MAJOR.MINOR.PATCH`).
   * @default - read from the `main` image tag
   */
  readonly runtimeVersionOverride?: string;
  /**
   * Provider configuration of the component's workload unit (graphs only).
   * @default - none
   */
  readonly providerOverride?: ProviderOverride;
  /**
   * Preview features.
   * @default - none
   */
  readonly experimental?: ExperimentalOptions;
}

/**
 * What the construct a component is created in offers it: a graph checks the component's id and
 * lists it; a graph or a deployment is told when its document changes.
 */
interface ComponentOwner {
  _checkComponentId(id: string): void;
  _attachComponent(component: Component): void;
  _invalidate(): void;
}

/** Multinode layout of a worker-class component. */
export interface MultinodeOptions {
  /** Number of nodes of one component instance (2 or more). */
  readonly nodeCount: number;
  /**
   * Explicit leader and worker roles.
   * @default - the implicit leader/worker layout
   */
  readonly roles?: ComponentRole[];
}

/** Props of a component. */
export interface ComponentProps extends ComponentOptions {
  /**
   * Logical name, unique within the graph (1–63 alphanumerics or `-`).
   * @default - the construct id
   */
  readonly name?: string;
  /**
   * Role of the component.
   * @default - untyped
   */
  readonly type?: ComponentType;
}

function experimentalJson(options: ExperimentalOptions | undefined): JsonObject | undefined {
  if (!options) return undefined;
  const out: JsonObject = {};
  if (options.gpuMemoryService) out.gpuMemoryService = options.gpuMemoryService._toJson();
  if (options.failover) out.failover = options.failover._toJson();
  if (options.checkpoint) out.checkpoint = options.checkpoint._toJson();
  if (options.grove) out.grove = { ...options.grove };
  return out;
}

/** The plain provider override; its free-form `value` must be JSON (named by `path` otherwise). */
export function providerOverrideJson(p: ProviderOverride, path: string): ProviderOverrideJson {
  const out: ProviderOverrideJson = { apiVersion: p.apiVersion, value: {} };
  if (p.target !== undefined) out.target = p.target;
  out.value = plainJson(p.value, `${path}.value`) as JsonObject;
  return out;
}

function fail(path: string, field: string, value: unknown, rule: string): never {
  throw new Error(`${path}: ${field}: Invalid value: ${JSON.stringify(value)}: ${rule}`);
}

function checkInteger(path: string, field: string, value: number | undefined, minimum: number): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < minimum) fail(path, field, value, `must be an integer greater than or equal to ${minimum}`);
}

/** The plain component spec (one entry of a graph's `spec.components`) described by the props. */
function componentSpecJson(name: string, props: ComponentProps, multinode?: MultinodeOptions): ComponentSpecJson {
  const spec: ComponentSpecJson = { name };
  if (props.type !== undefined) spec.type = props.type;
  if (props.replicas !== undefined) spec.replicas = props.replicas;
  if (props.minAvailable !== undefined) spec.minAvailable = props.minAvailable;
  const podTemplate = podTemplateJson(props);
  if (podTemplate) spec.podTemplate = podTemplate;
  if (multinode) spec.multinode = { nodeCount: multinode.nodeCount };
  if (multinode?.roles !== undefined) {
    spec.roles = multinode.roles.map((r, i) => {
      const role: JsonObject = { name: r.name };
      if (r.replicas !== undefined) role.replicas = r.replicas;
      if (r.providerOverride) role.providerOverride = providerOverrideJson(r.providerOverride, `multinode.roles[${i}].providerOverride`);
      return role as any;
    });
  }
  if (props.sharedMemorySize !== undefined) spec.sharedMemorySize = quantityJson(props.sharedMemorySize, 'sharedMemorySize');
  if (props.globalDynamoNamespace !== undefined) spec.globalDynamoNamespace = props.globalDynamoNamespace;
  if (props.modelRef) spec.modelRef = copyJson(props.modelRef);
  if (props.scalingAdapter) spec.scalingAdapter = {};
  if (props.frontendSidecar !== undefined) spec.frontendSidecar = props.frontendSidecar;
  if (props.compilationCache) spec.compilationCache = copyJson(props.compilationCache);
  if (props.eppConfig) spec.eppConfig = props.eppConfig._toJson();
  if (props.topologyConstraint) spec.topologyConstraint = { packDomain: props.topologyConstraint.packDomain };
  if (props.runtimeVersionOverride !== undefined) spec.runtimeVersionOverride = props.runtimeVersionOverride;
  if (props.providerOverride) spec.providerOverride = providerOverrideJson(props.providerOverride, 'providerOverride');
  const experimental = experimentalJson(props.experimental);
  if (experimental) spec.experimental = experimental;
  return spec;
}

/**
 * A component of a Dynamo graph (one entry of `spec.components`), or the body of a standalone
 * DynamoComponentDeployment.
 *
 * A component is a part of its graph's (or deployment's) document, not a construct of its own, as a
 * container is a part of its workload in cdk8s-plus: the construct tree holds the graph, and the
 * objects it synthesizes, but not its components (cdk8s walks the whole tree once per chart it
 * writes, so the components would cost every chart of the app). It is created in a graph
 * (`addComponent` and the like) or by a `ComponentDeployment`; messages about it name its path, the
 * path of its graph and its id.
 */
export class Component {
  /** Whether `x` is a Component. */
  public static isComponent(x: any): x is Component {
    return x instanceof Component;
  }

  /** @internal */
  public static _fromSpec(scope: Construct, id: string, spec: ComponentSpecJson): Component {
    const component = new Component(scope, id, { name: spec.name ?? id });
    component._replaceSpec(spec);
    return component;
  }

  private static multinodeOf(path: string, props: ComponentProps): MultinodeOptions | undefined {
    const multinode = (props as { multinode?: MultinodeOptions }).multinode;
    if (multinode) checkInteger(path, 'multinode.nodeCount', multinode.nodeCount, 2);
    return multinode;
  }

  /** Logical name of the component. */
  public readonly name: string;

  /** @internal The path messages about the component name: its graph's (or deployment's) path and its id. */
  public readonly _path: string;
  /** @internal The component's id in its graph. */
  public readonly _id: string;

  private readonly owner: Partial<ComponentOwner>;

  private spec: ComponentSpecJson;
  /** Failover configured through the `experimental.failover` prop (not by an imported spec). */
  private readonly failover?: Failover;

  /**
   * Creates a component in a graph (the graph lists it, as `addComponent` does) or in another
   * construct (a `ComponentDeployment` creates its own).
   *
   * @param scope the graph (or deployment) the component belongs to
   * @param id the component's id, unique in its graph, and its name unless `props.name` is set
   * @param props what the component runs and how
   */
  constructor(scope: Construct, id: string, props: ComponentProps = {}) {
    if (typeof id !== 'string' || id === '' || id.includes('/')) {
      throw new Error(`${scope.node.path}: component id: Invalid value: ${JSON.stringify(id)}: must be a non-empty string without "/"`);
    }
    this._id = id;
    this._path = scope.node.path ? `${scope.node.path}/${id}` : id;
    this.owner = scope as Partial<ComponentOwner>;
    this.owner._checkComponentId?.(id);
    checkProps(this._path, 'ComponentProps', props, COMPONENT_PROPS);
    this.name = props.name ?? id;
    this.failover = props.experimental?.failover;
    if (this.name.length > 63 || !COMPONENT_NAME.test(this.name)) {
      fail(this._path, 'name', this.name, `must be 1-63 characters matching ${COMPONENT_NAME.source}`);
    }
    checkInteger(this._path, 'replicas', props.replicas, 0);
    checkInteger(this._path, 'minAvailable', props.minAvailable, 1);
    checkInteger(this._path, 'gpus', props.gpus, 0);
    const multinode = Component.multinodeOf(this._path, props);
    this.spec = propsOf(this._path, () => componentSpecJson(this.name, props, multinode));
    this.owner._attachComponent?.(this);
  }

  /** Role of the component, if typed. */
  public get type(): ComponentType | undefined {
    return this.spec.type as ComponentType | undefined;
  }

  /**
   * Sets an environment variable of the `main` container (replacing one of the same name). The
   * value is a `kplus.EnvValue` or `{ value }` / `{ valueFrom }` in Kubernetes shape; anything else,
   * or an empty name, is an error and changes nothing.
   */
  public addEnv(name: string, value: kplus.EnvValue): void {
    const variable = propsOf(this._path, () => envVarJson(name, value, `addEnv(${JSON.stringify(name) ?? String(name)})`));
    this.changed();
    upsertEnv(mainContainerOf(this.podTemplate()), [variable]);
  }

  /**
   * Adds a user-managed container beside `main` (it receives no operator defaults): typed
   * (`kplus.k8s.Container`) or in Kubernetes shape, kept exactly; an unknown field is an error.
   */
  public addSidecar(container: kplus.k8s.Container): void {
    const sidecar = propsOf(this._path, () => containerJson(container, 'addSidecar(container)'));
    this.changed();
    const template = this.podTemplate();
    template.spec = template.spec ?? {};
    template.spec.containers = [...(template.spec.containers ?? []), sidecar];
  }

  /** @internal Replaces the whole plain spec (import). */
  public _replaceSpec(spec: ComponentSpecJson): void {
    this.changed();
    this.spec = copyJson(spec);
  }

  /**
   * @internal Whether this component's `experimental.failover` prop asks for intra-pod failover,
   * for which the operator requires the graph annotation `nvidia.com/dynamo-kube-discovery-mode: container`.
   */
  public _needsContainerDiscovery(): boolean {
    return this.failover !== undefined && this.failover._isIntraPod();
  }

  /** @internal The plain component spec. */
  public _toSpecJson(): ComponentSpecJson {
    return copyJson(this.spec);
  }

  /** Tells the graph (or deployment) this component belongs to that its rendering is stale. */
  private changed(): void {
    this.owner._invalidate?.();
  }

  private podTemplate(): JsonObject {
    this.spec.podTemplate = this.spec.podTemplate ?? {};
    return this.spec.podTemplate;
  }
}
