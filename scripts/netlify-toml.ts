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

/** A Netlify path pattern as a test: `*` matches the rest of the path (a splat), the rest literally. */
export function pathPattern(pattern: string): (pathname: string) => boolean {
  const literal = (part: string) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`^${pattern.split('*').map(literal).join('.*')}$`);
  return (pathname) => re.test(pathname);
}

export function pathMatches(pattern: string, pathname: string): boolean {
  return pathPattern(pattern)(pathname);
}
