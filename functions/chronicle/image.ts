import type { BuiltDataset, Kind, Labels, Meta, Profile } from './dataset.js';

// The served dataset as the function uses it, prepared once at build time: every record's JSON
// bytes laid end to end in response order (so a run of consecutive records is one slice of them),
// and the indexes a query needs (per-record code columns, posting lists per code and per player,
// the first position of every distinct date). The build writes it as `.build/served.bin` beside
// `.build/served.js`; an instance reads the file and serves from it without parsing or encoding a
// record. `buildImage` also runs in-process, for a dataset given as an object (tests, benchmarks).

export const IMAGE_FORMAT = 1;

/** Everything small about the image, carried inline in served.js as JSON. */
export interface ImageHeader {
  format: typeof IMAGE_FORMAT;
  profile: Profile;
  /** Content hash of the build; part of every ETag, and the first bytes of the image. */
  version: string;
  kinds: Kind[];
  filters: { topic: string[]; region: string[]; status: string[] };
  /** The vocabulary's codes this profile does not serve, for the hints of a 400. */
  otherCodes: BuiltDataset['otherCodes'];
  meta: Meta;
  labels: Labels;
  /** Records per kind. */
  counts: Partial<Record<Kind, number>>;
  /** Code numbers of the code columns: a code's number is its position here. */
  codes: { topic: string[]; region: string[]; status: string[] };
  /** Distinct event dates and relation years, ascending (positions in `*.date.start`). */
  eventDates: string[];
  relationYears: string[];
  /** Byte offset and length of each section of the image. */
  sections: Record<string, [number, number]>;
}

/** What `.build/served.js` exports: the header, and the image file, opened to be read in place. */
export interface Served extends ImageHeader {
  open(): ImageFile;
}

/** The image file, open: its size, and a read of `length` bytes at `position` into `into` at `offset` (bytes read). */
export interface ImageFile {
  size: number;
  read(into: Uint8Array, offset: number, length: number, position: number): number;
}

