import type { Kind } from './dataset.js';
import type { Column, Dates, Lists, Prepared, Regrouped } from './prepare.js';
import type { Query } from './query.js';

/**
 * The records of one kind a query keeps: 'all', or runs of consecutive positions as flat pairs
 * `[start0, end0, start1, end1, …]` (end exclusive), ascending. A run is one slice of bytes.
 * When one code of a column drives the query, the runs are positions in that column's grouped
 * copy of the records (`Column.grouped`), where the code's records are adjacent: a query on
 * `topic=cbdc` alone is then one run, not one per scattered record.
 */
export type Selection = 'all' | number[] | GroupedRuns;

export interface GroupedRuns {
  /** A code column's grouped copy, or a hub player's copy of its events. */
  column: Regrouped;
  /** Runs over the grouped order: position k there is record `column.post[k]`. */
  runs: number[];
}

/** A selection as runs of record positions in response order, whichever order it was found in. */
export function positionRuns(sel: Selection): 'all' | number[] {
  if (sel === 'all' || Array.isArray(sel)) return sel;
  const out: number[] = [];
  const { runs, column } = sel;
  for (let k = 0; k < runs.length; k += 2) for (let g = runs[k]!; g < runs[k + 1]!; g++) push(out, column.post[g]!);
  return out;
}

/**
 * For each requested kind, the records that pass every filter that applies to it, found through
 * the served image's indexes: the most selective filter's posting list (or date range) gives the
 * candidates, and each candidate is checked against the other filters with a lookup in a code
 * column. It returns exactly what select.ts (the contract read record by record, which the
 * explorer page runs) returns, as runs: test/model.test.ts holds the two to that.
 */
export function selectIndexed(p: Prepared, q: Query): Map<Kind, Selection> {
  const out = new Map<Kind, Selection>();
  for (const kind of p.header.kinds) {
    if (q.include && !q.include.has(kind)) continue;
    switch (kind) {
      case 'events':
        out.set(kind, selectEvents(p, q));
        break;
      case 'relations':
        out.set(kind, selectRelations(p, q));
        break;
      case 'players': {
        const region = codeFilter(p.players.region, q.region);
        out.set(kind, region ? drive(p.header.counts.players ?? 0, [region]) : 'all');
        break;
      }
      case 'initiatives':
        out.set(kind, q.topic ? initiatives(p, q.topic) : 'all');
        break;
    }
  }
  return out;
}

/**
 * One filter over positions 0 … n - 1: how many records it can keep at most, the candidates it
 * keeps in ascending order, and a test for one position.
 */
interface Filter {
  estimate: number;
  candidates(): ArrayLike<number>;
  /** Whether position i passes; absent on a code filter, which drive() tests inline through `code`. */
  test?(i: number): boolean;
  /** Set when the candidates are one code's posting list: candidate k is grouped position from + k. */
  group?: { column: Regrouped; from: number };
  /** Set when the candidates are ranges of positions (dates): the flat [start, end) pairs. */
  ranges?: number[];
  /** Set for a code column: its codes and which are allowed, so a loop can test them without a call. */
  code?: CodeTest;
  /** True when the codes keep so much of the column that drive() tests every position instead of merging lists. */
  scans?: boolean;
  /** What producing and walking the candidates costs, in positions touched, when more than their number. */
  walk?: number;
}

interface CodeTest {
  values: Uint8Array;
  allowed: Uint8Array;
}

function selectEvents(p: Prepared, q: Query): Selection {
  const e = p.events;
  const n = p.header.counts.events ?? 0;
  const filters = [
    codeFilter(e.topic, q.topic),
    codeFilter(e.region, q.region),
    codeFilter(e.status, q.status),
    codeFilter(e.key, q.key && new Set([...q.key].map(String))),
    q.player && playerFilter(p, q.player, p.players.events, (i, want) => anyIn(e.players, i, want), p.players.eventCopy),
    dateFilter(e.dates, n, q.from, q.to),
  ].filter((f): f is Filter => f !== undefined);
  return filters.length ? drive(n, filters) : 'all';
}

