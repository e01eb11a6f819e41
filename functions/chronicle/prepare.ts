import { endianness } from 'node:os';
import type { BuiltDataset, Event, Initiative, Kind, Player, Relation } from './dataset.js';
import { buildHints, type Hints } from './hints.js';
import { buildImage, isServed, type ImageHeader, type Served } from './image.js';
import type { QueryRules } from './query.js';

/** Records in an order of their own (`post[k]` is record k there), with their bytes copied in that order on first use. */
export interface Regrouped {
  post: Uint32Array;
  grouped(): Grouped;
}

/** A code column: one code number per record, and per code the positions of its records. */
export interface Column extends Regrouped {
  values: Uint8Array;
  /** Positions with code c: `post[start[c] … start[c + 1])`, ascending. */
  start: Uint32Array;
  /** Code → code number. */
  codes: ReadonlyMap<string, number>;
  /** The kind's records regrouped by code, built on first use (see Grouped). */
  grouped(): Grouped;
  /**
   * Whether a query on one code of this column should be answered from the grouped copy: from the
   * second such query on. The copy costs a pass over all of the kind's bytes into fresh memory
   * (at ×100 a second of a cold start, most of it the system faulting in the pages); an instance
   * that answers one such query, or none, never pays for it.
   */
  groupable(): boolean;
}

/**
 * A hub player, named by at least this share of all events (and at least HUB_MIN_EVENTS of them),
 * gets its events copied together when a query first asks for that player alone, so that its
 * answer is one slice, not thousands of scattered records.
 */
export const HUB_SHARE = 0.02;
export const HUB_MIN_EVENTS = 64;
/** Bytes all players' copies may take in one instance; past it, hub answers are gathered as before. */
export const HUB_COPY_BYTES = 64 * 1024 * 1024;

/**
 * A second copy of one kind's record bytes, grouped by one column's code: record `post[k]` is
 * record k here, each followed by a comma, so the records of one code, in response order, are one
 * contiguous stretch (`offsets[start[c]] … offsets[start[c + 1]]`). An answer filtered on a single
 * code is then one slice rather than thousands of scattered pieces to gather.
 */
export interface Grouped {
  json: Buffer;
  /** Where record k of the grouped order starts in `json`; entry n is one past the last comma. */
  offsets: Uint32Array;
}

/** Lists of numbers, one per source: list i is `list[start[i] … start[i + 1])`. */
export interface Lists {
  start: Uint32Array;
  list: Uint32Array;
}

/** A sorted date column as its distinct values and where each begins (`start` has one more entry). */
export interface Dates {
  distinct: readonly string[];
  start: Uint32Array;
}

/**
 * Everything a request needs that does not depend on the request: the image (each record's JSON
 * bytes, in response order, and the indexes), views over it, the fixed parts of the envelope and
 * the rules queries are checked against. An answer is then index lookups and slices of bytes:
 * nothing is serialized or encoded per request.
 */
export interface Prepared {
  header: ImageHeader;
  rules: QueryRules;
  /** Every record's bytes: per kind `,"<kind>":[r0,r1,…]`. Read only what `need` has made sure of. */
  json: Buffer;
  /** Makes sure bytes `from` … `to` of `json` are read (an opened image reads them on first need). */
  need(from: number, to: number): void;
  /**
   * How many single-code queries have been gathered in place because their column's grouped copy
   * was not yet worth building (see `Column.groupable`). An answer rendered while this grew is laid
   * out differently from the same query's next answer.
   */
  deferred(): number;
  /** Per kind, where each record starts in `json`; entry n is one past the closing bracket. */
  offsets: Record<Kind, Uint32Array>;
  /** `,"<kind>":[` */
  open: Record<Kind, Buffer>;
  /** `{"meta":{"asOf":…,"source":…,"attribution":…,"counts":{` */
  head: Buffer;
  /** `}},"labels":{…}` */
  labels: Buffer;
  events: { topic: Column; region: Column; status: Column; key: Column; dates: Dates; players: Lists };
  relations: { topic: Column; years: Dates; /** a and b of relation i at 2i and 2i + 1 */ parties: Uint32Array };
  players: {
    region: Column;
    events: Lists;
    relations: Lists;
    /** Player id → position. */
    position(id: string): number;
    /** Player w's events as their own copy, for a hub player while the copies' budget lasts. */
    eventCopy(w: number): Regrouped | undefined;
  };
  initiatives: { /** Per initiative, bit c set when one of its events has topic code c. */ topics: Uint32Array };
  /** Record i of a kind as an object, parsed from its bytes (for the feeds, which render records). */
  record: <K extends Kind>(kind: K, i: number) => RecordOf<K>;
  /** A player's Japanese name (for the feeds). */
  playerName(id: string): string | undefined;
}

type RecordOf<K extends Kind> = { events: Event; relations: Relation; players: Player; initiatives: Initiative }[K];

