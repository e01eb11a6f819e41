// The style every record is written in, read line by line without the YAML library: `name: value`
// entries at the line start whose values are one-line scalars or one-line flow lists and maps of
// scalars; block lists of those, indented by two spaces or none (`  - {…}`, `- {…}`), or of small
// maps (`  - kind: news` and the item's further `name: value` lines, as a YAML writer emits them);
// or a whole record as one flow map on one line (a relation). Whole-line comments and blank lines
// may sit between entries, and a plain value may go on over deeper lines (a YAML writer folds long
// text so). It is much narrower than the syntax-tree reader in yaml-plain.ts: no escapes, no
// trailing comments, no extra spaces, no indicator at the start of a plain value or line, no
// nesting. Whatever it does not recognise it declines, and the slower readers decide.

type Read = { value: unknown } | undefined;
/** How the schema reads a plain scalar (null, booleans, text), or undefined when it fails. */
type Plain = (source: string) => Read;

// Characters that give a plain scalar's first position a YAML meaning (indicators), or make it
// not start a plain scalar at all.
const NOT_FIRST = new Set('-?:,[]{}#&*!|>\'"%@` ');
// Text the line reader leaves to the parser wherever it occurs: tabs and CR (YAML white space and
// line breaks the reader does not split on), a byte-order mark, Unicode line separators.
const DECLINED = /[\t\r\uFEFF\u2028\u2029]/;

/**
 * A reader for the records' own style. `plain` reads a plain scalar as the schema does; `isName`
 * says whether a key is one the readers take (the syntax-tree reader's rule, kept in one place).
 */
