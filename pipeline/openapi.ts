import type { BuiltDataset, Kind } from '../functions/chronicle/dataset.js';
import { CANONICAL_FEED_PATH, FEED_INCLUDE_MESSAGE, FEED_LIMIT, FEED_PATHS, FEED_TYPES } from '../functions/chronicle/feed.js';
import { API_PATH } from '../functions/chronicle/handler.js';
import { prepare } from '../functions/chronicle/prepare.js';
import { parseQuery, PARAMS, type Param } from '../functions/chronicle/query.js';
import { DATA_LICENSE } from './license.js';
import { PROFILE_NAMES } from './profiles.js';

// The OpenAPI 3.1 description of GET /api/chronicle, one per profile, built from what the code
// itself uses: the response and error JSON Schemas generated from the zod schemas (schemas.ts), the
// profile's filter values, kinds and player ids from the built dataset, and example messages
// produced by the query parser. Nothing here is written by hand twice.

export type JsonObject = Record<string, unknown>;

/** A JSON Schema as an OpenAPI Schema Object: the document is its base, so no `$schema` or `$id`. */
export function schemaObject(schema: JsonObject): JsonObject {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/** The example value of each parameter: values that exist in the profile, so every example answers 200. */
export function parameterExamples(d: BuiltDataset): Record<Param, unknown[]> {
  const uses = new Map<string, number>();
  for (const e of d.events) for (const id of e.players) uses.set(id, (uses.get(id) ?? 0) + 1);
  const busiest = [...uses].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? d.players[0]?.id ?? '';
  const years = d.events.map((e) => e.date.slice(0, 4));
  const last = years[years.length - 1] ?? '2025';
  return {
    include: ['events', 'players'],
    topic: d.filters.topic.slice(0, 2),
    region: ['JP'],
    status: [d.filters.status[0]!],
    player: [busiest],
    from: [`${Number(last) - 1}`],
    to: [`${last}-12-31`],
    key: [true],
  };
}

/** `topic=cbdc,rwa`: how a parameter with these values is written in a query string. */
export function serializeParameter(name: string, values: readonly unknown[]): string {
  return `${name}=${values.map((v) => encodeURIComponent(String(v))).join(',')}`;
}

export function parameters(d: BuiltDataset): JsonObject[] {
  const examples = parameterExamples(d);
  const labelled = (group: string, codes: readonly string[]) => codes.map((c) => `\`${c}\`（${d.labels[group]?.[c] ?? c}）`).join('、');
  const list = (items: JsonObject, description: string, name: Param): JsonObject => ({
    name,
    in: 'query',
    required: false,
    description: `${description} カンマ区切りで複数の値を指定でき（同じパラメータを繰り返しても同じ）、どれかに合う記録が残ります。`,
    style: 'form',
    explode: false,
    schema: { type: 'array', items, minItems: 1, uniqueItems: true },
    example: examples[name],
  });
  const enumOf = (values: readonly string[]) => ({ type: 'string', enum: [...values] });
  const date = { type: 'string', pattern: '^\\d{4}(?:-\\d{2}(?:-\\d{2})?)?$', description: 'YYYY、YYYY-MM、YYYY-MM-DD' };
  const spec: Record<Param, JsonObject> = {
    include: list(enumOf(d.kinds), `返す種類（省略時はすべて）: ${d.kinds.map((k) => `\`${k}\``).join('、')}。`, 'include'),
    topic: list(
      enumOf(d.filters.topic),
      `分野: ${labelled('topic', d.filters.topic)}。イベントと関係を絞ります（mixed の関係は外れます）。${d.kinds.includes('initiatives') ? 'イニシアティブは、その分野のイベントを一つでも含むものが残ります。' : ''}`,
      'topic',
    ),
    region: list(enumOf(d.filters.region), `地域: ${labelled('region', d.filters.region)}。イベントと企業・機関を絞ります。`, 'region'),
    status: list(enumOf(d.filters.status), `状況: ${labelled('status', d.filters.status)}。イベントを絞ります。`, 'status'),
    player: list(
      enumOf(d.players.map((p) => p.id)),
      '企業・機関の ID（players[].id、英語名）。その ID を players に含むイベントと、a か b がその ID の関係が残ります。日本語名や旧名は 400 になり、メッセージが ID を示します。',
      'player',
    ),
    from: list(date, 'この日付以後（その日を含む）。精度の違う日付は短い方にそろえて比べます。関係は year で比べます。', 'from'),
    to: list(date, 'この日付以前（その日を含む）。比べ方は from と同じです。', 'to'),
    key: list({ type: 'boolean' }, 'true: 重要な節目のイベントだけ。false: それ以外。true,false: すべて。', 'key'),
  };
  return PARAMS.map((p) => spec[p]);
}

export interface OpenApiInput {
  dataset: BuiltDataset;
  /** The generated JSON Schemas: `response-A`/`response-B` and `error`. */
  schemas: Record<string, JsonObject>;
}

export function openApiDocument({ dataset: d, schemas }: OpenApiInput): JsonObject {
  const rules = prepare(d).rules;
  const message = (q: string) => {
    const r = parseQuery(q, rules);
    if (r.ok) throw new Error(`example ${q} should be refused`);
    return r.message;
  };
  const events = d.events.filter((e) => e.key);
  const sample = events[events.length - 1] ?? d.events[d.events.length - 1];
  const example200 = {
    meta: { ...d.meta, counts: { events: sample ? 1 : 0 } },
    labels: d.labels,
    events: sample ? [sample] : [],
  };
  const cacheHeaders = {
    ETag: {
      description: 'データセットのビルドと正規化したクエリごとの強い ETag。If-None-Match で送ると 304。',
      schema: { type: 'string' },
    },
    'Cache-Control': { description: '`public, max-age=3600`（最大 1 時間）', schema: { type: 'string' } },
    'Access-Control-Allow-Origin': { description: '`*`（どのサイトからも呼べます）', schema: { type: 'string' } },
  };
  const error = (description: string, examples: Record<string, string>): JsonObject => ({
    description,
    headers: { 'Access-Control-Allow-Origin': cacheHeaders['Access-Control-Allow-Origin'] },
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/Error' },
        examples: Object.fromEntries(Object.entries(examples).map(([k, q]) => [k, { summary: q, value: { message: message(q) } }])),
      },
    },
  });
  const kindsList = d.kinds.map((k: Kind) => `\`${k}\``).join('、');
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: `Onchain Finance Trends API — ${PROFILE_NAMES[d.profile]}`,
      version: d.meta.asOf,
      summary: 'オンチェーン金融クロニクル: 出典つきの日本語データセットの読み取り専用 JSON API',
      description: [
        `預金トークン、ステーブルコイン、CBDC、トークン化資産、暗号資産、DeFi の動きを出典つきで記録したデータセットです（プロファイル ${d.profile}: ${kindsList}）。`,
        '認証は要りません。どのサイトのブラウザからも呼べます（CORS）。応答は最大 1 時間キャッシュされます。データはおよそ週 1 回更新され、最終更新日は meta.asOf にあります。',
        `データを公開・引用するときは meta.attribution のクレジット表記と meta.source の URL を示してください（${DATA_LICENSE.name}）。`,
        'エラーはすべて `{"message": "…"}`（日本語）です。',
      ].join('\n\n'),
      license: { name: 'CC BY 4.0（データ）', identifier: DATA_LICENSE.spdx },
    },
    externalDocs: { description: '案内ページ（引用するときの出典）', url: d.meta.source },
    servers: [{ url: new URL(d.meta.source).origin }],
    paths: {
      [API_PATH]: {
        get: {
          operationId: 'getChronicle',
          summary: '記録を取得する（種類を選び、絞り込む）',
          description:
            'パラメータを付けなければ、すべての種類のすべての記録を返します。異なるパラメータは AND で組み合わさり、パラメータが関係しない種類はそのパラメータでは絞られません。知らないパラメータ名、空の値、一覧にない値は 400 です（書き間違いで絞り込まれていないデータを返すことはありません）。',
          parameters: parameters(d),
          responses: {
            '200': {
              description:
                '記録（meta、labels と、選んだ種類）。並び順: イベントは日付、ID の順、関係は year、a、b、type の順、企業・機関とイニシアティブは ID の順。',
              headers: cacheHeaders,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Response' }, example: example200 } },
            },
            '304': { description: 'If-None-Match の ETag が一致しました（本文なし）', headers: { ETag: cacheHeaders.ETag } },
            '400': error('パラメータの名前か値が正しくありません。message がパラメータ、値、使える値、ありそうな正解を示します。', {
              unknownParameter: 'topik=cbdc',
              japaneseLabel: `topic=${encodeURIComponent(d.labels.topic?.[d.filters.topic[1]!] ?? 'x')}`,
              badDate: 'from=2024-02-30',
            }),
          },
        },
      },
      ...feedPaths(d, cacheHeaders, error),
    },
    components: {
      schemas: {
        Response: schemaObject(schemas[`response-${d.profile}`]!),
        Error: schemaObject(schemas.error!),
        JsonFeed: JSON_FEED,
      },
    },
  };
}

