import type { BuiltDataset, CodeParam, OtherCode, Profile } from './dataset.js';
import { closest } from './suggest.js';

// What a value that failed a parameter most likely meant, for the 400's message: a Japanese label
// or name as the pages show it, a former name, another case, or a code of the other profile. The
// answer stays a 400 (the contract's rule): the hint only names the value to send instead.
// Everything is indexed once per instance (prepare.ts); only a failing request looks anything up.

export type HintParam = CodeParam | 'player';
const HINT_PARAMS: readonly HintParam[] = ['topic', 'region', 'status', 'player'];

interface Spelling {
  /** The value the parameter takes. */
  code: string;
  /** Why the typed value stands for it, shown in brackets. */
  why: string;
}

export interface Hints {
  profile: Profile;
  /** Per parameter: a normalized spelling → the values it stands for. */
  spellings: Record<HintParam, ReadonlyMap<string, readonly Spelling[]>>;
  /** Per code parameter: a normalized code or label of a code this profile lacks → that code. */
  others: Record<CodeParam, ReadonlyMap<string, { code: string; other: OtherCode }>>;
  players: readonly { id: string; nameJa: string; keys: readonly string[] }[];
  playerIds: readonly string[];
}

/** Full-width letters and brackets to ASCII, one case, no spaces: how people's spellings differ. */
export function normalize(s: string): string {
  return s.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

/** A label and its parts: `トークン化資産（RWA）` → itself, `トークン化資産`, `RWA`; `開始・稼働` → `開始`, `稼働`. */
function labelVariants(label: string): string[] {
  const n = label.normalize('NFKC');
  const out = new Set([n]);
  const bracket = /^(.*?)\((.*)\)$/.exec(n);
  if (bracket) for (const part of bracket.slice(1)) if (part!.trim()) out.add(part!.trim());
  for (const v of [...out]) if (v.includes('・')) for (const part of v.split('・')) if (part.trim()) out.add(part.trim());
  return [...out].map(normalize);
}

/** What the hints are built from: the profile's codes, labels and players (the page has these too). */
export type HintSource = Pick<BuiltDataset, 'profile' | 'filters' | 'labels' | 'players' | 'otherCodes'>;

export function buildHints(d: HintSource): Hints {
  const spellings = Object.fromEntries(HINT_PARAMS.map((p) => [p, new Map<string, Spelling[]>()])) as Record<
    HintParam,
    Map<string, Spelling[]>
  >;
  const add = (param: HintParam, spelling: string, code: string, why: string) => {
    const list = spellings[param].get(spelling) ?? [];
    if (!list.some((s) => s.code === code)) list.push({ code, why });
    spellings[param].set(spelling, list);
  };
  for (const param of ['topic', 'region', 'status'] as const) {
    const labels = d.labels[param] ?? {};
    for (const code of d.filters[param])
      for (const v of labelVariants(labels[code] ?? '')) add(param, v, code, `ラベル「${labels[code]}」`);
  }
  for (const p of d.players) {
    add('player', normalize(p.nameJa), p.id, '日本語名');
    for (const m of p.members) add('player', normalize(m), p.id, 'グループ会社・旧名');
  }
  // Ids last: a case variant of an id names that id, whatever else shares the spelling.
  for (const p of d.players) spellings.player.set(normalize(p.id), [{ code: p.id, why: '大文字小文字・空白の違い' }]);

  const others = {} as Record<CodeParam, Map<string, { code: string; other: OtherCode }>>;
  for (const param of ['topic', 'region', 'status'] as const) {
    const map = new Map<string, { code: string; other: OtherCode }>();
    for (const [code, other] of Object.entries(d.otherCodes?.[param] ?? {})) {
      for (const v of [normalize(code), ...labelVariants(other.ja)]) if (!map.has(v)) map.set(v, { code, other });
    }
    others[param] = map;
  }
  return {
    profile: d.profile,
    spellings,
    others,
    players: d.players.map((p) => ({ id: p.id, nameJa: p.nameJa, keys: [p.nameJa, p.id, ...p.members].map(normalize) })),
    playerIds: d.players.map((p) => p.id),
  };
}

/** The hint for one value that `param` refused, or undefined when nothing plausible comes to mind. */
export function hintFor(param: HintParam, value: string, h: Hints): string | undefined {
  const n = normalize(value);
  const own = h.spellings[param].get(n);
  if (own) return own.map((s) => `"${value}" → ${s.code}（${s.why}）`).join('、');
  if (param !== 'player') {
    const other = h.others[param].get(n);
    if (other) {
      const { code, other: o } = other;
      const named = normalize(code) === n ? code : `"${value}"（${code}）`;
      if (o.mapTo) return `${h.profile} では ${named} は ${o.mapTo} に含まれます（${param}=${o.mapTo}）`;
      return `${named} はプロファイル ${o.profiles.join('・')} だけのコードで、このプロファイル ${h.profile} にはありません`;
    }
  }
  for (const p of HINT_PARAMS) {
    if (p === param) continue;
    const found = h.spellings[p].get(n);
    if (found) return found.map((s) => `"${value}" は ${p} の値です（${p}=${s.code}）`).join('、');
  }
  if (param === 'player') {
    // A name cut short (`三菱UFJ`, `MUFG`), or a typo in an id.
    const partial = n.length >= 2 ? h.players.filter((p) => p.keys.some((k) => k.includes(n))).slice(0, 3) : [];
    if (partial.length) return `${partial.map((p) => `${p.id}（${p.nameJa}）`).join('、')} ではありませんか`;
    const near = closest(value, h.playerIds);
    if (near) return `${near} ではありませんか`;
  }
  return undefined;
}
