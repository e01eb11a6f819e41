import type { BuiltDataset } from '../../functions/chronicle/dataset.js';

export interface BenchQuery {
  name: string;
  /** Our path and query. */
  path: string;
  /** json-server's closest equivalent, where it has one (it has no 400s and no `include`). */
  jsonServer?: string;
  /** The status the query must get: 200, or 400 for the error shapes. */
  status: 200 | 400;
  /** One of the selective shapes the targets single out (small answers, found through indexes). */
  selective?: boolean;
}

/** Players ranked by how many events name them, fewest first (ties by id). */
function rankedPlayers(d: BuiltDataset): string[] {
  const counts = new Map<string, number>();
  for (const e of d.events) for (const p of e.players) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
}

/**
 * Every query shape the handler is measured on: all kinds unfiltered and with date ranges, each
 * filter alone and combined, many values at once, `key=false`, each kind alone, and 400s.
 * Built from the dataset itself, so the same shapes exist at every scale.
 */
export function handlerShapes(d: BuiltDataset): BenchQuery[] {
  const ranked = rankedPlayers(d);
  // A selective player: the median of those named at all. The hub: the most named.
  const median = encodeURIComponent(ranked[Math.floor(ranked.length / 2)]!);
  const hub = encodeURIComponent(ranked[ranked.length - 1]!);
  const many = ranked
    .slice(-40)
    .filter((_, i) => i % 2 === 0)
    .map(encodeURIComponent)
    .join(',');
  const topic = d.filters.topic.includes('cbdc') ? 'cbdc' : d.filters.topic[0]!;
  const rareTopic = d.filters.topic.includes('deposit') ? 'deposit' : d.filters.topic[0]!;
  const q = (name: string, query: string, extra: Partial<BenchQuery> = {}): BenchQuery => ({
    name,
    path: `/api/chronicle${query ? `?${query}` : ''}`,
    status: 200,
    ...extra,
  });
  return [
    q('all kinds, unfiltered', ''),
    q('all kinds, from=2019', 'from=2019'),
    q('all kinds, from=2024&to=2025', 'from=2024&to=2025'),
    q('include=events', 'include=events'),
    q(`events topic=${topic}`, `include=events&topic=${topic}`),
    q('events region=JP', 'include=events&region=JP'),
    q('events status=launched', 'include=events&status=launched'),
    q('events key=true', 'include=events&key=true', { selective: true }),
    q('events key=false', 'include=events&key=false'),
    q('events player (median)', `include=events&player=${median}`, { selective: true }),
    q('all kinds, player (median)', `player=${median}`, { selective: true }),
    q('events player (most named)', `include=events&player=${hub}`),
    q('events narrow dates (one month)', 'include=events&from=2023-03&to=2023-03', { selective: true }),
    q('events several dates', 'include=events&from=2020-06,2022-01&to=2021-03,2023-09-15'),
    q('events topic+region', 'include=events&topic=deposit,stablecoin&region=JP'),
    q('events from+key', 'include=events&from=2024&key=true'),
    q('events player+from', `include=events&player=${hub}&from=2025-06`),
    q(
      'events many values',
      `include=events&topic=${d.filters.topic.slice(0, 4).join(',')}&region=JP,US,EU,UK,APAC&status=launched,announced,pilot,poc`,
    ),
    q('events many players (20)', `include=events&player=${many}`),
    q('relations topic', `include=relations&topic=${topic}`),
    q('players region', 'include=players&region=US'),
    ...(d.kinds.includes('initiatives')
      ? [q(`initiatives topic=${rareTopic}`, `include=initiatives&topic=${rareTopic}`, { selective: true })]
      : []),
    q('400 bad value', 'topic=cbdcx&region=JP', { status: 400 }),
    q('400 unknown parameter', 'topik=cbdc', { status: 400 }),
    q('400 player in the wrong case', `player=${encodeURIComponent(ranked.find((id) => id.toLowerCase() !== id)!.toLowerCase())}`, {
      status: 400,
    }),
  ];
}

/**
 * The HTTP mix: filtered answers, the whole dataset, and 400s. Filtered queries ask for events
 * only, like json-server's `/events?…`, so every server returns a comparable body; the unfiltered
 * query compares the whole response with json-server's `/db`.
 */
export function queryMix(d: BuiltDataset): BenchQuery[] {
  const ranked = rankedPlayers(d);
  const player = encodeURIComponent(ranked[Math.floor(ranked.length / 2)]!);
  const topic = d.filters.topic.includes('cbdc') ? 'cbdc' : d.filters.topic[0]!;
  return [
    { name: 'unfiltered', path: '/api/chronicle', jsonServer: '/db', status: 200 },
    { name: `topic=${topic}`, path: `/api/chronicle?include=events&topic=${topic}`, jsonServer: `/events?topic=${topic}`, status: 200 },
    { name: 'region=JP', path: '/api/chronicle?include=events&region=JP', jsonServer: '/events?region=JP', status: 200 },
    { name: 'key=true', path: '/api/chronicle?include=events&key=true', jsonServer: '/events?key=true', status: 200 },
    {
      name: 'player (selective)',
      path: `/api/chronicle?include=events&player=${player}`,
      jsonServer: `/events?players_like=${player}`,
      status: 200,
    },
    {
      name: 'date range',
      path: '/api/chronicle?include=events&from=2023-01&to=2024-06',
      jsonServer: '/events?date_gte=2023-01&date_lte=2024-06-31',
      status: 200,
    },
    {
      name: 'topic+region',
      path: '/api/chronicle?include=events&topic=deposit,stablecoin&region=JP',
      jsonServer: '/events?topic=deposit&topic=stablecoin&region=JP',
      status: 200,
    },
    {
      name: 'from+key',
      path: '/api/chronicle?include=events&from=2024&key=true',
      jsonServer: '/events?date_gte=2024&key=true',
      status: 200,
    },
    { name: '400 bad value', path: '/api/chronicle?topic=cbdcx&region=JP', status: 400 },
    { name: '400 unknown parameter', path: '/api/chronicle?topik=cbdc', status: 400 },
  ];
}
