import { createHash } from 'node:crypto';
import type { BuiltDataset, Event, Initiative, Kind, Player, Relation } from '../functions/chronicle/dataset.js';
import { completeAnswer } from '../functions/chronicle/body.js';
import { prepare } from '../functions/chronicle/prepare.js';
import { DATA_LICENSE } from './license.js';
import { PROFILE_NAMES } from './profiles.js';

// The bulk downloads of one profile, under public/downloads/<profile>/: the whole dataset as the
// API's unfiltered answer, one NDJSON file and one CSV file per kind, a manifest and a README.
// Every file is made from the same built dataset the function serves, so counts cannot differ.

/** How list fields (players, members, aliases, eventIds, sources) are joined in a CSV cell. */
export const ARRAY_SEPARATOR = ' | ';

export const DOWNLOADS_DIR = 'downloads';

interface Column<T> {
  name: string;
  /** What the column holds (Japanese, for the README). */
  ja: string;
  value: (r: T) => string;
}

type Columns = { [K in Kind]: Column<RecordOf<K>>[] };
type RecordOf<K extends Kind> = K extends 'events' ? Event : K extends 'relations' ? Relation : K extends 'players' ? Player : Initiative;

const join = (items: readonly string[]) => items.join(ARRAY_SEPARATOR);

/** The CSV columns of each kind in a profile: every API field, and a Japanese name beside each id or code. */
export function csvColumns(d: BuiltDataset): Columns {
  const a = d.kinds.includes('initiatives');
  const name = new Map(d.players.map((p) => [p.id, p.nameJa]));
  const initiative = new Map((d.initiatives ?? []).map((i) => [i.id, i.nameJa]));
  const label = (group: string, code: string | null | undefined) => (code ? (d.labels[group]?.[code] ?? '') : '');
  const coded = <T>(field: string, group: string, get: (r: T) => string | null | undefined, ja: string): Column<T>[] => [
    { name: field, ja: `${ja}のコード`, value: (r) => get(r) ?? '' },
    { name: `${field}Ja`, ja: `${ja}の日本語名（labels.${group}）`, value: (r) => label(group, get(r)) },
  ];
  const events: Column<Event>[] = [
    { name: 'id', ja: 'イベントID', value: (e) => e.id },
    { name: 'date', ja: '日付（YYYY、YYYY-MM、YYYY-MM-DD）', value: (e) => e.date },
    ...coded<Event>('topic', 'topic', (e) => e.topic, '分野'),
    ...coded<Event>('sub', 'sub', (e) => e.sub, '小分類'),
    { name: 'players', ja: `関わった企業・機関の ID（先頭が主体、「${ARRAY_SEPARATOR}」区切り）`, value: (e) => join(e.players) },
    { name: 'playerNamesJa', ja: 'players と同じ順の日本語名', value: (e) => join(e.players.map((id) => name.get(id) ?? '')) },
    { name: 'title', ja: '見出し', value: (e) => e.title },
    { name: 'description', ja: '説明', value: (e) => e.description },
    { name: 'chain', ja: 'ブロックチェーン（英語、なければ空）', value: (e) => e.chain },
    ...coded<Event>('status', 'status', (e) => e.status, '状況'),
    ...coded<Event>('region', 'region', (e) => e.region, '地域'),
    { name: 'source', ja: '登録時の出典 URL', value: (e) => e.source },
    { name: 'key', ja: '重要な節目なら true', value: (e) => String(e.key) },
    ...(a
      ? [
          {
            name: 'sourceNames',
            ja: `出典の媒体名（「${ARRAY_SEPARATOR}」区切り）`,
            value: (e: Event) => join((e.sources ?? []).map((s) => s.name)),
          },
          { name: 'sourceUrls', ja: 'sourceNames と同じ順の出典 URL', value: (e: Event) => join((e.sources ?? []).map((s) => s.url)) },
          { name: 'initiativeId', ja: '属するイニシアティブの ID（なければ空）', value: (e: Event) => e.initiativeId ?? '' },
          {
            name: 'initiativeNameJa',
            ja: 'イニシアティブの名前',
            value: (e: Event) => (e.initiativeId ? (initiative.get(e.initiativeId) ?? '') : ''),
          },
        ]
      : []),
  ];
  const relations: Column<Relation>[] = [
    { name: 'a', ja: '一方の企業・機関の ID', value: (r) => r.a },
    { name: 'aNameJa', ja: 'a の日本語名', value: (r) => name.get(r.a) ?? '' },
    { name: 'b', ja: '相手方の企業・機関の ID', value: (r) => r.b },
    { name: 'bNameJa', ja: 'b の日本語名', value: (r) => name.get(r.b) ?? '' },
    ...coded<Relation>('type', 'relation', (r) => r.type, '関係の種類'),
    { name: 'label', ja: '関係の説明', value: (r) => r.label },
    { name: 'year', ja: '関係が生じた年', value: (r) => r.year },
    ...coded<Relation>('topic', 'topic', (r) => r.topic, '分野'),
    { name: 'source', ja: '出典 URL', value: (r) => r.source },
  ];
  const players: Column<Player>[] = [
    { name: 'id', ja: '企業・機関の ID（英語名）', value: (p) => p.id },
    { name: 'nameJa', ja: '日本語名', value: (p) => p.nameJa },
    ...coded<Player>('category', 'category', (p) => p.category, '種別'),
    ...(a ? coded<Player>('sector', 'sector', (p) => p.sector, '業態') : []),
    ...coded<Player>('region', 'region', (p) => p.region, '地域'),
    { name: 'members', ja: `まとめたグループ会社・旧名（「${ARRAY_SEPARATOR}」区切り）`, value: (p) => join(p.members) },
    ...(a ? [{ name: 'description', ja: '概要', value: (p: Player) => p.description ?? '' }] : []),
  ];
  const initiatives: Column<Initiative>[] = [
    { name: 'id', ja: 'イニシアティブの ID', value: (i) => i.id },
    { name: 'nameJa', ja: '名前', value: (i) => i.nameJa },
    { name: 'aliases', ja: `別名（「${ARRAY_SEPARATOR}」区切り）`, value: (i) => join(i.aliases) },
    { name: 'description', ja: '概要', value: (i) => i.description },
    { name: 'eventIds', ja: `属するイベントの ID（日付順、「${ARRAY_SEPARATOR}」区切り）`, value: (i) => join(i.eventIds) },
  ];
  return { events, relations, players, initiatives };
}

