/** Synth-time validation of the custom resources a construct describes. */
import { Construct } from 'constructs';
import { pipeline, violationFormat } from './on-first-use';
import type { OperatorSettings } from '../engine/operator-settings';

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
 * otherwise check every document N + 1 times. The document's JSON text is the key: any change to
 * it, whether or not the construct noticed it, is validated again. The construct's path and
 * operator settings, the other inputs, do not change.
 */
export class ValidationCache {
  private key?: string;
  private messages: readonly string[] = [];

  /**
   * @param documentChanged called when the document's text is not the one validated last (also a
   *   change the construct was not told of), before it is validated: what the construct rendered of
   *   the document before is stale then too
   */
  constructor(private readonly scope: Construct, private readonly settings: OperatorSettings, private readonly documentChanged: () => void) {}

  /**
   * `constructValidation` of the document, computed again only when `key`, the document's JSON
   * text, changed (`document` gives the document then; the text costs less than a copy of it).
   */
  public violations(key: string, document: () => unknown): string[] {
    if (key !== this.key) {
      this.documentChanged();
      this.messages = constructValidation(this.scope, document(), this.settings);
      this.key = key;
    }
    return [...this.messages];
  }
}
