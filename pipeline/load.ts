import { readFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import fg from 'fast-glob';
import { REMOVED_FILE } from './changes.js';
import type { Diagnostic } from './diagnostics.js';
import { decodeUtf8 } from './loaders/text.js';
import { parseYaml, type YamlFile } from './loaders/yaml.js';
import type { ContentKind } from './schemas.js';

export const RECORD_DIRS: readonly ContentKind[] = ['events', 'relations', 'players', 'initiatives'];
/** Generated editor schemas live beside the content but are not content. */
export const SCHEMA_DIR = 'schemas';
export const READS_IN_FLIGHT = 64;

export interface ContentFiles {
  vocabulary?: YamlFile;
  site?: YamlFile;
  /** content/removed.yaml: published records taken down, with reasons (optional). */
  removed?: YamlFile;
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
  // Links are listed, never followed: the check runs on untrusted pull requests, and a link could
  // publish or print any file the runner can read, or loop.
  // The type of each entry comes with the listing (readdir's file types), so no file is stat'ed
  // on its own: at ×100 that was 96,000 lstat calls, a tenth of the whole run.
  const entries = await fg('**/*', {
    cwd: contentDir,
    dot: true,
    onlyFiles: false,
    followSymbolicLinks: false,
    objectMode: true,
    ignore: [`${SCHEMA_DIR}/**`],
  });
  const types = new Map(entries.map((e) => [e.path, e.dirent]));
  const names = [...types.keys()].sort();
  const out: ContentFiles = { records: { events: [], relations: [], players: [], initiatives: [] }, diagnostics: [] };
  // fast-glob gives each name relative to the folder with forward slashes, so the shown path is the
  // folder's own name and the name, with no path resolved per file (node:path showed in the profile
  // of a ×10 load).
  const prefix = relative(shownRoot, contentDir).split('\\').join('/');
  const shown = (name: string) => `${prefix}/${name}`;

  const load = async (name: string) => {
    const type = types.get(name)!;
    if (type.isDirectory()) return;
    if (!type.isFile()) {
      out.diagnostics.push({
        file: shown(name),
        line: 1,
        col: 1,
        path: '',
        message: type.isSymbolicLink() ? 'シンボリックリンクは置けません' : '通常のファイルではありません',
        hint: '記録は content/ の中に通常のファイルとして置きます。リンク先の内容は読みません',
      });
      return;
    }
    const parts = name.split('/');
    const kind = parts.length === 2 && parts[1]!.endsWith('.yaml') ? RECORD_DIRS.find((k) => k === parts[0]) : undefined;
    const isTop = name === 'vocabulary.yaml' || name === 'site.yaml' || name === REMOVED_FILE;
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
    const file = parseYaml(shown(name), decodeUtf8(await readFile(join(contentDir, name))));
    for (const d of yamlProblems(file)) out.diagnostics.push(d);
    if (!file.problems.length && (file.data === null || file.data === undefined)) {
      out.diagnostics.push({ file: file.path, line: 1, col: 1, path: '', message: 'ファイルが空です' });
    }
    if (name === 'vocabulary.yaml') out.vocabulary = file;
    else if (name === 'site.yaml') out.site = file;
    else if (name === REMOVED_FILE) out.removed = file;
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

export function yamlProblems(file: YamlFile): Diagnostic[] {
  return file.problems.map((p) => {
    const { line, col } = file.lines.linePos(p.offset);
    return { file: file.path, line, col, path: '', message: p.message, ...(p.hint ? { hint: p.hint } : {}) };
  });
}
