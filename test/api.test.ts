import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { BuiltDataset, Profile } from '../functions/chronicle/dataset.js';
import {
  BLOCK_BYTES,
  bodyOfChunks,
  chunksOf,
  forKeeping,
  KEEP_COPIES_BELOW,
  KEPT_VIEW_FROM,
  ONE_WRITE_BELOW,
} from '../functions/chronicle/body.js';
import {
  answerBytes,
  CHUNKS_PER_PULL,
  createHandler,
  createNodeHandler,
  STREAM_FROM_BYTES,
  streamOf,
  type Handler,
} from '../functions/chronicle/handler.js';
import { buildHints, hintFor } from '../functions/chronicle/hints.js';
import { MAX_HINTS } from '../functions/chronicle/query.js';
import { call, fixtureBuild, fixtureHandlers, ids } from './helpers.js';

let api: Record<Profile, Handler>;
beforeAll(async () => {
  api = await fixtureHandlers();
});

const get = (p: Profile, query = '') => call(api[p], `/api/chronicle${query ? `?${query}` : ''}`);
const eventIds = async (p: Profile, query: string) => ids((await get(p, query)).json.events);
type Rel = { a: string; b: string; type: string; year: string };
const relations = async (p: Profile, query: string) =>
  ((await get(p, query)).json.relations as Rel[]).map((r) => `${r.year} ${r.a}/${r.b} ${r.type}`);

const ALL_A = [
  '2019-alpha-research',
  '2020-alpha-coin-pilot',
  '2021-beta-stablecoin',
  '2022-delta-euro-poc',
  '2023-epsilon-v2',
  '2023-delta-euro-law',
  '2024-alpha-token-fund',
  '2024-beta-alpha-payments',
  '2024-zeta-hack',
  '2025-alpha-coin-launch',
  '2025-epsilon-hooks',
  '2025-uk-rules',
];

describe('unfiltered', () => {
  it('returns every kind of Profile A in contract order, with counts for each', async () => {
    const r = await get('A');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['meta', 'labels', 'events', 'relations', 'players', 'initiatives']);
    expect(r.json.meta).toEqual({
      asOf: '2026-01-15',
      source: 'https://onchain-finance-trends.netlify.app/',
      attribution: expect.stringContaining('Onchain Finance Trends'),
      counts: { events: 12, relations: 5, players: 6, initiatives: 2 },
    });
    expect(Object.keys(r.json.meta as object)).toEqual(['asOf', 'source', 'attribution', 'counts']);
    expect(ids(r.json.events)).toEqual(ALL_A);
  });

  it('answers the same bytes whether every kind is named or none is', async () => {
    // No parameters is served from a body prepared whole; naming the kinds assembles it per record.
    for (const p of ['A', 'B'] as const) {
      const kinds = p === 'A' ? 'events,relations,players,initiatives' : 'events,relations,players';
      expect((await get(p, `include=${kinds}`)).text).toBe((await get(p)).text);
    }
  });

  it('returns Profile B without initiatives and without A-only fields', async () => {
    const r = await get('B');
    expect(Object.keys(r.json)).toEqual(['meta', 'labels', 'events', 'relations', 'players']);
    expect((r.json.meta as { counts: object }).counts).toEqual({ events: 8, relations: 5, players: 6 });
    const event = (r.json.events as object[])[0]!;
    expect(Object.keys(event)).toEqual([
      'id',
      'date',
      'topic',
      'sub',
      'players',
      'title',
      'description',
      'chain',
      'status',
      'region',
      'source',
      'key',
    ]);
    const player = (r.json.players as object[])[0]!;
    expect(Object.keys(player)).toEqual(['id', 'nameJa', 'category', 'region', 'members']);
  });

  it('gives Profile A events and players their A-only fields', async () => {
    const r = await get('A');
    const event = (r.json.events as object[])[0]!;
    expect(Object.keys(event)).toEqual([
      'id',
      'date',
      'topic',
      'sub',
      'players',
      'title',
      'description',
      'chain',
      'status',
      'region',
      'source',
      'key',
      'sources',
      'initiativeId',
    ]);
    const players = r.json.players as { id: string; sector: string | null; description: string }[];
    expect(Object.keys(players[0]!)).toEqual(['id', 'nameJa', 'category', 'sector', 'region', 'members', 'description']);
    expect(players.find((p) => p.id === 'Gamma Chain')).toMatchObject({ sector: null, description: '', members: [] });
  });

  it('orders relations by year, then a, b, type, and players and initiatives by id', async () => {
    expect(await relations('A', '')).toEqual([
      '2020 Alpha Bank/Gamma Chain infrastructure',
      '2022 Delta Central Bank/Gamma Chain joint_pilot',
      '2024 Alpha Bank/Zeta Exchange investment',
      '2024 Beta Pay/Alpha Bank partnership',
      '2025 Epsilon DEX/Beta Pay partnership',
    ]);
    const r = await get('A');
    expect(ids(r.json.players)).toEqual(['Alpha Bank', 'Beta Pay', 'Delta Central Bank', 'Epsilon DEX', 'Gamma Chain', 'Zeta Exchange']);
    expect(ids(r.json.initiatives)).toEqual(['alpha-coin', 'delta-euro']);
  });

  it('maps defi to crypto in A and keeps competition relations to B', async () => {
    const a = (await get('A')).json;
    const b = (await get('B')).json;
    expect((a.events as { id: string; topic: string }[]).find((e) => e.id === '2023-epsilon-v2')!.topic).toBe('crypto');
    expect((b.events as { id: string; topic: string }[]).find((e) => e.id === '2023-epsilon-v2')!.topic).toBe('defi');
    expect(await relations('B', '')).toContain('2023 Epsilon DEX/Zeta Exchange competition');
    expect((await relations('A', '')).some((r) => r.endsWith('competition'))).toBe(false);
    expect(Object.keys((a.labels as Record<string, object>).topic!)).toEqual(['deposit', 'stablecoin', 'cbdc', 'rwa', 'crypto', 'mixed']);
    expect(Object.keys((b.labels as Record<string, object>).topic!)).toEqual(['deposit', 'stablecoin', 'defi', 'mixed']);
    expect(Object.keys(a.labels as object)).toEqual(['topic', 'region', 'status', 'category', 'relation', 'sub', 'sector']);
    expect(Object.keys(b.labels as object)).toEqual(['topic', 'region', 'status', 'category', 'relation', 'sub']);
    expect((b.labels as Record<string, Record<string, string>>).relation!.competition).toBe('競合');
    expect((a.labels as Record<string, Record<string, string>>).relation!.competition).toBeUndefined();
  });

  it('orders sources press release, official, news while source stays the first one recorded', async () => {
    const e = ((await get('A')).json.events as { id: string; source: string; sources: { name: string; url: string }[] }[]).find(
      (x) => x.id === '2020-alpha-coin-pilot',
    )!;
    expect(e.source).toBe('https://gov-fixture.net/alpha');
    expect(e.sources).toEqual([
      { name: 'アルファ銀行', url: 'https://alpha-fixture.com/news/2020' },
      { name: '例示当局', url: 'https://gov-fixture.net/alpha' },
      { name: '例示ニュース', url: 'https://news-fixture.org/alpha-pilot' },
    ]);
  });

  it('derives initiative eventIds in date order and links events back with initiativeId', async () => {
    const r = (await get('A')).json;
    expect((r.initiatives as { eventIds: string[] }[])[0]!.eventIds).toEqual([
      '2019-alpha-research',
      '2020-alpha-coin-pilot',
      '2025-alpha-coin-launch',
    ]);
    const events = r.events as { id: string; initiativeId: string | null }[];
    expect(events.find((e) => e.id === '2022-delta-euro-poc')!.initiativeId).toBe('delta-euro');
    expect(events.find((e) => e.id === '2021-beta-stablecoin')!.initiativeId).toBeNull();
  });
});

