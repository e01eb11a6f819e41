import { z } from './zod.js';
import type { Labels, Profile } from '../functions/chronicle/dataset.js';
import { diagnose, type Diagnostic } from './diagnostics.js';
import type { YamlFile } from './loaders/yaml.js';
import { LABEL_GROUPS, PROFILES, type Group, type LabelGroup } from './profiles.js';

const profile = z.enum(PROFILES as [Profile, ...Profile[]]);
const codeName = z.string().regex(/^[A-Za-z][A-Za-z_]*$/, 'コードは英字と _ で書きます');

const codeSpec = z.union([
  z.string().min(1),
  z.strictObject({
    ja: z.string().min(1),
    profiles: z.array(profile).min(1).optional(),
    mapTo: z.partialRecord(profile, codeName).optional(),
    relationsOnly: z.literal(true).optional(),
  }),
]);

const groupSpec = z.strictObject({
  title: z.string().min(1),
  profiles: z.array(profile).min(1).optional(),
  internal: z.literal(true).optional(),
  codes: z.record(codeName, codeSpec).refine((codes) => Object.keys(codes).length > 0, 'コードが一つもありません'),
});

const GROUPS = [...LABEL_GROUPS, 'sourceKind'] as const satisfies readonly Group[];
const vocabularySpec = z.strictObject(Object.fromEntries(GROUPS.map((g) => [g, groupSpec])) as Record<Group, typeof groupSpec>);

export interface Code {
  code: string;
  ja: string;
  profiles: ReadonlySet<Profile>;
  mapTo: Partial<Record<Profile, string>>;
  relationsOnly: boolean;
}

export interface CodeGroup {
  title: string;
  profiles: ReadonlySet<Profile>;
  internal: boolean;
  codes: readonly Code[];
}

export class Vocabulary {
  private readonly byCode: Record<Group, Map<string, Code>>;

  constructor(readonly groups: Record<Group, CodeGroup>) {
    this.byCode = Object.fromEntries(GROUPS.map((g) => [g, new Map(groups[g].codes.map((c) => [c.code, c]))])) as Record<
      Group,
      Map<string, Code>
    >;
  }

  /** Every code a content file may use in the group (the union of both profiles). */
  codes(group: Group, use: 'events' | 'relations' = 'relations'): string[] {
    return this.groups[group].codes.filter((c) => use === 'relations' || !c.relationsOnly).map((c) => c.code);
  }

  /** The code as a profile carries it: itself, its mapping, or undefined when the profile lacks it. */
  inProfile(group: Group, code: string, p: Profile): string | undefined {
    const c = this.byCode[group].get(code);
    if (!c || !this.groups[group].profiles.has(p)) return undefined;
    return c.profiles.has(p) ? c.code : c.mapTo[p];
  }

  /** Codes a profile serves in the group, in vocabulary order. */
  profileCodes(group: Group, p: Profile, use: 'events' | 'relations' = 'relations'): Code[] {
    if (!this.groups[group].profiles.has(p)) return [];
    return this.groups[group].codes.filter((c) => c.profiles.has(p) && (use === 'relations' || !c.relationsOnly));
  }

  label(group: Group, code: string): string | undefined {
    return this.byCode[group].get(code)?.ja;
  }

  /** The `labels` object of a profile: exactly the profile's codes, groups in contract order. */
  labels(p: Profile): Labels {
    const out: Labels = {};
    for (const g of LABEL_GROUPS satisfies readonly LabelGroup[]) {
      if (!this.groups[g].profiles.has(p)) continue;
      out[g] = Object.fromEntries(this.profileCodes(g, p).map((c) => [c.code, c.ja]));
    }
    return out;
  }
}

/** Validates content/vocabulary.yaml and builds the vocabulary, or returns what is wrong with it. */
export function loadVocabulary(file: YamlFile): { vocabulary?: Vocabulary; diagnostics: Diagnostic[] } {
  const parsed = vocabularySpec.safeParse(file.data);
  if (!parsed.success) {
    return { diagnostics: parsed.error.issues.map((i) => diagnose(file, i.path as (string | number)[], i.message)) };
  }
  const diagnostics: Diagnostic[] = [];
  const groups = {} as Record<Group, CodeGroup>;
  for (const g of GROUPS) {
    const spec = parsed.data[g];
    const groupProfiles = new Set<Profile>(spec.profiles ?? PROFILES);
    const codes: Code[] = Object.entries(spec.codes).map(([code, c]) => {
      const o = typeof c === 'string' ? { ja: c } : c;
      const profiles = new Set<Profile>(o.profiles ?? groupProfiles);
      for (const p of profiles) {
        if (!groupProfiles.has(p)) {
          diagnostics.push(diagnose(file, [g, 'codes', code, 'profiles'], `プロファイル ${p} はグループ ${g} にありません`));
        }
      }
      return {
        code,
        ja: o.ja,
        profiles,
        mapTo: 'mapTo' in o ? (o.mapTo ?? {}) : {},
        relationsOnly: 'relationsOnly' in o && o.relationsOnly === true,
      };
    });
    groups[g] = { title: spec.title, profiles: groupProfiles, internal: spec.internal === true, codes };
  }
  for (const g of GROUPS) {
    for (const c of groups[g].codes) {
      for (const [p, target] of Object.entries(c.mapTo) as [Profile, string][]) {
        const t = groups[g].codes.find((x) => x.code === target);
        if (c.profiles.has(p)) {
          diagnostics.push(
            diagnose(file, [g, 'codes', c.code, 'mapTo', p], `${c.code} はプロファイル ${p} にあるので、対応づけは要りません`),
          );
        } else if (!t || !t.profiles.has(p)) {
          diagnostics.push(
            diagnose(file, [g, 'codes', c.code, 'mapTo', p], `対応先 ${target} はプロファイル ${p} の ${g} のコードではありません`),
          );
        }
      }
    }
  }
  return diagnostics.length ? { diagnostics } : { vocabulary: new Vocabulary(groups), diagnostics };
}
