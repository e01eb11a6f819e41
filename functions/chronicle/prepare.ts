import type { BuiltDataset, Kind } from './dataset.js';
import type { QueryRules } from './query.js';

/**
 * Everything a request needs that does not depend on the request, computed once per instance:
 * each record serialized once, whole arrays for unfiltered kinds, and the rules queries are
 * checked against. Answering is then filtering plus joining strings.
 */
export interface Prepared {
  dataset: BuiltDataset;
  rules: QueryRules;
  /** Each record's JSON, per kind, in response order. */
  records: Record<Kind, readonly string[]>;
  /** `[…]` of all records of a kind. */
  whole: Record<Kind, string>;
  /** `"asOf":…,"source":…,"attribution":…` */
  metaFields: string;
  /** `"labels":{…}` */
  labels: string;
  /** Per initiative, the topics of its events (for the topic filter). */
  initiativeTopics: readonly ReadonlySet<string>[];
}

export function prepare(d: BuiltDataset): Prepared {
  const records = {} as Record<Kind, readonly string[]>;
  const whole = {} as Record<Kind, string>;
  for (const k of d.kinds) {
    records[k] = (d[k] ?? []).map((r) => JSON.stringify(r));
    whole[k] = `[${records[k].join(',')}]`;
  }
  const playerHints = new Map<string, string>();
  for (const p of d.players) {
    for (const m of p.members) playerHints.set(m.toLowerCase(), p.id);
  }
  for (const p of d.players) playerHints.set(p.id.toLowerCase(), p.id);
  const topicOf = new Map(d.events.map((e) => [e.id, e.topic]));
  const { asOf, source, attribution } = d.meta;
  return {
    dataset: d,
    rules: { kinds: d.kinds, ...d.filters, players: new Set(d.players.map((p) => p.id)), playerHints },
    records,
    whole,
    metaFields: JSON.stringify({ asOf, source, attribution }).slice(1, -1),
    labels: `"labels":${JSON.stringify(d.labels)}`,
    initiativeTopics: (d.initiatives ?? []).map((i) => new Set(i.eventIds.map((id) => topicOf.get(id)!))),
  };
}
