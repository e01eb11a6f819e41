import type { Profile } from '../functions/chronicle/dataset.js';
import { FORMATS } from './patterns.js';
import { KINDS, LABEL_GROUPS, type Group } from './profiles.js';
import type { Vocabulary } from './vocabulary.js';
import { z } from './zod.js';

// Record schemas are written once, in zod, from the vocabulary's code lists. The JSON Schemas that
// validate content files, that editors use, and that describe API responses are generated from
// them, so no code list or field is written twice.

const SCHEMA_BASE = 'https://onchain-finance-trends.netlify.app/schemas/';

const text = (description: string, max?: number) => {
  const s = z.string().regex(FORMATS.text.re);
  return (max ? s.max(max) : s).meta({ description });
};
const pattern = (f: { re: RegExp }, description: string) => z.string().regex(f.re).meta({ description });
const list = <T extends z.ZodType>(item: T, description: string) => z.array(item).meta({ description });

function codeEnum(v: Vocabulary, group: Group, description: string, codes = v.codes(group)) {
  return z.enum(codes as [string, ...string[]]).meta({ description: `${description}（${v.groups[group].title}のコード）` });
}

/** Schemas of the content files curators write, one per record kind. */
export function contentSchemas(v: Vocabulary) {
  const playerRef = pattern(FORMATS.playerId, '企業・機関のID（players の id）');
  const source = z
    .strictObject({
      kind: codeEnum(v, 'sourceKind', '出典の種類。応答ではプレスリリース、公式発表、報道の順に並びます'),
      name: text('媒体・発表元の名前（例: 日本銀行、CoinDesk Japan）', 80),
      url: pattern(FORMATS.url, '記事・発表ページの URL（https）'),
    })
    .meta({ description: '出典 1 件。1 媒体につき 1 件' });

  const event = z
    .strictObject({
      id: pattern(FORMATS.eventId, 'イベントID。公開後は変えません。ファイル名は「ID.yaml」'),
      date: pattern(FORMATS.date, '出来事の日付。出典が示す精度で YYYY、YYYY-MM、YYYY-MM-DD'),
      topic: codeEnum(v, 'topic', '分野', v.codes('topic', 'events')),
      sub: codeEnum(v, 'sub', '小分類'),
      players: list(playerRef, '関わった企業・機関の ID。先頭が主体').min(1).meta({ uniqueItems: true }),
      title: text('見出し（日本語、自分の言葉で）', 80),
      description: pattern(
        FORMATS.eventDescription,
        '説明（日本語、自分の言葉で、1〜3 文）。最後に日付がどの段階の日かを「日付は発表日。」のように書きます',
      ).max(400),
      chain: z
        .string()
        .regex(FORMATS.english.re)
        .max(80)
        .meta({ description: '使われたブロックチェーンの英語名。ブロックチェーンを使わない出来事は空文字 ""' }),
      status: codeEnum(v, 'status', 'その時点の状況'),
      region: codeEnum(v, 'region', '地域'),
      key: z.boolean().meta({ description: '重要な節目なら true（初の開始、法律の成立、市場全体の転換など）' }),
      initiative: pattern(FORMATS.initiativeId, '属するイニシアティブの ID（initiatives の id）。なければ書きません').optional(),
      sources: list(source, '出典。先頭が登録時の出典（応答の source）で、後から足す出典は末尾に書きます').min(1),
    })
    .meta({ title: 'イベント', description: '日付のある出来事 1 件' });

  const relation = z
    .strictObject({
      a: playerRef.meta({ description: '一方の企業・機関の ID' }),
      b: playerRef.meta({ description: '相手方の企業・機関の ID' }),
      type: codeEnum(v, 'relation', '関係の種類'),
      label: text('関係の説明（日本語）', 120),
      year: pattern(FORMATS.year, '関係が生じた年（YYYY）'),
      topic: codeEnum(v, 'topic', '分野。複数の分野にまたがるときは mixed'),
      source: pattern(FORMATS.url, '関係を報じたページの URL（https）'),
    })
    .meta({ title: '関係', description: '二つの企業・機関のつながり 1 件。ファイル名は「a--b--type.yaml」（a と b はスラッグ）' });

  const player = z
    .strictObject({
      id: playerRef.meta({ description: '企業・機関の ID（英語名）。公開後は変えません' }),
      nameJa: text('日本語名', 80),
      category: codeEnum(v, 'category', '種別'),
      sector: codeEnum(v, 'sector', '業態')
        .nullable()
        .optional()
        .meta({ description: '業態。免許・登録・法的地位・実際の事業で決めます。未確定なら null か省略' }),
      region: codeEnum(v, 'region', '本拠の地域'),
      members: list(pattern(FORMATS.playerId, 'グループ会社または旧名'), 'この ID にまとめたグループ会社・旧名')
        .meta({ uniqueItems: true })
        .optional(),
      description: text('概要（日本語、1〜2 文）', 400).optional(),
    })
    .meta({ title: '企業・機関', description: '企業・機関 1 件。ファイル名は ID のスラッグ（例: bank-of-japan.yaml）' });

  const initiative = z
    .strictObject({
      id: pattern(FORMATS.initiativeId, 'イニシアティブの ID。公開後は変えません。ファイル名は「ID.yaml」'),
      nameJa: text('施策・プロジェクト・制度の名前', 80),
      aliases: list(text('別名'), '旧名・改称後の名前・略称').meta({ uniqueItems: true }).optional(),
      description: text('概要（日本語、1〜2 文）', 400).optional(),
    })
    .meta({
      title: 'イニシアティブ',
      description: '複数の後続イベントが属するプロジェクト・施策・制度 1 件。eventIds はイベントの initiative から作られます',
    });

  return { events: event, relations: relation, players: player, initiatives: initiative };
}