function selectRelations(p: Prepared, q: Query): Selection {
  const r = p.relations;
  const n = p.header.counts.relations ?? 0;
  const filters = [
    // `mixed` is never an allowed topic value, so mixed relations drop out under any topic filter.
    codeFilter(r.topic, q.topic),
    q.player && playerFilter(p, q.player, p.players.relations, (i, want) => want.has(r.parties[2 * i]!) || want.has(r.parties[2 * i + 1]!)),
    dateFilter(r.years, n, q.from, q.to),
  ].filter((f): f is Filter => f !== undefined);
  return filters.length ? drive(n, filters) : 'all';
}

/** Only `topic` narrows initiatives: one is kept when any of its events has a requested topic. */
function initiatives(p: Prepared, topics: ReadonlySet<string>): Selection {
  let bits = 0;
  for (const t of topics) {
    const c = p.events.topic.codes.get(t);
    if (c !== undefined) bits |= 1 << c;
  }
  const masks = p.initiatives.topics;
  const runs: number[] = [];
  for (let i = 0; i < masks.length; i++) if (masks[i]! & bits) push(runs, i);
  return runs;
}

/**
 * Runs the filters: the one keeping fewest records at most drives (its candidates are the only
 * positions looked at), the others test each candidate. A filter that keeps every record is
 * dropped before this, so no filter means 'all'.
 */
function drive(n: number, filters: Filter[]): Selection {
  // One code with nothing but dates (or nothing) is found without looking at a record: the code's
  // records are one stretch of its grouped copy, in date order, so each date range is a sub-stretch.
  const grouped = filters.filter((f) => f.group);
  if (grouped.length === 1 && filters.every((f) => f.group || f.ranges)) {
    return withinGroup(grouped[0]!, filters.find((f) => f.ranges)?.ranges);
  }
  // The driver is the filter whose candidates cost least to walk: a filter that scans walks every position.
  const cost = (f: Filter) => (f.scans ? n : (f.walk ?? f.estimate));
  let driver = filters[0]!;
  for (const f of filters) if (cost(f) < cost(driver)) driver = f;
  let others = filters.filter((f) => f !== driver);
  // Date ranges alone are already runs; with other filters, their positions are walked in place.
  if (driver.ranges && others.length === 0) return driver.ranges;
  // A driver that would scan every position is no better than testing each position for it too.
  const scanAll = driver.scans === true;
  if (scanAll) others = filters;
  // Code columns are tested by two array reads each, in the loop; the rest through their tests.
  const codes = others.flatMap((f) => (f.code ? [f.code] : []));
  const tests = others.flatMap((f) => (f.test ? [f.test] : []));
  const values = codes.map((c) => c.values);
  const allowed = codes.map((c) => c.allowed);
  const m = codes.length;
  const candidates = scanAll ? undefined : driver.candidates();
  const len = candidates ? candidates.length : n;
  // Kept candidate k goes into the runs as its grouped position when one code drives, else as its position.
  const base = scanAll ? undefined : driver.group?.from;
  // Built in a scratch list and copied out at its final length: grown by pushes, a list of tens of
  // thousands of runs is reallocated several times over fresh pages on every query. The scratch
  // is written by index, not through push(), whose `length` it must not use: emptying it would
  // give its backing store back.
  const scratch = SCRATCH;
  let kept = 0;
  next: for (let k = 0; k < len; k++) {
    const i = candidates ? candidates[k]! : k;
    for (let c = 0; c < m; c++) if (allowed[c]![values[c]![i]!] === 0) continue next;
    for (const test of tests) if (!test(i)) continue next;
    const at = base === undefined ? i : base + k;
    if (kept > 0 && scratch[kept - 1] === at) scratch[kept - 1] = at + 1;
    else {
      scratch[kept] = at;
      scratch[kept + 1] = at + 1;
      kept += 2;
    }
  }
  const runs = scratch.slice(0, kept);
  if (base !== undefined) return { column: driver.group!.column, runs };
  return whole(runs, n);
}

/** Where drive gathers its runs; it never outlives a call, since the runs are copied out. */
const SCRATCH: number[] = [];

