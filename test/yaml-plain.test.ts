import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { parse, parseDocument, stringify } from 'yaml';
import { YAML_OPTIONS } from '../pipeline/loaders/yaml.js';
import { plainReader } from '../pipeline/loaders/yaml-plain.js';
import { CONTENT } from './helpers.js';

// The plain reader must never accept a text the full parse rejects, and must give the full
// parse's value for every text it accepts. Declining is always safe (the full parse runs).
const reader = plainReader(YAML_OPTIONS);
const full = (text: string): { value: unknown } | 'rejected' => {
  const doc = parseDocument(text, YAML_OPTIONS);
  if (doc.errors.length || doc.warnings.length) return 'rejected';
  try {
    return { value: doc.toJS() };
  } catch {
    // An alias to no anchor parses without an error and throws here (the loader refuses aliases).
    return 'rejected';
  }
};

const records = async () => {
  const names = await fg('{events,relations,players,initiatives}/*.yaml', { cwd: CONTENT });
  return Promise.all(names.sort().map(async (n) => ({ name: n, text: await readFile(`${CONTENT}/${n}`, 'utf8') })));
};

describe('plain YAML reader', () => {
  it('reads every record in the content folder, to the full parse’s value', async () => {
    const files = await records();
    expect(files.length).toBeGreaterThan(1000);
    const declined = files.filter((f) => !reader.read(f.text)).map((f) => f.name);
    // A record the reader declines costs a second parse: the shape should cover them all.
    expect(declined).toEqual([]);
    const differ = files.filter((f) => !isDeepStrictEqual(reader.read(f.text), full(f.text))).map((f) => f.name);
    expect(differ).toEqual([]);
    // And the line reader, the fastest, reads them all by itself: they are all in its style.
    expect(files.filter((f) => !isDeepStrictEqual(reader.lines(f.text), full(f.text))).map((f) => f.name)).toEqual([]);
    // So it does the same records as a YAML writer emits them, but for values the writer had to
    // put in double quotes over several lines (escapes are the slower readers' to resolve).
    const written = files.map((f) => ({ name: f.name, text: stringify(parse(f.text)) }));
    const unread = written.filter((f) => !reader.lines(f.text) && !/"[^"\n]*\n/.test(f.text)).map((f) => f.name);
    expect(unread).toEqual([]);
    expect(written.filter((f) => reader.lines(f.text) && !isDeepStrictEqual(reader.lines(f.text), full(f.text)))).toEqual([]);
  });

  // [text, the value it reads to, or undefined when the reader must decline]
  const cases: [string, string, unknown][] = [
    // The spaces before a folded line break are dropped: `SGHC \n  46` reads as `SGHC 46`.
    ['a space before a folded line break', `a: b \n  c\nd: e  \n  f\n`, { a: 'b c', d: 'e f' }],
    ['strings, quotes and escapes', `a: b\nc: 'it''s'\nd: "\\u00e9\\t"\ne: ''\n`, { a: 'b', c: "it's", d: 'é\t', e: '' }],
    [
      'no numbers: digits stay text',
      `date: 2024\nyear: '2024'\nx: 0x1F\ny: 1e3\nz: .inf\nn: .nan\n`,
      { date: '2024', year: '2024', x: '0x1F', y: '1e3', z: '.inf', n: '.nan' },
    ],
    [
      'null and booleans as the core schema reads them',
      `a: ~\nb: null\nc: Null\nd:\ne: True\nf: false\ng: yes\nh: 'true'\n`,
      { a: null, b: null, c: null, d: null, e: true, f: false, g: 'yes', h: 'true' },
    ],
    ['comments in their places', `# head\na: b # tail\n# between\nc: [x, y] # tail\n# end\n`, { a: 'b', c: ['x', 'y'] }],
    ['a hash inside a plain value is text', `a: b#c\n`, { a: 'b#c' }],
    [
      'flow lists and maps, a block list of maps',
      `p: [A b, 'C, d']\ns:\n  - {kind: news, url: 'https://x.test/a?b=c#d'}\n  - {kind: official, name: X}\n`,
      {
        p: ['A b', 'C, d'],
        s: [
          { kind: 'news', url: 'https://x.test/a?b=c#d' },
          { kind: 'official', name: 'X' },
        ],
      },
    ],
    ['a block list at the key’s own indent', `s:\n- a\n- b\n`, { s: ['a', 'b'] }],
    [
      'the block style a YAML writer emits',
      `aliases:\n  - A long English name that the writer folds\n    onto a second line\nsources:\n  - kind: news\n    # a comment\n    url: https://x.test/\n  - kind: official\n`,
      {
        aliases: ['A long English name that the writer folds onto a second line'],
        sources: [{ kind: 'news', url: 'https://x.test/' }, { kind: 'official' }],
      },
    ],
    ['a nested map under a key', `site:\n  title: T\n  links: [a]\n`, { site: { title: 'T', links: ['a'] } }],
    ['a double-quoted value over two lines', `d: "a\n  b"\n`, { d: 'a b' }],
    ['a relation: one flow map', `{a: X, b: Y, year: '2025'}\n`, { a: 'X', b: 'Y', year: '2025' }],
    ['empty lists and maps', `a: []\nb: {}\n`, { a: [], b: {} }],
    ['no final line break', `a: b`, { a: 'b' }],
    ['Japanese text with a full-width space', `t: 日本\u3000語\n`, { t: '日本\u3000語' }],
    // Declined: errors the full parse reports, and shapes outside the plain one.
    ['duplicate key', `a: 1\na: 2\n`, undefined],
    ['duplicate key in a flow map', `{a: 1, a: 2}\n`, undefined],
    ['comment touching a quoted value', `a: 'b'#c\n`, undefined],
    ['unclosed flow list', `a: [x, y\nb: c\n`, undefined],
    ['trailing comma', `a: [x, y,]\n`, undefined],
    ['empty item', `a: [x, , y]\n`, undefined],
    ['missing comma', `a: {k: v m: n}\n`, undefined],
    ['anchor and alias', `a: &x b\nc: *x\n`, undefined],
    ['tag', `a: !!str b\n`, undefined],
    ['explicit key', `? a\n: b\n`, undefined],
    ['a map on the key’s line', `a: b: c\n`, undefined],
    ['a list on the key’s line', `a: - b\n`, undefined],
    ['map entries at different columns', `s:\n  - a: b\n     c: d\n`, undefined],
    ['a list item on the line below its dash', `s:\n  -\n    a\n`, undefined],
    ['a list in a list', `s:\n  - - a\n`, undefined],
    ['a multi-line value in a flow list', `a: [x\n  y]\n`, undefined],
    ['nesting deeper than records go', `a:\n  b:\n    c:\n      d:\n        e: f\n`, undefined],
    ['a scalar on the line below its key', `a:\n  b\n`, undefined],
    ['block scalar', `a: |\n  b\n`, undefined],
    ['indented key', ` a: b\nc: d\n`, undefined],
    ['tab', `a:\tb\n`, undefined],
    ['CRLF', `a: b\r\n`, undefined],
    ['byte-order mark', `\uFEFFa: b\n`, undefined],
    ['document markers', `---\na: b\n...\n`, undefined],
    ['two documents', `a: b\n---\nc: d\n`, undefined],
    ['directive', `%YAML 1.2\n---\na: b\n`, undefined],
    ['a list at the root', `- a\n- b\n`, undefined],
    ['a scalar at the root', `just text\n`, undefined],
    ['__proto__ as a key', `__proto__: x\n`, undefined],
    ['a key the schema reads as a boolean', `true: x\n`, undefined],
    ['merge key', `<<: x\n`, undefined],
    ['a key with a space', `a b: c\n`, undefined],
    ['an empty list item', `s:\n  -\n  - a\n`, undefined],
    ['nested flow collections', `a: [[x]]\n`, undefined],
    ['an empty text (the full parse reports it empty)', ``, undefined],
    ['comments only', `# nothing\n`, undefined],
    ['bad escape', `a: "\\q"\n`, undefined],
  ];
  // A case holds when the reader declines where it must, and otherwise reads what the full parse reads.
  const holds = (got: { value: unknown } | undefined, text: string, expected: unknown) => {
    if (expected === undefined) expect(got).toBeUndefined();
    else {
      expect(got).toEqual({ value: expected });
      expect(full(text)).toEqual({ value: expected });
    }
  };
  it.each(cases)('%s', (_name, text, expected) => holds(reader.read(text), text, expected));

  // The line reader by itself: [text, its value, or undefined when it leaves the text to the
  // slower readers]. Every accepted text is also checked against the full parse.
  const lineCases: [string, string, unknown][] = [
    [
      'a record in its own style',
      `id: x\nplayers: [A B, 'C, d']\nsources:\n  - {kind: news, url: 'https://x.test/?a=b#c'}\n`,
      {
        id: 'x',
        players: ['A B', 'C, d'],
        sources: [{ kind: 'news', url: 'https://x.test/?a=b#c' }],
      },
    ],
    ['a list at the key’s own column', `s:\n- a\n- b\n`, { s: ['a', 'b'] }],
    ['blank lines inside a list', `s:\n\n  - a\n\n  - b\n`, { s: ['a', 'b'] }],
    ['an empty value is null', `a:\nb: c\n`, { a: null, b: 'c' }],
    ['quotes inside quotes', `a: 'it''s'\nb: "say 'x'"\n`, { a: "it's", b: "say 'x'" }],
    ['a relation with comments around it', `# note\n{a: X, year: '2025'}\n# end\n`, { a: 'X', year: '2025' }],
    ['a list’s items at two indents', `s:\n  - a\n- b\n`, undefined],
    ['a comment inside a list', `s:\n  - a\n# c\n  - b\n`, undefined],
    ['a comment after a value', `a: b # c\n`, undefined],
    ['an escape', `a: "\\u00e9"\n`, undefined],
    ['an indicator first', `a: -5\nb: ?x\n`, undefined],
    ['a colon in a flow value', `a: [b:c]\n`, undefined],
    ['a plain value folded over lines', `a: b c\n  d\n    e\nf: g\n`, { a: 'b c d e', f: 'g' }],
    [
      'list items that are maps, as a YAML writer emits them',
      `s:\n  - kind: news\n    url: https://x.test/a\n      b\n  - kind: official\nt: x\n`,
      { s: [{ kind: 'news', url: 'https://x.test/a b' }, { kind: 'official' }], t: 'x' },
    ],
    ['a folded value after a blank line', `a: b\n\n  c\n`, undefined],
    ['a continuation one space in', `a: b\n c\n`, undefined],
    ['a continuation that starts with a dash', `a: b\n  - c\n`, undefined],
    ['a quoted value continued', `a: 'b'\n  c\n`, undefined],
    ['a map item’s entry out of line', `s:\n  - a: b\n   c: d\n`, undefined],
    ['two spaces after the colon', `a:  b\n`, undefined],
    ['a space at the end of a line', `a: b \n`, undefined],
    ['a space before a folded line break', `a: b \n  c\n`, undefined],
    ['a space before the second fold', `a: b\n  c  \n  d\n`, undefined],
    ['a line separator', `a: b\u2028c\n`, undefined],
  ];
  it.each(lineCases)('line reader: %s', (_name, text, expected) => holds(reader.lines(text), text, expected));

  // The whole reader, and the line reader by itself (the whole one tries it first, so a fault in
  // it could hide behind texts the line reader happens to decline).
  it.each([
    ['the reader', (t: string) => reader.read(t), 20261123],
    ['the line reader alone', (t: string) => reader.lines(t), 20261124],
  ] as const)('%s never accepts a mutated record the full parse rejects, nor reads it differently', async (_n, read, start) => {
    // Both the hand-written flow style of the records and the block style a YAML writer emits.
    const files = (await records()).flatMap((f) => [f, { name: f.name, text: stringify(parse(f.text)) }]);
    let seed: number = start;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
    const inserts = [
      ' ',
      '  ',
      '\n',
      ':',
      ': ',
      '#',
      ' #',
      '- ',
      ',',
      '[',
      ']',
      '{',
      '}',
      "'",
      '"',
      '&',
      '*',
      '!',
      '|',
      '>',
      '%',
      '?',
      '\\',
      '~',
      'true',
      'null',
      '---',
      "''",
      '\t',
    ];
    const mutate = (text: string): string => {
      for (let n = 1 + Math.floor(rnd() * 3); n > 0; n--) {
        const pos = Math.floor(rnd() * (text.length + 1));
        const lines = text.split('\n');
        const l = Math.floor(rnd() * lines.length);
        switch (Math.floor(rnd() * 6)) {
          case 0:
            text = text.slice(0, pos) + pick(inserts) + text.slice(pos);
            break;
          case 1:
            text = text.slice(0, pos) + text.slice(pos + 1 + Math.floor(rnd() * 3));
            break;
          case 2:
            lines.splice(l, 0, lines[l]!);
            text = lines.join('\n');
            break;
          case 3:
            lines[l] = pick([' ', '  ', '    ']) + lines[l];
            text = lines.join('\n');
            break;
          case 4:
            lines[l] = lines[l]!.replace(/^ {1,2}/, '');
            text = lines.join('\n');
            break;
          default:
            lines[l] = lines[l]! + pick([' # c', '#c', ':', ' :', ',']);
            text = lines.join('\n');
        }
      }
      return text;
    };
    let accepted = 0;
    let rejectedByFull = 0;
    const wrong: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const text = mutate(pick(files).text);
      const got = read(text);
      const want = full(text);
      if (want === 'rejected') rejectedByFull++;
      if (!got) continue;
      accepted++;
      if (!isDeepStrictEqual(got, want)) wrong.push(text);
    }
    expect(wrong.slice(0, 3)).toEqual([]);
    // The run exercises both sides: many mutations still read, many break the text.
    expect(accepted).toBeGreaterThan(1000);
    expect(rejectedByFull).toBeGreaterThan(1500);
  });
});
