import type { BuiltDataset } from '../../functions/chronicle/dataset.js';

export interface BenchQuery {
  name: string;
  /** Our path and query. */
  path: string;
  /** json-server's closest equivalent. */
  jsonServer: string;
}

/**
 * The fixed mix: unfiltered, each filter alone, typical combinations, a selective player, a range.
 * Filtered queries ask for events only, like json-server's `/events?…`, so both sides return
 * comparable bodies; the unfiltered query compares the whole response with json-server's `/db`.
 */
export function queryMix(d: BuiltDataset): BenchQuery[] {
  // A selective player: one named by few events (the median of those named at all).
  const counts = new Map<string, number>();
  for (const e of d.events) for (const p of e.players) counts.set(p, (counts.get(p) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  const player = ranked[Math.floor(ranked.length / 2)]![0];
  const topic = d.filters.topic.includes('cbdc') ? 'cbdc' : d.filters.topic[0]!;
  const p = encodeURIComponent(player);
  return [
    { name: 'unfiltered', path: '/api/chronicle', jsonServer: '/db' },
    { name: `topic=${topic}`, path: `/api/chronicle?include=events&topic=${topic}`, jsonServer: `/events?topic=${topic}` },
    { name: 'region=JP', path: '/api/chronicle?include=events&region=JP', jsonServer: '/events?region=JP' },
    { name: 'status=launched', path: '/api/chronicle?include=events&status=launched', jsonServer: '/events?status=launched' },
    { name: 'key=true', path: '/api/chronicle?include=events&key=true', jsonServer: '/events?key=true' },
    { name: 'player (selective)', path: `/api/chronicle?include=events&player=${p}`, jsonServer: `/events?players_like=${p}` },
    {
      name: 'date range',
      path: '/api/chronicle?include=events&from=2023-01&to=2024-06',
      jsonServer: '/events?date_gte=2023-01&date_lte=2024-06-31',
    },
    {
      name: 'topic+region',
      path: '/api/chronicle?include=events&topic=deposit,stablecoin&region=JP',
      jsonServer: '/events?topic=deposit&topic=stablecoin&region=JP',
    },
    { name: 'from+key', path: '/api/chronicle?include=events&from=2024&key=true', jsonServer: '/events?date_gte=2024&key=true' },
  ];
}
