import type { Kind } from './dataset.js';
import type { Prepared } from './prepare.js';
import type { GroupedRuns, Selection } from './indexed.js';

/**
 * An answer's bytes as chunks to write in order, held as a few segments: a buffer (a piece of the
 * envelope, or a block of short pieces copied together), or a stretch of the selection's runs of
 * records over the prepared bytes, each run one chunk. No view of a run exists until the chunk is
 * handed on (`chunkReader`), and nothing per run is allocated here: a view per run of a scattered
 * answer (24,890 at ×100) lived as long as the answer took to send, long enough for the collector
 * to move it to the old generation, and a list of them, or of their offsets, is an array too large
 * for the young generation, taken from fresh pages on every request.
 */
export interface Body {
  segments: readonly Segment[];
  /** Chunks in all segments. */
  count: number;
  /** Bytes in all chunks. */
  length: number;
  /** Bytes allocated for this answer alone (the rest are stretches of the prepared bytes). */
  owned: number;
}

export type Segment = Uint8Array<ArrayBuffer> | Runs;

/** Runs `from` … `to` - 1 of a selection: run j is records runs[2j] … runs[2j+1] - 1, at offsets `at` in `bytes`. */
export interface Runs {
  bytes: Uint8Array<ArrayBuffer>;
  at: ArrayLike<number>;
  runs: ArrayLike<number>;
  from: number;
  to: number;
  /** The run that stops before its final comma (the kind's last), or -1. */
  last: number;
}

const chunksIn = (s: Segment): number => (s instanceof Uint8Array ? 1 : s.to - s.from);

/** Where run j of a segment starts and ends. */
const startOf = (r: Runs, j: number): number => r.at[r.runs[2 * j]!]!;
const endOf = (r: Runs, j: number): number => r.at[r.runs[2 * j + 1]!]! - (j === r.last ? 1 : 0);

/** Hands on the body's chunks in order, one view each, made as it is asked for; undefined at the end. */
export function chunkReader(body: Body): () => Uint8Array<ArrayBuffer> | undefined {
  let k = 0;
  let j = -1;
  return () => {
    for (;;) {
      const seg = body.segments[k];
      if (seg === undefined) return undefined;
      if (seg instanceof Uint8Array) {
        k++;
        return seg;
      }
      if (j < 0) j = seg.from;
      if (j < seg.to) {
        const chunk = seg.bytes.subarray(startOf(seg, j), endOf(seg, j));
        j++;
        return chunk;
      }
      k++;
      j = -1;
    }
  };
}

/** Every chunk of the body, as views (for a whole answer at once, and for tests). */
export function chunksOf(body: Body): Uint8Array<ArrayBuffer>[] {
  const next = chunkReader(body);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for (let c = next(); c !== undefined; c = next()) chunks.push(c);
  return chunks;
}

/** A body of the given chunks; `owned` says how many of their bytes are the answer's own. */
export function bodyOfChunks(chunks: readonly Uint8Array<ArrayBuffer>[], owned = 0): Body {
  return { segments: chunks, count: chunks.length, length: chunks.reduce((n, c) => n + c.byteLength, 0), owned };
}

/**
 * Below this many bytes an answer is one buffer: a copy that small costs less than handing on
 * several chunks, and a single buffer is what a Response or a socket takes most cheaply. Not
 * larger: a Response copies a byte-array body once more (Fetch copies a BufferSource), and two
 * fresh copies of tens of KiB per request put the collector on the requests after it. ×1, p99 ms
 * with the limit at 64 KiB → 16 KiB (two runs each, 2026-11-29): `from+key` (63 KiB) 0.65–0.83 →
 * 0.09–0.13, cached 0.58–0.69 → 0.07–0.08; one month (32 KiB) 0.16–0.57 → 0.12–0.13; player+from
 * (24 KiB) 0.34–0.45 → 0.10–0.14 (0.32–0.36 at 32 KiB).
 */
export const ONE_BUFFER_BELOW = 16 * 1024;

/**
 * A run of records at least this long (about one record) goes out as a view of the prepared bytes,
 * not a copy. Copying a run costs little time, but the copies of a scattered answer are fresh
 * memory of its whole size: the system faults in its pages, and the collector, counting that
 * memory, runs more often, on this answer and on the requests after it. A view costs one more
 * chunk for whoever reads the body (about half a microsecond once the stream hands chunks on in
 * batches, `streamOf` in handler.ts). ×100 "many values" (23,717 runs), p50 / p99: 67–74 / 137–186
 * ms copying runs under 8 KiB, 28.5 / 74–82 ms as views; 20 players 3.8 / 40–50 → 2.2–2.4 / 6–9 ms.
 */
