/**
 * Field paths in the notation the Kubernetes API server uses in its error messages:
 * `spec.components[1].replicas`, `metadata.annotations[nvidia.com/workload-provider]`.
 *
 * Internal module.
 */

/** One step of a field path. */
export type PathSegment =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'key'; readonly key: string };

/** An immutable field path; every method returns a new path. */
export class FieldPath {
  /** The empty path (the document itself). */
  public static root(): FieldPath {
    return new FieldPath([]);
  }

  /** A path made of the given field names, e.g. `FieldPath.of('spec', 'components')`. */
  public static of(...names: string[]): FieldPath {
    return new FieldPath(names.map((name) => ({ kind: 'field', name })));
  }

  private constructor(public readonly segments: readonly PathSegment[]) {}

  /** The path of a named field below this one; several names descend several levels. */
  public child(...names: string[]): FieldPath {
    return new FieldPath([...this.segments, ...names.map((name): PathSegment => ({ kind: 'field', name }))]);
  }

  /** The path of a list item. */
  public index(index: number): FieldPath {
    return new FieldPath([...this.segments, { kind: 'index', index }]);
  }

  /** The path of a map entry (annotations, labels, resource names). */
  public key(key: string): FieldPath {
    return new FieldPath([...this.segments, { kind: 'key', key }]);
  }

  public toString(): string {
    let out = '';
    for (const segment of this.segments) {
      switch (segment.kind) {
        case 'field':
          out += out === '' ? segment.name : `.${segment.name}`;
          break;
        case 'index':
          out += `[${segment.index}]`;
          break;
        case 'key':
          out += `[${segment.key}]`;
          break;
      }
    }
    return out;
  }
}
