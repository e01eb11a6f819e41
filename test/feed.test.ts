import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { BuiltDataset, Event, Profile } from '../functions/chronicle/dataset.js';
import { FEED_LIMIT, FEED_PATHS } from '../functions/chronicle/feed.js';
import { createHandler, type Handler } from '../functions/chronicle/handler.js';
import { explorerEventUrl, explorerInitiativeUrl, explorerOrgUrl } from '../functions/chronicle/links.js';
import { parseQuery, type Query } from '../functions/chronicle/query.js';
import { initiativeTopics, queryRules } from '../functions/chronicle/rules.js';
import { select } from '../functions/chronicle/select.js';
import { initiativeHref, orgHref, parseRoute } from '../site/route.js';
import { call, fixtureBuild, fixtureHandlers, ids } from './helpers.js';

let api: Record<Profile, Handler>;
let d: Record<Profile, BuiltDataset>;
beforeAll(async () => {
  api = await fixtureHandlers();
  d = await fixtureBuild();
});

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => ['entry', 'link', 'category'].includes(name),
});
type Link = { '@rel': string; '@href': string; '@type'?: string };
type Entry = { id: string; title: { '#text': string }; updated: string; published: string; link: Link[]; summary: { '#text': string } };
type Atom = { feed: { id: string; title: { '#text': string }; updated: string; link: Link[]; author: { name: string }; entry?: Entry[] } };
type Item = {
  id: string;
  url: string;
  external_url: string;
  title: string;
  content_text: string;
  content_html: string;
  date_published: string;
  _chronicle: Event;
};
type JsonFeed = { version: string; title: string; feed_url: string; home_page_url: string; items: Item[] };

async function atom(h: Handler, query = '', path = '/api/chronicle/feed.xml') {
  const r = await call(h, `${path}${query ? `?${query}` : ''}`);
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  expect(XMLValidator.validate(r.text)).toBe(true);
  return { ...r, feed: (parser.parse(r.text) as Atom).feed };
}
async function json(h: Handler, query = '', path = '/api/chronicle/feed.json') {
  const r = await call(h, `${path}${query ? `?${query}` : ''}`);
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return { ...r, feed: r.json as unknown as JsonFeed };
}
/** What the API returns for the same filters, newest first. */
const apiNewestFirst = async (p: Profile, query: string) =>
  ids((await call(api[p], `/api/chronicle?include=events${query ? `&${query}` : ''}`)).json.events).reverse();

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})$/;