describe('include', () => {
  it('returns only the requested kinds, counting only those', async () => {
    const r = await get('A', 'include=events,initiatives');
    expect(Object.keys(r.json)).toEqual(['meta', 'labels', 'events', 'initiatives']);
    expect((r.json.meta as { counts: object }).counts).toEqual({ events: 12, initiatives: 2 });
  });

  it('keeps response order whatever the order asked for', async () => {
    const r = await get('A', 'include=players,events');
    expect(Object.keys(r.json)).toEqual(['meta', 'labels', 'events', 'players']);
  });

  it('rejects initiatives on Profile B', async () => {
    const r = await get('B', 'include=events,initiatives');
    expect(r.status).toBe(400);
    expect(r.json.message).toContain('include');
    expect(r.json.message).toContain('"initiatives"');
    expect(r.json.message).toContain('events, relations, players');
  });
});

describe('filters', () => {
  it('topic keeps matching events and relations, drops mixed relations, and narrows initiatives', async () => {
    const r = await get('A', 'topic=deposit');
    expect(ids(r.json.events)).toEqual(['2019-alpha-research', '2020-alpha-coin-pilot', '2025-alpha-coin-launch']);
    expect(await relations('A', 'topic=deposit')).toEqual(['2020 Alpha Bank/Gamma Chain infrastructure']);
    expect(ids(r.json.initiatives)).toEqual(['alpha-coin']);
    expect((r.json.initiatives as { eventIds: string[] }[])[0]!.eventIds).toHaveLength(3);
    expect(ids(r.json.players)).toHaveLength(6);
  });

  it('topic matches the profile code a record carries (defi is crypto in A)', async () => {
    expect(await eventIds('A', 'topic=crypto')).toEqual(['2023-epsilon-v2', '2024-zeta-hack', '2025-epsilon-hooks']);
    expect(await relations('A', 'topic=crypto')).toEqual(['2025 Epsilon DEX/Beta Pay partnership']);
    expect(await eventIds('B', 'topic=defi')).toEqual(['2023-epsilon-v2', '2025-epsilon-hooks']);
    expect(await relations('B', 'topic=defi')).toEqual([
      '2023 Epsilon DEX/Zeta Exchange competition',
      '2025 Epsilon DEX/Beta Pay partnership',
    ]);
  });

  it('topic values of the other profile, and mixed, are invalid', async () => {
    for (const [p, q] of [
      ['A', 'topic=defi'],
      ['B', 'topic=cbdc'],
      ['A', 'topic=mixed'],
    ] as const) {
      const r = await get(p, q);
      expect(r.status, `${p} ${q}`).toBe(400);
      expect(r.json.message).toContain(`"${q.split('=')[1]}"`);
    }
  });

  it('region narrows events and players only', async () => {
    const r = await get('A', 'region=JP');
    expect(ids(r.json.events)).toEqual(['2019-alpha-research', '2020-alpha-coin-pilot', '2024-alpha-token-fund', '2025-alpha-coin-launch']);
    expect(ids(r.json.players)).toEqual(['Alpha Bank']);
    expect((r.json.relations as object[]).length).toBe(5);
    expect(ids(r.json.initiatives)).toHaveLength(2);
  });

  it('status narrows events only; several values match any', async () => {
    const r = await get('A', 'status=ended,enacted');
    expect(ids(r.json.events)).toEqual(['2023-delta-euro-law', '2024-zeta-hack']);
    expect((r.json.relations as object[]).length).toBe(5);
  });

  it('player keeps events naming the player and relations where it is a or b', async () => {
    const r = await get('A', 'player=Gamma Chain');
    expect(ids(r.json.events)).toEqual(['2020-alpha-coin-pilot', '2022-delta-euro-poc']);
    expect(await relations('A', 'player=Gamma%20Chain')).toEqual([
      '2020 Alpha Bank/Gamma Chain infrastructure',
      '2022 Delta Central Bank/Gamma Chain joint_pilot',
    ]);
    expect(ids(r.json.players)).toHaveLength(6);
    expect(await eventIds('A', 'player=Beta+Pay,Zeta+Exchange')).toEqual([
      '2021-beta-stablecoin',
      '2024-alpha-token-fund',
      '2024-beta-alpha-payments',
      '2024-zeta-hack',
      '2025-epsilon-hooks',
    ]);
  });

  it('player rejects a member name or a wrong case with a hint to the id', async () => {
    const member = await get('A', 'player=Alpha%20Trust');
    expect(member.status).toBe(400);
    expect(member.json.message).toContain('"Alpha Trust" → Alpha Bank（グループ会社・旧名）');
    const lower = await get('A', 'player=alpha%20bank');
    expect(lower.json.message).toContain('"alpha bank" → Alpha Bank（大文字小文字・空白の違い）');
    const unknown = await get('A', 'player=Nobody');
    expect(unknown.json.message).toContain('player');
    expect(unknown.json.message).toContain('"Nobody"');
  });

  it('from and to compare at the shorter precision', async () => {
    expect(await eventIds('A', 'from=2024-03')).toEqual([
      '2024-alpha-token-fund',
      '2024-zeta-hack',
      '2025-alpha-coin-launch',
      '2025-epsilon-hooks',
      '2025-uk-rules',
    ]);
    expect(await eventIds('A', 'to=2023-05')).toEqual([
      '2019-alpha-research',
      '2020-alpha-coin-pilot',
      '2021-beta-stablecoin',
      '2022-delta-euro-poc',
      '2023-epsilon-v2',
    ]);
    expect(await eventIds('A', 'from=2021&to=2022')).toEqual(['2021-beta-stablecoin', '2022-delta-euro-poc']);
    expect(await eventIds('A', 'from=2025-01-15&to=2025-01-31')).toEqual(['2025-alpha-coin-launch', '2025-epsilon-hooks']);
  });

  it('dates relations by their year', async () => {
    expect(await relations('A', 'from=2024-06')).toEqual([
      '2024 Alpha Bank/Zeta Exchange investment',
      '2024 Beta Pay/Alpha Bank partnership',
      '2025 Epsilon DEX/Beta Pay partnership',
    ]);
    expect(await relations('A', 'to=2021-12-31')).toEqual(['2020 Alpha Bank/Gamma Chain infrastructure']);
  });

  it('key=true keeps milestones, key=false the others, both keeps all', async () => {
    expect(await eventIds('A', 'key=true')).toEqual([
      '2020-alpha-coin-pilot',
      '2023-delta-euro-law',
      '2025-alpha-coin-launch',
      '2025-epsilon-hooks',
    ]);
    expect(await eventIds('A', 'key=false')).toHaveLength(8);
    expect(await eventIds('A', 'key=true,false')).toEqual(ALL_A);
  });

  it('combines different parameters with AND', async () => {
    expect(await eventIds('A', 'topic=deposit&region=JP&key=true&from=2020')).toEqual(['2020-alpha-coin-pilot', '2025-alpha-coin-launch']);
    expect(await eventIds('A', 'topic=stablecoin,cbdc&status=pilot,poc')).toEqual(['2022-delta-euro-poc', '2024-beta-alpha-payments']);
    expect(await eventIds('B', 'player=Alpha Bank&topic=stablecoin')).toEqual(['2024-beta-alpha-payments']);
    const r = await get('A', 'include=relations,initiatives&topic=cbdc&player=Gamma%20Chain');
    expect(await relations('A', 'topic=cbdc&player=Gamma%20Chain')).toEqual(['2022 Delta Central Bank/Gamma Chain joint_pilot']);
    expect(ids(r.json.initiatives)).toEqual(['delta-euro']);
  });

  it('never reduces an initiative eventIds, whatever the filters', async () => {
    const r = await get('A', 'topic=deposit&from=2025&key=true');
    expect(ids(r.json.events)).toEqual(['2025-alpha-coin-launch']);
    expect((r.json.initiatives as { eventIds: string[] }[])[0]!.eventIds).toEqual([
      '2019-alpha-research',
      '2020-alpha-coin-pilot',
      '2025-alpha-coin-launch',
    ]);
  });

  it('returns empty arrays when nothing matches', async () => {
    const r = await get('A', 'region=UK&status=ended');
    expect(r.status).toBe(200);
    expect(r.json.events).toEqual([]);
    expect((r.json.meta as { counts: { events: number } }).counts.events).toBe(0);
  });
});

