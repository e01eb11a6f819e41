// The licences, stated once: the landing page, the downloads, the feeds, OpenAPI, llms.txt and the
// tests read them from here. LICENSE and LICENSE-DATA hold the texts; CITATION.cff names the same.

/** The data (content/ and everything built from it). */
export const DATA_LICENSE = {
  spdx: 'CC-BY-4.0',
  name: 'クリエイティブ・コモンズ 表示 4.0 国際（CC BY 4.0）',
  url: 'https://creativecommons.org/licenses/by/4.0/deed.ja',
  legalcode: 'https://creativecommons.org/licenses/by/4.0/legalcode.ja',
  file: 'LICENSE-DATA',
} as const;

/** The code. */
export const CODE_LICENSE = { spdx: 'MIT', name: 'MIT License', url: 'https://opensource.org/license/mit', file: 'LICENSE' } as const;

/** One line for places that have room for one (feeds, file headers). */
export function dataLicenseLine(attribution: string, source: string): string {
  return `${attribution} ${source} — ${DATA_LICENSE.name} ${DATA_LICENSE.url}`;
}
