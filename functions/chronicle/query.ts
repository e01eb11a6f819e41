import type { Kind } from './dataset.js';
import { compareDates, isDate } from './dates.js';
import { hintFor, type Hints } from './hints.js';
import { closest } from './suggest.js';

/** The API's query parameters, in the order they are normalized and listed in `Netlify-Vary`. */
export const PARAMS = ['include', 'topic', 'region', 'status', 'player', 'from', 'to', 'key'] as const;
export type Param = (typeof PARAMS)[number];
const PARAM_NAMES: ReadonlySet<string> = new Set(PARAMS);

export interface Query {
  include?: ReadonlySet<Kind>;
  topic?: ReadonlySet<string>;
  region?: ReadonlySet<string>;
  status?: ReadonlySet<string>;
  player?: ReadonlySet<string>;
  from?: readonly string[];
  to?: readonly string[];
  key?: ReadonlySet<boolean>;
  /** Canonical form: parameters in PARAMS order, values sorted and deduplicated. Same query, same key. */
  normalized: string;
}

/** What a query is checked against: the served profile's values. */
export interface QueryRules {
  kinds: readonly Kind[];
  topic: readonly string[];
  region: readonly string[];
  status: readonly string[];
  /** Player ids (a Set, or the served image's sorted ids). */
  players: { has(id: string): boolean };
  /** What a refused value most likely meant (Japanese names and labels, members, case, the other profile). */
  hints: Hints;
}

export type Parsed = { ok: true; query: Query } | { ok: false; message: string };

const MAX_QUERY = 8192;

/**
 * Values a 400 looks for a hint for. A player hint compares the value with every player, so a
 * query of thousands of wrong values would otherwise cost a hundred milliseconds to refuse.
 */
export const MAX_HINTS = 5;

/**
 * Parses and checks a raw query string (the part after `?`). Every problem is collected into one
 * Japanese message that names the parameter, the offending values and what is allowed, because a
 * typo must never quietly return unfiltered data.
 */
export function parseQuery(search: string, rules: QueryRules): Parsed {
  if (search.length > MAX_QUERY) {
    return { ok: false, message: `クエリ文字列が長すぎます（${search.length} 文字、上限 ${MAX_QUERY} 文字）。条件を減らしてください。` };
  }
  const raw = new Map<Param, string[]>();
  const problems: string[] = [];
  const unknown: string[] = [];
  for (let at = 0; at <= search.length;) {
    let end = search.indexOf('&', at);
    if (end < 0) end = search.length;
    const piece = search.slice(at, end);
    at = end + 1;
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const name = decode(eq < 0 ? piece : piece.slice(0, eq));
    const value = eq < 0 ? '' : decode(piece.slice(eq + 1));
    if (name === undefined || value === undefined) {
      problems.push(`「${clip(piece)}」のパーセントエンコードが正しくありません（UTF-8 を %XX で表してください）。`);
      continue;
    }
    if (!PARAM_NAMES.has(name)) {
      unknown.push(name);
      continue;
    }
    const list = raw.get(name as Param);
    if (list) list.push(value);
    else raw.set(name as Param, [value]);
  }
  if (unknown.length) {
    const names = [...new Set(unknown)];
    const near = names.map((n) => closest(n, PARAMS)).filter((x): x is string => x !== undefined);
    problems.unshift(
      `不明なパラメータ ${names.map((n) => `"${clip(n)}"`).join(', ')} があります。使えるパラメータ: ${PARAMS.join(', ')}` +
        (near.length ? `（${[...new Set(near)].join(', ')} の書き間違いではありませんか）` : '') +
        '。',
    );
  }

  const query: { -readonly [K in keyof Query]?: Query[K] } = {};
  const normalized: string[] = [];
  for (const param of PARAMS) {
    const values = raw.get(param);
    if (!values) continue;
    const items: string[] = [];
    let empty = false;
    for (const v of values) {
      for (const item of v.includes(',') ? v.split(',') : [v]) {
        const trimmed = item.trim();
        if (trimmed === '') empty = true;
        items.push(trimmed);
      }
    }
    if (empty) {
      problems.push(`パラメータ ${param} に空の値があります。値を書くか、パラメータごと外してください（複数の値はカンマで区切ります）。`);
      continue;
    }
    const unique = [...new Set(items)].sort();
    const bad = unique.filter((v) => !valid(param, v, rules));
    if (bad.length) {
      problems.push(badValues(param, bad, rules));
      continue;
    }
    normalized.push(`${param}=${unique.join(',')}`);
    if (param === 'from' || param === 'to') query[param] = unique;
    else if (param === 'key') query.key = new Set(unique.map((v) => v === 'true'));
    else if (param === 'include') query.include = new Set(unique as Kind[]);
    else query[param] = new Set(unique);
  }
  if (!problems.length && query.from && query.to && query.from.every((f) => query.to!.every((t) => compareDates(f, t) > 0))) {
    problems.push(
      `from（${query.from.join(', ')}）が to（${query.to.join(', ')}）より後なので、どの記録も当てはまりません。from と to を入れ替えてください。`,
    );
  }
  if (problems.length) return { ok: false, message: problems.join(' ') };
  return { ok: true, query: { ...query, normalized: normalized.join('&') } };
}

function valid(param: Param, v: string, rules: QueryRules): boolean {
  switch (param) {
    case 'include':
      return (rules.kinds as readonly string[]).includes(v);
    case 'topic':
    case 'region':
    case 'status':
      return rules[param].includes(v);
    case 'player':
      return rules.players.has(v);
    case 'from':
    case 'to':
      return isDate(v);
    case 'key':
      return v === 'true' || v === 'false';
  }
}

function badValues(param: Param, bad: string[], rules: QueryRules): string {
  const shown = bad.map((v) => `"${clip(v)}"`).join(', ');
  switch (param) {
    case 'player': {
      const hints = bad
        .slice(0, MAX_HINTS)
        .map((v) => hintFor('player', clip(v), rules.hints))
        .filter(Boolean);
      return (
        `パラメータ player の値 ${shown} は企業・機関の ID ではありません。使える値は players[].id です（include=players で一覧できます）。` +
        (hints.length ? `${hints.join('。')}。` : '')
      );
    }
    case 'from':
    case 'to':
      return `パラメータ ${param} の値 ${shown} は日付ではありません。YYYY、YYYY-MM、YYYY-MM-DD のいずれかの実在する日付で指定してください。`;
    case 'key':
      return `パラメータ key の値 ${shown} は使えません。使える値: true, false。`;
    default: {
      const allowed = param === 'include' ? rules.kinds : rules[param];
      const hints: string[] = [];
      const near: string[] = [];
      for (const v of bad.slice(0, MAX_HINTS)) {
        const hint = param === 'include' ? undefined : hintFor(param, clip(v), rules.hints);
        if (hint) hints.push(hint);
        else {
          const c = closest(v, allowed);
          if (c !== undefined) near.push(c);
        }
      }
      return (
        `パラメータ ${param} の値 ${shown} は使えません。使える値: ${allowed.join(', ')}。` +
        (hints.length ? `${hints.join('。')}。` : '') +
        (near.length ? `${[...new Set(near)].join(', ')} ではありませんか。` : '')
      );
    }
  }
}

function decode(s: string): string | undefined {
  if (!s.includes('%') && !s.includes('+')) return s;
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Echoing a hostile megabyte back is no help to anyone; long values are shortened in messages. */
function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}
