import { distance } from 'fastest-levenshtein';

/** The candidate nearest to a misspelt value (case-insensitive, at most two edits away), if any. */
export function closest(value: string, candidates: readonly string[]): string | undefined {
  const v = value.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.min(3, Math.ceil(value.length / 2));
  for (const c of candidates) {
    const d = distance(v, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
