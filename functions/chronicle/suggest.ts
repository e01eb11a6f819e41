import { distance } from 'fastest-levenshtein';

/**
 * The candidate a misspelt value most likely meant, if any: the same letters in another case, one
 * edit away, or two edits away with the same first letter (`cbcd` → `cbdc`, but not `Japan` → `APAC`), or cut
 * short (`partner` → `partnership`).
 */
export function closest(value: string, candidates: readonly string[]): string | undefined {
  const v = value.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const w = c.toLowerCase();
    const d = distance(v, w);
    const plausible = d <= 1 || (d === 2 && v.length >= 4 && v[0] === w[0]) || (v.length >= 4 && w.startsWith(v));
    if (plausible && d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}
