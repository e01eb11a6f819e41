import type { Event } from './dataset.js';
import { explorerEventUrl, explorerListUrl } from './links.js';
import { positionRuns, selectIndexed } from './indexed.js';
import type { Prepared } from './prepare.js';
import type { Query } from './query.js';

// Atom and JSON Feed 1.1 of events, newest first, over the same filters as the API: the query is
// parsed by query.ts and the events chosen by the API's own selection (indexed.ts), so a feed and
// `include=events` with the same parameters can never disagree. Entries link the event's primary source and its explorer page.

export type FeedFormat = 'atom' | 'json';

/** The feeds' paths: under the API, and short aliases at the root. */
export const FEED_PATHS: Readonly<Record<string, FeedFormat>> = {
  '/api/chronicle/feed.xml': 'atom',
  '/api/chronicle/feed.json': 'json',
  '/feed.xml': 'atom',
  '/feed.json': 'json',
};

export const CANONICAL_FEED_PATH: Record<FeedFormat, string> = { atom: '/api/chronicle/feed.xml', json: '/api/chronicle/feed.json' };

export const FEED_TYPES: Record<FeedFormat, string> = {
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
};

/** Entries in one feed: the newest this many events that pass the filters. */
export const FEED_LIMIT = 100;

/** The answer to `include` on a feed: a feed carries events only. */
export const FEED_INCLUDE_MESSAGE =
  'フィードはイベントだけを配信するので、パラメータ include は使えません。topic、region、status、player、from、to、key で絞り込めます。';

/** A normalized query (`topic=cbdc,rwa&player=Bank of Japan`) as a URL query string; commas stay readable. */
export function queryString(normalized: string): string {
  if (!normalized) return '';
  return normalized
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return `${pair.slice(0, eq)}=${encodeURIComponent(pair.slice(eq + 1)).replaceAll('%2C', ',')}`;
    })
    .join('&');
}

/** The events a feed shows: the filtered events, newest first, at most FEED_LIMIT. */
export function feedEvents(p: Prepared, q: Query): Event[] {
  const n = p.header.counts.events ?? 0;
  const keep = positionRuns(selectIndexed(p, { ...q, include: new Set(['events']) }).get('events')!);
  const runs = keep === 'all' ? [0, n] : keep;
  // Newest first: the runs from the end, each from its last record; only these are parsed.
  const out: Event[] = [];
  for (let k = runs.length - 2; k >= 0 && out.length < FEED_LIMIT; k -= 2)
    for (let i = runs[k + 1]! - 1; i >= runs[k]! && out.length < FEED_LIMIT; i--) out.push(p.record('events', i));
  return out;
}

