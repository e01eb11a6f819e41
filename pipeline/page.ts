import type { BuiltDataset } from '../functions/chronicle/dataset.js';
import { CONFIG_ELEMENT_ID, type ExplorerConfig } from '../site/config.js';
import type { ChangeLog } from './changes.js';
import { DATA_LICENSE } from './license.js';
import { PROFILE_NAMES } from './profiles.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Where the page's bundled script and stylesheet are, each with a content hash against stale caches. */
export interface PageAssets {
  js: string;
  css: string;
}

/** Only this origin: the page loads no script, style, font or data from any other host. */
const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'";

const FAVICON = '/favicon.svg';

/** The explorer's page: a shell the script fills, with the credit line and the API's usage always there. */
export function renderIndexPage(d: BuiltDataset, assets: PageAssets, changes?: ChangeLog): string {
  const config: ExplorerConfig = {
    profile: d.profile,
    profileName: PROFILE_NAMES[d.profile],
    kinds: d.kinds,
    filters: d.filters,
    otherCodes: d.otherCodes,
  };
  // `<` escaped, so that no value can close the script element.
  const configJson = JSON.stringify(config).replace(/</g, '\\u003c');
  return shell(d, assets, {
    changes,
    title: 'オンチェーン金融クロニクル — Onchain Finance Trends',
    head: `<script type="module" src="${esc(assets.js)}"></script>\n<script type="application/json" id="${CONFIG_ELEMENT_ID}">${configJson}</script>`,
    main: `<h1 tabindex="-1">オンチェーン金融クロニクル</h1>
<p class="lead">預金トークン、ステーブルコイン、CBDC、トークン化資産、暗号資産、DeFi の動きを、出典つきで記録した年表です。</p>
<p class="status" role="status">データを読み込んでいます…</p>
<noscript><p>年表の表示には JavaScript が必要です。データは下の API からいつでも取得できます。</p></noscript>`,
  });
}

/** The page for any path that is neither a file nor the API (Netlify serves it with status 404). */
export function renderNotFoundPage(d: BuiltDataset, assets: PageAssets): string {
  return shell(d, assets, {
    title: 'ページが見つかりません — オンチェーン金融クロニクル',
    head: '',
    main: `<h1 tabindex="-1">ページが見つかりません</h1>
<p>お探しのページはありません。URL をご確認ください。</p>
<p><a href="/">年表のトップへ戻る</a></p>`,
  });
}

