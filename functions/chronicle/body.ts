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
 * several chunks, and a single buffer is what a Response or a socket takes most cheaply.
 */
export const ONE_BUFFER_BELOW = 64 * 1024;

/**
 * A run of records at least this long goes out as a view of the prepared bytes, not a copy:
 * copying 8 KiB costs about what one more chunk costs whoever reads the body.
 */
export const VIEW_FROM = 8 * 1024;

const CLOSE_ARRAY = Buffer.from(']');
const CLOSE_OBJECT = Buffer.from('}');
/** Where coalesce starts: no room, so the first piece to copy opens a block. */
const NO_BLOCK = Buffer.alloc(0);

/**
 * How an answer's pieces become chunks. For a Response, whose stream hands each chunk on at a
 * cost, small pieces are copied together (the defaults). A Node socket takes a list of buffers in
 * one writev, so there every piece can stay a view: `{ viewFrom: 0, oneBufferBelow: 0 }`.
 */
export interface Layout {
  viewFrom: number;
  oneBufferBelow: number;
  /**
   * Runs from this many bytes also stay views while an answer has at most `maxViews` of them.
   * Copying a run of a few records costs little time, but the copies of a scattered answer are
   * fresh memory of its whole size: the system faults in its pages, and the collector, counting
   * that memory, runs more often. Those, not the copy, made the slow tail of such answers (×1
   * "many values": p99 about halved). Past `maxViews` chunks, handing them on costs more.
   */
  shortViewFrom: number;
  maxViews: number;
}

export const FOR_STREAMS: Layout = { viewFrom: VIEW_FROM, oneBufferBelow: ONE_BUFFER_BELOW, shortViewFrom: 1024, maxViews: 4096 };
export const FOR_SOCKETS: Layout = { viewFrom: 0, oneBufferBelow: 0, shortViewFrom: 0, maxViews: 0 };

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
function coalesce(pieces: Uint8Array[], { viewFrom, oneBufferBelow, shortViewFrom, maxViews }: Layout): Body {
  let length = 0;
  let shortRuns = 0;
  for (const piece of pieces) {
    length += piece.byteLength;
    if (piece.byteLength >= shortViewFrom) shortRuns++;
  }
  if (shortViewFrom < viewFrom && shortRuns <= maxViews) viewFrom = shortViewFrom;
  let small = 0;
  for (const piece of pieces) if (piece.byteLength < viewFrom) small += piece.byteLength;
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

/** The unfiltered answer as one buffer, byte for byte what GET /api/chronicle sends (the build's download). */
export function completeAnswer(p: Prepared): Uint8Array {
  return Buffer.concat(assemble(p, new Map(p.header.kinds.map((k) => [k, 'all' as const]))).chunks);
}
