import { CST, Document, isScalar, Parser, type DocumentOptions, type ParseOptions, type ScalarTag, type SchemaOptions } from 'yaml';
import { lineReader } from './yaml-lines.js';

// Records are written in a plain subset of YAML: a map of `name: value` entries whose values are
// scalars, one-line flow lists and maps of scalars, or block lists and maps of those (the style a
// YAML writer emits); or one flow map on one line (a relation). For a text in that subset the
// value is read straight off the parser's concrete syntax tree, skipping the document model that
// the full parse composes and then converts (a quarter of its time). Anything outside it (tabs,
// CR, anchors, tags, explicit keys, comments out of place, deep nesting, any token the checks
// below do not name) returns undefined, and the full parse decides and reports. The subset is
// deliberately narrower than YAML: accepting a text the full parse rejects would let a broken
// record through, while declining one it accepts only costs time. test/yaml-plain.test.ts holds
// the two paths to the same values over every content file and thousands of mutated texts.

type Options = DocumentOptions & SchemaOptions & ParseOptions;
type Token = CST.Token;
type SourceToken = CST.SourceToken;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Block map keys longer than this are declined (the full parse limits implicit keys to 1024). */
const MAX_NAME = 64;

export interface PlainReader {
  /** The value of `text`, or undefined when the text is not in the plain shape. */
  read(text: string): { value: unknown } | undefined;
  /** The line reader alone (the records' own style), for tests. */
  lines(text: string): { value: unknown } | undefined;
}

/** A reader resolving plain scalars exactly as a full parse with `options` would. */
export function plainReader(options: Options): PlainReader {
  const tags = new Document(null, options).schema.tags.filter((t): t is ScalarTag => t.default === true && 'test' in t && !!t.test);
  const plain = (source: string): { value: unknown } | undefined => {
    const tag = tags.find((t) => t.test!.test(source));
    if (!tag) return { value: source };
    let failed = false;
    const r: unknown = tag.resolve!(source, () => (failed = true), options);
    return failed ? undefined : { value: isScalar(r) ? r.value : r };
  };
  // A scalar token's value, with the same checks as the full parse (escapes, folding, trailing
  // comment spacing); undefined on any problem. Only block context may break a scalar over lines.
  const scalar = (tok: Token, multiline: boolean): { value: unknown } | undefined => {
    if (tok.type !== 'scalar' && tok.type !== 'single-quoted-scalar' && tok.type !== 'double-quoted-scalar') return undefined;
    if (!multiline && tok.source.includes('\n')) return undefined;
    let failed = false;
    const r = CST.resolveAsScalar(tok, true, () => (failed = true));
    if (failed || !r) return undefined;
    return tok.type === 'scalar' ? plain(r.value) : { value: r.value };
  };
  // Whether a key is one both readers take. A key the schema reads as anything but its own text
  // (`true`, `null`) is the full parse's to judge. Records repeat the same dozen keys, so the
  // answers are kept (a bounded number: a key is at most MAX_NAME characters, but texts are many).
  const known = new Map<string, boolean>();
  const isName = (key: string): boolean => {
    let ok = known.get(key);
    if (ok === undefined) {
      ok = key.length <= MAX_NAME && NAME.test(key) && key !== '__proto__' && plain(key)?.value === key;
      if (known.size < 1024) known.set(key, ok);
    }
    return ok;
  };
  const name = (tok: Token | null | undefined): string | undefined =>
    tok && tok.type === 'scalar' && !tok.end?.length && isName(tok.source) ? tok.source : undefined;
  // The records' own style is read line by line first, without even the parser's tokens.
  const lines = lineReader(plain, isName);
  return {
    lines,
    read(text) {
      const fast = lines(text);
      if (fast) return fast;
      if (text.includes('\t') || text.includes('\r')) return undefined;
      let doc: CST.Document | undefined;
      for (const tok of new Parser().parse(text)) {
        // Comment lines before the document come as tokens of their own.
        if (!doc && (tok.type === 'comment' || tok.type === 'newline') && onlyLines(text, [tok])) continue;
        if (tok.type !== 'document' || doc) return undefined;
        doc = tok;
      }
      if (!doc || !onlyBlanks(text, doc.start) || !onlyBlanks(text, doc.end ?? [])) return undefined;
      if (doc.value === undefined) return { value: null };
      // A relation is one line: a flow map at the root.
      if (doc.value.type === 'flow-collection') return doc.value.start.source === '{' ? flow(text, doc.value, { scalar, name }) : undefined;
      if (doc.value.type !== 'block-map' || doc.value.indent !== 0) return undefined;
      return blockMap(text, doc.value, { scalar, name }, 0);
    },
  };
}

interface Readers {
  scalar(tok: Token, multiline: boolean): { value: unknown } | undefined;
  name(tok: Token | null | undefined): string | undefined;
}
/** Lists and maps nested deeper than this are declined. */
const MAX_DEPTH = 3;

