import MiniSearch from 'minisearch';
import type { Event, Player } from '../functions/chronicle/dataset.js';

// Japanese has no spaces between words, so a word tokenizer finds nothing in it. Text is cut into
// runs of letters and digits (NFKC-normalized, lower-cased), and each run into overlapping
// two-character pieces. A query matches a record when every piece of the query occurs in one of
// the record's fields, so "預金トークン" finds "預金トークンの発行" and "日銀" finds "日銀ネット".

function runs(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((r) => r !== '');
}

function bigrams(run: string): string[] {
  const chars = [...run];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** The terms a field is indexed under: every character and every bigram, so one-character queries work too. */
export function indexTokens(text: string): string[] {
  const out = new Set<string>();
  for (const run of runs(text)) {
    for (const c of run) out.add(c);
    for (const b of bigrams(run)) out.add(b);
  }
  return [...out];
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

/** The search index over the events, built on the first search: the first view never waits for it. */
export class EventSearch {
  private index: MiniSearch<{ i: number; title: string; description: string; players: string }> | undefined;

  constructor(
    private readonly events: readonly Event[],
    private readonly players: ReadonlyMap<string, Player>,
  ) {}

  /** Positions of the events the query matches, or undefined when the query has no terms (no search). */
  match(query: string): Set<number> | undefined {
    if (queryTokens(query).length === 0) return undefined;
    if (!this.index) {
      this.index = new MiniSearch({
        idField: 'i',
        fields: ['title', 'description', 'players'],
        tokenize: indexTokens,
        processTerm: (t) => t,
        searchOptions: { tokenize: queryTokens, processTerm: (t) => t, combineWith: 'AND', prefix: false, fuzzy: false },
      });
      this.index.addAll(this.events.map((e, i) => ({ i, ...searchFields(e, this.players) })));
    }
    return new Set(this.index.search(query).map((r) => r.id as number));
  }
}