export function isServed(x: unknown): x is Served {
  return typeof x === 'object' && x !== null && (x as Served).format === IMAGE_FORMAT && typeof (x as Served).open === 'function';
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Lays the dataset out as an image. The dataset must be in response order (the pipeline's). */
export function buildImage(d: BuiltDataset): { header: ImageHeader; bytes: Buffer } {
  const sections = new Sections();
  sections.add('version', Buffer.from(d.version));

  // Record bytes: `,"<kind>":[r0,r1,…]` per kind, in response order; `<kind>.offsets[i]` is where
  // record i starts, and `offsets[n]` is one past the closing bracket, so record i ends one byte
  // (a comma, or the bracket) before offsets[i + 1].
  const json: Buffer[] = [];
  let at = 0;
  const offsets = {} as Record<Kind, Uint32Array>;
  const counts: Partial<Record<Kind, number>> = {};
  for (const k of d.kinds) {
    const records = (d[k] ?? []) as unknown[];
    if (!Array.isArray(d[k])) throw new Error(`the dataset has no ${k} array`);
    counts[k] = records.length;
    const open = Buffer.from(`,"${k}":[`);
    json.push(open);
    at += open.length;
    const off = new Uint32Array(records.length + 1);
    records.forEach((r, i) => {
      const b = Buffer.from((i ? ',' : '') + JSON.stringify(r));
      off[i] = at + (i ? 1 : 0);
      json.push(b);
      at += b.length;
    });
    json.push(Buffer.from(']'));
    at += 1;
    off[records.length] = at;
    offsets[k] = off;
  }
  // Offsets are relative to the start of the `json` section, which is laid out first after the version.
  const jsonBytes = Buffer.concat(json);
  if (jsonBytes.length >= 2 ** 32) throw new Error('the dataset is too large for 32-bit offsets');
  sections.add('json', jsonBytes);
  for (const k of d.kinds) sections.add(`${k}.offsets`, offsets[k]);

  const seenTopics = new Set([...d.filters.topic, ...d.events.map((e) => e.topic), ...d.relations.map((r) => r.topic)]);
  const codes = {
    topic: [...d.filters.topic, ...[...seenTopics].filter((t) => !d.filters.topic.includes(t)).sort()],
    region: [...new Set([...d.filters.region, ...d.events.map((e) => e.region), ...d.players.map((p) => p.region)])],
    status: [...new Set([...d.filters.status, ...d.events.map((e) => e.status)])],
  };
  if (codes.topic.length > 32) throw new Error('more than 32 topics do not fit an initiative topic mask');
  const number = (table: string[]) => new Map(table.map((c, i) => [c, i]));
  const topicNo = number(codes.topic);
  const regionNo = number(codes.region);
  const statusNo = number(codes.status);

  const playerNo = new Map(d.players.map((p, i) => [p.id, i]));
  d.players.forEach((p, i) => {
    if (i && cmp(d.players[i - 1]!.id, p.id) >= 0) throw new Error('players are not in id order');
  });
  const refer = (id: string) => {
    const n = playerNo.get(id);
    if (n === undefined) throw new Error(`player ${id} is not in the dataset`);
    return n;
  };

  // Events: code columns with their posting lists, distinct dates, players both ways.
  const ev = d.events;
  ev.forEach((e, i) => {
    if (i && cmp(ev[i - 1]!.date, e.date) > 0) throw new Error('events are not in date order');
  });
  column(
    sections,
    'events.topic',
    ev.map((e) => topicNo.get(e.topic)!),
    codes.topic.length,
  );
  column(
    sections,
    'events.region',
    ev.map((e) => regionNo.get(e.region)!),
    codes.region.length,
  );
  column(
    sections,
    'events.status',
    ev.map((e) => statusNo.get(e.status)!),
    codes.status.length,
  );
  column(
    sections,
    'events.key',
    ev.map((e) => (e.key ? 1 : 0)),
    2,
  );
  const eventDates = distinctStarts(
    sections,
    'events.date',
    ev.map((e) => e.date),
  );
  const eventPlayers = ev.map((e) => e.players.map(refer));
  csr(sections, 'events.players', eventPlayers);
  csr(sections, 'players.events', invert(eventPlayers, d.players.length));

  // Relations: topic column, distinct years, the two parties and, per player, its relations.
  const rel = d.relations;
  rel.forEach((r, i) => {
    if (i && cmp(rel[i - 1]!.year, r.year) > 0) throw new Error('relations are not in year order');
  });
  column(
    sections,
    'relations.topic',
    rel.map((r) => topicNo.get(r.topic)!),
    codes.topic.length,
  );
  const relationYears = distinctStarts(
    sections,
    'relations.year',
    rel.map((r) => r.year),
  );
  const parties = rel.map((r) => [refer(r.a), refer(r.b)]);
  sections.add('relations.ab', Uint32Array.from(parties.flat()));
  csr(sections, 'players.relations', invert(parties, d.players.length));

  // Players: region column; ids, in order, for the query check.
  column(
    sections,
    'players.region',
    d.players.map((p) => regionNo.get(p.region)!),
    codes.region.length,
  );
  sections.add('players.ids', Buffer.from(d.players.map((p) => p.id).join('\n')));

  // Initiatives: per initiative, a bit per topic that any of its events has.
  if (d.kinds.includes('initiatives')) {
    const topicOf = new Map(ev.map((e) => [e.id, topicNo.get(e.topic)!]));
    sections.add(
      'initiatives.topics',
      Uint32Array.from((d.initiatives ?? []).map((x) => x.eventIds.reduce((bits, id) => bits | (1 << topicOf.get(id)!), 0) >>> 0)),
    );
  }

  const { profile, version, kinds, filters, otherCodes, meta, labels } = d;
  const bytes = sections.bytes();
  return {
    header: {
      format: IMAGE_FORMAT,
      profile,
      version,
      kinds,
      filters,
      otherCodes,
      meta,
      labels,
      counts,
      codes,
      eventDates,
      relationYears,
      sections: sections.index,
    },
    bytes,
  };
}

/** A code column (one byte per record) and its posting lists, `<name>.post` in `<name>.start` blocks. */
function column(s: Sections, name: string, values: number[], codes: number): void {
  if (codes > 255) throw new Error(`${name}: more than 255 codes`);
  s.add(name, Uint8Array.from(values));
  csrByCode(s, name, values, codes);
}

function csrByCode(s: Sections, name: string, values: number[], codes: number): void {
  const lists: number[][] = Array.from({ length: codes }, () => []);
  values.forEach((v, i) => lists[v]!.push(i));
  const start = new Uint32Array(codes + 1);
  lists.forEach((l, c) => (start[c + 1] = start[c]! + l.length));
  s.add(`${name}.start`, start);
  s.add(`${name}.post`, Uint32Array.from(lists.flat()));
}

/** Lists of numbers as `<name>.start` (n + 1 bounds) and `<name>` (the numbers, list after list). */
function csr(s: Sections, name: string, lists: number[][]): void {
  const start = new Uint32Array(lists.length + 1);
  lists.forEach((l, i) => (start[i + 1] = start[i]! + l.length));
  s.add(`${name}.start`, start);
  s.add(name, Uint32Array.from(lists.flat()));
}

/** For lists of targets per source, the sorted list of sources per target. */
function invert(lists: number[][], targets: number): number[][] {
  const out: number[][] = Array.from({ length: targets }, () => []);
  lists.forEach((l, i) => {
    for (const t of new Set(l)) out[t]!.push(i);
  });
  return out;
}

/** The distinct values of a sorted column, and where each starts (`<name>.start`, n + 1 bounds). */
function distinctStarts(s: Sections, name: string, sorted: string[]): string[] {
  const distinct: string[] = [];
  const start: number[] = [];
  sorted.forEach((v, i) => {
    if (v !== distinct[distinct.length - 1]) {
      distinct.push(v);
      start.push(i);
    }
  });
  start.push(sorted.length);
  s.add(`${name}.start`, Uint32Array.from(start));
  return distinct;
}

/** Named byte ranges, each aligned to 8 bytes so that typed arrays can view them in place. */
class Sections {
  readonly index: Record<string, [number, number]> = {};
  private parts: Uint8Array[] = [];
  private at = 0;

  add(name: string, data: Uint8Array | Uint32Array): void {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.index[name] = [this.at, bytes.byteLength];
    this.parts.push(bytes);
    this.at += bytes.byteLength;
    const pad = (8 - (this.at % 8)) % 8;
    if (pad) {
      this.parts.push(new Uint8Array(pad));
      this.at += pad;
    }
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts, this.at);
  }
}
