import { LineCounter, parseDocument, type Document, type Tags } from 'yaml';

export interface YamlFile {
  /** Path relative to the repository root, with forward slashes. */
  path: string;
  doc: Document.Parsed;
  lines: LineCounter;
  data: unknown;
}

// The content holds no numbers, so plain digits stay text: `date: 2024` and `year: 2024` mean
// the strings a curator sees, not integers that would then fail a string schema.
const NUMBER_TAGS = new Set(['tag:yaml.org,2002:int', 'tag:yaml.org,2002:float']);
const NO_NUMBERS = { customTags: (tags: Tags) => tags.filter((t) => typeof t === 'string' || !NUMBER_TAGS.has(t.tag)) };

export function parseYaml(path: string, text: string): YamlFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, ...NO_NUMBERS });
  return { path, doc, lines, data: doc.errors.length ? undefined : doc.toJS() };
}
