// What queries are checked and filtered against, derived from a built dataset alone. No Node APIs:
// the explorer page (site/) bundles this with query.ts and select.ts, so that the page and the
// function answer a query with the same code.
import type { BuiltDataset } from './dataset.js';
import type { QueryRules } from './query.js';

/** The served profile's allowed values, with lower-cased ids and members for the `player` hint. */
export function queryRules(d: Pick<BuiltDataset, 'kinds' | 'filters' | 'players'>): QueryRules {
  const playerHints = new Map<string, string>();
  for (const p of d.players) {
    for (const m of p.members) playerHints.set(m.toLowerCase(), p.id);
  }
  for (const p of d.players) playerHints.set(p.id.toLowerCase(), p.id);
  return { kinds: d.kinds, ...d.filters, players: new Set(d.players.map((p) => p.id)), playerHints };
}

/** Per initiative, the topics of its events (for the topic filter). */
export function initiativeTopics(d: Pick<BuiltDataset, 'events' | 'initiatives'>): ReadonlySet<string>[] {
  const topicOf = new Map(d.events.map((e) => [e.id, e.topic]));
  return (d.initiatives ?? []).map((i) => new Set(i.eventIds.map((id) => topicOf.get(id)!)));
}
