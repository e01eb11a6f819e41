import type { BuiltDataset, Kind } from '../functions/chronicle/dataset.js';

/**
 * The contract read literally, record by record, with no precomputation: what a response must
 * hold for a valid query. Kept deliberately naive so that it can check the real implementation.
 */
export function oracle(d: BuiltDataset, params: URLSearchParams): Record<string, unknown> {
  const values = (name: string): string[] | undefined => {
    const all = params.getAll(name);
    return all.length ? all.flatMap((v) => v.split(',')).map((v) => v.trim()) : undefined;
  };
  const cut = (a: string, b: string) => [a.slice(0, Math.min(a.length, b.length)), b.slice(0, Math.min(a.length, b.length))] as const;
  const onOrAfter = (date: string, bounds?: string[]) => !bounds || bounds.some((b) => cut(date, b)[0] >= cut(date, b)[1]);
  const onOrBefore = (date: string, bounds?: string[]) => !bounds || bounds.some((b) => cut(date, b)[0] <= cut(date, b)[1]);
  const topic = values('topic');
  const region = values('region');
  const status = values('status');
  const player = values('player');
  const from = values('from');
  const to = values('to');
  const key = values('key');
  const include = values('include') ?? d.kinds;

  const events = d.events.filter(
    (e) =>
      (!topic || topic.includes(e.topic)) &&
      (!region || region.includes(e.region)) &&
      (!status || status.includes(e.status)) &&
      (!player || e.players.some((p) => player.includes(p))) &&
      onOrAfter(e.date, from) &&
      onOrBefore(e.date, to) &&
      (!key || key.includes(String(e.key))),
  );
  const relations = d.relations.filter(
    (r) =>
      (!topic || topic.includes(r.topic)) &&
      (!player || player.includes(r.a) || player.includes(r.b)) &&
      onOrAfter(r.year, from) &&
      onOrBefore(r.year, to),
  );
  const players = d.players.filter((p) => !region || region.includes(p.region));
  const initiatives = (d.initiatives ?? []).filter(
    (i) => !topic || d.events.some((e) => e.initiativeId === i.id && topic.includes(e.topic)),
  );
  const records: Record<Kind, unknown[]> = { events, relations, players, initiatives };
  const kinds = d.kinds.filter((k) => include.includes(k));
  return {
    meta: { ...d.meta, counts: Object.fromEntries(kinds.map((k) => [k, records[k].length])) },
    labels: d.labels,
    ...Object.fromEntries(kinds.map((k) => [k, records[k]])),
  };
}
