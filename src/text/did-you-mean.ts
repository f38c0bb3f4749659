/** "Did you mean" suggestions for misspelt keys, addresses and enum values. Pure. */

/**
 * Edit distance with adjacent transpositions (optimal string alignment: `gaurd` is one edit from
 * `guard`, as `gard` is), with an early exit above `limit`.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate closest to `word` when it is close enough to be a likely typo (distance at most a
 * third of the word's length, at least 1; case and `-`/`_` differences count as near); ties go to
 * the first candidate in order.
 */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const normal = (s: string) => s.toLowerCase().replace(/[-_]/g, "");
  const limit = Math.max(1, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance =
      normal(candidate) === normal(word)
        ? 0
        : editDistance(word.toLowerCase(), candidate.toLowerCase(), limit);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
