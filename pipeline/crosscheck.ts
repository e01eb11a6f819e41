import { basename } from 'node:path';
import type { Profile } from '../functions/chronicle/dataset.js';
import { diagnose, type Diagnostic } from './diagnostics.js';
import { isDate } from '../functions/chronicle/dates.js';
import { expectedFileName, outletOf } from './ids.js';
import type { YamlFile } from './loaders/yaml.js';
import { PROFILE_NAMES, PROFILES, type Group } from './profiles.js';
import type { ContentKind, ContentRecord } from './schemas.js';
import { closest } from '../functions/chronicle/suggest.js';
import { ARRAY_SEPARATOR } from './downloads.js';
import { urlProblems } from './urls.js';
import type { Vocabulary } from './vocabulary.js';

export interface Entry<K extends ContentKind> {
  file: YamlFile;
  record: ContentRecord<K>;
}
export type Records = { [K in ContentKind]: Entry<K>[] };

/**
 * Files that failed their schema, with the fields that failed removed: what is left is still
 * checked, so a curator sees every problem of a file in one run, and their ids count as present,
 * so one bad file does not cascade into reports on others.
 */
export type Salvaged = { [K in ContentKind]: { file: YamlFile; record: Partial<ContentRecord<K>> }[] };

/** The rules that span files or that a JSON Schema cannot state. */
export function crossCheck(v: Vocabulary, r: Records, salvaged: Salvaged): Diagnostic[] {
  const out: Diagnostic[] = [];
  const all = Object.fromEntries(
    (Object.keys(r) as ContentKind[]).map((k) => [k, [...(r[k] as Loose<ContentKind>[]), ...(salvaged[k] as Loose<ContentKind>[])]]),
  ) as unknown as Salvaged;
  checkFileNames(all, out);
  checkUniqueIds(all, out);
  const players = checkPlayerNames(r, out);
  const ids = (list: { record: { id?: string } }[]) => list.flatMap((e) => (typeof e.record.id === 'string' ? [e.record.id] : []));
  const playerIds = new Set(ids(all.players));
  const initiativeIds = new Set(ids(all.initiatives));

  const refer = (file: YamlFile, path: (string | number)[], id: string) => {
    if (playerIds.has(id)) return;
    const owner = players.get(id.toLowerCase());
    const near = closest(id, [...playerIds]);
    const hint = owner
      ? owner.member === undefined
        ? `大文字小文字が違います。${owner.id} と書いてください`
        : `${owner.member} は ${owner.id} のグループ会社・旧名（members）です。${owner.id} と書いてください`
      : near
        ? `${near} ではありませんか`
        : 'content/players/ に企業・機関を追加するか、既存の ID を使ってください';
    out.push(diagnose(file, path, `企業・機関 ${id} が見つかりません`, hint));
  };

  const initiativeUse = new Map<string, number>();
  const urlUses = new Map<string, { file: YamlFile; index: number }[]>();
  for (const { file, record: e } of all.events) {
    if (e.date !== undefined && !isDate(e.date)) out.push(diagnose(file, ['date'], `${e.date} は存在しない日付です`));
    e.players?.forEach((id, i) => refer(file, ['players', i], id));
    if (e.initiative !== undefined) {
      initiativeUse.set(e.initiative, (initiativeUse.get(e.initiative) ?? 0) + 1);
      if (!initiativeIds.has(e.initiative)) {
        const near = closest(e.initiative, [...initiativeIds]);
        out.push(
          diagnose(
            file,
            ['initiative'],
            `イニシアティブ ${e.initiative} が見つかりません`,
            near ? `${near} ではありませんか` : 'content/initiatives/ に追加してください',
          ),
        );
      }
    }
    if (e.sources) {
      checkSources(file, e.sources, out);
      e.sources.forEach((s, i) => checkSeparator(file, ['sources', i, 'name'], s.name, out));
      e.sources.forEach((s, i) => {
        const uses = urlUses.get(s.url) ?? [];
        if (!uses.some((u) => u.file === file)) uses.push({ file, index: i });
        urlUses.set(s.url, uses);
      });
    }
    if (e.topic === undefined) continue;
    const inProfiles = PROFILES.filter((p) => v.inProfile('topic', e.topic!, p));
    if (!inProfiles.length) out.push(diagnose(file, ['topic'], `分野 ${e.topic} のイベントはどのプロファイルにも載りません`));
    for (const p of inProfiles) {
      for (const g of ['sub', 'status', 'region'] as const) if (e[g] !== undefined) checkCode(v, file, g, e[g], p, out);
    }
  }

  checkUrlReuse(urlUses, out);

  const pairs = new Map<string, Entry<'relations'>>();
  for (const { file, record: rel } of salvaged.relations) {
    if (rel.source !== undefined) for (const p of urlProblems(rel.source)) out.push(diagnose(file, ['source'], p.message, p.hint));
    if (rel.a !== undefined) refer(file, ['a'], rel.a);
    if (rel.b !== undefined) refer(file, ['b'], rel.b);
  }
  for (const entry of r.relations) {
    const { file, record: rel } = entry;
    for (const p of urlProblems(rel.source)) out.push(diagnose(file, ['source'], p.message, p.hint));
    refer(file, ['a'], rel.a);
    refer(file, ['b'], rel.b);
    if (rel.a === rel.b) out.push(diagnose(file, ['b'], `a と b が同じ ${rel.a} です`, '関係は二つの異なる企業・機関を結びます'));
    const key = [[rel.a, rel.b].sort().join('\u0000'), rel.type].join('\u0000');
    const first = pairs.get(key);
    if (first)
      out.push(
        diagnose(
          file,
          ['type'],
          `${rel.a} と ${rel.b} の ${rel.type} の関係は ${first.file.path} にもあります`,
          '一つのファイルにまとめてください',
        ),
      );
    else pairs.set(key, entry);
    if (!PROFILES.some((p) => v.inProfile('topic', rel.topic, p) && v.inProfile('relation', rel.type, p))) {
      out.push(diagnose(file, ['type'], `分野 ${rel.topic} の ${rel.type} の関係はどのプロファイルにも載りません`));
    }
  }

  for (const { file, record: p } of all.players) {
    for (const prof of PROFILES) {
      if (p.category !== undefined) checkCode(v, file, 'category', p.category, prof, out);
      if (p.region !== undefined) checkCode(v, file, 'region', p.region, prof, out);
    }
  }

  // A player nobody refers to is invisible in the API (no event or relation lists it), and it
  // is usually left behind when its last event was withdrawn.
  const referenced = new Set([
    ...all.events.flatMap((e) => e.record.players ?? []),
    ...all.relations.flatMap((rel) => [rel.record.a, rel.record.b]),
  ]);
  for (const { file, record: p } of r.players) {
    if (!referenced.has(p.id)) {
      out.push(
        diagnose(
          file,
          ['id'],
          `企業・機関 ${p.id} を参照するイベントも関係もありません`,
          `イベントの players か関係の a・b に ${p.id} を書くか、公開済みなら content/removed.yaml に取り下げを書いてからファイルを消してください`,
        ),
      );
    }
  }

  for (const { file, record: i } of all.initiatives) i.aliases?.forEach((alias, n) => checkSeparator(file, ['aliases', n], alias, out));
  for (const { file, record: i } of r.initiatives) {
    if (!initiativeUse.has(i.id)) {
      out.push(
        diagnose(
          file,
          ['id'],
          `イニシアティブ ${i.id} に属するイベントがありません`,
          'イベントに initiative: ' + i.id + ' を書いてください',
        ),
      );
    }
  }
  return out;
}