describe('query syntax', () => {
  it('treats a repeated parameter as a comma list, with the same ETag', async () => {
    const a = await get('A', 'topic=deposit&topic=stablecoin');
    const b = await get('A', 'topic=stablecoin,deposit');
    expect(a.text).toBe(b.text);
    expect(a.headers.get('ETag')).toBe(b.headers.get('ETag'));
  });

  it('trims outer whitespace of each value', async () => {
    expect(await eventIds('A', 'topic=%20deposit%20,+cbdc')).toHaveLength(5);
  });

  it('matches values case-sensitively and suggests the right case', async () => {
    const r = await get('A', 'topic=Deposit');
    expect(r.status).toBe(400);
    expect(r.json.message).toContain('deposit ではありませんか');
  });

  it('rejects empty values and empty items', async () => {
    for (const q of ['topic=', 'topic', 'topic=deposit,,cbdc', 'region=JP,', 'key=%20']) {
      const r = await get('A', q);
      expect(r.status, q).toBe(400);
      expect(r.json.message, q).toMatch(/パラメータ (topic|region|key) に空の値があります/);
    }
  });

  it('rejects unknown parameter names, naming each and suggesting the near one', async () => {
    const r = await get('A', 'topik=deposit&limit=5&topic=cbdc');
    expect(r.status).toBe(400);
    expect(r.json.message).toContain('"topik", "limit"');
    expect(r.json.message).toContain('topic の書き間違いではありませんか');
  });

  it('names every offending value and the allowed values', async () => {
    const r = await get('A', 'region=JP,XX,YY&status=done');
    expect(r.status).toBe(400);
    expect(r.json.message).toContain('パラメータ region の値 "XX", "YY" は使えません。使える値: JP, US, EU, UK, APAC, Global, LATAM');
    expect(r.json.message).toContain('パラメータ status の値 "done"');
  });

  it('rejects malformed and impossible dates and key values', async () => {
    for (const q of ['from=2024-13', 'to=2024-02-30', 'from=24', 'to=2024/01', 'from=2024-1']) {
      const r = await get('A', q);
      expect(r.status, q).toBe(400);
      expect(r.json.message, q).toContain('日付ではありません');
    }
    expect((await get('A', 'key=yes')).json.message).toContain('使える値: true, false');
  });

  it('rejects a lower bound after the upper bound, after cutting to the shorter precision', async () => {
    const r = await get('A', 'from=2025&to=2024');
    expect(r.status).toBe(400);
    expect(r.json.message).toContain('from');
    expect((await get('A', 'from=2024-05&to=2024')).status).toBe(200);
    expect((await get('A', 'from=2024-05-02&to=2024-05-01')).status).toBe(400);
  });

  it('rejects broken percent-encoding', async () => {
    for (const q of ['topic=%E3%81', 'topic=%zz', 'player=%FF']) {
      const r = await get('A', q);
      expect(r.status, q).toBe(400);
      expect(r.json.message, q).toContain('パーセントエンコード');
    }
  });
});

