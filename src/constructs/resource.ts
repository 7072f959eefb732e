/**
 * The base of the constructs of Dynamo resources (a graph, a standalone component deployment, a
 * deployment request): what every one of them owns besides its document.
 */
import { ApiObject, ApiObjectMetadata, Chart, Lazy, Names } from 'cdk8s';
import { Construct } from 'constructs';
import { OutputMode } from './enums';
import { objectMetaJson, propsOf } from './kubernetes-values';
import { operatorSettingsOf } from './operator-settings-of';
import { RenderedWorkloads } from './rendered-workloads';
import { SynthesisOptions } from './synthesis-options';
import { pipeline } from '../lazy-modules';
import type { OperatorSettings } from '../model/operator-settings';
import { RenderError } from '../model/render-error';
import { API_VERSION, JsonObject } from '../model/v1beta1';
import type { DocumentOutcome, OutputMode as RenderedOutput } from '../pipeline/check-and-render';

/** Props every Dynamo resource takes besides its own: its metadata, output and operator. */
export interface DynamoResourceProps extends SynthesisOptions {
  /**
   * Metadata of the resource.
   * @default - a name generated from the construct path
   */
  readonly metadata?: ApiObjectMetadata;
}

/**
 * A Dynamo custom resource as a construct: a graph (`DynamoGraph`), a standalone component
 * deployment (`ComponentDeployment`) or a deployment request (`DynamoGraphDeploymentRequest`).
 *
 * It owns the resource's metadata, its output mode, the operator it is admitted and rendered by,
 * the objects it synthesizes, and one check-and-render of its document: at synth-time validation
 * the document goes through the pipeline in one call (admission, the rendering of the output mode
 * from the object as admission stores it, the checks of what is rendered), kept until the document
 * changes. cdk8s validates the whole app once per chart it synthesizes, so an unchanged resource
 * costs the same on every pass after the first whatever its size. A concrete resource gives its
 * document (`toJson`) and tells the base of every change of it.
 */
export abstract class DynamoResource extends Construct {
  /** Name of the resource (`metadata.name`). */
  public readonly name: string;
  /** Namespace of the resource, if set on it or its chart. */
  public readonly namespace?: string;
  /** What the resource synthesizes. */
  public readonly output: OutputMode;

  /** @internal The operator the resource is admitted and rendered by. */
  protected readonly _settings: OperatorSettings;
  /** @internal The resource's metadata (with its name, and its namespace when it has one). */
  protected readonly _metadata: JsonObject;

  /** Bumped by every change of the document (`_invalidate`): the key of the outcome when the document is the library's own. */
  private generation = 0;
  /**
   * The pipeline's outcome for the document at `generation` (and, when the document is not the
   * library's own, of JSON text `text`), with the validation messages made of it once they are asked.
   */
  private synthesis?: { readonly generation: number; readonly text?: string; readonly outcome: DocumentOutcome; messages?: string[] };
  /** Parent of the rendered objects (WORKLOADS output, or what a resource chose, `_renderIntoChildren`). */
  private renderedChildren?: RenderedWorkloads;

  /**
   * @param props the resource's props (a subclass passes its own props, which extend these)
   */
  protected constructor(scope: Construct, id: string, props: DynamoResourceProps) {
    super(scope, id);
    this._checkProps(props);
    this.output = props.output ?? OutputMode.GRAPH;
    try {
      this._settings = operatorSettingsOf(props.operator);
    } catch (e) {
      throw new Error(`${this.node.path}: ${(e as Error).message}`);
    }
    this.name = props.metadata?.name ?? Names.toDnsLabel(this);
    this.namespace = props.metadata?.namespace ?? Chart.of(this).namespace;
    this._metadata = { ...propsOf(this, () => objectMetaJson(props.metadata)), name: this.name };
    if (this.namespace) this._metadata.namespace = this.namespace;
    if (this.output === OutputMode.WORKLOADS) this.renderedChildren = new RenderedWorkloads(this);
    this.node.addValidation({ validate: () => this.validateAndRender() });
  }

  /** The resource's document, as a plain object (a copy). */
  public abstract toJson(): any;

  /**
   * @internal Called by every change of the document (a prop set after construction, a component
   * added or changed, an import): what was checked and rendered of it before is stale.
   */
  public _invalidate(): void {
    this.generation++;
  }

  /**
   * @internal Checks the resource's props before anything else reads them (the base calls it first,
   * before any field of the subclass is set: it reads `props` only).
   */
  protected _checkProps(_props: DynamoResourceProps): void {}

  /**
   * @internal Whether `toJson` is the library's own, whose every change goes through `_invalidate`
   * (then the outcome is kept by the count of changes alone). A subclass with its own `toJson` is not
   * tracked: its document is kept by its JSON text, computed on every validation pass.
   */
  protected _documentTracked(): boolean {
    return false;
  }

