import type { Event, Player } from '../functions/chronicle/dataset.js';

// Japanese has no spaces between words, so a word tokenizer finds nothing in it. A query is cut into
// runs of letters and digits (NFKC-normalized, lower-cased), and each run into overlapping
// two-character pieces. A query matches a record when every piece of the query occurs in one of
// the record's fields, so "預金トークン" finds "預金トークンの発行" and "日銀" finds "日銀ネット".

const normalize = (text: string) => text.normalize('NFKC').toLowerCase();

function runs(text: string): string[] {
  return normalize(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((r) => r !== '');
}

function bigrams(run: string): string[] {
  const chars = [...run];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** The terms of a query: the bigrams of each run, or the character itself for a one-character run. */
export function queryTokens(text: string): string[] {
  const out = new Set<string>();
  for (const run of runs(text)) {
    if ([...run].length === 1) out.add(run);
    else for (const b of bigrams(run)) out.add(b);
  }
  return [...out];
}

/** The text of an event the search looks at: title, description, and its players' names and members. */
export function searchFields(e: Event, players: ReadonlyMap<string, Player>): { title: string; description: string; players: string } {
  const names = e.players.flatMap((id) => {
    const p = players.get(id);
    return p ? [p.nameJa, p.id, ...p.members] : [id];
  });
  return { title: e.title, description: e.description, players: names.join(' / ') };
}

/**
 * The search over the events. A piece of a query consists of letters and digits only, so it occurs
 * in a field's normalized text exactly when it occurs within one of the field's runs: testing each
 * event's text with `includes` gives the same answers as an index of every character and bigram,
 * without building one (that took about 2 s for 1,700 events in a test browser, on the first
 * search). The text is normalized once, on the first search.
 */
export class EventSearch {
  private texts: string[] | undefined;

  constructor(
    private readonly events: readonly Event[],
    private readonly players: ReadonlyMap<string, Player>,
  ) {}

  /** Positions of the events the query matches, or undefined when the query has no terms (no search). */
  match(query: string): Set<number> | undefined {
    const terms = queryTokens(query);
    if (terms.length === 0) return undefined;
    // Fields are joined by a line break, which no piece contains, so no piece spans two fields.
    this.texts ??= this.events.map((e) => normalize(Object.values(searchFields(e, this.players)).join('\n')));
    const out = new Set<number>();
    this.texts.forEach((text, i) => {
      if (terms.every((t) => text.includes(t))) out.add(i);
    });
    return out;
  }
}