describe('methods, paths and headers', () => {
  const expectCommon = (h: Headers) => {
    expect(h.get('Access-Control-Allow-Origin')).toBe('*');
    expect(h.get('X-Content-Type-Options')).toBe('nosniff');
  };

  it('sets JSON, CORS and cache headers on success', async () => {
    const r = await get('A', 'topic=cbdc');
    expectCommon(r.headers);
    expect(r.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('Cache-Control')).toBe('public, max-age=3600');
    expect(r.headers.get('Netlify-CDN-Cache-Control')).toBe('public, max-age=3600, must-revalidate');
    expect(r.headers.get('Netlify-Vary')).toBeNull();
    expect(r.headers.get('ETag')).toMatch(/^"[\w-]+"$/);
  });

  it('gives a different ETag to a different answer', async () => {
    const a = await get('A', 'topic=cbdc');
    const b = await get('A', 'topic=rwa');
    const c = await get('B', 'topic=deposit');
    const d = await get('A', 'topic=deposit');
    expect(new Set([a, b, c, d].map((r) => r.headers.get('ETag'))).size).toBe(4);
  });

  it('answers If-None-Match with 304 and no body', async () => {
    const first = await get('A', 'region=EU');
    const etag = first.headers.get('ETag')!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const r = await call(api.A, '/api/chronicle?region=EU', { headers: { 'If-None-Match': inm } });
      expect(r.status, inm).toBe(304);
      expect(r.text).toBe('');
      expect(r.headers.get('ETag')).toBe(etag);
      expectCommon(r.headers);
    }
    expect((await call(api.A, '/api/chronicle?region=EU', { headers: { 'If-None-Match': '"stale"' } })).status).toBe(200);
  });

  it('answers HEAD like GET without a body', async () => {
    const g = await get('A', 'region=EU');
    const h = await call(api.A, '/api/chronicle?region=EU', { method: 'HEAD' });
    expect(h.status).toBe(200);
    expect(h.text).toBe('');
    expect([...h.headers]).toEqual([...g.headers]);
  });

  it('answers a CORS preflight with 204', async () => {
    const r = await call(api.A, '/api/chronicle', {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'if-none-match' },
    });
    expect(r.status).toBe(204);
    expectCommon(r.headers);
    expect(r.headers.get('Access-Control-Allow-Methods')).toBe('GET, HEAD, OPTIONS');
    expect(r.headers.get('Access-Control-Allow-Headers')).toBe('*');
    expect(Number(r.headers.get('Access-Control-Max-Age'))).toBeGreaterThan(0);
  });

  it('answers other methods with 405 and Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const r = await call(api.A, '/api/chronicle', { method });
      expect(r.status, method).toBe(405);
      expect(r.headers.get('Allow')).toBe('GET, HEAD, OPTIONS');
      expect(r.json.message).toContain(method);
      expectCommon(r.headers);
    }
  });

  it('answers other paths with a JSON 404', async () => {
    for (const path of ['/api/chronicles', '/api/chronicle/', '/api/', '/']) {
      const r = await call(api.A, path);
      expect(r.status, path).toBe(404);
      expect(r.json.message).toContain('/api/chronicle');
      expectCommon(r.headers);
    }
  });

  it('never lets an error be cached', async () => {
    for (const r of [await get('A', 'topic=x'), await call(api.A, '/x'), await call(api.A, '/api/chronicle', { method: 'POST' })]) {
      expect(r.headers.get('Cache-Control')).toBe('no-store');
      expect(r.headers.get('Netlify-CDN-Cache-Control')).toBeNull();
      expect(r.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
      expect(Object.keys(r.json)).toEqual(['message']);
    }
  });
});