/**
 * Opens the served image (`.build/served.js` and the bytes it loads), or builds one in-process
 * from a dataset given as an object. Throws on a dataset or image it cannot use.
 */
export function prepare(input: BuiltDataset | Served): Prepared {
  if (endianness() !== 'LE') throw new Error('the image is little-endian; this machine is not');
  const image = isServed(input) ? readInPlace(input) : { ...buildImage(input), need: undefined };
  const header = image.header;
  const bytes = image.need ? image.bytes : aligned(image.bytes);
  const need = image.need ?? (() => {});
  const section = (name: string): Uint8Array => {
    const at = header.sections[name];
    if (!at) throw new Error(`the image has no section ${name}`);
    return bytes.subarray(at[0], at[0] + at[1]);
  };
  const u32 = (name: string) => {
    const s = section(name);
    return new Uint32Array(s.buffer, s.byteOffset, s.byteLength / 4);
  };
  const decode = (s: Uint8Array) => Buffer.from(s.buffer, s.byteOffset, s.byteLength).toString('utf8');
  const built = decode(section('version'));
  if (built !== header.version) throw new Error(`the image is of build ${built}, not ${header.version}`);

  const lists = (name: string): Lists => ({ start: u32(`${name}.start`), list: u32(name) });
  const json = section('json');
  const jsonBuffer = Buffer.from(json.buffer, json.byteOffset, json.byteLength);

  const offsets = {} as Record<Kind, Uint32Array>;
  const open = {} as Record<Kind, Buffer>;
  for (const k of header.kinds) {
    offsets[k] = u32(`${k}.offsets`);
    open[k] = Buffer.from(`,"${k}":[`);
    if (offsets[k].length !== (header.counts[k] ?? 0) + 1) throw new Error(`the image's ${k} offsets do not match its counts`);
  }
  let deferred = 0;
  const column = (kind: Kind, name: string, table: readonly string[]): Column => {
    const post = u32(`${name}.post`);
    let grouped: Grouped | undefined;
    let asked = 0;
    return {
      values: section(name),
      start: u32(`${name}.start`),
      post,
      codes: new Map(table.map((c, i) => [c, i])),
      // Built when a query needs it (see groupable), not at load: a cold start pays nothing for
      // it, and memory grows by one copy of a kind per column in repeated use.
      grouped: () => (grouped ??= regroup(jsonBuffer, offsets[kind], post, need)),
      groupable: () => {
        if (grouped !== undefined || ++asked > 1) return true;
        deferred++;
        return false;
      },
    };
  };

  const text = (from: number, to: number) => {
    need(from, to);
    return Buffer.from(json.buffer, json.byteOffset + from, to - from).toString('utf8');
  };
  const record = <K extends Kind>(kind: K, i: number): RecordOf<K> => {
    const off = offsets[kind];
    return JSON.parse(text(off[i]!, off[i + 1]! - 1)) as RecordOf<K>;
  };

  // Player ids are only decoded when a query names a player, and the hints of a 400 (which need
  // every player's names) only when a query is refused: neither costs a cold start anything.
  let ids: string[] | undefined;
  const idList = () => (ids ??= decode(section('players.ids')).split('\n'));
  const position = (id: string): number => {
    const list = idList();
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]! < id) lo = mid + 1;
      else hi = mid;
    }
    return lo < list.length && list[lo] === id ? lo : -1;
  };
  let hints: Hints | undefined;
  const allPlayers = (): Player[] => {
    const off = offsets.players;
    return off && off.length > 1 ? (JSON.parse(text(off[0]! - 1, off[off.length - 1]!)) as Player[]) : [];
  };
  const names = new Map<string, string | undefined>();

  const playerEvents = lists('players.events');
  // A hub whose copy did not fit the budget is remembered as null: its later queries gather its
  // records without summing their sizes again.
  const copies = new Map<number, Regrouped | null>();
  const hubEvents = Math.max(HUB_MIN_EVENTS, HUB_SHARE * (header.counts.events ?? 0));
  // Counted when a copy is promised, before its bytes exist, so the budget holds however many are built.
  let copyBytes = 0;

  const { asOf, source, attribution } = header.meta;
  const { topic, region, status } = header.codes;
  return {
    header,
    rules: {
      kinds: header.kinds,
      ...header.filters,
      players: { has: (id) => (header.counts.players ? position(id) >= 0 : false) },
      get hints() {
        const { profile, filters, labels, otherCodes } = header;
        return (hints ??= buildHints({ profile, filters, labels, otherCodes, players: allPlayers() }));
      },
    },
    json: jsonBuffer,
    need,
    deferred: () => deferred,
    offsets,
    open,
    head: Buffer.from(`{"meta":${JSON.stringify({ asOf, source, attribution }).slice(0, -1)},"counts":{`),
    labels: Buffer.from(`}},"labels":${JSON.stringify(header.labels)}`),
    events: {
      topic: column('events', 'events.topic', topic),
      region: column('events', 'events.region', region),
      status: column('events', 'events.status', status),
      key: column('events', 'events.key', ['false', 'true']),
      dates: { distinct: header.eventDates, start: u32('events.date.start') },
      players: lists('events.players'),
    },
    relations: {
      topic: column('relations', 'relations.topic', topic),
      years: { distinct: header.relationYears, start: u32('relations.year.start') },
      parties: u32('relations.ab'),
    },
    players: {
      region: column('players', 'players.region', region),
      events: playerEvents,
      relations: lists('players.relations'),
      position,
      eventCopy: (w) => {
        const { start, list } = playerEvents;
        if (start[w + 1]! - start[w]! < hubEvents) return undefined;
        const known = copies.get(w);
        if (known !== undefined) return known ?? undefined;
        const post = list.subarray(start[w], start[w + 1]);
        const off = offsets.events;
        let size = 0;
        for (const i of post) size += off[i + 1]! - off[i]!;
        if (copyBytes + size > HUB_COPY_BYTES) {
          copies.set(w, null);
          return undefined;
        }
        copyBytes += size;
        let grouped: Grouped | undefined;
        const copy: Regrouped = { post, grouped: () => (grouped ??= regroup(jsonBuffer, off, post, need)) };
        copies.set(w, copy);
        return copy;
      },
    },
    initiatives: { topics: header.kinds.includes('initiatives') ? u32('initiatives.topics') : new Uint32Array(0) },
    record,
    playerName: (id) => {
      if (!names.has(id)) {
        const at = position(id);
        names.set(id, at < 0 ? undefined : record('players', at).nameJa);
      }
      return names.get(id);
    },
  };
}

