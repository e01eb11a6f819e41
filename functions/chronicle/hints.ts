import type { BuiltDataset, CodeParam, OtherCode, Profile } from './dataset.js';
import { closest } from './suggest.js';

// What a value that failed a parameter most likely meant, for the 400's message: a Japanese label
// or name as the pages show it, a former name, another case, or a code of the other profile. The
// answer stays a 400 (the contract's rule): the hint only names the value to send instead.
// Everything is indexed once per instance (prepare.ts); only a failing request looks anything up.

export type HintParam = CodeParam | 'player';
const CODE_PARAMS: readonly CodeParam[] = ['topic', 'region', 'status'];
const HINT_PARAMS: readonly HintParam[] = [...CODE_PARAMS, 'player'];

interface Spelling {
  /** The value the parameter takes. */
  code: string;
  /** Why the typed value stands for it, shown in brackets. */
  why: string;
}

export interface Hints {
  profile: Profile;
  /** Per code parameter: a normalized spelling → the values it stands for. */
  spellings: Record<CodeParam, ReadonlyMap<string, readonly Spelling[]>>;
  /** Per code parameter: a normalized code or label of a code this profile lacks → that code. */
  others: Record<CodeParam, ReadonlyMap<string, { code: string; other: OtherCode }>>;
  players: PlayerSpellings;
}

/**
 * Every player's spellings, normalized, in flat arrays rather than a map of small objects: at ×100
 * (43,000 players) the map took 36 MiB of heap that every full collection then marked; these take
 * a fifth of that. Player p's spellings are `keys[start[p] … start[p + 1])`: its Japanese name,
 * its id, then its members (group companies, former names).
 */
interface PlayerSpellings {
  ids: readonly string[];
  names: readonly string[];
  keys: readonly string[];
  start: Uint32Array;
  /** The player each spelling belongs to. */
  owner: Uint32Array;
  /** Spellings by key, then by position: equal spellings sit together, in player order. */
  sorted: Uint32Array;
}

const NAME_SLOT = 0;
const ID_SLOT = 1;

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
  const spellings = Object.fromEntries(CODE_PARAMS.map((p) => [p, new Map<string, Spelling[]>()])) as Record<
    CodeParam,
    Map<string, Spelling[]>
  >;
  for (const param of CODE_PARAMS) {
    const labels = d.labels[param] ?? {};
    for (const code of d.filters[param])
      for (const v of labelVariants(labels[code] ?? '')) {
        const list = spellings[param].get(v) ?? [];
        if (!list.some((s) => s.code === code)) list.push({ code, why: `ラベル「${labels[code]}」` });
        spellings[param].set(v, list);
      }
  }
  const others = {} as Record<CodeParam, Map<string, { code: string; other: OtherCode }>>;
  for (const param of CODE_PARAMS) {
    const map = new Map<string, { code: string; other: OtherCode }>();
    for (const [code, other] of Object.entries(d.otherCodes?.[param] ?? {})) {
      for (const v of [normalize(code), ...labelVariants(other.ja)]) if (!map.has(v)) map.set(v, { code, other });
    }
    others[param] = map;
  }
  return { profile: d.profile, spellings, others, players: playerSpellings(d.players) };
}

function playerSpellings(players: HintSource['players']): PlayerSpellings {
  const keys: string[] = [];
  const start = new Uint32Array(players.length + 1);
  for (const [i, p] of players.entries()) {
    start[i] = keys.length;
    keys.push(normalize(p.nameJa), normalize(p.id), ...p.members.map(normalize));
  }
  start[players.length] = keys.length;
  const owner = new Uint32Array(keys.length);
  for (let i = 0; i < players.length; i++) owner.fill(i, start[i], start[i + 1]);
  const sorted = new Uint32Array(keys.length).map((_, k) => k);
  sorted.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b));
  return { ids: players.map((p) => p.id), names: players.map((p) => p.nameJa), keys, start, owner, sorted };
}

/**
 * What a normalized spelling names among the players: an id spelled in another case or spacing
 * names that id alone, whatever else shares the spelling; otherwise every player whose Japanese
 * name or member it is, in player order.
 */
function playerSpelling(s: PlayerSpellings, n: string): Spelling[] | undefined {
  let lo = 0;
  let hi = s.sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s.keys[s.sorted[mid]!]! < n) lo = mid + 1;
    else hi = mid;
  }
  let id: number | undefined;
  const out: Spelling[] = [];
  for (let k = lo; k < s.sorted.length && s.keys[s.sorted[k]!] === n; k++) {
    const slot = s.sorted[k]!;
    const who = s.owner[slot]!;
    const at = slot - s.start[who]!;
    if (at === ID_SLOT) id = who;
    else if (!out.some((x) => x.code === s.ids[who]))
      out.push({ code: s.ids[who]!, why: at === NAME_SLOT ? '日本語名' : 'グループ会社・旧名' });
  }
  if (id !== undefined) return [{ code: s.ids[id]!, why: '大文字小文字・空白の違い' }];
  return out.length ? out : undefined;
}

function spelled(h: Hints, param: HintParam, n: string): readonly Spelling[] | undefined {
  return param === 'player' ? playerSpelling(h.players, n) : h.spellings[param].get(n);
}

/** The hint for one value that `param` refused, or undefined when nothing plausible comes to mind. */
export function hintFor(param: HintParam, value: string, h: Hints): string | undefined {
  const n = normalize(value);
  const own = spelled(h, param, n);
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
    const found = spelled(h, p, n);
    if (found) return found.map((s) => `"${value}" は ${p} の値です（${p}=${s.code}）`).join('、');
  }
  if (param === 'player') {
    // A name cut short (`三菱UFJ`, `MUFG`), or a typo in an id.
    const s = h.players;
    const partial: number[] = [];
    for (let p = 0; n.length >= 2 && p < s.ids.length && partial.length < 3; p++) {
      for (let k = s.start[p]!; k < s.start[p + 1]!; k++)
        if (s.keys[k]!.includes(n)) {
          partial.push(p);
          break;
        }
    }
    if (partial.length) return `${partial.map((p) => `${s.ids[p]}（${s.names[p]}）`).join('、')} ではありませんか`;
    const near = closest(value, s.ids);
    if (near) return `${near} ではありませんか`;
  }
  return undefined;
}
