/** Synth-time validation of the custom resources a construct describes. */
import { Construct } from 'constructs';
import { pipeline, violationFormat } from './on-first-use';
import type { OperatorSettings } from '../engine/operator-settings';
import { CopyRecord } from '../model/json-copy';

/**
 * Violations of the document, as the given operator would admit it on create, as one message
 * each, prefixed by the construct path.
 */
export function constructValidation(scope: Construct, document: unknown, settings: OperatorSettings): string[] {
  const { formatViolation } = violationFormat();
  return pipeline().checkAndRender([{ documents: [document] }], { settings }).problems.map(p => `${scope.node.path}: ${formatViolation(p.violation!)}`);
}

/**
 * The validation of one construct's document, kept until the document changes. cdk8s validates the
 * whole app each time it synthesizes a chart (`chart.toJson()`), so an app of N charts would
 * otherwise check every document N + 1 times. The document itself is the key: any change to it,
 * whether or not the construct noticed it, is validated again. The construct's path and operator
 * settings, the other inputs, do not change.
 *
 * The construct gives a view of its document on each pass (its own data, not a copy) and, when
 * asked, a copy (`toJson()`). A record of the copy validated last is kept and the view compared with
 * it, value by value. Only a document the record cannot tell even when it was validated (a tree
 * deeper than `copyJson` copies itself, a reference cycle) is kept by its JSON text instead.
 */
export class ValidationCache {
  /** The record of the copy validated last; `text`, the view's JSON text then, only where the record could not tell. */
  private validated?: { readonly record: CopyRecord; readonly text?: string };
  private messages: readonly string[] = [];

  /**
   * @param documentChanged called when the document is not the one validated last (also a change
   *   the construct was not told of), before it is validated: what the construct rendered of the
   *   document before is stale then too
   */
  constructor(private readonly scope: Construct, private readonly settings: OperatorSettings, private readonly documentChanged: () => void) {}

  /**
   * `constructValidation` of the document, computed again only when `view`, the document as the
   * construct holds it, is not the document validated last (`document` gives a copy of it then,
   * the copy that is validated and recorded).
   */
  public violations(view: unknown, document: () => unknown): string[] {
    if (!this.isValidated(view, document)) {
      this.documentChanged();
      const doc = document();
      const record = CopyRecord.of(doc);
      const text = record.matches(view) ? undefined : jsonText(view, document);
      this.messages = constructValidation(this.scope, doc, this.settings);
      this.validated = { record, text };
    }
    return [...this.messages];
  }

  private isValidated(view: unknown, document: () => unknown): boolean {
    if (this.validated === undefined) return false;
    const { record, text } = this.validated;
    return record.matches(view) || (text !== undefined && jsonText(view, document) === text);
  }
}

/** The document's JSON text: the view's, or the copy's when the view cannot be written (a reference cycle, which the copy cuts). */
function jsonText(view: unknown, document: () => unknown): string {
  try {
    return JSON.stringify(view);
  } catch {
    return JSON.stringify(document());
  }
}
