import type { Meta, Profile } from '../functions/chronicle/dataset.js';
import { diagnose, type Diagnostic } from './diagnostics.js';
import type { YamlFile } from './loaders/yaml.js';
import { FORMATS } from './patterns.js';
import { urlProblems } from './urls.js';
import { z } from './zod.js';

const profileSite = z.strictObject({
  source: z.string().regex(FORMATS.url.re, FORMATS.url.message),
  attribution: z.string().regex(FORMATS.text.re, FORMATS.text.message),
});
const siteSpec = z.strictObject({ profiles: z.strictObject({ A: profileSite, B: profileSite }) });

export type Site = Record<Profile, Omit<Meta, 'asOf'>>;

/** content/site.yaml: what each profile's `meta` says about the dataset itself. */
export function loadSite(file: YamlFile): { site?: Site; diagnostics: Diagnostic[] } {
  const parsed = siteSpec.safeParse(file.data);
  if (parsed.success) {
    const diagnostics = Object.entries(parsed.data.profiles).flatMap(([p, { source }]) =>
      urlProblems(source).map((u) => diagnose(file, ['profiles', p, 'source'], u.message, u.hint)),
    );
    return diagnostics.length ? { diagnostics } : { site: parsed.data.profiles, diagnostics };
  }
  return { diagnostics: parsed.error.issues.map((i) => diagnose(file, i.path as (string | number)[], i.message)) };
}
