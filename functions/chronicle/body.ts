import type { Kind } from './dataset.js';
import type { Prepared } from './prepare.js';
import type { GroupedRuns, Selection } from './indexed.js';

/**
 * An answer's bytes as chunks to write in order: slices of the prepared record bytes where they are
 * large, and one fresh buffer holding everything small (the envelope, short runs of records).
 */
export interface Body {
  chunks: readonly Uint8Array<ArrayBuffer>[];
  /** Bytes in all chunks. */
  length: number;
  /** Bytes allocated for this answer alone (the rest are views of the prepared bytes). */
  owned: number;
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
  const pieces: Uint8Array[] = [p.head, p.labels];
  const json = p.json;
  for (const [kind, keep] of chosen) {
    const off = p.offsets[kind];
    const n = off.length - 1;
    if (keep === 'all') {
      counts.push(`"${kind}":${n}`);
      // The whole kind, its opening `,"<kind>":[` and closing bracket included.
      p.need(off[0]! - p.open[kind].length, off[n]!);
      pieces.push(json.subarray(off[0]! - p.open[kind].length, off[n]));
      continue;
    }
    // Runs over the response order index the image; runs over a grouped order, the grouped copy.
    const { runs, bytes, at } = Array.isArray(keep) ? { runs: keep, bytes: json, at: off } : grouped(keep);
    // Response-order runs are slices of the image's record bytes, read as they are first needed.
    const inImage = bytes === json;
    let kept = 0;
    pieces.push(p.open[kind]);
    for (let k = 0; k < runs.length; k += 2) {
      const s = runs[k]!;
      const e = runs[k + 1]!;
      kept += e - s;
      if (inImage) p.need(at[s]!, at[e]!);
      // Records s … e - 1 with the comma after each; the last run stops before its final comma.
      pieces.push(bytes.subarray(at[s], at[e]! - (k + 2 === runs.length ? 1 : 0)));
    }
    pieces.push(CLOSE_ARRAY);
    counts.push(`"${kind}":${kept}`);
  }
  pieces.push(CLOSE_OBJECT);
  pieces.splice(1, 0, Buffer.from(counts.join(',')));
  return coalesce(pieces, layout);
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
function coalesce(pieces: Uint8Array[], { viewFrom, oneBufferBelow }: Layout): Body {
  let length = 0;
  let small = 0;
  for (const piece of pieces) {
    length += piece.byteLength;
    if (piece.byteLength < viewFrom) small += piece.byteLength;
  }
  if (small === 0 && length >= oneBufferBelow) return { chunks: pieces as Uint8Array<ArrayBuffer>[], length, owned: 0 };
  const one = length < oneBufferBelow;
  // Bytes still to copy, so that the last block is no larger than what is left.
  let left = one ? length : small;
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let block = NO_BLOCK;
  let at = 0;
  let from = 0;
  let owned = 0;
  for (const piece of pieces) {
    const size = piece.byteLength;
    if (one || size < viewFrom) {
      if (at + size > block.byteLength) {
        if (at > from) chunks.push(block.subarray(from, at));
        // A piece copied is smaller than viewFrom, so it always fits a new block.
        block = Buffer.allocUnsafeSlow(one ? length : Math.min(Math.max(BLOCK_BYTES, size), left));
        owned += block.byteLength;
        at = from = 0;
      }
      block.set(piece, at);
      at += size;
      left -= size;
    } else {
      if (at > from) chunks.push(block.subarray(from, at));
      from = at;
      chunks.push(piece as Uint8Array<ArrayBuffer>);
    }
  }
  if (at > from) chunks.push(block.subarray(from, at));
  return { chunks, length, owned };
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
  const kept = coalesce(body.chunks as Uint8Array[], { viewFrom: KEPT_VIEW_FROM, oneBufferBelow: ONE_BUFFER_BELOW });
  // Blocks of the first layout that stay in use are still this answer's: counted, at most once more.
  return kept.chunks === body.chunks ? body : { ...kept, owned: kept.owned + body.owned };
}

/** The unfiltered answer as one buffer, byte for byte what GET /api/chronicle sends (the build's download). */
export function completeAnswer(p: Prepared): Uint8Array {
  return Buffer.concat(assemble(p, new Map(p.header.kinds.map((k) => [k, 'all' as const]))).chunks);
}
