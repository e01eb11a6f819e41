import { isAlias, isNode, LineCounter, parseDocument, visit, type Document, type Tags } from 'yaml';
import { fullWidthColons, unsafeCharacters } from './text.js';
import { yamlErrorText } from './yaml-messages.js';
import { plainReader } from './yaml-plain.js';

export interface YamlProblem {
  /** Character offset in the file's text. */
  offset: number;
  message: string;
  hint?: string;
}

export interface YamlFile {
  /** Path relative to the repository root, with forward slashes. */
  path: string;
  doc: Document.Parsed;
  lines: LineCounter;
  /** The parsed value; undefined when the file has any problem below. */
  data: unknown;
  /** What makes the text unreadable or unsafe as data: syntax, tags, anchors, hidden characters. */
  problems: YamlProblem[];
}

// The content holds no numbers, so plain digits stay text: `date: 2024` and `year: 2024` mean
// the strings a curator sees, not integers that would then fail a string schema.
const NUMBER_TAGS = new Set(['tag:yaml.org,2002:int', 'tag:yaml.org,2002:float']);
/** The options of every parse of a content file. */
export const YAML_OPTIONS = {
  customTags: (tags: Tags) => tags.filter((t) => typeof t === 'string' || !NUMBER_TAGS.has(t.tag)),
  prettyErrors: false,
};

const MAX_REFS = 3;
const PLAIN = plainReader(YAML_OPTIONS);

export function parseYaml(path: string, text: string): YamlFile {
  const problems: YamlProblem[] = [...unsafeCharacters(text), ...fullWidthColons(text)];
  // Nearly every record is written in the plain shape, whose value the syntax tree gives at once;
  // everything else, and every text with a problem, goes through the full parse below.
  const plain = problems.length ? undefined : PLAIN.read(text);
  if (plain) return readClean(path, text, plain.value);
  const { doc, lines } = parse(text);
  for (const e of [...doc.errors, ...doc.warnings]) problems.push({ offset: e.pos[0], ...yamlErrorText(e) });
  // Anchors and aliases have no use in one record per file, and they are how a file smuggles in
  // a value from elsewhere in it (`&x` silently drops a leading word; `*x` repeated is a bomb).
  const refs: YamlProblem[] = [];
  // Neither can be written without its sign, so a text with neither needs no walk of its nodes.
  if (text.includes('&') || text.includes('*'))
    visit(doc, (_key, node) => {
      if (isAlias(node)) {
        refs.push({
          offset: node.range?.[0] ?? 0,
          message: `「*${node.source}」（エイリアス）は使えません`,
          hint: "値をそのまま書いてください。* で始まる値は引用符で囲みます（例: '*注記'）",
        });
      } else if (isNode(node) && node.anchor) {
        refs.push({
          offset: node.range?.[0] ?? 0,
          message: `「&${node.anchor}」（アンカー）は使えません`,
          hint: "& で始まる値は引用符で囲みます（例: '&Co'）。囲まないと & 以降の語が消えます",
        });
      }
    });
  // A few positions are enough to act on; a bomb has thousands.
  refs.sort((a, b) => a.offset - b.offset);
  problems.push(...refs.slice(0, MAX_REFS));
  if (refs.length > MAX_REFS) {
    problems.push({
      offset: refs[MAX_REFS]!.offset,
      message: `アンカー（&）とエイリアス（*）がほかに ${refs.length - MAX_REFS} 箇所あります`,
    });
  }
  if (problems.length) return { path, doc, lines, data: undefined, problems };
  return readClean(path, text, doc.toJS());
}

// A file that reads cleanly keeps its text, not its syntax tree: at ×100 the trees of 96,000
// files kept the collector busier than the parser. The tree is only needed to place a problem
// found later, and is parsed again then.
function readClean(path: string, text: string, data: unknown): YamlFile {
  let again: { doc: Document.Parsed; lines: LineCounter } | undefined;
  return {
    path,
    get doc() {
      return (again ??= parse(text)).doc;
    },
    get lines() {
      return (again ??= parse(text)).lines;
    },
    data,
    problems: [],
  };
}

function parse(text: string): { doc: Document.Parsed; lines: LineCounter } {
  const lines = new LineCounter();
  return { doc: parseDocument(text, { lineCounter: lines, ...YAML_OPTIONS }), lines };
}
