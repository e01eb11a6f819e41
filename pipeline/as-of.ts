import { execFileSync } from 'node:child_process';
import { isDate } from '../functions/chronicle/dates.js';

export const AS_OF_ENV = 'CHRONICLE_AS_OF';

/**
 * `meta.asOf`: the date of the last commit that changed the content folder, so that the same
 * commit always builds the same bytes. CHRONICLE_AS_OF overrides it for reproducible builds
 * outside a git checkout.
 */
export function resolveAsOf(contentDir: string, env: NodeJS.ProcessEnv = process.env): { asOf: string; note?: string } {
  const forced = env[AS_OF_ENV];
  if (forced !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(forced) || !isDate(forced)) {
      throw new Error(`${AS_OF_ENV}=${forced} は YYYY-MM-DD の実在する日付ではありません`);
    }
    return { asOf: forced };
  }
  try {
    const out = execFileSync('git', ['log', '-1', '--format=%cd', '--date=format-local:%Y-%m-%d', '--', '.'], {
      cwd: contentDir,
      encoding: 'utf8',
      env: { ...env, TZ: 'UTC' },
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (out) return { asOf: out };
  } catch {
    // Not a git checkout, or git is missing: fall through.
  }
  const today = new Date().toISOString().slice(0, 10);
  return {
    asOf: today,
    note: `content/ を変えたコミットが見つからないため、今日の日付 ${today} を使います（${AS_OF_ENV} で指定できます）`,
  };
}
