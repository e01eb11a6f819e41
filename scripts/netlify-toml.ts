import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';

export interface HeaderRule {
  for: string;
  values: Record<string, string>;
}

/** The `[[headers]]` rules of netlify.toml, which Netlify applies to static files only. */
export function headerRules(path: string): HeaderRule[] {
  const toml = parse(readFileSync(path, 'utf8')) as { headers?: HeaderRule[] };
  return toml.headers ?? [];
}

/** Netlify path patterns: `*` matches the rest of the path (a splat), everything else literally. */
export function pathMatches(pattern: string, pathname: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(pathname);
}
