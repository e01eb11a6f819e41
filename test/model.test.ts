import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuiltDataset, Event, Initiative, Player, Profile, Relation } from '../functions/chronicle/dataset.js';
import { BLOCK_BYTES, chunksOf, FOR_STREAMS } from '../functions/chronicle/body.js';
import { createHandler, render, type Handler } from '../functions/chronicle/handler.js';
import { positionRuns, selectIndexed, type Selection } from '../functions/chronicle/indexed.js';
import type { Served } from '../functions/chronicle/image.js';
import { prepare } from '../functions/chronicle/prepare.js';
import { servedFiles } from '../pipeline/output.js';
import { PARAMS, parseQuery } from '../functions/chronicle/query.js';
import { initiativeTopics } from '../functions/chronicle/rules.js';
import { select } from '../functions/chronicle/select.js';
import { allJsonSchemas } from '../pipeline/schemas.js';
import { loadVocabulary } from '../pipeline/vocabulary.js';
import { parseYaml } from '../pipeline/loaders/yaml.js';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { CONTENT, fixtureBuild } from './helpers.js';
import { oracle } from './oracle.js';

let data: Record<Profile, BuiltDataset>;
let api: Record<Profile, Handler>;
let validate: Record<Profile, (body: unknown) => boolean>;

beforeAll(async () => {
  data = await fixtureBuild();
  api = { A: createHandler(data.A), B: createHandler(data.B) };
  const v = loadVocabulary(parseYaml('vocabulary.yaml', readFileSync(join(CONTENT, 'vocabulary.yaml'), 'utf8'))).vocabulary!;
  const schemas = allJsonSchemas(v);
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  validate = { A: ajv.compile(schemas['response-A']!), B: ajv.compile(schemas['response-B']!) };
});

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** Valid values of each parameter for a profile, drawn from the served dataset itself. */
function pools(d: BuiltDataset): Record<string, string[]> {
  const dates = [...new Set(d.events.map((e) => e.date))];
  const boundaries = [
    ...dates,
    ...dates.map((x) => x.slice(0, 4)),
    ...dates.filter((x) => x.length > 7).map((x) => x.slice(0, 7)),
    '2018',
    '2030-12-31',
  ];
  return {
    include: [...d.kinds],
    topic: d.filters.topic,
    region: d.filters.region,
    status: d.filters.status,
    player: d.players.map((p) => p.id),
    from: boundaries,
    to: boundaries,
    key: ['true', 'false'],
  };
}

/** A random valid query: a few parameters, each with one to three values, some repeated as `a=x&a=y`. */
function validQuery(d: BuiltDataset) {
  const pool = pools(d);
  return fc
    .subarray([...PARAMS], { maxLength: 4 })
    .chain((names) =>
      fc.tuple(
        ...names.map((n) =>
          fc.tuple(fc.constant(n), fc.uniqueArray(fc.constantFrom(...pool[n]!), { minLength: 1, maxLength: 3 }), fc.boolean()),
        ),
      ),
    )
    .map((parts) => {
      const sp = new URLSearchParams();
      for (const [name, vals, repeat] of parts) {
        if (repeat) for (const v of vals) sp.append(name, v);
        else sp.append(name, vals.join(','));
      }
      return sp;
    });
}

const reversed = (sp: URLSearchParams) => {
  const f = sp.getAll('from').flatMap((v) => v.split(','));
  const t = sp.getAll('to').flatMap((v) => v.split(','));
  const cut = (a: string, b: string) => a.slice(0, Math.min(a.length, b.length)) > b.slice(0, Math.min(a.length, b.length));
  return f.length > 0 && t.length > 0 && f.every((x) => t.every((y) => cut(x, y)));
};