  /**
   * @internal The extension point of the pipeline's input: the document the pipeline checks and
   * renders for this resource, and the output to render it in (absent: only checked). By default
   * the resource's own document, rendered in WORKLOADS output. A resource that renders in other
   * outputs too says so here (a graph renders in COMPONENTS output as well; a request renders its
   * stored form in GRAPH output); one whose objects are children in every output calls
   * `_renderIntoChildren` in its constructor (a request with `plan`, see `_checkAndRender`).
   */
  protected _synthesisInput(): { readonly document: unknown; readonly render?: RenderedOutput } {
    return { document: this.toJson(), render: this.output === OutputMode.WORKLOADS ? 'workloads' : undefined };
  }

  /**
   * @internal The pipeline call that checks and renders the input `_synthesisInput` gives: by default
   * `checkAndRenderDocument` (admission, then the rendering of `render` with the checks of what it
   * renders). A resource whose objects come from elsewhere (a request synthesized as what its plan
   * deploys) makes its own call here, with the same outcome's shape.
   */
  protected _checkAndRender(document: unknown, render: RenderedOutput | undefined): DocumentOutcome {
    return pipeline().checkAndRenderDocument(document, { settings: this._settings, output: render });
  }

  /**
   * @internal The path of what a field path of the document points into, for messages (by default
   * the resource's construct path).
   */
  protected _pathOfField(_field: string): string {
    return this.node.path;
  }

  /**
   * @internal The synthesized objects become children of the construct `Workloads` (one per object,
   * created at validation, see RenderedWorkloads) in every output mode, not only in WORKLOADS output.
   */
  protected _renderIntoChildren(): void {
    this.renderedChildren ??= new RenderedWorkloads(this);
  }

  /**
   * @internal The ApiObject `Resource` that synthesizes the resource itself: `kind`, the resource's
   * metadata, and the spec `spec()` gives at synthesis.
   */
  protected _resourceObject(kind: string, spec: () => unknown): ApiObject {
    return new ApiObject(this, 'Resource', { apiVersion: API_VERSION, kind, metadata: this._metadata, spec: Lazy.any({ produce: spec }) });
  }

  /**
   * @internal The pipeline's outcome for the current document: admission, and when nothing is
   * refused, the rendering asked by `_synthesisInput` with the checks of what it renders. Computed
   * again only after a change of the document.
   */
  protected _synthesis(): DocumentOutcome {
    const tracked = this._documentTracked();
    const kept = this.synthesis;
    // an unchanged document of the library's own: every validation pass after the first comes here
    if (tracked && kept !== undefined && kept.generation === this.generation && kept.text === undefined) return kept.outcome;
    const { document, render } = this._synthesisInput();
    const text = tracked ? undefined : jsonText(document);
    if (kept !== undefined && kept.generation === this.generation && kept.text === text) return kept.outcome;
    this.synthesis = { generation: this.generation, text, outcome: outcomeOf(() => this._checkAndRender(document, render)) };
    return this.synthesis.outcome;
  }

  /**
   * @internal The objects the pipeline rendered of the current document; throws the validation
   * messages when it could not (what synthesis reports, at validation, before it asks for them).
   */
  protected _renderedObjects(): readonly unknown[] {
    const outcome = this._synthesis();
    if (outcome.objects === undefined) throw new Error(this.messagesOf(outcome).join('\n'));
    return outcome.objects;
  }

  /**
   * Synth-time validation: the violations of the document; when there are none, the rendering's
   * RenderError, else the rendered objects materialized as children (when the resource has them)
   * and what the API server would refuse of them.
   */
  private validateAndRender(): string[] {
    const outcome = this._synthesis();
    const synthesis = this.synthesis!;
    if (synthesis.messages === undefined) {
      // once per outcome: the children follow it, and its messages are the same on every later pass
      if (outcome.objects !== undefined && this.renderedChildren !== undefined) this.renderedChildren.materialize(outcome.objects);
      synthesis.messages = this.messagesOf(outcome);
    }
    return synthesis.messages;
  }

  /** The validation messages of an outcome, each prefixed by the path of the construct it is about. */
  private messagesOf(outcome: DocumentOutcome): string[] {
    if (outcome.violations.length > 0) return outcome.violations.map(v => `${this.node.path}: ${v}`);
    if (outcome.renderError !== undefined) return [`${this._pathOfField(outcome.renderError.field)}: ${outcome.renderError.message}`];
    const children = this.renderedChildren;
    return outcome.objectProblems.map(p => `${children?.childPath(p.object) ?? this.node.path}: ${p.message}`);
  }
}

/**
 * The pipeline's outcome for one document; an exception of the pipeline itself (a bug) becomes a
 * RenderError saying so, reported as the rendering's.
 */
function outcomeOf(checkAndRender: () => DocumentOutcome): DocumentOutcome {
  try {
    return checkAndRender();
  } catch (e) {
    const renderError = e instanceof RenderError ? e : new RenderError('render', '(the object)',
      `internal error: rendering failed unexpectedly (${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}); please report it`);
    return { violations: [], renderError, objectProblems: [] };
  }
}

/** Documents JSON could not write, so far. */
let unwritable = 0;

/** The document's JSON text; for one JSON cannot write (a reference cycle), a key no other document has. */
function jsonText(document: unknown): string {
  try {
    return JSON.stringify(document);
  } catch {
    return `(unwritable #${++unwritable})`;
  }
}
