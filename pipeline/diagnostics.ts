import { isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import type { YamlFile } from './loaders/yaml.js';

export type Path = readonly (string | number)[];

export interface Diagnostic {
  file: string;
  line: number;
  col: number;
  /** Where in the record, e.g. `sources[1].url`; empty for the whole file. */
  path: string;
  message: string;
  hint?: string;
}

export function formatPath(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/**
 * Finds the YAML node a data path points at. With `key`, the position is that of the last
 * segment's key (for "unknown field" errors); a path that leaves the document stops at the
 * deepest node that exists, which is where the curator has to look.
 */
export function locate(file: YamlFile, path: Path, key = false): { line: number; col: number } {
  let node: unknown = file.doc.contents;
  let at: Node | null = (node as Node | null) ?? null;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      at = key && segment === path[path.length - 1] ? (pair.key as Node) : ((pair.value as Node | null) ?? (pair.key as Node));
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && node.items[segment]) {
      node = node.items[segment];
      at = node as Node;
    } else {
      break;
    }
  }
  const offset = at?.range?.[0] ?? 0;
  return file.lines.linePos(offset);
}

export function diagnose(file: YamlFile, path: Path, message: string, hint?: string, key = false): Diagnostic {
  const { line, col } = locate(file, path, key);
  return { file: file.path, line, col, path: formatPath(path), message, ...(hint ? { hint } : {}) };
}

export function byPosition(a: Diagnostic, b: Diagnostic): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col || a.message.localeCompare(b.message);
}

/** One grouped report: files in order, each problem on its own `file:line:col  path  message` line. */
export function formatReport(diagnostics: readonly Diagnostic[]): string {
  const sorted = [...diagnostics].sort(byPosition);
  const out: string[] = [];
  let file = '';
  for (const d of sorted) {
    if (d.file !== file) {
      if (file) out.push('');
      file = d.file;
    }
    out.push(`${d.file}:${d.line}:${d.col}  ${d.path || '-'}  ${d.message}`);
    if (d.hint) out.push(`    ヒント: ${d.hint}`);
  }
  const files = new Set(sorted.map((d) => d.file)).size;
  out.push('', `${sorted.length} 件の問題（${files} ファイル）。直してから、もう一度実行してください。`);
  return out.join('\n');
}
