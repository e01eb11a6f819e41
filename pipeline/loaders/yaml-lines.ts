// The style every record is written in, read line by line without the YAML parser: `name: value`
// entries at the line start whose values are one-line scalars or one-line flow lists and maps of
// scalars, block lists of those indented by two spaces or none (`  - {…}`, `- {…}`), or a whole record as one flow
// map on one line (a relation). Whole-line comments and blank lines may sit between entries.
// It is much narrower than the plain reader in yaml-plain.ts: no escapes, no trailing comments,
// no values over several lines, no extra spaces, no indicator at the start of a plain value.
// Whatever it does not recognise it declines, and the slower readers decide.

type Read = { value: unknown } | undefined;
/** How the schema reads a plain scalar (null, booleans, text), or undefined when it fails. */
type Plain = (source: string) => Read;

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
// Characters that give a plain scalar's first position a YAML meaning (indicators), or make it
// not start a plain scalar at all.
const NOT_FIRST = new Set('-?:,[]{}#&*!|>\'"%@` ');
// Text the line reader leaves to the parser wherever it occurs: tabs and CR (YAML white space and
// line breaks the reader does not split on), a byte-order mark, Unicode line separators.
const DECLINED = /[\t\r\uFEFF\u2028\u2029]/;

export function lineReader(plain: Plain): (text: string) => Read {
  const name = (key: string): string | undefined => (NAME.test(key) && key !== '__proto__' && plain(key)?.value === key ? key : undefined);

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

  // A plain scalar's text, checked: no indicator first, no `: ` or ` #` inside, no space last.
  const plainText = (s: string, flow: boolean): Read => {
    if (s === '' || NOT_FIRST.has(s[0]!) || s.endsWith(' ') || s.includes(' #')) return undefined;
    if (flow ? s.includes(':') : s.includes(': ') || s.endsWith(':')) return undefined;
    return plain(s);
  };

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

  return (text) => {
    if (DECLINED.test(text)) return undefined;
    const lines = text.split('\n');
    const out: Record<string, unknown> = {};
    let entries = 0;
    // The list the next `  - ` line adds to, or the key still waiting for its first item.
    let list: unknown[] | undefined;
    let waiting: string | undefined;
    let listIndent = 0;
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!;
      if (line === '') continue;
      const c = line[0];
      if (c === '#') {
        list = undefined;
        waiting = undefined;
        continue;
      }
      if (c === '{' && entries === 0) {
        // A relation: one flow map, then nothing but blank and comment lines.
        const v = flow(line, 0);
        if (!v) return undefined;
        for (let m = n + 1; m < lines.length; m++) if (lines[m] !== '' && lines[m]![0] !== '#') return undefined;
        return v;
      }
      if (c === ' ' || c === '-') {
        // A list item: `  - ` or, at the key's own column, `- `; one indent for a whole list.
        const indent = c === ' ' ? 2 : 0;
        if (!line.startsWith(indent ? '  - ' : '- ')) return undefined;
        if (waiting !== undefined) {
          out[waiting] = list = [];
          waiting = undefined;
          listIndent = indent;
        } else if (!list || listIndent !== indent) return undefined;
        const v = value(line, indent + 2);
        if (!v) return undefined;
        list!.push(v.value);
        continue;
      }
      const colon = line.indexOf(':');
      const key = colon === -1 ? undefined : name(line.slice(0, colon));
      if (key === undefined || Object.hasOwn(out, key)) return undefined;
      entries++;
      list = undefined;
      waiting = undefined;
      if (colon === line.length - 1) {
        // Null unless list items follow.
        out[key] = null;
        waiting = key;
        continue;
      }
      if (line[colon + 1] !== ' ') return undefined;
      const v = value(line, colon + 2);
      if (!v) return undefined;
      out[key] = v.value;
    }
    return entries ? { value: out } : undefined;
  };
}