/** The parts of JSON Feed 1.1 (https://jsonfeed.org/version/1.1) the feed always fills. */
const JSON_FEED: JsonObject = {
  type: 'object',
  required: ['version', 'title', 'feed_url', 'items'],
  properties: {
    version: { const: 'https://jsonfeed.org/version/1.1' },
    title: { type: 'string' },
    home_page_url: { type: 'string' },
    feed_url: { type: 'string' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'url', 'external_url', 'title', 'content_text', 'date_published', '_chronicle'],
        properties: {
          id: { type: 'string', description: 'tag URI（変わりません）' },
          url: { type: 'string', description: 'クロニクルのページ' },
          external_url: { type: 'string', description: '一次情報（event.source）' },
          title: { type: 'string' },
          content_text: { type: 'string' },
          content_html: { type: 'string' },
          date_published: { type: 'string', description: 'イベントの日付（精度が月・年なら最初の日）' },
          _chronicle: { type: 'object', description: 'API の応答と同じ形のイベント' },
        },
      },
    },
  },
};

/** The feeds: the same filter parameters as the API (not include), Atom or JSON Feed, the same 400. */
function feedPaths(
  d: BuiltDataset,
  cacheHeaders: JsonObject,
  error: (description: string, examples: Record<string, string>) => JsonObject,
) {
  const filters = parameters(d).filter((x) => x.name !== 'include');
  const aliases = (format: 'atom' | 'json') =>
    Object.entries(FEED_PATHS)
      .filter(([path, f]) => f === format && path !== CANONICAL_FEED_PATH[format])
      .map(([path]) => path);
  const op = (format: 'atom' | 'json', summary: string, schema: JsonObject) => ({
    get: {
      operationId: format === 'atom' ? 'getAtomFeed' : 'getJsonFeed',
      summary,
      description: `イベントを新しい順に最大 ${FEED_LIMIT} 件。API と同じパラメータで絞り込めます（同じ解析と選択のコードを使うので、include=events の応答と食い違いません）。各エントリーはクロニクルのページと一次情報（source）にリンクします。同じ内容を ${aliases(format).join('、')} でも配信します。${FEED_INCLUDE_MESSAGE}`,
      parameters: filters,
      responses: {
        '200': { description: 'フィード', headers: cacheHeaders, content: { [FEED_TYPES[format].split(';')[0]!]: { schema } } },
        '304': { description: 'If-None-Match の ETag が一致しました（本文なし）' },
        '400': error('API と同じ 400（include もここで断ります）', { unknownParameter: 'topik=cbdc', badDate: 'from=2024-02-30' }),
      },
    },
  });
  return {
    [CANONICAL_FEED_PATH.atom]: op('atom', 'イベントの Atom フィード', { type: 'string', description: 'Atom 1.0（RFC 4287）の XML' }),
    [CANONICAL_FEED_PATH.json]: op('json', 'イベントの JSON Feed 1.1', { $ref: '#/components/schemas/JsonFeed' }),
  };
}
