import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { BuiltDataset } from '../functions/chronicle/dataset.js';
import { createHandler, type Handler } from '../functions/chronicle/handler.js';
import { sitemapXml } from '../pipeline/discovery.js';
import { DATA_LICENSE } from '../pipeline/license.js';
import { call, fixtureBuild } from './helpers.js';

// The hook the explorer fills in with its own pages; here it returns one page per player.
vi.mock('../functions/chronicle/links.js', async (original) => ({
  ...(await original<typeof import('../functions/chronicle/links.js')>()),
  explorerPages: (source: string, ids: { players: readonly string[] }) =>
    ids.players.map((id) => new URL(`/players/${encodeURIComponent(id)}`, source).href),
}));

// robots.txt, sitemap.xml and llms.txt as `npm run build` wrote them for the shipped dataset
// (Profile A served): every URL they name is on the site and answers.

let publicDir: string;
let d: BuiltDataset;
let handler: Handler;
const read = (name: string) => readFileSync(join(publicDir, name), 'utf8');

beforeAll(() => {
  const workspace = inject('workspace');
  publicDir = join(workspace, 'public');
  d = JSON.parse(readFileSync(join(workspace, '.build', 'A.json'), 'utf8')) as BuiltDataset;
  handler = createHandler(d);
});

/** Whether a URL of the site is there: a file of public/, or a path the function answers with 200. */
async function resolves(href: string): Promise<boolean> {
  const url = new URL(href);
  if (url.origin !== new URL(d.meta.source).origin) return false;
  if (!url.pathname.startsWith('/api/')) {
    const file = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
    return existsSync(join(publicDir, decodeURIComponent(file)));
  }
  return (await call(handler, `${url.pathname}${url.search}`)).status === 200;
}

describe('robots.txt', () => {
  it('lets crawlers read the site but not the API, and names the sitemap by its absolute URL', () => {
    const robots = read('robots.txt');
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).toMatch(/^Disallow: \/api\/$/m);
    expect(robots).toContain(`Sitemap: ${new URL('/sitemap.xml', d.meta.source).href}\n`);
  });
});

describe('sitemap.xml', () => {
  it('is valid sitemap XML listing the landing page and the downloads, each present, dated asOf', async () => {
    const text = read('sitemap.xml');
    expect(XMLValidator.validate(text)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, isArray: (n) => n === 'url' }).parse(text) as {
      urlset: { '@_xmlns': string; url: { loc: string; lastmod: string }[] };
    };
    expect(parsed.urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const locs = parsed.urlset.url.map((u) => u.loc);
    expect(locs[0]).toBe(d.meta.source);
    expect(locs).toContain(new URL('/downloads/A/events.csv', d.meta.source).href);
    // The explorer's pages as the build listed them: every organization's and every initiative's.
    expect(locs).toContain(new URL(`/?org=${encodeURIComponent(d.players[0]!.id)}`, d.meta.source).href);
    expect(locs).toContain(new URL(`/?initiative=${d.initiatives![0]!.id}`, d.meta.source).href);
    expect(locs.length).toBeGreaterThan(d.players.length + d.initiatives!.length);
    expect(locs).toContain(new URL('/downloads/B/index.json', d.meta.source).href);
    expect(new Set(locs).size).toBe(locs.length);
    for (const u of parsed.urlset.url) {
      expect(u.lastmod).toBe(d.meta.asOf);
      expect(await resolves(u.loc), u.loc).toBe(true);
    }
  });
});

describe('sitemap hook for the explorer', () => {
  it('lists whatever pages functions/chronicle/links.ts explorerPages returns, after the landing page', async () => {
    const fixture = (await fixtureBuild()).A;
    const text = sitemapXml(fixture);
    expect(XMLValidator.validate(text)).toBe(true);
    const locs = [...text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs.slice(0, 1 + fixture.players.length)).toEqual([
      fixture.meta.source,
      ...fixture.players.map((p) => new URL(`/players/${encodeURIComponent(p.id)}`, fixture.meta.source).href),
    ]);
  });
});

describe('llms.txt', () => {
  it('follows the llms.txt shape: title, summary, sections of links', () => {
    const text = read('llms.txt');
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^# Onchain Finance Trends/);
    expect(lines.find((l) => l.trim() !== '' && !l.startsWith('# '))).toMatch(/^> /);
    expect(lines.filter((l) => l.startsWith('## '))).toEqual(['## API', '## Downloads', '## Feeds', '## Optional']);
    expect(text).toContain(d.meta.attribution);
    expect(text).toContain(DATA_LICENSE.spdx);
    for (const code of d.filters.topic) expect(text).toContain(`\`${code}\``);
  });

  it('links only to things that are there: files of the build and API calls that answer 200', async () => {
    const text = read('llms.txt');
    const links = [...text.matchAll(/\]\((https:[^)\s]+)\)/g)].map((m) => m[1]!);
    const examples = [...text.matchAll(/Example: (https:\S+)|e\.g\. (https:[^)\s]+)/g)].map((m) => m[1] ?? m[2]!);
    expect(links.length).toBeGreaterThan(15);
    expect(examples.length).toBe(2);
    for (const href of [...links, ...examples]) expect(await resolves(href), href).toBe(true);
  });
});
