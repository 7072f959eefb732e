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

/**
 * An immutable field path; every method returns a new path. A path is its parent plus one step, so
 * that extending one is cheap (the structural check extends one for every field it visits); the
 * list of segments is built when asked for.
 */
export class FieldPath {
  /** The empty path (the document itself). */
  public static root(): FieldPath {
    return FieldPath.ROOT;
  }

  /** A path made of the given field names, e.g. `FieldPath.of('spec', 'components')`. */
  public static of(...names: string[]): FieldPath {
    return FieldPath.ROOT.child(...names);
  }

  private static readonly ROOT = new FieldPath(undefined, undefined);

  private cachedSegments?: readonly PathSegment[];

  private constructor(private readonly parent: FieldPath | undefined, private readonly last: PathSegment | undefined) {}

  /** The steps of the path, from the document down. */
  public get segments(): readonly PathSegment[] {
    if (this.cachedSegments === undefined) {
      const segments: PathSegment[] = [];
      for (let p: FieldPath | undefined = this; p !== undefined && p.last !== undefined; p = p.parent) segments.push(p.last);
      this.cachedSegments = segments.reverse();
    }
    return this.cachedSegments;
  }

  /** The path of a named field below this one; several names descend several levels. */
  public child(...names: string[]): FieldPath {
    let path: FieldPath = this;
    for (const name of names) path = new FieldPath(path, { kind: 'field', name });
    return path;
  }

  /** The path of a list item. */
  public index(index: number): FieldPath {
    return new FieldPath(this, { kind: 'index', index });
  }

  /** The path of a map entry (annotations, labels, resource names). */
  public key(key: string): FieldPath {
    return new FieldPath(this, { kind: 'key', key });
  }

  /**
   * The path as the API server's pruning names an unknown field: map keys are written as fields
   * (`labels.8.value`, `annotations.example.com/x.foo`), list items keep their index.
   */
  public withKeysAsFields(): FieldPath {
    let path = FieldPath.ROOT;
    for (const segment of this.segments) {
      if (segment.kind === 'index') path = path.index(segment.index);
      else path = path.child(segment.kind === 'field' ? segment.name : segment.key);
    }
    return path;
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
