import type { BuiltDataset, Event, Kind, Player, Relation } from './dataset.js';
import { compareDates } from './dates.js';
import type { Query } from './query.js';

/** What selecting needs: the dataset and, per initiative, its events' topics. No Node APIs. */
export interface Selectable {
  dataset: BuiltDataset;
  initiativeTopics: readonly ReadonlySet<string>[];
}

/**
 * For each requested kind, the positions of the records that pass every filter that applies to it.
 * The explorer page runs this same function over the same dataset, so it shows what the API returns.
 */
export function select(p: Selectable, q: Query): Map<Kind, number[] | 'all'> {
  const d = p.dataset;
  const out = new Map<Kind, number[] | 'all'>();
  for (const kind of d.kinds) {
    if (q.include && !q.include.has(kind)) continue;
    switch (kind) {
      case 'events':
        out.set(kind, positions(d.events, eventFilter(q)));
        break;
      case 'relations':
        out.set(kind, positions(d.relations, relationFilter(q)));
        break;
      case 'players':
        out.set(kind, positions(d.players, q.region ? (x: Player) => q.region!.has(x.region) : undefined));
        break;
      case 'initiatives':
        // Only `topic` narrows initiatives: one is kept when any of its events has a requested topic.
        out.set(kind, positions(p.initiativeTopics, q.topic ? (topics) => [...q.topic!].some((t) => topics.has(t)) : undefined));
        break;
    }
  }
  return out;
}

function positions<T>(records: readonly T[], keep: ((r: T) => boolean) | undefined): number[] | 'all' {
  if (!keep) return 'all';
  const out: number[] = [];
  for (let i = 0; i < records.length; i++) if (keep(records[i]!)) out.push(i);
  return out;
}

function inRange(date: string, q: Query): boolean {
  return (!q.from || q.from.some((f) => compareDates(date, f) >= 0)) && (!q.to || q.to.some((t) => compareDates(date, t) <= 0));
}

function eventFilter(q: Query): ((e: Event) => boolean) | undefined {
  const tests: ((e: Event) => boolean)[] = [];
  if (q.topic) tests.push((e) => q.topic!.has(e.topic));
  if (q.region) tests.push((e) => q.region!.has(e.region));
  if (q.status) tests.push((e) => q.status!.has(e.status));
  if (q.player) tests.push((e) => e.players.some((id) => q.player!.has(id)));
  if (q.from || q.to) tests.push((e) => inRange(e.date, q));
  if (q.key) tests.push((e) => q.key!.has(e.key));
  return tests.length ? (e) => tests.every((t) => t(e)) : undefined;
}

function relationFilter(q: Query): ((r: Relation) => boolean) | undefined {
  const tests: ((r: Relation) => boolean)[] = [];
  // `mixed` is never an allowed topic value, so mixed relations drop out under any topic filter.
  if (q.topic) tests.push((r) => q.topic!.has(r.topic));
  if (q.player) tests.push((r) => q.player!.has(r.a) || q.player!.has(r.b));
  if (q.from || q.to) tests.push((r) => inRange(r.year, q));
  return tests.length ? (r) => tests.every((t) => t(r)) : undefined;
}