export function lineReader(plain: Plain, isName: (key: string) => boolean): (text: string) => Read {
  const name = (key: string): string | undefined => (isName(key) ? key : undefined);

  // A quoted scalar starting at `from`; `end` is the index after the closing quote.
  const quoted = (line: string, from: number): { value: string; end: number } | undefined => {
    const q = line[from];
    if (q === '"') {
      const close = line.indexOf('"', from + 1);
      if (close === -1) return undefined;
      const value = line.slice(from + 1, close);
      return value.includes('\\') ? undefined : { value, end: close + 1 };
    }
    let value = '';
    let i = from + 1;
    for (;;) {
      const close = line.indexOf("'", i);
      if (close === -1) return undefined;
      value += line.slice(i, close);
      if (line[close + 1] !== "'") return { value, end: close + 1 };
      value += "'";
      i = close + 2;
    }
  };

  // Whether text can be (a line of) a plain scalar: no indicator first, no `: ` or ` #` inside,
  // no space last.
  const plainOk = (s: string, flow: boolean): boolean =>
    s !== '' &&
    !NOT_FIRST.has(s[0]!) &&
    !s.endsWith(' ') &&
    !s.includes(' #') &&
    !(flow ? s.includes(':') : s.includes(': ') || s.endsWith(':'));
  const plainText = (s: string, flow: boolean): Read => (plainOk(s, flow) ? plain(s) : undefined);

  // A one-line flow list or map of scalars from `from` to the end of the line.
  const flow = (line: string, from: number): Read => {
    const isMap = line[from] === '{';
    const closer = isMap ? '}' : ']';
    if (line[line.length - 1] !== closer) return undefined;
    const list: unknown[] = [];
    const map: Record<string, unknown> = {};
    let i = from + 1;
    if (i === line.length - 1) return { value: isMap ? map : list };
    for (;;) {
      let key: string | undefined;
      if (isMap) {
        const colon = line.indexOf(': ', i);
        if (colon === -1) return undefined;
        key = name(line.slice(i, colon));
        if (key === undefined || Object.hasOwn(map, key)) return undefined;
        i = colon + 2;
      }
      let value: unknown;
      const c = line[i];
      if (c === '"' || c === "'") {
        const q = quoted(line, i);
        if (!q) return undefined;
        value = q.value;
        i = q.end;
      } else {
        let j = i;
        while (j < line.length && !',[]{}'.includes(line[j]!)) j++;
        const v = plainText(line.slice(i, j), true);
        if (!v) return undefined;
        value = v.value;
        i = j;
      }
      if (isMap) map[key!] = value;
      else list.push(value);
      if (i === line.length - 1 && line[i] === closer) return { value: isMap ? map : list };
      if (line[i] !== ',' || line[i + 1] !== ' ') return undefined;
      i += 2;
    }
  };

  // A value on its key's (or list dash's) line, running to the end of the line.
  const value = (line: string, from: number): Read => {
    const c = line[from];
    if (c === '[' || c === '{') return flow(line, from);
    if (c === '"' || c === "'") {
      const q = quoted(line, from);
      return q && q.end === line.length ? { value: q.value } : undefined;
    }
    return plainText(line.slice(from), false);
  };

  // `name: value` or `name:` starting at `from`: the key and where its value starts (-1: none), or
  // 'none' when the text there is not an entry at all (a list item that is a scalar).
  const KEYLIKE = /^[A-Za-z_][A-Za-z0-9_]*$/;
  const entryAt = (line: string, from: number): { key: string | undefined; at: number } | 'none' => {
    const colon = line.indexOf(':', from);
    if (colon === -1 || (colon + 1 < line.length && line[colon + 1] !== ' ') || !KEYLIKE.test(line.slice(from, colon))) return 'none';
    return { key: name(line.slice(from, colon)), at: colon + 1 === line.length ? -1 : colon + 2 };
  };
  // A line's value from `from`, with the lines that continue a plain one (indented at least two
  // more than its key or dash at `col`, folded with spaces), and the index of its last line.
  const valueAt = (lines: string[], n: number, from: number, col: number): { value: unknown; last: number } | undefined => {
    const line = lines[n]!;
    const c = line[from];
    if (c === '[' || c === '{' || c === '"' || c === "'") {
      const v = value(line, from);
      return v && { value: v.value, last: n };
    }
    let text = line.slice(from);
    for (;;) {
      const next = lines[n + 1];
      let sp = 0;
      while (next !== undefined && next[sp] === ' ') sp++;
      if (next === undefined || sp <= col || sp === next.length) break;
      if (sp < col + 2) return undefined;
      // Folding drops the spaces before a line break; such texts are left to the full parse.
      if (text.endsWith(' ')) return undefined;
      const more = next.slice(sp);
      if (!plainOk(more, false)) return undefined;
      text += ' ' + more;
      n++;
    }
    const v = plainText(text, false);
    return v && { value: v.value, last: n };
  };
  // An entry's value into `into`: the index of its last line, or -1 when the reader declines it.
  const put = (
    into: Record<string, unknown>,
    lines: string[],
    n: number,
    e: { key: string | undefined; at: number },
    col: number,
  ): number => {
    if (e.key === undefined || Object.hasOwn(into, e.key)) return -1;
    if (e.at === -1) {
      into[e.key] = null;
      return n;
    }
    const v = valueAt(lines, n, e.at, col);
    if (!v) return -1;
    into[e.key] = v.value;
    return v.last;
  };

  return (text) => {
    if (DECLINED.test(text)) return undefined;
    const lines = text.split('\n');
    const out: Record<string, unknown> = {};
    let entries = 0;
    // The list the next item adds to (its dashes at `listIndent`), or the key still waiting for
    // its first item; and the map an item opened with `- name: value`, which lines indented two
    // more than the dash continue.
    let list: unknown[] | undefined;
    let waiting: string | undefined;
    let listIndent = 0;
    let item: Record<string, unknown> | undefined;
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!;
      if (line === '') continue;
      let sp = 0;
      while (line[sp] === ' ') sp++;
      const c = line[sp];
      if (c === undefined || sp > listIndent + 2) return undefined;
      if (sp === 0 && c === '#') {
        list = item = waiting = undefined;
        continue;
      }
      if (sp === 0 && c === '{' && entries === 0) {
        // A relation: one flow map, then nothing but blank and comment lines.
        const v = flow(line, 0);
        if (!v) return undefined;
        for (let m = n + 1; m < lines.length; m++) if (lines[m] !== '' && lines[m]![0] !== '#') return undefined;
        return v;
      }
      if (c === '-' && line[sp + 1] === ' ') {
        // A list item, `  - ` or, at the key's own column, `- `; one indent for a whole list.
        if (sp !== 0 && sp !== 2) return undefined;
        if (waiting !== undefined) {
          out[waiting] = list = [];
          waiting = undefined;
          listIndent = sp;
        } else if (!list || listIndent !== sp) return undefined;
        const e = entryAt(line, sp + 2);
        if (e === 'none') {
          item = undefined;
          const v = valueAt(lines, n, sp + 2, sp);
          if (!v) return undefined;
          list.push(v.value);
          n = v.last;
        } else {
          item = {};
          n = put(item, lines, n, e, sp + 2);
          if (n === -1) return undefined;
          list.push(item);
        }
        continue;
      }
      if (sp === 0) {
        const e = entryAt(line, 0);
        if (e === 'none') return undefined;
        n = put(out, lines, n, e, 0);
        if (n === -1) return undefined;
        entries++;
        list = item = undefined;
        waiting = e.at === -1 ? e.key : undefined;
        continue;
      }
      // The next entry of an item's map, under the item's first key.
      if (!item || sp !== listIndent + 2) return undefined;
      const e = entryAt(line, sp);
      if (e === 'none') return undefined;
      n = put(item, lines, n, e, sp);
      if (n === -1) return undefined;
    }
    return entries ? { value: out } : undefined;
  };
}