/** Copies records into the order of `post` (a column's posting lists, or one player's events), each followed by a comma. */
function regroup(json: Buffer, off: Uint32Array, post: Uint32Array, need: (from: number, to: number) => void): Grouped {
  const n = post.length;
  // Record i is off[i] … off[i + 1] - 1 (without its comma or the closing bracket) plus one comma.
  let size = 0;
  for (let k = 0; k < n; k++) {
    const i = post[k]!;
    need(off[i]!, off[i + 1]!);
    size += off[i + 1]! - off[i]!;
  }
  const bytes = Buffer.allocUnsafeSlow(size);
  const offsets = new Uint32Array(n + 1);
  let at = 0;
  for (let k = 0; k < n; k++) {
    const i = post[k]!;
    offsets[k] = at;
    at += json.copy(bytes, at, off[i]!, off[i + 1]! - 1);
    bytes[at++] = 0x2c;
  }
  offsets[n] = at;
  return { json: bytes, offsets };
}

/** Record bytes are read from an opened image in pages of this size, each the first time a query needs it. */
export const PAGE_BYTES = 4096;

/**
 * Opens the served image and reads all of it but the record bytes, which it reads a page at a
 * time as queries first need them. The buffer the image is read into is never touched where it
 * is not read, so the system maps in only the pages read: a cold start pays for the indexes and
 * the first answer's records, not for a copy of every record (at ×100, 238 MB of 246).
 */
function readInPlace(served: Served): { header: ImageHeader; bytes: Uint8Array; need: (from: number, to: number) => void } {
  const file = served.open();
  const bytes = Buffer.allocUnsafeSlow(file.size);
  const fill = (from: number, to: number) => {
    for (let at = from; at < to;) {
      const n = file.read(bytes, at, to - at, at);
      if (n <= 0) throw new Error(`the image ends at ${at} bytes; its header says ${file.size}`);
      at += n;
    }
  };
  const json = served.sections.json;
  if (!json) throw new Error('the image has no section json');
  const [start, length] = json;
  fill(0, start);
  fill(start + length, file.size);
  const read = new Uint8Array(Math.ceil(length / PAGE_BYTES));
  let unread = read.length;
  const need = (from: number, to: number) => {
    if (unread === 0) return;
    const last = Math.ceil(to / PAGE_BYTES);
    for (let page = Math.floor(from / PAGE_BYTES); page < last;) {
      if (read[page]) {
        page++;
        continue;
      }
      // A stretch of unread pages is one read; they count as read only once it has succeeded.
      let end = page;
      while (end < last && !read[end]) end++;
      fill(start + page * PAGE_BYTES, start + Math.min(end * PAGE_BYTES, length));
      read.fill(1, page, end);
      unread -= end - page;
      page = end;
    }
  };
  return { header: served, bytes, need };
}

/** Typed arrays view the image in place, which needs its sections 4-byte aligned in memory. */
function aligned(bytes: Uint8Array): Uint8Array {
  if (bytes.byteOffset % 8 === 0) return bytes;
  const copy = new Uint8Array(new ArrayBuffer(bytes.byteLength));
  copy.set(bytes);
  return copy;
}