function shell(d: BuiltDataset, assets: PageAssets, page: { title: string; head: string; main: string; changes?: ChangeLog }): string {
  const example = exampleUrl(d);
  const counts = d.kinds.map((k) => `<li>${k}: ${d[k]?.length ?? 0} 件</li>`).join('');
  const codes = (group: string, values: readonly string[]) =>
    values.map((c) => `<code>${esc(c)}</code>（${esc(d.labels[group]?.[c] ?? c)}）`).join('、');
  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${esc(page.title)}</title>
<meta name="description" content="オンチェーン金融（預金トークン、ステーブルコイン、CBDC、トークン化資産、暗号資産）の動きを出典つきで記録した年表と JSON API。">
<link rel="icon" href="${FAVICON}" type="image/svg+xml">
<link rel="stylesheet" href="${esc(assets.css)}">
<link rel="alternate" type="application/atom+xml" title="イベント（Atom）" href="/api/chronicle/feed.xml">
<link rel="alternate" type="application/feed+json" title="イベント（JSON Feed）" href="/api/chronicle/feed.json">
${page.head}
</head>
<body>
<a class="skip" href="#main">本文へ移動</a>
<header class="site">
<p class="brand"><a href="/">オンチェーン金融クロニクル</a> <span class="profile">${esc(PROFILE_NAMES[d.profile])}</span></p>
<nav aria-label="サイト内">
<ul>
<li><a href="/">年表</a></li>
<li><a href="/?view=network">関係ネットワーク</a></li>
${d.initiatives ? '<li><a href="/?view=initiatives">イニシアティブ</a></li>\n' : ''}<li><a href="#api">API</a></li>
</ul>
</nav>
<p class="credit">最終更新日 <time datetime="${esc(d.meta.asOf)}">${esc(d.meta.asOf)}</time> ・ ${esc(d.meta.attribution)} ・ <a href="${esc(d.meta.source)}">${esc(d.meta.source)}</a></p>
</header>
<main id="main" tabindex="-1">
${page.main}
</main>
<footer class="site">
<section id="api" aria-labelledby="api-heading">
<h2 id="api-heading">API の使い方</h2>
<p>データセットは読み取り専用の JSON API で公開しています。認証は不要で、どのサイトからも呼び出せます。${esc(PROFILE_NAMES[d.profile])}</p>
<p>最終更新日: ${esc(d.meta.asOf)}。${page.changes?.since ? `${esc(page.changes.summary)}` : ''}変更履歴: <a href="/changes.json">changes.json</a></p>
<ul>${counts}</ul>
<pre>curl '${esc(example)}'</pre>
<p>パラメータ: <code>include</code>（${d.kinds.map((k) => `<code>${k}</code>`).join('、')}）、<code>topic</code>、<code>region</code>、<code>status</code>、<code>player</code>、<code>from</code>、<code>to</code>、<code>key</code>。カンマ区切りで複数の値を指定でき、どれかに合えば残ります。異なるパラメータはすべて満たす記録だけが残ります。この年表の絞り込みは同じパラメータで、URL の <code>?</code> 以降をそのまま API に渡せます。</p>
<p>topic: ${codes('topic', d.filters.topic)}</p>
<p>region: ${codes('region', d.filters.region)}</p>
<p>status: ${codes('status', d.filters.status)}</p>
<p>全件: <a href="/api/chronicle">/api/chronicle</a> ・ API の説明（OpenAPI 3.1）: <a href="/openapi.json">openapi.json</a>（プロファイル別: <a href="/openapi-A.json">A</a>、<a href="/openapi-B.json">B</a>） ・ 応答の JSON Schema: <a href="/schemas/response-${d.profile}.schema.json">response-${d.profile}.schema.json</a></p>
<h2>フィード</h2>
<p>新しいイベントを RSS リーダーで: <a href="/api/chronicle/feed.xml">Atom</a>、<a href="/api/chronicle/feed.json">JSON Feed</a>（新しい順に最大 100 件）。API と同じパラメータで絞り込めます（例: <code>/feed.xml?topic=stablecoin&amp;region=JP</code>）。</p>
<h2>ダウンロード</h2>
<p>すべての記録をファイルで: <a href="/downloads/${d.profile}/dataset.json">dataset.json</a>（API の応答と同じ形）、種類ごとの NDJSON と CSV（Excel でそのまま開ける UTF-8 BOM 付き、リストは「 | 」区切り、ID の横に日本語名）。</p>
<ul>${d.kinds.map((k) => `<li>${k}（${d[k]?.length ?? 0} 件）: <a href="/downloads/${d.profile}/${k}.csv">${k}.csv</a>、<a href="/downloads/${d.profile}/${k}.ndjson">${k}.ndjson</a></li>`).join('')}</ul>
<p>ファイル一覧と説明: <a href="/downloads/${d.profile}/index.json">index.json</a>、<a href="/downloads/${d.profile}/README.txt">README.txt</a>。もう一方のプロファイル: <a href="/downloads/${d.profile === 'A' ? 'B' : 'A'}/index.json">${d.profile === 'A' ? 'B' : 'A'}</a>。</p>
<h2>引用するとき</h2>
<p>データを公開・引用するときは、次のクレジットとこのページの URL を示してください。</p>
<blockquote>${esc(d.meta.attribution)}<br><a href="${esc(d.meta.source)}">${esc(d.meta.source)}</a></blockquote>
<p>機械向けの案内: <a href="/llms.txt">llms.txt</a>、<a href="/sitemap.xml">sitemap.xml</a>。</p>
<h2>ライセンス</h2>
<p>データ（API の応答、ダウンロード、フィード）は <a href="${DATA_LICENSE.url}" rel="license">${esc(DATA_LICENSE.name)}</a> で提供します。クレジットを示せば、複製・再配布・翻案・商用利用ができます。各記録の出典ページそのものの著作権は発行元にあります。プログラムは MIT ライセンスです。</p>
</section>
</footer>
</body>
</html>
`;
}

/** The API call the landing page shows, on the site the page is published at. */
export function exampleUrl(d: BuiltDataset): string {
  const url = new URL('/api/chronicle', d.meta.source);
  url.search = new URLSearchParams({ include: 'events', topic: d.filters.topic[0] ?? '', from: '2024' }).toString();
  return url.href;
}

/** A small mark for the browser tab: a chain link over a rising line, in the page's colours. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d4e89"/><path d="M5 23l7-7 5 4 10-11" fill="none" stroke="#ffd166" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/><circle cx="27" cy="9" r="2.5" fill="#fff"/></svg>
`;