/** Comments, spaces and line breaks only, each comment set off by white space or a line start. */
function onlyBlanks(text: string, tokens: readonly SourceToken[], from = 0, to = tokens.length): boolean {
  for (let i = from; i < to; i++) {
    const t = tokens[i]!;
    if (t.type === 'comment') {
      if (t.offset > 0 && text[t.offset - 1] !== ' ' && text[t.offset - 1] !== '\n') return false;
    } else if (t.type !== 'space' && t.type !== 'newline') return false;
  }
  return true;
}

/** A value in block context: a block map or list (on the lines below), a flow one, a scalar. */
function blockValue(text: string, tok: Token, read: Readers, depth: number): { value: unknown } | undefined {
  if (tok.type === 'block-map') return depth < MAX_DEPTH ? blockMap(text, tok, read, depth + 1) : undefined;
  if (tok.type === 'block-seq') return depth < MAX_DEPTH ? blockSeq(text, tok, read, depth + 1) : undefined;
  if (tok.type === 'flow-collection') return flow(text, tok, read);
  return read.scalar(tok, true);
}

function blockMap(text: string, map: CST.BlockMap, read: Readers, depth: number): { value: unknown } | undefined {
  const out: Record<string, unknown> = {};
  const items = map.items;
  for (let i = 0; i < items.length; i++) {
    const { start, key, sep, value } = items[i]!;
    // At the root, entries start at the line start; nested, after the indent.
    if ('explicitKey' in items[i]! || !(depth === 0 ? onlyLines(text, start) : onlyBlanks(text, start))) return undefined;
    if (!key && !sep) {
      // Comments after the last entry; anywhere else the full parse has something to say.
      if (i !== items.length - 1 || value) return undefined;
      continue;
    }
    const k = read.name(key);
    if (k === undefined || key?.type !== 'scalar' || key.indent !== map.indent || Object.hasOwn(out, k)) return undefined;
    if (!sep || sep[0]?.type !== 'map-value-ind' || sep[0].source !== ':' || !onlyBlanks(text, sep, 1)) return undefined;
    if (sep.length > 1 && sep[1]!.type !== 'space' && sep[1]!.type !== 'newline') return undefined;
    // A block list or map goes on the lines below its key; anything else on the key's line.
    const below = sep.some((t) => t.type === 'newline');
    const v = !value
      ? { value: null }
      : below !== (value.type === 'block-seq' || value.type === 'block-map')
        ? undefined
        : blockValue(text, value, read, depth);
    if (!v) return undefined;
    out[k] = v.value;
  }
  return { value: out };
}

/** Line breaks and whole-line comments: what may come between a block map's entries. */
function onlyLines(text: string, tokens: readonly SourceToken[]): boolean {
  for (const t of tokens) {
    if (t.type === 'comment') {
      if (t.offset > 0 && text[t.offset - 1] !== '\n') return false;
    } else if (t.type !== 'newline') return false;
  }
  return true;
}

function blockSeq(text: string, seq: CST.BlockSequence, read: Readers, depth: number): { value: unknown } | undefined {
  const out: unknown[] = [];
  for (const { start, value } of seq.items) {
    // `- ` then the item on the same line, after any comment lines and the indent.
    const ind = start.length - 2;
    if (ind < 0 || start[ind]!.type !== 'seq-item-ind' || start[ind]!.source !== '-' || start[ind + 1]!.type !== 'space') return undefined;
    if (!onlyBlanks(text, start, 0, ind)) return undefined;
    if (!value || value.type === 'block-seq') return undefined;
    const v = blockValue(text, value, read, depth);
    if (!v) return undefined;
    out.push(v.value);
  }
  return { value: out };
}

/** A one-line `[a, b]` of scalars or `{name: value, …}` with scalar values. */
function flow(text: string, fc: CST.FlowCollection, read: Readers): { value: unknown } | undefined {
  const isMap = fc.start.source === '{';
  const close = fc.end[0];
  if (!close || close.source !== (isMap ? '}' : ']')) return undefined;
  const lineEnd = text.indexOf('\n', fc.offset);
  if (lineEnd !== -1 && lineEnd < close.offset) return undefined;
  // After the closing bracket: blanks, and a comment only after a space.
  if (fc.end[1]?.type === 'comment' || !onlyBlanks(text, fc.end, 1)) return undefined;
  const list: unknown[] = [];
  const map: Record<string, unknown> = {};
  for (let i = 0; i < fc.items.length; i++) {
    const { start, key, sep, value } = fc.items[i]!;
    // Item i starts with `, ` (the first with nothing or a space); no empty or trailing items.
    const lead = i === 0 ? 0 : 1;
    if (i > 0 && start[0]?.type !== 'comma') return undefined;
    if (start.length > lead + 1 || (start.length === lead + 1 && start[lead]!.type !== 'space')) return undefined;
    if (!value) return undefined;
    const v = read.scalar(value, false);
    if (!v) return undefined;
    if (isMap) {
      const k = read.name(key);
      if (k === undefined || Object.hasOwn(map, k)) return undefined;
      if (sep?.length !== 2 || sep[0]!.type !== 'map-value-ind' || sep[0]!.source !== ':' || sep[1]!.type !== 'space') return undefined;
      map[k] = v.value;
    } else {
      if (key !== undefined || sep !== undefined) return undefined;
      list.push(v.value);
    }
  }
  return { value: isMap ? map : list };
}