/** List items are joined with ` | ` in the CSV downloads, so an item cannot hold a `|` itself. */
function checkSeparator(file: YamlFile, path: (string | number)[], value: unknown, out: Diagnostic[]) {
  if (typeof value === 'string' && value.includes('|')) {
    out.push(
      diagnose(
        file,
        path,
        `「|」は書けません（${value}）`,
        `CSV のダウンロードでリストの項目を「${ARRAY_SEPARATOR}」でつなぐためです。「／」などに置き換えてください`,
      ),
    );
  }
}

/**
 * A page that is the source of many events is a round-up, not a report of each occurrence; a
 * reader checking one event should land on a page about that event. Every use past the limit is
 * reported; events arrive in path order, so the same files are flagged on every run.
 */
export const MAX_EVENTS_PER_URL = 3;

function checkUrlReuse(urlUses: Map<string, { file: YamlFile; index: number }[]>, out: Diagnostic[]) {
  for (const [url, uses] of urlUses) {
    if (uses.length <= MAX_EVENTS_PER_URL) continue;
    const kept = uses.slice(0, MAX_EVENTS_PER_URL).map((u) => u.file.path);
    for (const { file, index } of uses.slice(MAX_EVENTS_PER_URL)) {
      out.push(
        diagnose(
          file,
          ['sources', index, 'url'],
          `${url} は ${uses.length} 件のイベントの出典になっています（1 つの URL は ${MAX_EVENTS_PER_URL} 件まで。ほかに ${kept.join(', ')}）`,
          'この出来事そのものを報じたページを探して差し替えてください',
        ),
      );
    }
  }
}

function checkCode(v: Vocabulary, file: YamlFile, group: Group, code: string, p: Profile, out: Diagnostic[]) {
  if (v.inProfile(group, code, p) === undefined) {
    out.push(
      diagnose(
        file,
        [group],
        `${v.groups[group].title} ${code} は${PROFILE_NAMES[p]}にないコードですが、この記録は${PROFILE_NAMES[p]}にも載ります`,
        `${PROFILE_NAMES[p]}のコード: ${v
          .profileCodes(group, p)
          .map((c) => c.code)
          .join(', ')}`,
      ),
    );
  }
}

