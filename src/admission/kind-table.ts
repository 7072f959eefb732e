/**
 * What a check needs to know of a kind, by apiVersion and kind, worked out once per kind. The
 * checks of emitted objects look up the same few kinds for every object: a lookup by the two names
 * as they are read from the object spares writing their `apiVersion/kind` text (and hashing it)
 * for each object and each check.
 *
 * Internal module.
 */
export class KindTable<T> {
  private readonly byApiVersion = new Map<string, Map<string, T>>();

  /**
   * @param factsOf the facts of a kind, or undefined for a kind the check does not know; only the
   *   facts of known kinds are kept (a fixed set), those of other kinds are worked out on each call.
   */
  public constructor(private readonly factsOf: (apiVersion: string, kind: string) => T | undefined) {}

  /** The facts of a kind (undefined for a kind the check does not know). */
  public get(apiVersion: string, kind: string): T | undefined {
    const kinds = this.byApiVersion.get(apiVersion);
    const known = kinds?.get(kind);
    if (known !== undefined) return known;
    const facts = this.factsOf(apiVersion, kind);
    if (facts === undefined) return undefined;
    if (kinds === undefined) this.byApiVersion.set(apiVersion, new Map([[kind, facts]]));
    else kinds.set(kind, facts);
    return facts;
  }
}
