import type { BuiltDataset, Profile } from '../functions/chronicle/dataset.js';
import { CANONICAL_FEED_PATH, FEED_LIMIT } from '../functions/chronicle/feed.js';
import { API_PATH } from '../functions/chronicle/handler.js';
import { explorerPages } from '../functions/chronicle/links.js';
import { PARAMS } from '../functions/chronicle/query.js';
import { ARRAY_SEPARATOR, DOWNLOADS_DIR } from './downloads.js';
import { DATA_LICENSE } from './license.js';
import { KINDS, PROFILE_NAMES, PROFILES } from './profiles.js';

// How people and programs find what the site offers: robots.txt, sitemap.xml and llms.txt, for the
// deployment's profile, on the host its `meta.source` names.

const other = (p: Profile): Profile => PROFILES.find((q) => q !== p)!;

/** Every static file under public/ the sitemap lists, besides the landing page. */
function listedFiles(d: BuiltDataset): string[] {
  const files = ['/openapi.json', '/changes.json', '/llms.txt'];
  for (const p of [d.profile, other(d.profile)]) {
    files.push(`/${DOWNLOADS_DIR}/${p}/index.json`, `/${DOWNLOADS_DIR}/${p}/README.txt`, `/${DOWNLOADS_DIR}/${p}/dataset.json`);
    for (const k of KINDS[p]) files.push(`/${DOWNLOADS_DIR}/${p}/${k}.csv`);
  }
  return files;
}

export function robotsTxt(d: BuiltDataset): string {
  return `# The API and its feeds answer programs, not crawlers: every query is a function call.
User-agent: *
Allow: /
Disallow: /api/

Sitemap: ${new URL('/sitemap.xml', d.meta.source).href}
`;
}

export function sitemapXml(d: BuiltDataset): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const url = (loc: string) => `<url><loc>${esc(loc)}</loc><lastmod>${d.meta.asOf}</lastmod></url>`;
  const abs = (path: string) => new URL(path, d.meta.source).href;
  const pages = [
    abs('/'),
    // The explorer's own pages (organizations, initiatives): functions/chronicle/links.ts.
    ...explorerPages(d.meta.source, { players: d.players.map((p) => p.id), initiatives: (d.initiatives ?? []).map((i) => i.id) }),
    ...listedFiles(d).map(abs),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${pages.map(url).join('\n')}
</urlset>
`;
}

/** llms.txt (https://llmstxt.org/): what the dataset is and where everything is, for language models. */
export function llmsTxt(d: BuiltDataset): string {
  const abs = (path: string) => new URL(path, d.meta.source).href;
  const dl = (p: Profile, name: string) => abs(`/${DOWNLOADS_DIR}/${p}/${name}`);
  const codes = (group: string, values: readonly string[]) => values.map((c) => `\`${c}\` (${d.labels[group]?.[c] ?? c})`).join(', ');
  const counts = d.kinds.map((k) => `${k} ${d[k]?.length ?? 0}`).join(', ');
  const o = other(d.profile);
  return `# Onchain Finance Trends — オンチェーン金融クロニクル（${PROFILE_NAMES[d.profile]}）

> A curated, sourced chronicle of on-chain finance — deposit tokens, stablecoins, CBDCs, tokenized real-world assets, crypto and DeFi — written in Japanese, served by a read-only JSON API with no authentication. Every event and relation cites the page that reports it.

- Data as of ${d.meta.asOf} (updated about weekly): ${counts}.
- Text (titles, descriptions, labels, names) is Japanese; \`sub\`, \`chain\` and player ids are English.
- Licence: ${DATA_LICENSE.spdx} (${DATA_LICENSE.url}). Whoever publishes or quotes the data must show the credit line "${d.meta.attribution}" and link ${d.meta.source}.
- Records are joined by id: \`events[].players\` and \`relations[].a\`/\`.b\` → \`players[].id\`${d.kinds.includes('initiatives') ? '; `events[].initiativeId` → `initiatives[].id`' : ''}.
- Errors are JSON \`{"message": "…"}\` in Japanese with status 400; a message names the parameter, the bad value and the value to use (e.g. a Japanese name → the player id).

## API

- [GET ${API_PATH}](${abs(API_PATH)}): the whole dataset; narrow it with ${PARAMS.map((p) => `\`${p}\``).join(', ')}. Several values of one parameter are comma-separated and match any; different parameters combine with AND. Example: ${abs(`${API_PATH}?include=events&topic=${d.filters.topic[0]}&region=JP&from=2024`)}
- topic: ${codes('topic', d.filters.topic)}
- region: ${codes('region', d.filters.region)}
- status: ${codes('status', d.filters.status)}
- [OpenAPI 3.1](${abs('/openapi.json')}): every parameter with its allowed values and an example, the response and error schemas.
- [Response JSON Schema](${abs(`/schemas/response-${d.profile}.schema.json`)})

## Downloads

- [dataset.json](${dl(d.profile, 'dataset.json')}): everything, exactly the unfiltered API answer.
${d.kinds.map((k) => `- [${k}.csv](${dl(d.profile, `${k}.csv`)}) and [${k}.ndjson](${dl(d.profile, `${k}.ndjson`)}): one ${k.replace(/s$/, '')} per row or line`).join('\n')}
- [index.json](${dl(d.profile, 'index.json')}): the files with record counts, sizes and SHA-256. CSV is UTF-8 with BOM; list fields are joined with "${ARRAY_SEPARATOR}"; Japanese names stand beside ids and codes.

## Feeds

- [Atom](${abs(CANONICAL_FEED_PATH.atom)}) and [JSON Feed 1.1](${abs(CANONICAL_FEED_PATH.json)}): the newest ${FEED_LIMIT} events, filtered by the API's parameters (e.g. ${abs(`${CANONICAL_FEED_PATH.atom}?topic=stablecoin&region=JP`)}).

## Optional

- [Change log](${abs('/changes.json')}): records added, changed and removed since the last publish.
- [Profile ${o} downloads](${dl(o, 'index.json')}) and [OpenAPI](${abs(`/openapi-${o}.json`)}): the ${PROFILE_NAMES[o]} profile of the same content.
- [Landing page](${d.meta.source}): the page to cite.
`;
}

/** The discovery files, by path under public/. */
export function discoveryFiles(d: BuiltDataset): Record<string, string> {
  return { 'robots.txt': robotsTxt(d), 'sitemap.xml': sitemapXml(d), 'llms.txt': llmsTxt(d) };
}
