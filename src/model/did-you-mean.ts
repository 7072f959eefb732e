/**
 * "Did you mean": the known name closest to a misspelled one, by edit distance. The one edit
 * distance of the library (admission's unknown fields and values, unknown kinds of an input file).
 *
 * Internal module.
 */

/**
 * The edit distance of two strings: insertions, deletions, substitutions of one character and
 * transpositions of two neighbours (`tpye` is 1 from `type`); at most `limit + 1`. Without
 * `transpositions`, a swap of two neighbours counts as two edits (the Levenshtein distance).
 */
export function editDistance(a: string, b: string, limit = Infinity, transpositions = true): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (transpositions && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j], before[j - 2] + 1);
      best = Math.min(best, current[j]);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length], limit + 1);
}

/**
 * The one name of `known` closest to `name`, when it is close enough to be a misspelling: the same
 * name in another letter case, or at most 1 edit for names up to 4 characters, 2 up to 8, 3 beyond;
 * undefined when none is, or when two are equally close.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const limit = name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = limit + 1;
  let tie = false;
  for (const candidate of known) {
    if (candidate === name) return undefined;
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(lower, candidate.toLowerCase(), limit);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
      tie = false;
    } else if (distance === bestDistance && distance <= limit) {
      tie = true;
    }
  }
  return best !== undefined && !tie && bestDistance <= limit ? best : undefined;
}