/** Runs that cover all n positions are 'all'. */
function whole(runs: number[], n: number): Selection {
  return runs.length === 2 && runs[0] === 0 && runs[1] === n ? 'all' : runs;
}

/** The grouped runs of one code's records, all of them or those whose positions fall in the date ranges. */
function withinGroup(f: Filter, ranges: number[] | undefined): GroupedRuns {
  const { column, from } = f.group!;
  const end = from + f.estimate;
  if (!ranges) return { column, runs: end > from ? [from, end] : [] };
  const runs: number[] = [];
  for (let k = 0; k < ranges.length; k += 2) {
    const a = lowerBound(column.post, from, end, ranges[k]!);
    const b = lowerBound(column.post, a, end, ranges[k + 1]!);
    if (a === b) continue;
    if (runs.length && runs[runs.length - 1] === a) runs[runs.length - 1] = b;
    else runs.push(a, b);
  }
  return { column, runs };
}

/** The first index in sorted[lo … hi) whose value is at least v (hi when none is). */
function lowerBound(sorted: Uint32Array, lo: number, hi: number, v: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Appends position i to the runs, extending the last run when i follows it. */
function push(runs: number[], i: number): void {
  const last = runs.length - 1;
  if (last > 0 && runs[last] === i) runs[last] = i + 1;
  else runs.push(i, i + 1);
}

/** A filter on a code column; undefined when absent or when the codes asked for cover every record. */
function codeFilter(col: Column, values: ReadonlySet<string> | undefined): Filter | undefined {
  if (!values) return undefined;
  const allowed = new Uint8Array(col.start.length - 1);
  const codes: number[] = [];
  let estimate = 0;
  for (const v of values) {
    const c = col.codes.get(v);
    if (c === undefined || allowed[c]) continue;
    allowed[c] = 1;
    codes.push(c);
    estimate += col.start[c + 1]! - col.start[c]!;
  }
  const n = col.values.length;
  if (estimate === n) return undefined;
  const vals = col.values;
  // Several codes that cover much of the column: drive() scans every position rather than merge their lists.
  const scans = codes.length > 1 && estimate * 4 > n;
  return {
    estimate,
    ...(codes.length === 1 && col.groupable() && { group: { column: col, from: col.start[codes[0]!]! } }),
    code: { values: vals, allowed },
    scans,
    walk: mergeCost(estimate, codes.length),
    candidates: () => {
      if (codes.length === 1) return col.post.subarray(col.start[codes[0]!], col.start[codes[0]! + 1]);
      return mergeLists(codes.map((c) => col.post.subarray(col.start[c], col.start[c + 1])));
    },
  };
}

/**
 * Candidates merged from k ascending lists cost a pass per pairwise round on top of the walk:
 * two codes of 25k records each cost more than one code of 30k, which is walked in place.
 */
function mergeCost(estimate: number, lists: number): number {
  return lists > 1 ? estimate * (1 + Math.ceil(Math.log2(lists))) : estimate;
}

/** Ascending lists as one ascending list without repeats, merged in pairs (n log k, not a sort). */
function mergeLists(lists: Uint32Array[]): Uint32Array {
  let round = lists;
  while (round.length > 1) {
    const next: Uint32Array[] = [];
    for (let k = 0; k < round.length; k += 2) next.push(k + 1 < round.length ? mergeTwo(round[k]!, round[k + 1]!) : round[k]!);
    round = next;
  }
  return round[0] ?? new Uint32Array(0);
}

function mergeTwo(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let w = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) {
      out[w++] = x;
      i++;
    } else if (y < x) {
      out[w++] = y;
      j++;
    } else {
      // A record named by two of the players is in both lists: keep it once.
      out[w++] = x;
      i++;
      j++;
    }
  }
  while (i < a.length) out[w++] = a[i++]!;
  while (j < b.length) out[w++] = b[j++]!;
  return w === out.length ? out : out.subarray(0, w);
}

