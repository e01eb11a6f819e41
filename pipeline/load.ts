import { readFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import fg from 'fast-glob';
import type { Diagnostic } from './diagnostics.js';
import { parseYaml, type YamlFile } from './loaders/yaml.js';
import type { ContentKind } from './schemas.js';

export const RECORD_DIRS: readonly ContentKind[] = ['events', 'relations', 'players', 'initiatives'];
/** Generated editor schemas live beside the content but are not content. */
export const SCHEMA_DIR = 'schemas';

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

  await Promise.all(
    names.map(async (name) => {
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
          hint: `記録は ${RECORD_DIRS.map((k) => `content/${k}/<ID>.yaml`).join('、')} に置きます（拡張子は .yaml）`,
        });
        return;
      }
      const file = parseYaml(shown(name), await readFile(join(contentDir, name), 'utf8'));
      for (const e of file.doc.errors) {
        const [line, col] = e.linePos?.[0] ? [e.linePos[0].line, e.linePos[0].col] : [1, 1];
        out.diagnostics.push({
          file: file.path,
          line,
          col,
          path: '',
          message: `YAML の書き方の誤り: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
        });
      }
      if (!file.doc.errors.length && (file.data === null || file.data === undefined)) {
        out.diagnostics.push({ file: file.path, line: 1, col: 1, path: '', message: 'ファイルが空です' });
      }
      if (name === 'vocabulary.yaml') out.vocabulary = file;
      else if (name === 'site.yaml') out.site = file;
      else out.records[kind!].push(file);
    }),
  );
  for (const k of RECORD_DIRS) out.records[k].sort((a, b) => a.path.localeCompare(b.path));
  return out;
}
