// What queries are checked and filtered against, derived from a built dataset alone. No Node APIs:
// the explorer page (site/) bundles this with query.ts and select.ts, so that the page and the
// function answer a query with the same code.
import type { BuiltDataset } from './dataset.js';
import { buildHints, type HintSource } from './hints.js';
import type { QueryRules } from './query.js';

/**
 * The served profile's allowed values, with what the hints of a 400 need (Japanese names and labels,
 * members, the other profile's codes), indexed once.
 */
export function queryRules(d: HintSource & Pick<BuiltDataset, 'kinds'>): QueryRules {
  return { kinds: d.kinds, ...d.filters, players: new Set(d.players.map((p) => p.id)), hints: buildHints(d) };
}

/** Per initiative, the topics of its events (for the topic filter). */
export function initiativeTopics(d: Pick<BuiltDataset, 'events' | 'initiatives'>): ReadonlySet<string>[] {
  const topicOf = new Map(d.events.map((e) => [e.id, e.topic]));
  return (d.initiatives ?? []).map((i) => new Set(i.eventIds.map((id) => topicOf.get(id)!)));
}