describe('Atom feed', () => {
  it('is well-formed XML in the Atom namespace with the required feed and entry elements', async () => {
    for (const p of ['A', 'B'] as const) {
      const { text, feed } = await atom(api[p]);
      expect(text).toContain('<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="ja">');
      expect(feed.id).toMatch(/^https:\/\//);
      expect(feed.title['#text']).toContain('オンチェーン金融クロニクル');
      expect(feed.updated).toBe(`${d[p].meta.asOf}T00:00:00Z`);
      expect(feed.author.name).toBeTruthy();
      expect(feed.link.find((l) => l['@rel'] === 'self')!['@href']).toBe(new URL('/api/chronicle/feed.xml', d[p].meta.source).href);
      expect(feed.entry!.length).toBe(d[p].events.length);
      for (const e of feed.entry!) {
        expect(e.id).toMatch(/^tag:[^,]+,2026:events\//);
        expect(e.title['#text']).toBeTruthy();
        expect(e.updated).toMatch(RFC3339);
        expect(e.published).toMatch(RFC3339);
      }
    }
  });

  it('lists events newest first, each linking its explorer page and its primary source', async () => {
    const { feed } = await atom(api.A);
    const byId = new Map(d.A.events.map((e) => [e.id, e]));
    const entryIds = feed.entry!.map((e) => e.id.replace(/^.*:events\//, ''));
    expect(entryIds).toEqual(await apiNewestFirst('A', ''));
    for (const entry of feed.entry!) {
      const e = byId.get(entry.id.replace(/^.*:events\//, ''))!;
      const link = (rel: string) => entry.link.filter((l) => l['@rel'] === rel).map((l) => l['@href']);
      expect(link('alternate')).toEqual([explorerEventUrl(d.A.meta.source, e)]);
      expect(link('via')).toEqual([e.source]);
      // Profile A: every other source as a related link.
      expect(link('related')).toEqual(e.sources!.map((s) => s.url).filter((u) => u !== e.source));
      expect(entry.summary['#text']).toBe(e.description);
    }
  });

  it('applies the API filters exactly as the API does, on both paths', async () => {
    for (const [p, query] of [
      ['A', 'topic=stablecoin'],
      ['A', 'topic=cbdc,rwa&from=2022'],
      ['A', 'player=Alpha+Bank&key=true'],
      ['A', 'region=JP&status=launched,pilot'],
      ['B', 'topic=defi'],
      ['B', 'to=2023&region=US,Global'],
    ] as const) {
      const want = await apiNewestFirst(p, query);
      for (const path of Object.keys(FEED_PATHS).filter((x) => x.endsWith('.xml'))) {
        const { feed } = await atom(api[p], query, path);
        expect(
          (feed.entry ?? []).map((e) => e.id.replace(/^.*:events\//, '')),
          `${p} ${path}?${query}`,
        ).toEqual(want);
      }
    }
  });

  it('escapes markup in titles and descriptions', async () => {
    const base = d.A;
    const tricky = { ...base.events[0]!, title: 'A & B <script>"x"</script>', description: "it's <b>bold</b> & 'quoted'" };
    const h = createHandler({ ...base, version: 'escape-test', events: [tricky, ...base.events.slice(1)] });
    const { feed } = await atom(h, 'player=Alpha+Bank');
    const entry = feed.entry!.find((e) => e.id.endsWith(`/${tricky.id}`))!;
    expect(entry.title['#text']).toBe(tricky.title);
    expect(entry.summary['#text']).toBe(tricky.description);
  });
});

describe('JSON Feed 1.1', () => {
  it('has the required fields, items newest first with the explorer URL and the primary source', async () => {
    for (const p of ['A', 'B'] as const) {
      const { feed, headers } = await json(api[p], 'key=true');
      expect(headers.get('Content-Type')).toBe('application/feed+json; charset=utf-8');
      expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
      expect(feed.title).toContain('key=true');
      expect(feed.feed_url).toBe(new URL('/api/chronicle/feed.json?key=true', d[p].meta.source).href);
      expect(feed.home_page_url).toBe(new URL('/?key=true', d[p].meta.source).href);
      expect(feed.items.map((i) => i._chronicle.id)).toEqual(await apiNewestFirst(p, 'key=true'));
      expect(new Set(feed.items.map((i) => i.id)).size).toBe(feed.items.length);
      for (const item of feed.items) {
        expect(typeof item.id).toBe('string');
        expect(item.content_text || item.content_html).toBeTruthy();
        expect(item.url).toBe(explorerEventUrl(d[p].meta.source, item._chronicle));
        expect(item.external_url).toBe(item._chronicle.source);
        expect(item.date_published).toMatch(RFC3339);
        expect(item.content_html).toContain(`href="${item._chronicle.source}"`);
      }
    }
  });

  it('agrees with the Atom feed and the API for the same filters', async () => {
    const query = 'topic=deposit,stablecoin&to=2024-06';
    const a = await atom(api.A, query, '/feed.xml');
    const j = await json(api.A, query, '/feed.json');
    expect(j.feed.items.map((i) => i.id)).toEqual(a.feed.entry!.map((e) => e.id));
    expect(j.feed.items.map((i) => i._chronicle)).toEqual(
      ((await call(api.A, `/api/chronicle?include=events&${query}`)).json.events as Event[]).reverse(),
    );
  });
});

describe('links to the explorer', () => {
  it("follow the explorer's own address rules (site/route.ts)", () => {
    const source = d.A.meta.source;
    for (const p of d.A.players) expect(explorerOrgUrl(source, p.id)).toBe(new URL(orgHref(p.id), source).href);
    for (const i of d.A.initiatives!) expect(explorerInitiativeUrl(source, i.id)).toBe(new URL(initiativeHref(i.id), source).href);
  });

  it("open an event's date on the timeline, where the API's own filter keeps the event, at its element", () => {
    const rules = queryRules(d.A);
    const selectable = { dataset: d.A, initiativeTopics: initiativeTopics(d.A) };
    for (const e of d.A.events) {
      const url = new URL(explorerEventUrl(d.A.meta.source, e));
      expect(url.hash).toBe(`#event-${e.id}`);
      const route = parseRoute(url.search);
      expect(route.view).toBe('timeline');
      const parsed = parseQuery(route.filter, rules);
      expect(parsed.ok).toBe(true);
      const kept = select(selectable, { ...(parsed as { query: Query }).query, include: new Set(['events']) }).get('events')!;
      expect(kept === 'all' || kept.some((i) => d.A.events[i]!.id === e.id), e.id).toBe(true);
    }
  });
});

describe('feeds as HTTP resources', () => {
  it("answer bad parameters with the API's own 400 JSON, and refuse include", async () => {
    for (const path of Object.keys(FEED_PATHS)) {
      for (const query of ['topik=cbdc', 'topic=zzz', 'from=2024-02-30', `player=${encodeURIComponent('アルファ銀行')}`]) {
        const feed = await call(api.A, `${path}?${query}`);
        const apiAnswer = await call(api.A, `/api/chronicle?${query}`);
        expect(feed.status, `${path}?${query}`).toBe(400);
        expect(feed.json).toEqual(apiAnswer.json);
        expect(feed.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
        expect(feed.headers.get('Cache-Control')).toBe('no-store');
        expect(feed.headers.get('Access-Control-Allow-Origin')).toBe('*');
      }
      const include = await call(api.A, `${path}?include=events`);
      expect(include.status).toBe(400);
      expect(include.json.message).toContain('include は使えません');
    }
  });

  it("carry the API's CORS and cache headers, an ETag, 304, HEAD, preflight and 405", async () => {
    const r = await call(api.A, '/feed.xml?topic=cbdc');
    expect(r.headers.get('Content-Type')).toBe('application/atom+xml; charset=utf-8');
    expect(r.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(r.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(r.headers.get('Cache-Control')).toBe('public, max-age=3600');
    expect(r.headers.get('Netlify-CDN-Cache-Control')).toBe('public, max-age=3600, must-revalidate');
    expect(r.headers.get('Content-Length')).toBe(String(Buffer.byteLength(r.text)));
    const etag = r.headers.get('ETag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    // The same feed under its other path and with the filter written differently shares the ETag;
    // the JSON Feed and the API answer have their own.
    expect((await call(api.A, '/api/chronicle/feed.xml?topic=+cbdc')).headers.get('ETag')).toBe(etag);
    expect((await call(api.A, '/feed.json?topic=cbdc')).headers.get('ETag')).not.toBe(etag);
    expect((await call(api.A, '/api/chronicle?topic=cbdc')).headers.get('ETag')).not.toBe(etag);
    const cached = await call(api.A, '/feed.xml?topic=cbdc', { headers: { 'If-None-Match': etag } });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');
    const head = await call(api.A, '/feed.json', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect((await call(api.A, '/feed.xml', { method: 'OPTIONS' })).status).toBe(204);
    const post = await call(api.A, '/feed.xml', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('Allow')).toBe('GET, HEAD, OPTIONS');
    expect((await call(api.A, '/api/chronicle/feed.rss')).status).toBe(404);
  });

  it(`hold the newest ${FEED_LIMIT} events of the shipped dataset`, async () => {
    const shipped = JSON.parse(readFileSync(join(inject('workspace'), '.build', 'A.json'), 'utf8')) as BuiltDataset;
    expect(shipped.events.length).toBeGreaterThan(FEED_LIMIT);
    const { feed } = await json(createHandler(shipped));
    expect(feed.items.map((i) => i._chronicle.id)).toEqual(
      shipped.events
        .map((e) => e.id)
        .reverse()
        .slice(0, FEED_LIMIT),
    );
    const { feed: xml } = await atom(createHandler(shipped), 'topic=stablecoin&region=JP', '/feed.xml');
    const want = ids(
      (await call(createHandler(shipped), '/api/chronicle?include=events&topic=stablecoin&region=JP')).json.events,
    ).reverse();
    expect(xml.entry!.map((e) => e.id.replace(/^.*:events\//, ''))).toEqual(want.slice(0, FEED_LIMIT));
    expect(xml.entry!.length).toBeGreaterThan(0);
  });
});
