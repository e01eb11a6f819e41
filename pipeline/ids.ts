import type { ContentKind, ContentRecord } from './schemas.js';

/** File-name form of an id: lower case, every run of other characters a single hyphen. */
export function slug(id: string): string {
  return id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The file name a record must have, so that a reviewer finds a record by its id. */
export function expectedFileName<K extends ContentKind>(kind: K, record: ContentRecord<K>): string {
  switch (kind) {
    case 'players':
      return `${slug((record as ContentRecord<'players'>).id)}.yaml`;
    case 'relations': {
      const r = record as ContentRecord<'relations'>;
      return `${slug(r.a)}--${slug(r.b)}--${r.type}.yaml`;
    }
    default:
      return `${(record as ContentRecord<'events' | 'initiatives'>).id}.yaml`;
  }
}

/** The outlet a URL belongs to: its host without a leading `www.`. */
export function outletOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return undefined;
  }
}
