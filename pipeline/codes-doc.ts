import { PROFILE_NAMES, PROFILES, type Group } from './profiles.js';
import type { Vocabulary } from './vocabulary.js';

const USED_BY: Record<Group, string> = {
  topic: 'event.topic, relation.topic, `topic` parameter',
  region: 'event.region, player.region, `region` parameter',
  status: 'event.status, `status` parameter',
  category: 'player.category',
  relation: 'relation.type',
  sub: 'event.sub',
  sector: 'player.sector',
  sourceKind: 'content only: the kind of each source, which orders `sources`',
};

/** docs/codes.md: every code list, generated from content/vocabulary.yaml. */
export function renderCodesDoc(v: Vocabulary): string {
  const out = [
    '# Codes',
    '',
    '<!-- Generated from content/vocabulary.yaml by `npm run generate`. Do not edit by hand. -->',
    '',
    'Every code the dataset uses, its Japanese label (as served in `labels`) and the profiles that carry it.',
    `Profiles: ${PROFILES.map((p) => `${p} = ${PROFILE_NAMES[p]}`).join(', ')}.`,
    '',
  ];
  for (const [group, g] of Object.entries(v.groups) as [Group, (typeof v.groups)[Group]][]) {
    out.push(`## ${group} — ${g.title}`, '', `Used by: ${USED_BY[group]}.${g.internal ? '' : ` Served in \`labels.${group}\`.`}`, '');
    out.push('| code | label | profiles | notes |', '|---|---|---|---|');
    for (const c of g.codes) {
      const notes = [
        ...Object.entries(c.mapTo).map(([p, to]) => `served as \`${to}\` in ${p}`),
        ...(c.relationsOnly ? ['relations only; not a filter value'] : []),
      ].join('; ');
      out.push(`| \`${c.code}\` | ${c.ja} | ${[...c.profiles].join(', ')} | ${notes} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
