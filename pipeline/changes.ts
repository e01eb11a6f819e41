import { hash } from 'node:crypto';
import type { BuiltDataset, Kind, Profile, Relation } from '../functions/chronicle/dataset.js';
import { diagnose, type Diagnostic } from './diagnostics.js';
import type { YamlFile } from './loaders/yaml.js';
import { KINDS, PROFILES } from './profiles.js';
import { z } from './zod.js';

// The change log between publishes. `published/snapshot.json` (committed, written only by
// `npm run publish:record`) holds a fingerprint of every record each profile published last time;
// the build compares the new dataset with it and writes public/changes.json. An id that was
// published may not disappear unless content/removed.yaml declares it, or (players) it now
// lives on in another player's `members`.

export const SNAPSHOT_PATH = 'published/snapshot.json';
export const REMOVED_FILE = 'removed.yaml';

/** Kinds whose ids are promised stable, and so may not vanish undeclared. Relations have no id. */
export const ID_KINDS = ['events', 'players', 'initiatives'] as const;
type IdKind = (typeof ID_KINDS)[number];

export type Fingerprints = Record<Profile, Partial<Record<Kind, Record<string, string>>>>;

export interface Removed {
  id: string;
  /** Why: from content/removed.yaml, or where the id went. */
  reason: string;
  /** A player's new id, when the old one is now among its members. */
  renamedTo?: string;
}

export interface ChangeLog {
  profile: Profile;
  asOf: string;
  /** `asOf` of the publish compared with; null when there was none. */
  since: string | null;
  summary: string;
  counts: Partial<Record<Kind, { added: number; changed: number; removed: number }>>;
  added: Partial<Record<Kind, string[]>>;
  changed: Partial<Record<Kind, string[]>>;
  removed: Partial<Record<Kind, Removed[]>>;
}

export interface Snapshot {
  /** `meta.asOf` of the publish this records. */
  asOf: string;
  records: Fingerprints;
  /** The change log of that publish, so a rebuild of the same content serves the same log. */
  changes: Record<Profile, ChangeLog>;
}

/** The key a record is known by: its id, or `a | b | type` for a relation. */
export function recordKey(kind: Kind, record: object): string {
  if (kind === 'relations') {
    const r = record as Relation;
    return `${r.a} | ${r.b} | ${r.type}`;
  }
  return (record as { id: string }).id;
}

const fingerprint = (record: unknown) => hash('sha256', JSON.stringify(record), 'hex').slice(0, 12);

export function fingerprints(datasets: Record<Profile, BuiltDataset>): Fingerprints {
  const out = {} as Fingerprints;
  for (const p of PROFILES) {
    out[p] = {};
    for (const k of KINDS[p]) {
      const byKey: Record<string, string> = {};
      for (const r of datasets[p][k] ?? []) byKey[recordKey(k, r)] = fingerprint(r);
      out[p][k] = byKey;
    }
  }
  return out;
}

const KIND_JA: Record<Kind, string> = { events: 'イベント', relations: '関係', players: '企業・機関', initiatives: 'イニシアティブ' };

/** What changed in each profile since the snapshot (or the snapshot's own log, when nothing has). */
export function changeLogs(
  datasets: Record<Profile, BuiltDataset>,
  previous: Snapshot | undefined,
  removals: readonly RemovalEntry[],
): Record<Profile, ChangeLog> {
  const now = fingerprints(datasets);
  if (previous && JSON.stringify(previous.records) === JSON.stringify(now)) return previous.changes;
  const declared = new Map(removals.map((r) => [`${r.kind}\u0000${r.id}`, r.reason]));
  const out = {} as Record<Profile, ChangeLog>;
  for (const p of PROFILES) {
    const d = datasets[p];
    const log: ChangeLog = {
      profile: p,
      asOf: d.meta.asOf,
      since: previous?.asOf ?? null,
      summary: '',
      counts: {},
      added: {},
      changed: {},
      removed: {},
    };
    const before = previous?.records[p] ?? {};
    for (const k of KINDS[p]) {
      const old = before[k] ?? {};
      const cur = now[p][k] ?? {};
      const added = previous ? Object.keys(cur).filter((key) => !(key in old)) : [];
      const changed = Object.keys(cur).filter((key) => key in old && old[key] !== cur[key]);
      const removed = Object.keys(old)
        .filter((key) => !(key in cur))
        .map((key) => whyRemoved(k, key, datasets, p, declared));
      log.added[k] = added;
      log.changed[k] = changed;
      log.removed[k] = removed;
      log.counts[k] = { added: added.length, changed: changed.length, removed: removed.length };
    }
    log.summary = summarize(log);
    out[p] = log;
  }
  return out;
}