describe('answer cache', () => {
  it('answers repeated queries with the same bytes as an uncached handler', async () => {
    const { fixtureBuild } = await import('./helpers.js');
    const { createHandler } = await import('../functions/chronicle/handler.js');
    const d = await fixtureBuild();
    const uncached = createHandler(d.A, { cacheBytes: 0 });
    const tiny = createHandler(d.A, { cacheBytes: 20_000 });
    const queries = ['', 'topic=deposit', 'topic=cbdc', 'topic=deposit', 'region=JP&key=true', '', 'include=players', 'topic=cbdc'];
    for (const q of [...queries, ...queries]) {
      const want = await call(uncached, `/api/chronicle?${q}`);
      for (const h of [api.A, tiny]) {
        const got = await call(h, `/api/chronicle?${q}`);
        expect(got.text, q).toBe(want.text);
        expect(got.headers.get('ETag'), q).toBe(want.headers.get('ETag'));
      }
    }
  });
});

describe('bodies', () => {
  it('states Content-Length, and streams a large answer without giving up the prepared bytes', async () => {
    const { default: served } = (await import(join(inject('workspace'), '.build', 'served.js'))) as { default: BuiltDataset };
    const h = createHandler(served);
    for (const query of ['', '?include=initiatives&topic=deposit']) {
      const first = await call(h, `/api/chronicle${query}`);
      const again = await call(h, `/api/chronicle${query}`);
      expect(Number(first.headers.get('Content-Length'))).toBe(Buffer.byteLength(first.text));
      expect(again.text).toBe(first.text);
      const head = h(new Request(`https://api.test/api/chronicle${query}`, { method: 'HEAD' }));
      expect(head.headers.get('Content-Length')).toBe(first.headers.get('Content-Length'));
    }
    // The unfiltered answer is past the streaming threshold, the filtered one below it: both paths.
    expect(Buffer.byteLength((await call(h, '/api/chronicle')).text)).toBeGreaterThan(STREAM_FROM_BYTES);
    expect(Buffer.byteLength((await call(h, '/api/chronicle?include=initiatives&topic=deposit')).text)).toBeLessThan(STREAM_FROM_BYTES);
  });
});

