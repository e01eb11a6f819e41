import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveAsOf } from './as-of.js';
import { build, runPipeline, schemaFileText } from './build.js';
import { fingerprints, SNAPSHOT_PATH, snapshotText } from './changes.js';
import { formatReport } from './diagnostics.js';
import { parseYaml } from './loaders/yaml.js';
import { SCHEMA_DIR, yamlProblems } from './load.js';
import { renderCodesDoc } from './codes-doc.js';
import { firstSourceKinds, formatCoverage, laterSources, outletNameVariants, republishedSources, singleSourceEvents } from './coverage.js';
import { isProfile } from './profiles.js';
import { allJsonSchemas } from './schemas.js';
import { loadVocabulary } from './vocabulary.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const contentDir = join(root, 'content');
const snapshotFile = join(root, SNAPSHOT_PATH);
const started = performance.now();
const log = (message: string) => process.stderr.write(`  ${message}\n`);
const elapsed = () => `${Math.round(performance.now() - started)} ms`;

async function main(command: string | undefined): Promise<number> {
  switch (command) {
    case 'build':
    case 'check':
      return buildOrCheck(command);
    case 'generate':
      return generate();
    case 'coverage':
      return coverageReport();
    case 'record':
      return recordPublish();
    default:
      process.stderr.write('使い方: tsx pipeline/cli.ts build | check | generate | coverage | record\n');
      return 2;
  }
}

async function buildOrCheck(command: 'build' | 'check'): Promise<number> {
  const profile = process.env.CHRONICLE_PROFILE ?? 'A';
  if (!isProfile(profile)) {
    process.stderr.write(`CHRONICLE_PROFILE=${profile} は使えません。A か B を指定してください\n`);
    return 2;
  }
  const { asOf, note } = resolveAsOf(contentDir);
  if (note) log(note);
  process.stderr.write(
    command === 'build' ? `データセットを組み立てます（公開するプロファイル: ${profile}、asOf: ${asOf}）\n` : 'content/ を検証します\n',
  );
  const options = { contentDir, asOf, progress: log, snapshotFile };
  const result =
    command === 'build'
      ? await build({ ...options, buildDir: join(root, '.build'), publicDir: join(root, 'public'), served: profile })
      : await runPipeline(options);
  if (result.diagnostics.length) {
    process.stderr.write(`\n${formatReport(result.diagnostics)}\n`);
    if (command === 'build') process.stderr.write('何も書き出していません。前回のビルド結果はそのままです。\n');
    return 1;
  }
  if (command === 'check') {
    process.stderr.write(`問題はありません（${elapsed()}）\n`);
    const single = singleSourceEvents(result.records!);
    if (single.length) {
      process.stderr.write(
        `\n注意: 出典が 1 媒体以下のイベント（転載サイトは数えません）が ${single.length} 件あります（エラーではありません）。別の媒体の記事があれば足してください:\n`,
      );
      for (const s of single) process.stderr.write(`  ${s.file}\n`);
      process.stderr.write('分野・年・地域ごとの件数は npm run coverage で見られます。\n');
    }
    const republished = republishedSources(result.records!);
    if (republished.length) {
      process.stderr.write(
        `\n注意: 他の媒体の記事を転載・要約するサイトや、ページの公開版でない複製（staging・CDN など）の出典が ${republished.length} 件あります（エラーではありません）。元の記事か一次情報の公開ページに差し替えてください:\n`,
      );
      for (const r of republished) process.stderr.write(`  ${r.file}  ${r.site}\n`);
    }
    const later = laterSources(result.records!);
    if (later.length) {
      process.stderr.write(
        `\n注意: URL の日付がイベントの日付より 1 年以上後の出典が ${later.length} 件あります（エラーではありません）。後の出来事を報じた記事は、その段階を報じたページが見つからないときだけ残し、日はそこから取りません。その段階を報じたページがあれば差し替えてください:\n`,
      );
      for (const l of later) process.stderr.write(`  ${l.file}  ${l.urlDate}  ${l.url}\n`);
    }
    const variants = outletNameVariants(result.records!);
    if (variants.length) {
      process.stderr.write(
        `\n注意: 同じサイトの媒体名を別の表記で書いた出典が ${variants.length} 件あります（エラーではありません）。多く使われている表記に揃えてください:\n`,
      );
      for (const v of variants) process.stderr.write(`  ${v.file}  ${v.name} → ${v.usual}\n`);
    }
    return 0;
  }
  process.stderr.write(`.build/ と public/ に書き出しました（${elapsed()}）\n`);
  return 0;
}

/** Prints how far the dataset reaches against its goals (stdout, so it can be saved or diffed). */
async function coverageReport(): Promise<number> {
  const result = await runPipeline({ contentDir, asOf: resolveAsOf(contentDir).asOf, progress: log, snapshotFile });
  if (result.diagnostics.length) {
    process.stderr.write(`\n${formatReport(result.diagnostics)}\n`);
    return 1;
  }
  const input = { served: result.datasets!, firstSourceKind: firstSourceKinds(result.records!) };
  const records = result.records!;
  const lists = { single: singleSourceEvents(records), republished: republishedSources(records), later: laterSources(records) };
  process.stdout.write(`${formatCoverage(input, lists)}\n`);
  return 0;
}

/**
 * `npm run publish:record`: after a publish, records what was published (published/snapshot.json),
 * so the next build's change log and id check compare with it. Run on the published commit.
 */
async function recordPublish(): Promise<number> {
  const { asOf, note } = resolveAsOf(contentDir);
  if (note) log(note);
  const result = await runPipeline({ contentDir, asOf, progress: log, snapshotFile });
  if (result.diagnostics.length) {
    process.stderr.write(`\n${formatReport(result.diagnostics)}\n記録していません。\n`);
    return 1;
  }
  const snapshot = { asOf, records: fingerprints(result.datasets!), changes: result.changes! };
  await mkdir(dirname(snapshotFile), { recursive: true });
  await writeFile(snapshotFile, snapshotText(snapshot));
  process.stderr.write(`${SNAPSHOT_PATH} に公開の記録を書きました（asOf ${asOf}）。コミットしてください。\n`);
  for (const p of ['A', 'B'] as const) process.stderr.write(`  ${p}: ${result.changes![p].summary}\n`);
  return 0;
}

/** Writes what is derived from the vocabulary and committed: editor schemas and docs/codes.md. */
async function generate(): Promise<number> {
  const file = parseYaml('content/vocabulary.yaml', await readFile(join(contentDir, 'vocabulary.yaml'), 'utf8'));
  const { vocabulary, diagnostics } = file.data === undefined ? { diagnostics: yamlProblems(file) } : loadVocabulary(file);
  if (!vocabulary) {
    process.stderr.write(`${formatReport(diagnostics)}\n`);
    return 1;
  }
  const schemas = allJsonSchemas(vocabulary);
  await mkdir(join(contentDir, SCHEMA_DIR), { recursive: true });
  for (const stem of ['event', 'relation', 'player', 'initiative']) {
    await writeFile(join(contentDir, SCHEMA_DIR, `${stem}.schema.json`), schemaFileText(schemas[stem]!));
  }
  await mkdir(join(root, 'docs'), { recursive: true });
  await writeFile(join(root, 'docs', 'codes.md'), renderCodesDoc(vocabulary));
  process.stderr.write(`content/${SCHEMA_DIR}/ と docs/codes.md を更新しました\n`);
  return 0;
}

process.exitCode = await main(process.argv[2]);
