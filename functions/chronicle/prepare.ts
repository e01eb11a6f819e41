import type { BuiltDataset, Kind } from './dataset.js';
import type { QueryRules } from './query.js';
import { initiativeTopics, queryRules } from './rules.js';

/**
 * Everything a request needs that does not depend on the request, computed once per instance:
 * each record serialized and UTF-8 encoded once, whole arrays for unfiltered kinds, the fixed parts
 * of the envelope, the unfiltered answer whole, and the rules queries are checked against. An answer
 * is then a filter and a copy of bytes: nothing is serialized or encoded per request.
 */
export interface Prepared {
  dataset: BuiltDataset;
  rules: QueryRules;
  /** Each record's JSON bytes, per kind, in response order. */
  records: Record<Kind, readonly Buffer[]>;
  /** `,"<kind>":[…]` with every record of a kind. */
  whole: Record<Kind, Buffer>;
  /** `,"<kind>":[` */
  open: Record<Kind, Buffer>;
  /** `{"meta":{"asOf":…,"source":…,"attribution":…,"counts":{` */
  head: Buffer;
  /** `}},"labels":{…}` */
  labels: Buffer;
  /** The whole answer when every kind is returned unfiltered. */
  complete: Uint8Array<ArrayBuffer>;
  /** Each player's Japanese name, by id (for the feeds). */
  playerNames: ReadonlyMap<string, string>;
  /** Per initiative, the topics of its events (for the topic filter). */
  initiativeTopics: readonly ReadonlySet<string>[];
}

const COMMA = Buffer.from(',');
const CLOSE_ARRAY = Buffer.from(']');
const CLOSE_OBJECT = Buffer.from('}');

export function prepare(d: BuiltDataset): Prepared {
  const records = {} as Record<Kind, readonly Buffer[]>;
  const whole = {} as Record<Kind, Buffer>;
  const open = {} as Record<Kind, Buffer>;
  for (const k of d.kinds) {
    records[k] = (d[k] ?? []).map((r) => Buffer.from(JSON.stringify(r)));
    open[k] = Buffer.from(`,"${k}":[`);
    whole[k] = Buffer.concat([open[k], ...records[k].flatMap((r, i) => (i ? [COMMA, r] : [r])), CLOSE_ARRAY]);
  }
  const { asOf, source, attribution } = d.meta;
  const p: Omit<Prepared, 'complete'> = {
    dataset: d,
    rules: queryRules(d),
    records,
    whole,
    open,
    head: Buffer.from(`{"meta":${JSON.stringify({ asOf, source, attribution }).slice(0, -1)},"counts":{`),
    labels: Buffer.from(`}},"labels":${JSON.stringify(d.labels)}`),
    playerNames: new Map(d.players.map((x) => [x.id, x.nameJa])),
    initiativeTopics: initiativeTopics(d),
  };
  return { ...p, complete: assemble(p, new Map(d.kinds.map((k) => [k, 'all']))) };
}

/** Joins the prepared bytes of the chosen records; nothing is serialized here. */
export function assemble(p: Omit<Prepared, 'complete'>, chosen: ReadonlyMap<Kind, readonly number[] | 'all'>): Uint8Array<ArrayBuffer> {
  const counts: string[] = [];
  const parts: Buffer[] = [];
  for (const [kind, keep] of chosen) {
    const all = p.records[kind];
    if (keep === 'all') {
      counts.push(`"${kind}":${all.length}`);
      parts.push(p.whole[kind]);
    } else {
      counts.push(`"${kind}":${keep.length}`);
      parts.push(p.open[kind]);
      keep.forEach((i, n) => (n ? parts.push(COMMA, all[i]!) : parts.push(all[i]!)));
      parts.push(CLOSE_ARRAY);
    }
  }
  return Buffer.concat([p.head, Buffer.from(counts.join(',')), p.labels, ...parts, CLOSE_OBJECT]) as Uint8Array<ArrayBuffer>;
}