describe('streamed bodies', () => {
  it('hands chunks on a batch at a time as the reader asks, in order, to the last byte', async () => {
    const n = 3 * CHUNKS_PER_PULL + 7;
    const parts = Array.from({ length: n }, (_, i) => Buffer.from(`${i},`));
    let taken = 0;
    // Counts the chunks the stream has made views of: a stream holding every chunk at once made
    // reading a scattered answer quadratic, and views made up front outlived the young generation.
    const segments = new Proxy(parts, {
      get: (target, key, receiver) => {
        if (typeof key === 'string' && /^\d+$/.test(key) && Number(key) < target.length) taken++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const reader = new Response(streamOf({ ...bodyOfChunks(parts), segments })).body!.getReader();
    expect(taken).toBe(CHUNKS_PER_PULL);
    const got: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      got.push(r.value);
      expect(taken - got.length).toBeLessThanOrEqual(CHUNKS_PER_PULL);
    }
    expect(taken).toBe(n);
    expect(Buffer.concat(got).toString()).toBe(Buffer.concat(parts).toString());
  });
});

describe('answer cache and grouped copies', () => {
  // Chunks in a body as a reader receives them: one per run of records handed on as it is.
  const chunksOf = async (h: (req: Request) => Response, query: string) => {
    const reader = h(new Request(`https://api.test/api/chronicle?${query}`)).body!.getReader();
    let n = 0;
    while (!(await reader.read()).done) n++;
    return n;
  };

  it('does not keep a single-code answer gathered in place, so that the next one comes from the grouped copy', async () => {
    const { default: served } = (await import(join(inject('workspace'), '.build', 'served.js'))) as { default: BuiltDataset };
    for (const query of ['include=events&region=JP', 'include=events&status=launched']) {
      const uncached = createHandler(served, { cacheBytes: 0 });
      const cached = createHandler(served);
      // The column's first single-code query is gathered from the records in place; from the
      // second on, it is one stretch of the grouped copy.
      const scattered = await chunksOf(uncached, query);
      const grouped = await chunksOf(uncached, query);
      expect(grouped, query).toBeLessThan(scattered);
      expect(await chunksOf(cached, query), query).toBe(scattered);
      // Kept from the second query on: the grouped stretch, its small pieces copied together.
      expect(await chunksOf(cached, query), query).toBeLessThanOrEqual(grouped);
      expect(await chunksOf(cached, query), query).toBeLessThanOrEqual(grouped);
    }
  });
});

describe('answers written to a Node socket', () => {
  it('writes an answer under ONE_WRITE_BELOW in one piece and a larger one as views of the prepared bytes', async () => {
    const { default: served } = (await import(join(inject('workspace'), '.build', 'served.js'))) as { default: BuiltDataset };
    const handle = createNodeHandler(served, { cacheBytes: 0 });
    const written = (url: string) => {
      const pieces: Uint8Array[] = [];
      const res = {
        writeHead: () => res,
        cork: () => undefined,
        write: (c: Uint8Array) => pieces.push(c),
        end: (c?: Uint8Array) => void (c && pieces.push(c)),
      };
      handle({ method: 'GET', url, headers: {} } as unknown as IncomingMessage, res as unknown as ServerResponse);
      return pieces;
    };
    const all = JSON.parse(Buffer.concat(written('/api/chronicle?include=events')).toString()) as { events: { players: string[] }[] };
    const counts = new Map<string, number>();
    for (const e of all.events) for (const id of e.players) counts.set(id, (counts.get(id) ?? 0) + 1);
    const player = [...counts].find(([, n]) => n === 1)![0];
    const small = written(`/api/chronicle?include=events&player=${encodeURIComponent(player)}`);
    expect(Buffer.concat(small).byteLength).toBeLessThan(ONE_WRITE_BELOW);
    expect(small).toHaveLength(1);
    const large = written('/api/chronicle?include=events&topic=cbdc,deposit&region=JP');
    expect(Buffer.concat(large).byteLength).toBeGreaterThan(ONE_WRITE_BELOW);
    expect(large.length).toBeGreaterThan(3);
  });
});

describe('kept answers', () => {
  it('copies the short runs of a scattered answer together once when it is kept, so repeats read few chunks, byte for byte', async () => {
    const { default: served } = (await import(join(inject('workspace'), '.build', 'served.js'))) as { default: BuiltDataset };
    const query = '/api/chronicle?include=events&topic=deposit,stablecoin,cbdc&region=JP,US,EU';
    const read = async (h: Handler) => {
      const reader = h(new Request(`https://api.test${query}`)).body!.getReader();
      const chunks: Uint8Array[] = [];
      for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
      return chunks;
    };
    const sent = await read(createHandler(served, { cacheBytes: 0 }));
    const cached = createHandler(served);
    const first = await read(cached);
    const again = await read(cached);
    expect(Buffer.concat(first).toString()).toBe(Buffer.concat(sent).toString());
    expect(Buffer.concat(again).toString()).toBe(Buffer.concat(sent).toString());
    // Sent fresh, every run of a record or more is a view; kept, only runs of KEPT_VIEW_FROM or more are.
    expect(sent.filter((c) => c.byteLength < KEPT_VIEW_FROM).length).toBeGreaterThan(10);
    expect(again.length).toBeLessThan(sent.length / 4);
    for (const c of again) if (c.byteLength < KEPT_VIEW_FROM) expect(c.buffer.byteLength).toBeLessThanOrEqual(BLOCK_BYTES);
  });

  it('keeps a large answer as it was sent: copying its short runs would be fresh memory on every request', () => {
    const run = Buffer.alloc(KEPT_VIEW_FROM / 4, 'x');
    const chunks = Array.from({ length: Math.ceil(KEEP_COPIES_BELOW / run.byteLength) }, () => run);
    const large = bodyOfChunks(chunks);
    expect(forKeeping(large)).toBe(large);
    const small = bodyOfChunks(chunks.slice(0, 64));
    const kept = forKeeping(small);
    expect(chunksOf(kept).length).toBeLessThan(chunksOf(small).length);
    expect(Buffer.concat(chunksOf(kept))).toEqual(Buffer.concat(chunksOf(small)));
    // Kept, the answer is its blocks alone: one segment per chunk.
    expect(kept.segments.length).toBe(chunksOf(kept).length);
    expect(kept.owned).toBeGreaterThanOrEqual(small.length);
  });
});

describe('internal errors', () => {
  it('answers 500 in the API error shape with CORS, and keeps the detail for the log only', async () => {
    const { A } = await fixtureBuild();
    const logged: unknown[] = [];
    // A Response class that fails on success stands in for any fault past the query check.
    class Failing extends Response {
      constructor(body?: BodyInit | null, init?: ResponseInit) {
        if (init?.status === 200) throw new Error('disk gone at /srv/app/.build/served.js');
        super(body, init);
      }
    }
    const h = createHandler(A, { Response: Failing, log: (e) => logged.push(e) });
    const r = await call(h, '/api/chronicle?topic=deposit');
    expect(r.status).toBe(500);
    expect(r.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(r.headers.get('Cache-Control')).toBe('no-store');
    expect(Object.keys(r.json)).toEqual(['message']);
    expect(r.text).not.toMatch(/srv|served|disk|at /);
    expect(String(logged[0])).toContain('/srv/app/.build/served.js');
    // The handler is still usable afterwards: a 400 goes through as before.
    expect((await call(h, '/api/chronicle?topic=nope')).status).toBe(400);
  });
});

describe('answer cache accounting', () => {
  const h0 = (d: Awaited<ReturnType<typeof fixtureBuild>>['A']) => createHandler(d, { cacheBytes: 0 });
  it('counts the key, the headers and the body of every cached answer', async () => {
    const { A } = await fixtureBuild();
    const h = createHandler(A);
    const r = h(new Request('https://api.test/api/chronicle?topic=deposit'));
    const body = new Uint8Array(await r.arrayBuffer());
    const ok = Object.fromEntries(r.headers);
    const answer = { etag: ok.etag!, body: bodyOfChunks([body as Uint8Array<ArrayBuffer>], body.byteLength), ok, notModified: ok };
    const key = 'player=' + 'x'.repeat(8000);
    const headerChars = Object.entries(ok).reduce((n, [k, v]) => n + k.length + v.length, 0);
    expect(answerBytes(answer, key)).toBeGreaterThanOrEqual(body.byteLength + 2 * key.length + 2 * 2 * headerChars);
  });

  it('keeps no more answers than its byte budget allows when every query is long and distinct', async () => {
    const { A } = await fixtureBuild();
    // A cached answer is sent with the very bytes it was first built with; a rebuilt one is new.
    const bodies: unknown[] = [];
    class Counting extends Response {
      constructor(body?: BodyInit | null, init?: ResponseInit) {
        super(body, init);
        if (init?.status === 200) bodies.push(body);
      }
    }
    // 64 distinct query strings of 7,200–7,700 characters with the same answer: ~15 KB of key apiece.
    const queries = Array.from(
      { length: 64 },
      (_, i) =>
        `topic=${Array(900 + i)
          .fill('deposit')
          .join(',')}`,
    );
    const body = (await h0(A)(new Request(`https://api.test/api/chronicle?${queries[0]}`)).arrayBuffer()).byteLength;
    // Room for 64 bodies (and a little): enough if only bodies counted, far too little with the keys.
    const h = createHandler(A, { cacheBytes: 64 * (body + 1024), Response: Counting });
    for (const q of queries) h(new Request(`https://api.test/api/chronicle?${q}`));
    const first = new Set(bodies.splice(0));
    for (const q of queries) h(new Request(`https://api.test/api/chronicle?${q}`));
    expect(bodies).toHaveLength(queries.length);
    // The oldest were evicted and rebuilt: the budget held the keys too.
    expect(bodies.filter((b) => !first.has(b)).length).toBeGreaterThan(0);
  });
});

describe('hints for Japanese input (still 400: the contract does not change)', () => {
  const message = async (p: Profile, query: string) => {
    const r = await get(p, query);
    expect(r.status, query).toBe(400);
    expect(r.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    return r.json.message!;
  };
  const q = (s: string) => encodeURIComponent(s);

  it('names the player id for a Japanese name, a former name, a case variant, a short name and a typo', async () => {
    expect(await message('A', `player=${q('アルファ銀行')}`)).toContain('"アルファ銀行" → Alpha Bank（日本語名）');
    expect(await message('B', `player=${q('デルタ中央銀行')}`)).toContain('"デルタ中央銀行" → Delta Central Bank（日本語名）');
    expect(await message('A', 'player=Old+Alpha')).toContain('"Old Alpha" → Alpha Bank（グループ会社・旧名）');
    expect(await message('A', 'player=ZETA+EXCHANGE')).toContain('"ZETA EXCHANGE" → Zeta Exchange（大文字小文字・空白の違い）');
    // Full-width letters are what a Japanese keyboard often types.
    expect(await message('A', `player=${q('Ｂｅｔａ Ｐａｙ')}`)).toContain('→ Beta Pay');
    expect(await message('A', `player=${q('ゼータ')}`)).toContain('Zeta Exchange（ゼータ取引所） ではありませんか');
    expect(await message('A', 'player=Gama+Chain')).toContain('Gamma Chain ではありませんか');
  });

  it('lets an id spelled in another case win over a name it shares, and names everyone sharing a name, in order', () => {
    const player = (id: string, nameJa: string, members: string[] = []) =>
      ({ id, nameJa, members, category: 'bank', sector: null, region: 'JP', description: '' }) as BuiltDataset['players'][number];
    const hints = buildHints({
      profile: 'A',
      filters: { topic: [], region: [], status: [] },
      labels: {},
      otherCodes: { topic: {}, region: {}, status: {} },
      players: [
        player('Kappa', 'カッパ'),
        player('Lambda', 'ラムダ', ['Kappa Group']),
        player('Mu', 'kappagroup'),
        player('Nu', 'ニュー', ['MU']),
      ],
    } as Parameters<typeof buildHints>[0]);
    // `kappagroup` is Lambda's member and Mu's Japanese name: both, in player order.
    expect(hintFor('player', 'Kappa Group', hints)).toBe('"Kappa Group" → Lambda（グループ会社・旧名）、"Kappa Group" → Mu（日本語名）');
    // `mu` is Nu's member and Mu's id: the id alone.
    expect(hintFor('player', 'mu', hints)).toBe('"mu" → Mu（大文字小文字・空白の違い）');
    expect(hintFor('player', 'ラム', hints)).toBe('Lambda（ラムダ） ではありませんか');
  });

  it('names every offending value with its own hint in one message', async () => {
    const m = await message('A', `player=${q('アルファ銀行')},Alpha+Trust,Beta+Pay`);
    expect(m).toContain('"Alpha Trust", "アルファ銀行"');
    expect(m).toContain('"アルファ銀行" → Alpha Bank（日本語名）');
    expect(m).toContain('"Alpha Trust" → Alpha Bank（グループ会社・旧名）');
  });

  it('names the code for a topic, region or status given by its Japanese label or part of it', async () => {
    expect(await message('A', `topic=${q('ステーブルコイン')}`)).toContain('"ステーブルコイン" → stablecoin（ラベル「ステーブルコイン」）');
    expect(await message('A', `topic=${q('中央銀行デジタル通貨')}`)).toContain('→ cbdc');
    expect(await message('A', `topic=${q('ＲＷＡ')}`)).toContain('→ rwa');
    expect(await message('A', `region=${q('日本')}`)).toContain('"日本" → JP（ラベル「日本」）');
    expect(await message('B', `region=${q('欧州')},${q('英国')}`)).toMatch(/"欧州" → EU.*"英国" → UK/);
    expect(await message('A', `status=${q('実証実験')}`)).toContain('→ poc');
    expect(await message('A', `status=${q('発表')}`)).toContain('"発表" → announced');
  });

  it('looks for hints for the first few refused values only, so a flood of wrong values stays cheap', async () => {
    const names = ['Old Alpha', 'Alpha Trust', 'alpha bank', 'ALPHA BANK', 'AlphaBank', 'alpha  bank'];
    expect(names.length).toBe(MAX_HINTS + 1);
    const m = await message('A', `player=${names.map(q).join(',')}`);
    expect(m.match(/→ Alpha Bank/g)).toHaveLength(MAX_HINTS);
    for (const n of names) expect(m).toContain(`"${n}"`);
  });

  it('says which parameter a value belongs to when it is given to another', async () => {
    expect(await message('A', `topic=${q('日本')}`)).toContain('"日本" は region の値です（region=JP）');
    expect(await message('A', `region=${q('アルファ銀行')}`)).toContain('"アルファ銀行" は player の値です（player=Alpha Bank）');
  });

  it('explains defi on Profile A and the A-only topics on Profile B', async () => {
    const defi = await message('A', 'topic=defi');
    expect(defi).toContain('A では defi は crypto に含まれます（topic=crypto）');
    expect(await message('A', `topic=${q('分散型金融')}`)).toContain('A では "分散型金融"（defi） は crypto に含まれます');
    expect(await message('B', 'topic=cbdc')).toContain('cbdc はプロファイル A だけのコードで、このプロファイル B にはありません');
    expect(await message('B', `topic=${q('暗号資産')}`)).toContain('"暗号資産"（crypto） はプロファイル A だけのコード');
  });

  it("answers the shipped dataset's examples: 日本銀行 → Bank of Japan, defi on A", async () => {
    for (const p of ['A', 'B'] as const) {
      const shipped = JSON.parse(readFileSync(join(inject('workspace'), '.build', `${p}.json`), 'utf8')) as BuiltDataset;
      const r = await call(createHandler(shipped), `/api/chronicle?player=${q('日本銀行')}`);
      expect(r.status).toBe(400);
      expect(r.json.message).toContain('"日本銀行" → Bank of Japan（日本語名）');
    }
  });

  it('keeps the plain message for a value nothing resembles, and the typo hint for codes', async () => {
    const m = await message('A', 'topic=zzz');
    expect(m).toContain('パラメータ topic の値 "zzz" は使えません。使える値: deposit, stablecoin, cbdc, rwa, crypto。');
    expect(m).not.toContain('→');
    expect(await message('A', 'topic=cdbc')).toContain('cbdc ではありませんか');
  });
});