export const VIEW_FROM = 1024;

const CLOSE_ARRAY = Buffer.from(']');
const CLOSE_OBJECT = Buffer.from('}');
/** Where coalesce starts: no room, so the first piece to copy opens a block. */
const NO_BLOCK = Buffer.alloc(0);

/**
 * How an answer's pieces become chunks. For a Response, whose stream hands each chunk on at a
 * cost, pieces shorter than a record are copied together (the defaults). A Node socket takes a
 * list of buffers in one writev, so there every piece of a larger answer can stay a view (`FOR_SOCKETS`).
 */
export interface Layout {
  viewFrom: number;
  oneBufferBelow: number;
}

export const FOR_STREAMS: Layout = { viewFrom: VIEW_FROM, oneBufferBelow: ONE_BUFFER_BELOW };
/**
 * A socket writes an answer under this size in one piece: one write instead of a writev of its
 * seven views (one player, 5.5 KiB: cached 0.54× → 0.87× of the bare limit's requests/s). Larger
 * answers stay views: a fresh buffer of tens of KiB per request faults its pages in, and `from+key`
 * (63 KiB) fell from 0.93× to 0.19× when it went out as one copy.
 */
export const ONE_WRITE_BELOW = 8 * 1024;
export const FOR_SOCKETS: Layout = { viewFrom: 0, oneBufferBelow: ONE_WRITE_BELOW };

/** Lays out an answer: the envelope with its counts, then each chosen kind's records. Nothing is serialized. */
export function assemble(p: Prepared, chosen: ReadonlyMap<Kind, Selection>, layout: Layout = FOR_STREAMS): Body {
  const counts: string[] = [];
  const segments: Segment[] = [p.head as Uint8Array<ArrayBuffer>, p.labels as Uint8Array<ArrayBuffer>];
  const json = p.json as Uint8Array<ArrayBuffer>;
  for (const [kind, keep] of chosen) {
    const off = p.offsets[kind];
    const n = off.length - 1;
    const open = p.open[kind] as Uint8Array<ArrayBuffer>;
    if (keep === 'all') {
      counts.push(`"${kind}":${n}`);
      // The whole kind, its opening `,"<kind>":[` and closing bracket included.
      p.need(off[0]! - open.length, off[n]!);
      segments.push(json.subarray(off[0]! - open.length, off[n]));
      continue;
    }
    // Runs over the response order index the image; runs over a grouped order, the grouped copy.
    const { runs, bytes, at } = Array.isArray(keep) ? { runs: keep, bytes: json, at: off } : grouped(keep);
    let kept = 0;
    for (let k = 0; k < runs.length; k += 2) {
      kept += runs[k + 1]! - runs[k]!;
      // Response-order runs are slices of the image's record bytes, read as they are first needed.
      if (bytes === json) p.need(at[runs[k]!]!, at[runs[k + 1]!]!);
    }
    segments.push(open);
    // Records runs[2j] … runs[2j+1] - 1 with the comma after each; the last run stops before its final comma.
    if (runs.length > 0)
      segments.push({ bytes: bytes as Uint8Array<ArrayBuffer>, at, runs, from: 0, to: runs.length / 2, last: runs.length / 2 - 1 });
    segments.push(CLOSE_ARRAY);
    counts.push(`"${kind}":${kept}`);
  }
  segments.push(CLOSE_OBJECT);
  segments.splice(1, 0, Buffer.from(counts.join(',')) as Uint8Array<ArrayBuffer>);
  return coalesce(segments, layout);
}

function grouped({ column, runs }: GroupedRuns) {
  const g = column.grouped();
  return { runs, bytes: g.json, at: g.offsets };
}

/**
 * Small pieces are copied into blocks of at most this many bytes. One fresh buffer the size of a
 * large scattered answer (tens of MiB at ×100) is mapped anew by the system for each answer and
 * its first write pays a page fault per 4 KiB: copying 32 MiB that way ran at under 1 GB/s.
 * Blocks this small are reused from the allocator's free memory, and the same copy runs about 3×
 * faster. A stream or a socket takes the blocks as they come.
 */