type Loose<K extends ContentKind> = { file: YamlFile; record: Partial<ContentRecord<K>> };

function checkFileNames(r: Salvaged, out: Diagnostic[]) {
  for (const kind of Object.keys(r) as ContentKind[]) {
    for (const { file, record } of r[kind] as Loose<ContentKind>[]) {
      const named = kind === 'relations' ? ['a', 'b', 'type'] : ['id'];
      if (named.some((k) => typeof (record as Record<string, unknown>)[k] !== 'string')) continue;
      const want = expectedFileName(kind, record as ContentRecord<ContentKind>);
      const have = basename(file.path);
      if (want !== have) {
        const at = kind === 'relations' ? 'a' : 'id';
        out.push(
          diagnose(file, [at], `ファイル名は ${want} にしてください（今は ${have}）`, 'ファイル名から記録の ID がわかるようにするためです'),
        );
      }
    }
  }
}

function checkUniqueIds(r: Salvaged, out: Diagnostic[]) {
  for (const kind of ['events', 'players', 'initiatives'] as const) {
    const seen = new Map<string, YamlFile>();
    for (const { file, record } of r[kind] as Loose<'events' | 'players' | 'initiatives'>[]) {
      if (typeof record.id !== 'string') continue;
      const first = seen.get(record.id);
      if (first) out.push(diagnose(file, ['id'], `ID ${record.id} は ${first.path} でも使われています`, 'ID は一つの記録だけのものです'));
      else seen.set(record.id, file);
    }
  }
}

/**
 * A player's id must not equal another player's id or members entry, even in another case: a
 * client joining by id, and the `player` filter, must find exactly one organisation.
 * Returns every name (lower case) with the player that owns it.
 */
function checkPlayerNames(r: Records, out: Diagnostic[]): Map<string, { id: string; member?: string; file: YamlFile }> {
  const names = new Map<string, { id: string; member?: string; file: YamlFile }>();
  const claim = (file: YamlFile, path: (string | number)[], name: string, id: string, member?: string) => {
    const key = name.toLowerCase();
    const prev = names.get(key);
    if (!prev) {
      names.set(key, { id, file, ...(member !== undefined ? { member } : {}) });
      return;
    }
    // Two files with the same id are reported by the unique-id rule; members repeated within one
    // player by its schema (uniqueItems).
    if (prev.id === id && (member === undefined || prev.member !== undefined)) return;
    const where = prev.member === undefined ? `${prev.id} の ID` : `${prev.id} の members にある ${prev.member}`;
    const same = (prev.member ?? prev.id) === name;
    out.push(
      diagnose(
        file,
        path,
        same
          ? `${name} は ${where} と同じです（${prev.file.path}）`
          : `${name} は ${where} と大文字小文字だけが違います（${prev.file.path}）`,
        prev.id === id ? 'members には自分の ID を書きません' : '同じ組織なら一つの記録にまとめ、別の組織なら区別できる名前にしてください',
      ),
    );
  };
  for (const { file, record: p } of r.players) claim(file, ['id'], p.id, p.id);
  for (const { file, record: p } of r.players) (p.members ?? []).forEach((m, i) => claim(file, ['members', i], m, p.id, m));
  return names;
}

const PRIMARY = new Set(['press_release', 'official']);

function checkSources(file: YamlFile, sources: ContentRecord<'events'>['sources'], out: Diagnostic[]) {
  // The first source is the event's `source`, the one a reader checks first: the primary one
  // wherever the event has one.
  const primary = sources.findIndex((s) => PRIMARY.has(s.kind));
  if (primary > 0 && !PRIMARY.has(sources[0]!.kind)) {
    out.push(
      diagnose(
        file,
        ['sources', primary],
        `出典 ${primary + 1} は一次情報（${sources[primary]!.kind}）ですが、先頭が報道です`,
        'この出典を sources の先頭に移してください。先頭の出典がイベントの source になります',
      ),
    );
  }
  const outlets = new Map<string, number>();
  const names = new Map<string, number>();
  sources.forEach((s, i) => {
    for (const p of urlProblems(s.url)) out.push(diagnose(file, ['sources', i, 'url'], p.message, p.hint));
    const outlet = outletOf(s.url);
    if (!outlet) return;
    const prev = outlets.get(outlet) ?? names.get(s.name);
    if (prev !== undefined) {
      out.push(
        diagnose(
          file,
          ['sources', i],
          `出典 ${i + 1} は出典 ${prev + 1} と同じ媒体（${outlets.has(outlet) ? outlet : s.name}）です`,
          '出典は 1 媒体につき 1 件にしてください',
        ),
      );
    } else {
      outlets.set(outlet, i);
      names.set(s.name, i);
    }
  });
}