function whyRemoved(k: Kind, key: string, datasets: Record<Profile, BuiltDataset>, p: Profile, declared: Map<string, string>): Removed {
  const reason = declared.get(`${k}\u0000${key}`);
  if (reason) return { id: key, reason };
  if (k === 'players') {
    const owner = datasets[p].players.find((x) => x.members.includes(key));
    if (owner) return { id: key, reason: `${owner.id} の members にまとめました`, renamedTo: owner.id };
  }
  const elsewhere = PROFILES.find((q) => q !== p && (datasets[q][k] ?? []).some((r) => recordKey(k, r) === key));
  if (elsewhere)
    return { id: key, reason: `分類が変わり、プロファイル ${p} の対象外になりました（プロファイル ${elsewhere} にはあります）` };
  return { id: key, reason: k === 'relations' ? '関係を取り下げたか、当事者か種類を改めました' : '取り下げました' };
}

function summarize(log: ChangeLog): string {
  if (log.since === null) return `前回の公開の記録がないため、比較していません（${log.asOf} 時点を最初の記録とします）。`;
  const parts = (Object.keys(log.counts) as Kind[]).flatMap((k) => {
    const c = log.counts[k]!;
    const bits = [c.added && `追加 ${c.added}`, c.changed && `更新 ${c.changed}`, c.removed && `削除 ${c.removed}`].filter(Boolean);
    return bits.length ? [`${KIND_JA[k]} ${bits.join('・')} 件`] : [];
  });
  return parts.length ? `${log.since} の公開からの変更: ${parts.join('、')}。` : `${log.since} の公開から変更はありません。`;
}

export function snapshotText(s: Snapshot): string {
  return `${JSON.stringify(s, null, 2)}\n`;
}

const fingerprintMap = z.record(z.string(), z.string());
const kindEnum = z.enum(KINDS.A as [Kind, ...Kind[]]);
const changeLogShape = z.looseObject({ profile: z.enum(['A', 'B']), asOf: z.string(), since: z.string().nullable() });
const snapshotShape = z.strictObject({
  asOf: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  records: z.strictObject({ A: z.partialRecord(kindEnum, fingerprintMap), B: z.partialRecord(kindEnum, fingerprintMap) }),
  changes: z.strictObject({ A: changeLogShape, B: changeLogShape }),
});

/** Reads the snapshot; a file that is not one is a problem the check reports, never a crash. */
export function parseSnapshot(text: string | undefined): { snapshot?: Snapshot; diagnostics: Diagnostic[] } {
  if (text === undefined) return { diagnostics: [] };
  const problem = (message: string): Diagnostic => ({
    file: SNAPSHOT_PATH,
    line: 1,
    col: 1,
    path: '',
    message,
    hint: 'このファイルは npm run publish:record が書きます。手で直さず、git で戻すか publish:record を実行し直してください',
  });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { diagnostics: [problem(`JSON として読めません（${(e as Error).message}）`)] };
  }
  const parsed = snapshotShape.safeParse(data);
  if (!parsed.success)
    return {
      diagnostics: [problem(`公開記録の形が違います: ${parsed.error.issues[0]!.message}（${parsed.error.issues[0]!.path.join('.')}）`)],
    };
  return { snapshot: parsed.data as unknown as Snapshot, diagnostics: [] };
}