describe.each(['A', 'B'] as const)('Profile %s against the contract read literally', (p) => {
  it('answers every random valid combination exactly as the oracle', async () => {
    await fc.assert(
      fc.asyncProperty(validQuery(data[p]).map(String), async (query) => {
        const sp = new URLSearchParams(query);
        const res = api[p](new Request(`https://api.test/api/chronicle?${query}`));
        if (reversed(sp)) {
          expect(res.status).toBe(400);
          return;
        }
        expect(res.status).toBe(200);
        const body = JSON.parse(await res.text());
        expect(body).toEqual(oracle(data[p], sp));
        expect(validate[p](body)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  }, 600_000);
});

/**
 * A Profile A dataset far larger than the fixture, with the shapes the indexes must get right:
 * thousands of events on few distinct dates of every precision (so `from=2024-03` must keep
 * `2024` and `2024-03` and drop `2024-02-28`), players named by hundreds of events beside players
 * named once, events naming several of the queried players, relations of every year including
 * `mixed` ones, initiatives with events of several topics. Deterministic (a seeded generator).
 */
function synthetic(base: BuiltDataset, seed = 1): BuiltDataset {
  let state = seed;
  const rand = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  // Codes skewed (the first far more common than the last), so that some code lists are short.
  const skewed = <T>(xs: readonly T[]): T => xs[Math.min(xs.length - 1, Math.floor(rand() ** 2.5 * xs.length))]!;
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = () => {
    const y = String(2018 + Math.floor(rand() ** 0.5 * 9));
    const r = rand();
    return r < 0.2
      ? y
      : r < 0.5
        ? `${y}-${pad(1 + Math.floor(rand() * 12))}`
        : `${y}-${pad(1 + Math.floor(rand() * 12))}-${pad(1 + Math.floor(rand() * 28))}`;
  };
  const { topic, region, status } = base.filters;
  const players: Player[] = Array.from({ length: 300 }, (_, i) => ({
    id: `Player ${String(i).padStart(3, '0')}`,
    nameJa: `企業${i}`,
    category: 'bank',
    sector: null,
    region: skewed(region),
    members: i % 10 === 0 ? [`Member ${i}`] : [],
    description: '',
  }));
  const hubs = players.slice(0, 3).map((p) => p.id);
  const initiativeIds = Array.from({ length: 40 }, (_, i) => `plan-${String.fromCharCode(97 + (i % 26))}${i >= 26 ? 'x' : ''}`);
  const events: Event[] = Array.from({ length: 2500 }, (_, i) => {
    const named = new Set<string>();
    if (rand() < 0.3) named.add(pick(hubs));
    for (let k = 1 + Math.floor(rand() * 3); k > 0; k--) named.add(pick(players).id);
    return {
      id: `e${String(i).padStart(5, '0')}`,
      date: date(),
      topic: skewed(topic),
      sub: 'issuance',
      players: [...named],
      title: `出来事 ${i}`,
      description: '説明'.repeat(1 + Math.floor(rand() * 50)),
      chain: '',
      status: skewed(status),
      region: skewed(region),
      source: `https://news.example.jp/${i}`,
      key: rand() < 0.15,
      sources: [{ name: '媒体', url: `https://news.example.jp/${i}` }],
      initiativeId: rand() < 0.2 ? pick(initiativeIds) : null,
    };
  }).sort((a, b) => cmp(a.date, b.date) || cmp(a.id, b.id));
  const relations: Relation[] = [];
  const pairs = new Set<string>();
  while (relations.length < 600) {
    const a = rand() < 0.3 ? pick(hubs) : pick(players).id;
    const b = pick(players).id;
    if (a === b || pairs.has(`${a}|${b}`)) continue;
    pairs.add(`${a}|${b}`);
    relations.push({
      a,
      b,
      type: 'partnership',
      label: '提携',
      year: date().slice(0, 4),
      topic: rand() < 0.2 ? 'mixed' : pick(topic),
      source: 'https://news.example.jp/r',
    });
  }
  relations.sort((x, y) => cmp(x.year, y.year) || cmp(x.a, y.a) || cmp(x.b, y.b) || cmp(x.type, y.type));
  const initiatives: Initiative[] = initiativeIds
    .map((id) => ({ id, nameJa: id, aliases: [], description: '', eventIds: events.filter((e) => e.initiativeId === id).map((e) => e.id) }))
    .filter((x) => x.eventIds.length)
    .sort((x, y) => cmp(x.id, y.id));
  return { ...base, version: `synthetic-${seed}`, events, relations, players, initiatives };
}

describe('indexed selection against the straightforward filter, at scale', () => {
  let big: BuiltDataset;
  let handler: Handler;
  beforeAll(() => {
    big = synthetic(data.A);
    handler = createHandler(big, { cacheBytes: 0 });
  });

  it('answers every random valid combination byte for byte as the oracle', async () => {
    await fc.assert(
      fc.asyncProperty(validQuery(big).map(String), async (query) => {
        const sp = new URLSearchParams(query);
        const res = handler(new Request(`https://api.test/api/chronicle?${query}`));
        if (reversed(sp)) {
          expect(res.status).toBe(400);
          return;
        }
        expect(res.status).toBe(200);
        expect(await res.text()).toBe(JSON.stringify(oracle(big, sp)));
      }),
      { numRuns: RUNS },
    );
  }, 600_000);

  it('selects exactly the records select.ts (the contract read record by record, the explorer’s) selects', () => {
    const p = prepare(big);
    const selectable = { dataset: big, initiativeTopics: initiativeTopics(big) };
    const positions = (kept: number[] | 'all', n: number) => (kept === 'all' ? Array.from({ length: n }, (_, i) => i) : kept);
    const expand = (sel: Selection, n: number) => {
      const kept = positionRuns(sel);
      if (kept === 'all') return positions('all', n);
      const out: number[] = [];
      for (let k = 0; k < kept.length; k += 2) for (let i = kept[k]!; i < kept[k + 1]!; i++) out.push(i);
      return out;
    };
    fc.assert(
      fc.property(validQuery(big).map(String), (query) => {
        const parsed = parseQuery(query, p.rules);
        if (!parsed.ok) return;
        const want = select(selectable, parsed.query);
        const got = selectIndexed(p, parsed.query);
        expect([...got.keys()]).toEqual([...want.keys()]);
        for (const [kind, kept] of want) {
          const n = (big[kind] ?? []).length;
          expect(expand(got.get(kind)!, n), `${kind} ${query}`).toEqual(positions(kept, n));
        }
      }),
      { numRuns: RUNS * 3 },
    );
  });

  it('answers one code of one column, alone or with dates, as a single run of its grouped copy from its second use', () => {
    for (const query of ['topic=cbdc', 'region=JP', 'status=launched', 'key=true', 'key=false&from=2021&to=2024', 'topic=rwa&from=2023']) {
      const p = prepare(big);
      const parsed = parseQuery(`include=events&${query}`, p.rules);
      expect(parsed.ok, query).toBe(true);
      if (!parsed.ok) continue;
      // The first such query is gathered from the records in place: no copy is built for it.
      const first = selectIndexed(p, parsed.query).get('events')!;
      expect(Array.isArray(first), query).toBe(true);
      // From the second on, the records of one code sit together in the grouped copy, dates in order.
      const sel = selectIndexed(p, parsed.query).get('events')!;
      expect(sel !== 'all' && !Array.isArray(sel) && sel.runs.length, query).toBe(2);
      expect(positionRuns(sel), query).toEqual(first);
    }
  });

  it('lets one code walk its grouped copy when merging several codes of another column costs more', () => {
    const p = prepare(big);
    const n = big.events.length;
    const columns = ['topic', 'region', 'status'] as const;
    const counts = (field: (typeof columns)[number]) =>
      big.filters[field].map((code) => [code, big.events.filter((e) => e[field] === code).length] as const);
    // Two codes of one column with fewer records together than one code of another, but not half as
    // few: merging their two lists costs more than walking the other code's stretch in place.
    let found: string | undefined;
    for (const x of columns)
      for (const y of columns) {
        if (x === y) continue;
        for (const [a, ca] of counts(x))
          for (const [b, cb] of counts(x))
            for (const [c, cc] of counts(y))
              if (a < b && ca + cb < cc && 2 * (ca + cb) > cc && 4 * (ca + cb) <= n) found ??= `${x}=${a},${b}&${y}=${c}`;
      }
    expect(found, 'the synthetic data has two such codes and a third').toBeDefined();
    const parsed = parseQuery(`include=events&${found}`, p.rules);
    if (!parsed.ok) throw new Error(parsed.message);
    // The grouped copy is used from a column's second single-code query on.
    selectIndexed(p, parsed.query);
    const sel = selectIndexed(p, parsed.query).get('events')!;
    const driver = p.events[found!.split('&')[1]!.split('=')[0] as (typeof columns)[number]];
    expect(sel !== 'all' && !Array.isArray(sel) && sel.column, found).toBe(driver);
  });

  it('answers a hub player alone, or with dates, as one run of its own copy, byte for byte', async () => {
    const p = prepare(big);
    const counts = new Map<string, number>();
    for (const e of big.events) for (const id of e.players) counts.set(id, (counts.get(id) ?? 0) + 1);
    const hub = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    for (const query of [`player=${hub}`, `player=${hub}&from=2021&to=2023`, `player=${hub}&topic=cbdc`]) {
      const parsed = parseQuery(`include=events&${query}`, p.rules);
      if (!parsed.ok) throw new Error(parsed.message);
      const sel = selectIndexed(p, parsed.query).get('events')!;
      // Runs over the player's own copy, whose order is the player's list of events.
      expect(sel !== 'all' && !Array.isArray(sel) && sel.column.post.length, query).toBe(counts.get(hub));
      if (!query.includes('topic')) expect(sel !== 'all' && !Array.isArray(sel) && sel.runs.length, query).toBe(2);
      const res = handler(new Request(`https://api.test/api/chronicle?include=events&${query}`));
      expect(await res.text(), query).toBe(JSON.stringify(oracle(big, new URLSearchParams(`include=events&${query}`))));
    }
  });

  it('hands a scattered answer on as views of its runs, and copies runs shorter than viewFrom into small blocks, byte for byte', () => {
    const p = prepare(big);
    const query = 'include=events&topic=cbdc,rwa,crypto,stablecoin&region=JP,US,Global,APAC';
    const parsed = parseQuery(query, p.rules);
    if (!parsed.ok) throw new Error(parsed.message);
    const expected = JSON.stringify(oracle(big, new URLSearchParams(query)));
    const isView = (c: Uint8Array) => c.buffer === p.json.buffer;

    // Every run of viewFrom bytes or more (a record or more) goes out as a view of the prepared bytes.
    const viewed = render(p, parsed.query);
    const views = chunksOf(viewed).filter(isView);
    expect(views.length).toBeGreaterThan(10);
    for (const c of views) expect(c.byteLength).toBeGreaterThanOrEqual(FOR_STREAMS.viewFrom);
    expect(Buffer.concat(chunksOf(viewed)).toString()).toBe(expected);

    // With a higher threshold, the runs under it are copied, in blocks.
    const viewFrom = 16 * FOR_STREAMS.viewFrom;
    const body = render(p, parsed.query, { ...FOR_STREAMS, viewFrom });
    for (const c of chunksOf(body).filter(isView)) expect(c.byteLength).toBeGreaterThanOrEqual(viewFrom);
    expect(body.owned).toBeGreaterThan(viewed.owned);
    const owned = chunksOf(body).filter((c) => !isView(c));
    // Many blocks, none above the block size: no answer-sized buffer is allocated.
    expect(body.length).toBeGreaterThan(3 * BLOCK_BYTES);
    expect(owned.length).toBeGreaterThan(2);
    for (const c of owned) expect(c.buffer.byteLength).toBeLessThanOrEqual(BLOCK_BYTES);
    const blocks = [...new Set(owned.map((c) => c.buffer))];
    expect(body.owned).toBe(blocks.reduce((sum, b) => sum + b.byteLength, 0));
    expect(Buffer.concat(chunksOf(body)).toString()).toBe(expected);
  });

  it('reads an opened image a page at a time as queries need it, and answers byte for byte as the oracle', async () => {
    await withServedImage(big, async (served, size) => {
      let read = 0;
      const h = createHandler(
        readingThrough(served, (length) => (read += length)),
        { cacheBytes: 0 },
      );
      const [json, jsonBytes] = served.sections.json!;
      const answer = async (query: string) => (await h(new Request(`https://api.test/api/chronicle?${query}`))).text();
      const expected = (query: string) => JSON.stringify(oracle(big, new URLSearchParams(query)));

      // Opening reads everything but the records; a selective answer reads a few of their pages.
      const selective = `include=events&player=${encodeURIComponent(big.events[0]!.players[0]!)}&from=${big.events[0]!.date}&to=${big.events[0]!.date}`;
      expect(await answer(selective)).toBe(expected(selective));
      expect(read).toBeGreaterThanOrEqual(size - jsonBytes);
      expect(read).toBeLessThan(size - jsonBytes + jsonBytes / 4);
      expect(json).toBeGreaterThan(0);

      // Whatever is asked next, the bytes served are the records', never unread memory.
      await fc.assert(
        fc.asyncProperty(validQuery(big).map(String), async (query) => {
          const sp = new URLSearchParams(query);
          if (reversed(sp)) return;
          expect(await answer(query)).toBe(expected(query));
        }),
        { numRuns: Math.min(RUNS, 200) },
      );
      expect(await answer('topic=cbdc')).toBe(expected('topic=cbdc'));
      expect(await answer('topic=cbdc')).toBe(expected('topic=cbdc'));
      expect(await answer('')).toBe(expected(''));
      // Each page is read once: all of the file, and no more.
      expect(read).toBe(size);
    });
  });

  it('answers 500 when a page of the image cannot be read, and reads it again on the next request', async () => {
    await withServedImage(big, async (served) => {
      const [json, jsonBytes] = served.sections.json!;
      // The disk fails once, on the first read of record bytes.
      let failed = false;
      const flaky = readingThrough(served, (_, position) => {
        if (position >= json && position < json + jsonBytes && !failed) {
          failed = true;
          throw new Error('EIO: i/o error, read');
        }
      });
      const logged: unknown[] = [];
      const h = createHandler(flaky, { cacheBytes: 0, log: (e) => logged.push(e) });
      const first = h(new Request('https://api.test/api/chronicle?topic=cbdc'));
      expect(first.status).toBe(500);
      expect(String(logged[0])).toContain('EIO');
      const again = h(new Request('https://api.test/api/chronicle?topic=cbdc'));
      expect(again.status).toBe(200);
      expect(await again.text()).toBe(JSON.stringify(oracle(big, new URLSearchParams('topic=cbdc'))));
    });
  });

  it('gets the date cut right at every precision, alone and in lists', async () => {
    // Every year, every third month, every twentieth day that occurs.
    const dates = [...new Set(big.events.map((e) => e.date))].sort();
    const months = [...new Set(dates.map((d) => d.slice(0, 7)).filter((d) => d.length === 7))];
    const days = dates.filter((d) => d.length === 10);
    const bounds = [
      ...new Set(dates.map((d) => d.slice(0, 4))),
      ...months.filter((_, i) => i % 3 === 0),
      ...days.filter((_, i) => i % 20 === 0),
    ];
    for (const b of bounds) {
      for (const query of [`from=${b}`, `to=${b}`, `from=${b},2019-06&to=${b},2021`]) {
        const sp = new URLSearchParams(query);
        const res = handler(new Request(`https://api.test/api/chronicle?include=events,relations&${query}`));
        if (reversed(sp)) continue;
        sp.set('include', 'events,relations');
        expect(await res.text(), query).toBe(JSON.stringify(oracle(big, sp)));
      }
    }
  });
});

/** The image of `d` as the build writes it (served.js beside served.bin), imported as an instance imports it. */
async function withServedImage(d: BuiltDataset, use: (served: Served, size: number) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'served-'));
  try {
    const files = servedFiles(d);
    await writeFile(join(dir, 'served.js'), files['served.js']);
    await writeFile(join(dir, 'served.bin'), files['served.bin']);
    const { default: served } = (await import(pathToFileURL(join(dir, 'served.js')).href)) as { default: Served };
    await use(served, files['served.bin'].byteLength);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The same image, with `before` called ahead of every read of its file (to count reads, or to fail one). */
function readingThrough(served: Served, before: (length: number, position: number) => void): Served {
  return {
    ...served,
    open: () => {
      const file = served.open();
      return {
        size: file.size,
        read: (into, offset, length, position) => (before(length, position), file.read(into, offset, length, position)),
      };
    },
  };
}