/** One CSV cell (RFC 4180): quoted when it holds a quote, a comma or a line break; quotes doubled. */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** UTF-8 with a byte-order mark (so Excel reads Japanese correctly), CRLF line ends, a header row. */
export function toCsv<T>(columns: readonly Column<T>[], records: readonly T[]): string {
  const lines = [columns.map((c) => csvCell(c.name)), ...records.map((r) => columns.map((c) => csvCell(c.value(r))))];
  return `\uFEFF${lines.map((cells) => cells.join(',')).join('\r\n')}\r\n`;
}

export function toNdjson(records: readonly unknown[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

export interface DownloadFile {
  name: string;
  kind: Kind | 'all';
  format: 'json' | 'ndjson' | 'csv';
  mediaType: string;
  records: number;
  bytes: number;
  sha256: string;
}

/** The files of one profile, by path under public/ (`downloads/A/events.csv`, …). */
export function downloadFiles(d: BuiltDataset): Record<string, string | Uint8Array> {
  const dir = `${DOWNLOADS_DIR}/${d.profile}`;
  const columns = csvColumns(d);
  const body: Record<
    string,
    { kind: Kind | 'all'; format: DownloadFile['format']; mediaType: string; records: number; data: string | Uint8Array }
  > = {
    // Byte for byte GET /api/chronicle with no parameters.
    'dataset.json': {
      kind: 'all',
      format: 'json',
      mediaType: 'application/json',
      records: d.kinds.reduce((n, k) => n + (d[k]?.length ?? 0), 0),
      data: completeAnswer(prepare(d)),
    },
  };
  for (const k of d.kinds) {
    const records = (d[k] ?? []) as RecordOf<typeof k>[];
    body[`${k}.ndjson`] = {
      kind: k,
      format: 'ndjson',
      mediaType: 'application/x-ndjson',
      records: records.length,
      data: toNdjson(records),
    };
    body[`${k}.csv`] = {
      kind: k,
      format: 'csv',
      mediaType: 'text/csv; charset=utf-8',
      records: records.length,
      data: toCsv(columns[k] as Column<unknown>[], records),
    };
  }
  const files: DownloadFile[] = Object.entries(body).map(([name, f]) => {
    const bytes = typeof f.data === 'string' ? Buffer.from(f.data) : f.data;
    return {
      name,
      kind: f.kind,
      format: f.format,
      mediaType: f.mediaType,
      records: f.records,
      bytes: bytes.byteLength,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
  });
  const manifest = {
    profile: d.profile,
    title: `オンチェーン金融クロニクル ${PROFILE_NAMES[d.profile]} 一括ダウンロード`,
    asOf: d.meta.asOf,
    source: d.meta.source,
    attribution: d.meta.attribution,
    license: { name: DATA_LICENSE.name, spdx: DATA_LICENSE.spdx, url: DATA_LICENSE.url },
    arraySeparator: ARRAY_SEPARATOR,
    counts: Object.fromEntries(d.kinds.map((k) => [k, d[k]?.length ?? 0])),
    files,
  };
  const out: Record<string, string | Uint8Array> = {};
  for (const [name, f] of Object.entries(body)) out[`${dir}/${name}`] = f.data;
  out[`${dir}/index.json`] = `${JSON.stringify(manifest, null, 2)}\n`;
  out[`${dir}/README.txt`] = readme(d, columns, files);
  return out;
}

function readme(d: BuiltDataset, columns: Columns, files: readonly DownloadFile[]): string {
  const lines = [
    `オンチェーン金融クロニクル ${PROFILE_NAMES[d.profile]} 一括ダウンロード（${d.meta.asOf} 時点）`,
    '',
    `ライセンス: ${DATA_LICENSE.name} ${DATA_LICENSE.url}`,
    '公開・引用するときは、次のクレジットと URL を示してください。',
    `  ${d.meta.attribution}`,
    `  ${d.meta.source}`,
    '各記録の出典ページそのものの著作権は発行元にあります。',
    '',
    'ファイル',
    ...files.map((f) => `  ${f.name.padEnd(20)} ${String(f.records).padStart(5)} 件  ${f.mediaType}`),
    '  index.json           ファイル一覧（件数、バイト数、SHA-256）、ライセンス、クレジット',
    '',
    'dataset.json は GET /api/chronicle（パラメータなし）の応答と同じバイト列です。',
    'NDJSON は 1 行に 1 件、API の応答の各記録と同じ形です。',
    `CSV は UTF-8（BOM 付き）、改行 CRLF、RFC 4180 の引用（" , 改行を含む値は "…" で囲み、" は "" と書きます）。`,
    `リストの項目（players、members など）は「${ARRAY_SEPARATOR}」でつないでいます（項目そのものに「|」は含まれません）。`,
    'コードの列の右に日本語名の列（…Ja）、企業・機関の ID の右に日本語名の列があります。',
    '値のない欄（JSON の null、業態が未確定など）は空です。',
    '',
    ...d.kinds.flatMap((k) => [`${k}.csv の列`, ...columns[k].map((c) => `  ${c.name.padEnd(18)} ${c.ja}`), '']),
  ];
  return `${lines.join('\n')}\n`;
}