export interface RemovalEntry {
  kind: IdKind | 'relations';
  id: string;
  reason: string;
  file: YamlFile;
  index: number;
}

const removalShape = z.array(
  z.strictObject({
    kind: z.enum([...ID_KINDS, 'relations']),
    id: z.string().min(1),
    reason: z.string().min(1),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
  }),
);

/** content/removed.yaml: what curators took down after it was published, and why. */
export function loadRemovals(file: YamlFile | undefined): { removals: RemovalEntry[]; diagnostics: Diagnostic[] } {
  if (!file || file.data === undefined) return { removals: [], diagnostics: [] };
  const parsed = removalShape.safeParse(file.data);
  if (!parsed.success) {
    return { removals: [], diagnostics: parsed.error.issues.map((i) => diagnose(file, i.path as (string | number)[], i.message)) };
  }
  return { removals: parsed.data.map((r, index) => ({ kind: r.kind, id: r.id, reason: r.reason, file, index })), diagnostics: [] };
}

/**
 * Every id the snapshot published must still be in the content, declared removed, or (a player)
 * be a member of a player now; a declared removal must not name a record that is still there.
 */
export function checkPublished(
  snapshot: Snapshot | undefined,
  text: string | undefined,
  current: Record<IdKind, ReadonlySet<string>>,
  members: ReadonlySet<string>,
  removals: readonly RemovalEntry[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const declared = new Set(removals.map((r) => `${r.kind}\u0000${r.id}`));
  const seen = new Set<string>();
  for (const r of removals) {
    const key = `${r.kind}\u0000${r.id}`;
    if (seen.has(key))
      out.push(diagnose(r.file, [r.index, 'id'], `${r.id} は ${REMOVED_FILE} に 2 回書かれています`, '一つにまとめてください'));
    seen.add(key);
    if (r.kind !== 'relations' && current[r.kind].has(r.id)) {
      out.push(
        diagnose(
          r.file,
          [r.index, 'id'],
          `${r.id} は取り下げたことになっていますが、content/${r.kind}/ にあります`,
          `取り下げた ID は使い回しません。載せ直すのなら、この項目を ${REMOVED_FILE} から消してください`,
        ),
      );
    }
  }
  if (!snapshot || text === undefined) return out;
  for (const k of ID_KINDS) {
    const published = new Set(PROFILES.flatMap((p) => Object.keys(snapshot.records[p][k] ?? {})));
    for (const id of published) {
      if (current[k].has(id) || declared.has(`${k}\u0000${id}`) || (k === 'players' && members.has(id))) continue;
      const { line, col } = positionOf(text, k, id);
      out.push({
        file: SNAPSHOT_PATH,
        line,
        col,
        path: `${k}.${id}`,
        message: `公開済みの ${KIND_JA[k]} ${id} が content/${k}/ から消えています`,
        hint:
          `公開した ID は変えず、消しません。ファイルを戻すか、取り下げるなら content/${REMOVED_FILE} に「- { kind: ${k}, id: ${JSON.stringify(id)}, reason: 理由 }」を書いてください` +
          (k === 'players' ? '。名前が変わっただけなら、新しい ID の members に旧 ID を書いてください' : ''),
      });
    }
  }
  return out;
}

/** Where the snapshot lists an id: its first line under the kind, 1-based. */
function positionOf(text: string, kind: Kind, id: string): { line: number; col: number } {
  const section = text.indexOf(`"${kind}": {`);
  const needle = `${JSON.stringify(id)}:`;
  const at = text.indexOf(needle, section < 0 ? 0 : section);
  if (at < 0) return { line: 1, col: 1 };
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return { line, col: at - before.lastIndexOf('\n') };
}