/** A date of any precision as an RFC 3339 timestamp: its first day, at midnight UTC. */
export function feedTime(date: string): string {
  const [y, m = '01', d = '01'] = date.split('-');
  return `${y}-${m}-${d}T00:00:00Z`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xml = (s: string) => s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

interface FeedContext {
  p: Prepared;
  q: Query;
  events: Event[];
  self: string;
  alternate: string;
  title: string;
  entryId: (e: Event) => string;
  names: (e: Event) => string[];
  label: (group: string, code: string) => string;
}

function context(p: Prepared, q: Query, format: FeedFormat): FeedContext {
  const d = p.header;
  const qs = queryString(q.normalized);
  const self = new URL(`${CANONICAL_FEED_PATH[format]}${qs ? `?${qs}` : ''}`, d.meta.source).href;
  const label = (group: string, code: string) => d.labels[group]?.[code] ?? code;
  const filters = q.normalized ? `（${q.normalized.replaceAll('&', '、')}）` : '';
  const host = new URL(d.meta.source).host;
  return {
    p,
    q,
    events: feedEvents(p, q),
    self,
    alternate: explorerListUrl(d.meta.source, qs),
    title: `オンチェーン金融クロニクル ${d.profile === 'A' ? '拡張版' : '基本版'}: イベント${filters}`,
    // A tag URI: stable whatever the explorer's URLs become, so readers never see an entry twice.
    entryId: (e) => `tag:${host},2026:events/${e.id}`,
    names: (e) => e.players.map((id) => p.playerName(id) ?? id),
    label,
  };
}

function entryHtml(c: FeedContext, e: Event): string {
  const d = c.p.header;
  const sources = e.sources ?? [{ name: '出典', url: e.source }];
  return [
    `<p>${xml(e.description)}</p>`,
    `<p>${xml(e.date)} ・ ${xml(c.label('topic', e.topic))} ・ ${xml(c.label('region', e.region))} ・ ${xml(c.label('status', e.status))}${e.key ? ' ・ 重要な節目' : ''}</p>`,
    `<p>関わった企業・機関: ${xml(c.names(e).join('、'))}</p>`,
    `<p>一次情報: <a href="${xml(e.source)}">${xml(e.source)}</a></p>`,
    sources.length > 1 ? `<p>出典: ${sources.map((s) => `<a href="${xml(s.url)}">${xml(s.name)}</a>`).join('、')}</p>` : '',
    `<p><a href="${xml(explorerEventUrl(d.meta.source, e))}">クロニクルで見る</a> ・ ${xml(d.meta.attribution)}</p>`,
  ].join('');
}

export function renderFeed(p: Prepared, q: Query, format: FeedFormat): string {
  const c = context(p, q, format);
  return format === 'atom' ? atom(c) : jsonFeed(c);
}

function atom(c: FeedContext): string {
  const d = c.p.header;
  const entries = c.events.map((e) => {
    const categories = (['topic', 'region', 'status'] as const)
      .map((g) => `<category term="${xml(e[g])}" label="${xml(c.label(g, e[g]))}" scheme="${xml(new URL(`/#${g}`, d.meta.source).href)}"/>`)
      .join('');
    const related = (e.sources ?? [])
      .filter((s) => s.url !== e.source)
      .map((s) => `<link rel="related" type="text/html" href="${xml(s.url)}" title="${xml(s.name)}"/>`)
      .join('');
    return `<entry>
<id>${xml(c.entryId(e))}</id>
<title type="text">${xml(e.title)}</title>
<published>${feedTime(e.date)}</published>
<updated>${feedTime(e.date)}</updated>
<link rel="alternate" type="text/html" href="${xml(explorerEventUrl(d.meta.source, e))}"/>
<link rel="via" type="text/html" href="${xml(e.source)}" title="一次情報"/>${related}
${categories}
<summary type="text">${xml(e.description)}</summary>
<content type="html">${xml(entryHtml(c, e))}</content>
</entry>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="ja">
<id>${xml(c.self)}</id>
<title type="text">${xml(c.title)}</title>
<subtitle type="text">預金トークン、ステーブルコイン、CBDC、トークン化資産、暗号資産、DeFi の出来事を出典つきで。新しい順に最大 ${FEED_LIMIT} 件。</subtitle>
<updated>${feedTime(d.meta.asOf)}</updated>
<link rel="self" type="application/atom+xml" href="${xml(c.self)}"/>
<link rel="alternate" type="text/html" href="${xml(c.alternate)}"/>
<author><name>Onchain Finance Trends</name><uri>${xml(d.meta.source)}</uri></author>
<rights type="text">${xml(`${d.meta.attribution} ${d.meta.source}（CC BY 4.0）`)}</rights>
<generator uri="${xml(d.meta.source)}">Onchain Finance Trends</generator>
${entries.join('\n')}
</feed>
`;
}

function jsonFeed(c: FeedContext): string {
  const d = c.p.header;
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: c.title,
    home_page_url: c.alternate,
    feed_url: c.self,
    description: `預金トークン、ステーブルコイン、CBDC、トークン化資産、暗号資産、DeFi の出来事を出典つきで。新しい順に最大 ${FEED_LIMIT} 件。`,
    language: 'ja',
    authors: [{ name: 'Onchain Finance Trends', url: d.meta.source }],
    _chronicle: { asOf: d.meta.asOf, source: d.meta.source, attribution: d.meta.attribution, license: 'CC-BY-4.0', query: c.q.normalized },
    items: c.events.map((e) => ({
      id: c.entryId(e),
      url: explorerEventUrl(d.meta.source, e),
      external_url: e.source,
      title: e.title,
      content_html: entryHtml(c, e),
      content_text: e.description,
      summary: e.description,
      date_published: feedTime(e.date),
      tags: [c.label('topic', e.topic), c.label('region', e.region), c.label('status', e.status), ...c.names(e)],
      // The event as the API returns it, for programs that follow the feed.
      _chronicle: e,
    })),
  });
}
