import { readFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import fg from 'fast-glob';
import type { Diagnostic } from './diagnostics.js';
import { parseYaml, type YamlFile } from './loaders/yaml.js';
import type { YAMLError } from 'yaml';
import type { ContentKind } from './schemas.js';

export const RECORD_DIRS: readonly ContentKind[] = ['events', 'relations', 'players', 'initiatives'];
/** Generated editor schemas live beside the content but are not content. */
export const SCHEMA_DIR = 'schemas';
const READS_IN_FLIGHT = 64;

export interface ContentFiles {
  vocabulary?: YamlFile;
  site?: YamlFile;
  records: Record<ContentKind, YamlFile[]>;
  diagnostics: Diagnostic[];
}

/**
 * Reads every file under the content folder. Paths in messages are shown relative to the
 * folder's parent (`content/events/…`), wherever the folder is. Files the pipeline would not
 * read (a stray `.yml`, a typo in a folder name) are errors rather than silently ignored.
 */
export async function loadContent(contentDir: string): Promise<ContentFiles> {
  const shownRoot = dirname(contentDir);
  const names = await fg('**/*', { cwd: contentDir, dot: true, onlyFiles: true, ignore: [`${SCHEMA_DIR}/**`] });
  names.sort();
  const out: ContentFiles = { records: { events: [], relations: [], players: [], initiatives: [] }, diagnostics: [] };
  const shown = (name: string) => relative(shownRoot, join(contentDir, name)).split('\\').join('/');

  const load = async (name: string) => {
    const parts = name.split('/');
    const kind = parts.length === 2 && parts[1]!.endsWith('.yaml') ? RECORD_DIRS.find((k) => k === parts[0]) : undefined;
    const isTop = name === 'vocabulary.yaml' || name === 'site.yaml';
    if (!kind && !isTop) {
      if (basename(name) === 'README.md' || basename(name) === '.gitkeep') return;
      out.diagnostics.push({
        file: shown(name),
        line: 1,
        col: 1,
        path: '',
        message: 'このファイルは読み込まれません',
        hint: `記録は ${RECORD_DIRS.map((k) => `content/${k}/`).join('、')} のどれかに、拡張子 .yaml のファイルで置きます`,
      });
      return;
    }
    const file = parseYaml(shown(name), await readFile(join(contentDir, name), 'utf8'));
    out.diagnostics.push(...yamlProblems(file));
    if (!file.doc.errors.length && (file.data === null || file.data === undefined)) {
      out.diagnostics.push({ file: file.path, line: 1, col: 1, path: '', message: 'ファイルが空です' });
    }
    if (name === 'vocabulary.yaml') out.vocabulary = file;
    else if (name === 'site.yaml') out.site = file;
    else out.records[kind!].push(file);
  };
  // A bounded number of reads in flight: one promise per file at once runs out of file
  // descriptors (EMFILE) on a large content folder.
  let next = 0;
  const worker = async () => {
    while (next < names.length) await load(names[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, names.length) }, worker));
  for (const k of RECORD_DIRS) out.records[k].sort((a, b) => a.path.localeCompare(b.path));
  return out;
}

// yaml's messages, said in Japanese; the original follows in brackets for the exact detail.
const YAML_MESSAGES: Partial<Record<YAMLError['code'], string>> = {
  DUPLICATE_KEY: '同じ項目が二度書かれています',
  MULTIPLE_DOCS: '1 ファイルには 1 件の記録だけを書きます（--- で区切れません）',
  BAD_INDENT: 'インデント（行頭の空白）が揃っていないか、括弧が閉じていません',
  MISSING_CHAR: '閉じる引用符や括弧がありません',
  TAB_AS_INDENT: 'インデントにタブは使えません。空白で字下げしてください',
  BLOCK_AS_IMPLICIT_KEY: '一行に「項目: 値」が二つあります。値に「: 」を含めるときは引用符で囲みます',
  UNEXPECTED_TOKEN: '思わぬ記号があります',
};

export function yamlProblems(file: YamlFile): Diagnostic[] {
  return file.doc.errors.map((e) => {
    const { line, col } = file.lines.linePos(e.pos[0]);
    const detail = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return { file: file.path, line, col, path: '', message: `YAML の書き方の誤り: ${YAML_MESSAGES[e.code] ?? detail}（${detail}）` };
  });
}
