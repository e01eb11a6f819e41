import type { Kind, Profile } from '../functions/chronicle/dataset.js';

// The two profiles differ in kinds and fields as the interface contract fixes them; the code
// lists they carry live in content/vocabulary.yaml.
export const PROFILES: readonly Profile[] = ['A', 'B'];

export const PROFILE_NAMES: Record<Profile, string> = { A: '拡張版（A）', B: '基本版（B）' };

export const KINDS: Record<Profile, readonly Kind[]> = {
  A: ['events', 'relations', 'players', 'initiatives'],
  B: ['events', 'relations', 'players'],
};

/** Code groups exposed in `labels`, in the contract's order. */
export const LABEL_GROUPS = ['topic', 'region', 'status', 'category', 'relation', 'sub', 'sector'] as const;
export type LabelGroup = (typeof LABEL_GROUPS)[number];
export type Group = LabelGroup | 'sourceKind';

export function isProfile(value: string): value is Profile {
  return (PROFILES as readonly string[]).includes(value);
}

/** Profile A carries `sources`, `initiativeId`, `sector`, player `description` and initiatives. */
export function isExtended(p: Profile): boolean {
  return p === 'A';
}
