import type { BuiltDataset } from '../functions/chronicle/dataset.js';
import { PROFILE_NAMES } from './profiles.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page `meta.source` points at: what the dataset is, how to call it, how to credit it. */
export function renderIndexPage(d: BuiltDataset): string {
  // Absolute, so that the example runs as pasted into a terminal (curl has no base URL).
  const example = exampleUrl(d);
  const counts = d.kinds.map((k) => `<li>${k}: ${d[k]?.length ?? 0} 件</li>`).join('');
  const codes = (group: string, values: readonly string[]) =>
    values.map((c) => `<code>${esc(c)}</code>（${esc(d.labels[group]?.[c] ?? c)}）`).join('、');
  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Onchain Finance Trends — オンチェーン金融クロニクル</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.7}code,pre{background:#f4f4f4;padding:0 .25em}pre{padding:.75em;overflow:auto}</style>
</head>
<body>
<h1>オンチェーン金融クロニクル</h1>
<p>預金トークン、ステーブルコイン、CBDC、トークン化資産、暗号資産、DeFi の動きを、出典つきで記録したデータセットです。読み取り専用の JSON API で公開しています。${esc(PROFILE_NAMES[d.profile])}</p>
<p>最終更新日: ${esc(d.meta.asOf)}</p>
<ul>${counts}</ul>
<h2>使い方</h2>
<pre>curl '${esc(example)}'</pre>
<p>パラメータ: <code>include</code>（${d.kinds.map((k) => `<code>${k}</code>`).join('、')}）、<code>topic</code>、<code>region</code>、<code>status</code>、<code>player</code>、<code>from</code>、<code>to</code>、<code>key</code>。カンマ区切りで複数の値を指定でき、どれかに合えば残ります。異なるパラメータはすべて満たす記録だけが残ります。</p>
<p>topic: ${codes('topic', d.filters.topic)}</p>
<p>region: ${codes('region', d.filters.region)}</p>
<p>status: ${codes('status', d.filters.status)}</p>
<p>応答の JSON Schema: <a href="/schemas/response-${d.profile}.schema.json">response-${d.profile}.schema.json</a></p>
<h2>引用するとき</h2>
<p>データを公開・引用するときは、次のクレジットとこのページの URL を示してください。</p>
<blockquote>${esc(d.meta.attribution)}<br><a href="${esc(d.meta.source)}">${esc(d.meta.source)}</a></blockquote>
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