export const BLOCK_BYTES = 64 * 1024;

/** Copies the small pieces into blocks, in order, and keeps the large ones as they are. */
function coalesce(segments: readonly Segment[], { viewFrom, oneBufferBelow }: Layout): Body {
  let length = 0;
  let small = 0;
  let count = 0;
  for (const seg of segments) {
    count += chunksIn(seg);
    if (seg instanceof Uint8Array) {
      length += seg.byteLength;
      if (seg.byteLength < viewFrom) small += seg.byteLength;
      continue;
    }
    for (let j = seg.from; j < seg.to; j++) {
      const size = endOf(seg, j) - startOf(seg, j);
      length += size;
      if (size < viewFrom) small += size;
    }
  }
  if (small === 0 && length >= oneBufferBelow) return { segments, count, length, owned: 0 };
  const one = length < oneBufferBelow;
  // Bytes still to copy, so that the last block is no larger than what is left.
  let left = one ? length : small;
  const out: Segment[] = [];
  let block = NO_BLOCK;
  let at = 0;
  let from = 0;
  let owned = 0;
  const endBlockPiece = () => {
    if (at > from) out.push(block.subarray(from, at));
    from = at;
  };
  const copy = (src: Uint8Array, start: number, end: number) => {
    const size = end - start;
    if (at + size > block.byteLength) {
      endBlockPiece();
      // A piece copied is smaller than viewFrom, so it always fits a new block.
      block = Buffer.allocUnsafeSlow(one ? length : Math.min(Math.max(BLOCK_BYTES, size), left));
      owned += block.byteLength;
      at = from = 0;
    }
    block.set(src.subarray(start, end), at);
    at += size;
    left -= size;
  };
  for (const seg of segments) {
    if (seg instanceof Uint8Array) {
      if (one || seg.byteLength < viewFrom) copy(seg, 0, seg.byteLength);
      else {
        endBlockPiece();
        out.push(seg);
      }
      continue;
    }
    // Consecutive runs kept as views stay one segment over the same list of runs.
    let first = -1;
    const endViews = (j: number) => {
      if (first >= 0) out.push({ ...seg, from: first, to: j });
      first = -1;
    };
    for (let j = seg.from; j < seg.to; j++) {
      const start = startOf(seg, j);
      const end = endOf(seg, j);
      if (one || end - start < viewFrom) {
        endViews(j);
        copy(seg.bytes, start, end);
      } else if (first < 0) {
        endBlockPiece();
        first = j;
      }
    }
    endViews(seg.to);
  }
  endBlockPiece();
  return { segments: out, count: out.reduce((n, seg) => n + chunksIn(seg), 0), length, owned };
}

/**
 * A run this long or longer stays a view in an answer that is kept for repeats; shorter ones are
 * copied together once, when it is first sent, so that every repeat reads few chunks (×1 "many
 * values" from the cache: p50 0.06–0.07 ms as views, 0.01–0.02 ms copied together).
 */
export const KEPT_VIEW_FROM = 8 * 1024;

/**
 * Answers larger than this are kept as they were sent. Copying the short runs of a large scattered
 * answer is fresh memory the collector then pays for on every request (×100 "many values", 66 MiB:
 * cached p99 18–29 ms kept as views, 153–184 ms with its runs copied), and such an answer takes
 * long to send whatever its chunks.
 */
export const KEEP_COPIES_BELOW = 4 * 1024 * 1024;

/** The answer laid out for keeping: in a small answer, runs under KEPT_VIEW_FROM copied into blocks. */
export function forKeeping(body: Body): Body {
  if (body.length >= KEEP_COPIES_BELOW) return body;
  const kept = coalesce(body.segments, { viewFrom: KEPT_VIEW_FROM, oneBufferBelow: ONE_BUFFER_BELOW });
  // Blocks of the first layout that stay in use are still this answer's: counted, at most once more.
  return kept.segments === body.segments ? body : { ...kept, owned: kept.owned + body.owned };
}

/** The unfiltered answer as one buffer, byte for byte what GET /api/chronicle sends (the build's download). */
export function completeAnswer(p: Prepared): Uint8Array {
  return Buffer.concat(chunksOf(assemble(p, new Map(p.header.kinds.map((k) => [k, 'all' as const])))));
}