export type ContentKind = keyof ReturnType<typeof contentSchemas>;
export type ContentRecord<K extends ContentKind> = z.output<ReturnType<typeof contentSchemas>[K]>;

/** The response body of GET /api/chronicle for one profile. */
export function responseSchema(v: Vocabulary, p: Profile) {
  const a = p === 'A';
  const codes = (g: Group, use: 'events' | 'relations' = 'relations') => {
    const list = v.profileCodes(g, p, use).map((c) => c.code);
    return z.enum(list as [string, ...string[]]).meta({ description: `${v.groups[g].title}のコード` });
  };
  const url = z.string().regex(FORMATS.url.re);
  const event = z.strictObject({
    id: z.string().meta({ description: 'イベントID' }),
    date: pattern(FORMATS.date, '日付（YYYY、YYYY-MM、YYYY-MM-DD）'),
    topic: codes('topic', 'events'),
    sub: codes('sub'),
    players: z.array(z.string()).meta({ description: '関わった企業・機関の ID（先頭が主体）' }),
    title: z.string().meta({ description: '見出し' }),
    description: z.string().meta({ description: '説明' }),
    chain: z.string().meta({ description: 'ブロックチェーン（英語）' }),
    status: codes('status'),
    region: codes('region'),
    source: url.meta({ description: '登録時の出典 URL' }),
    key: z.boolean().meta({ description: '重要な節目なら true' }),
    ...(a
      ? {
          sources: z
            .array(z.strictObject({ name: z.string(), url }))
            .min(1)
            .meta({ description: '出典（プレスリリース、公式発表、報道の順、1 媒体 1 件）' }),
          initiativeId: z.string().nullable().meta({ description: '属するイニシアティブの ID。なければ null' }),
        }
      : {}),
  });
  const relation = z.strictObject({
    a: z.string(),
    b: z.string(),
    type: codes('relation'),
    label: z.string(),
    year: pattern(FORMATS.year, '年（YYYY）'),
    topic: codes('topic'),
    source: url,
  });
  const player = z.strictObject({
    id: z.string(),
    nameJa: z.string(),
    category: codes('category'),
    ...(a ? { sector: codes('sector').nullable() } : {}),
    region: codes('region'),
    members: z.array(z.string()),
    ...(a ? { description: z.string() } : {}),
  });
  const initiative = z.strictObject({
    id: pattern(FORMATS.initiativeId, 'イニシアティブID'),
    nameJa: z.string(),
    aliases: z.array(z.string()),
    description: z.string(),
    eventIds: z.array(z.string()).meta({ description: '属する全イベントの ID（日付順）。絞り込みの影響を受けません' }),
  });
  const records = { events: event, relations: relation, players: player, initiatives: initiative };
  const kinds = KINDS[p];
  const labelShape = Object.fromEntries(
    LABEL_GROUPS.filter((g) => v.groups[g].profiles.has(p)).map((g) => [
      g,
      z.strictObject(Object.fromEntries(v.profileCodes(g, p).map((c) => [c.code, z.string()]))),
    ]),
  );
  return z
    .strictObject({
      meta: z.strictObject({
        asOf: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .meta({ description: 'データの最終更新日' }),
        source: url.meta({ description: '引用時に示す出典ページの URL' }),
        attribution: z.string().meta({ description: '引用時に使うクレジット表記' }),
        counts: z.strictObject(Object.fromEntries(kinds.map((k) => [k, z.number().int().min(0).optional()]))),
      }),
      labels: z.strictObject(labelShape),
      ...Object.fromEntries(kinds.map((k) => [k, z.array(records[k]).optional()])),
    })
    .meta({ title: `GET /api/chronicle の応答（プロファイル ${p}）` });
}

/** Every error answer's body. */
export function errorSchema() {
  return z
    .strictObject({
      message: z.string().min(1).meta({ description: '原因（日本語）。パラメータ、問題の値、使える値と、ありそうな正解を示します' }),
    })
    .meta({ title: 'エラーの応答' });
}

export function toJsonSchema(schema: z.ZodType, name: string): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>;
  const { $schema, ...rest } = json;
  return { $schema, $id: `${SCHEMA_BASE}${name}.schema.json`, ...rest };
}

/** Every generated JSON Schema, by file name stem. */
export function allJsonSchemas(v: Vocabulary): Record<string, Record<string, unknown>> {
  const content = contentSchemas(v);
  const kindNames = { events: 'event', relations: 'relation', players: 'player', initiatives: 'initiative' } as const;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [k, s] of Object.entries(content) as [ContentKind, z.ZodType][]) out[kindNames[k]] = toJsonSchema(s, kindNames[k]);
  for (const p of ['A', 'B'] as const) out[`response-${p}`] = toJsonSchema(responseSchema(v, p), `response-${p}`);
  out.error = toJsonSchema(errorSchema(), 'error');
  return out;
}