/** Positions named by any of the players (by their lists), tested otherwise with `has`. */
function playerFilter(
  p: Prepared,
  players: ReadonlySet<string>,
  lists: Lists,
  has: (i: number, want: ReadonlySet<number>) => boolean,
  copyOf?: (w: number) => Regrouped | undefined,
): Filter {
  const want = new Set<number>();
  for (const id of players) {
    const at = p.players.position(id);
    if (at >= 0) want.add(at);
  }
  let estimate = 0;
  for (const w of want) estimate += lists.start[w + 1]! - lists.start[w]!;
  // One hub player: its records are one stretch of its own copy, as one code's are of a column's.
  const copy = want.size === 1 ? copyOf?.(want.values().next().value!) : undefined;
  return {
    estimate,
    ...(copy && { group: { column: copy, from: 0 } }),
    walk: mergeCost(estimate, want.size),
    test: (i) => has(i, want),
    candidates: () => mergeLists([...want].map((w) => lists.list.subarray(lists.start[w], lists.start[w + 1]))),
  };
}

function anyIn(lists: Lists, i: number, want: ReadonlySet<number>): boolean {
  for (let k = lists.start[i]!, end = lists.start[i + 1]!; k < end; k++) if (want.has(lists.list[k]!)) return true;
  return false;
}

/**
 * `from` and `to` over a sorted date column, as position ranges. With both cut to the shorter
 * precision, `date ≥ from` keeps the dates from `from` on (as strings) and the dates that are a
 * shorter prefix of it (`2024` for `from=2024-03`); `date ≤ to` keeps the dates before `to` and
 * those that start with it, which is every date up to the first that is neither. Several values
 * of one parameter match any; `from` and `to` together match both.
 */
function dateFilter(dates: Dates, n: number, from?: readonly string[], to?: readonly string[]): Filter | undefined {
  if (!from && !to) return undefined;
  const { distinct, start } = dates;
  const at = (k: number) => start[k]!;
  let ranges: number[] = [0, n];
  if (from) {
    const pieces: number[] = [];
    for (const f of from) {
      pieces.push(at(firstWhere(distinct, (d) => d >= f)), n);
      for (const len of [4, 7]) {
        if (f.length <= len) continue;
        const k = firstWhere(distinct, (d) => d >= f.slice(0, len));
        if (distinct[k] === f.slice(0, len)) pieces.push(at(k), at(k + 1));
      }
    }
    ranges = union(pieces);
  }
  if (to) {
    let hi = 0;
    for (const t of to) hi = Math.max(hi, at(firstWhere(distinct, (d) => d > t && !d.startsWith(t))));
    ranges = intersect(ranges, [0, hi]);
  }
  let estimate = 0;
  for (let k = 0; k < ranges.length; k += 2) estimate += ranges[k + 1]! - ranges[k]!;
  if (estimate === n) return undefined;
  return {
    estimate,
    ranges,
    candidates: () => {
      const out = new Uint32Array(estimate);
      let w = 0;
      for (let k = 0; k < ranges.length; k += 2) for (let i = ranges[k]!; i < ranges[k + 1]!; i++) out[w++] = i;
      return out;
    },
    test: (i) => {
      for (let k = 0; k < ranges.length; k += 2) if (i >= ranges[k]! && i < ranges[k + 1]!) return true;
      return false;
    },
  };
}

/** The first index whose value satisfies a predicate that is false, then true, along the array. */
function firstWhere(sorted: readonly string[], pred: (v: string) => boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(sorted[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Flat [start, end) pairs, overlapping or not, as sorted disjoint ranges. */
function union(pairs: number[]): number[] {
  const order: [number, number][] = [];
  for (let k = 0; k < pairs.length; k += 2) if (pairs[k]! < pairs[k + 1]!) order.push([pairs[k]!, pairs[k + 1]!]);
  order.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [s, e] of order) {
    if (out.length && s <= out[out.length - 1]!) out[out.length - 1] = Math.max(out[out.length - 1]!, e);
    else out.push(s, e);
  }
  return out;
}

function intersect(ranges: number[], [lo, hi]: [number, number]): number[] {
  const out: number[] = [];
  for (let k = 0; k < ranges.length; k += 2) {
    const s = Math.max(ranges[k]!, lo);
    const e = Math.min(ranges[k + 1]!, hi);
    if (s < e) out.push(s, e);
  }
  return out;
}
