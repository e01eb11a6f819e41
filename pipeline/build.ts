import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { BuiltDataset, Profile } from '../functions/chronicle/dataset.js';
import { changeLogs, checkPublished, loadRemovals, parseSnapshot, SNAPSHOT_PATH, type ChangeLog } from './changes.js';
import { crossCheck, type Entry, type Records, type Salvaged } from './crosscheck.js';
import type { YamlFile } from './loaders/yaml.js';
import type { Diagnostic } from './diagnostics.js';
import { loadContent, RECORD_DIRS, SCHEMA_DIR } from './load.js';
import { writeOutputs } from './output.js';
import { PROFILES } from './profiles.js';
import { project } from './project.js';
import { allJsonSchemas, type ContentKind } from './schemas.js';
import { loadSite } from './site.js';
import { SchemaValidator } from './validate.js';
import { loadVocabulary } from './vocabulary.js';

export interface PipelineOptions {
  contentDir: string;
  /** `meta.asOf`, YYYY-MM-DD. */
  asOf: string;
  /** Reports each step; the CLI prints these. */
  progress?: (message: string) => void;
  /** The last publish's snapshot (published/snapshot.json); without it nothing is compared. */
  snapshotFile?: string;
}

export interface PipelineResult {
  diagnostics: Diagnostic[];
  datasets?: Record<Profile, BuiltDataset>;
  /** Every generated JSON Schema, by file stem. */
  schemas?: Record<string, Record<string, unknown>>;
  /** The validated content records, with their files (for reports on what curators wrote). */
  records?: Records;
  /** Per profile, what changed since the last publish. */
  changes?: Record<Profile, ChangeLog>;
  files: number;
}

const SCHEMA_FOR: Record<ContentKind, string> = { events: 'event', relations: 'relation', players: 'player', initiatives: 'initiative' };

export function schemaFileText(schema: Record<string, unknown>): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** Load → validate → cross-check → project per profile. Every problem in every file is collected. */
export async function runPipeline(opts: PipelineOptions): Promise<PipelineResult> {
  const progress = opts.progress ?? (() => {});
  const content = await loadContent(opts.contentDir);
  const files = RECORD_DIRS.reduce((n, k) => n + content.records[k].length, 0);
  progress(`${files} 件の記録ファイルを読みました`);
  const diagnostics = [...content.diagnostics];
  const missing = (name: string): Diagnostic => ({ file: `content/${name}`, line: 1, col: 1, path: '', message: `${name} がありません` });
  if (!content.vocabulary) return { diagnostics: [...diagnostics, missing('vocabulary.yaml')], files };
  if (!content.site) diagnostics.push(missing('site.yaml'));

  const { vocabulary: v, diagnostics: vocabProblems } =
    content.vocabulary.data === undefined ? { diagnostics: [] } : loadVocabulary(content.vocabulary);
  diagnostics.push(...vocabProblems);
  const site = content.site?.data !== undefined ? loadSite(content.site) : { diagnostics: [] };
  diagnostics.push(...site.diagnostics);
  if (!v) return { diagnostics, files };

  const schemas = allJsonSchemas(v);
  diagnostics.push(...(await checkSchemaFiles(opts.contentDir, schemas)));

  const validator = new SchemaValidator();
  const records = { events: [], relations: [], players: [], initiatives: [] } as unknown as Records;
  const salvaged: Salvaged = { events: [], relations: [], players: [], initiatives: [] };
  for (const kind of RECORD_DIRS) {
    for (const file of content.records[kind]) {
      if (file.data === undefined || file.data === null) continue;
      const problems = validator.validate(schemas[SCHEMA_FOR[kind]]!, file);
      if (problems.length) {
        for (const d of problems) diagnostics.push(d);
        const rest = salvage(file.data, problems);
        if (rest) (salvaged[kind] as { file: YamlFile; record: object }[]).push({ file, record: rest });
      } else {
        (records[kind] as Entry<ContentKind>[]).push({ file, record: file.data as never });
      }
    }
  }
  const verdict = (n: number) => (n ? `問題 ${n} 件` : '問題なし');
  const before = diagnostics.length;
  progress(`読み込みとスキーマ検証: ${verdict(before)}`);
  for (const d of crossCheck(v, records, salvaged)) diagnostics.push(d);
  progress(`ファイル間の検証: ${verdict(diagnostics.length - before)}`);

  // Published ids may not vanish: compared with the last publish, salvaged files counting as present.
  const snapshotRaw = opts.snapshotFile ? await readFile(opts.snapshotFile, 'utf8').catch(() => undefined) : undefined;
  const { snapshot, diagnostics: snapshotProblems } = parseSnapshot(snapshotRaw);
  const { removals, diagnostics: removalProblems } = loadRemovals(content.removed);
  const present = (kind: 'events' | 'players' | 'initiatives') =>
    new Set([...records[kind], ...salvaged[kind]].flatMap(({ record }) => (typeof record.id === 'string' ? [record.id] : [])));
  const members = new Set([...records.players, ...salvaged.players].flatMap(({ record }) => record.members ?? []));
  const beforePublished = diagnostics.length;
  diagnostics.push(...snapshotProblems, ...removalProblems);
  diagnostics.push(
    ...checkPublished(
      snapshot,
      snapshotRaw,
      { events: present('events'), players: present('players'), initiatives: present('initiatives') },
      members,
      removals,
    ),
  );
  if (opts.snapshotFile) {
    progress(
      snapshot
        ? `前回の公開（${snapshot.asOf}）との照合: ${verdict(diagnostics.length - beforePublished)}`
        : `前回の公開の記録（${SNAPSHOT_PATH}）がないので、照合しません`,
    );
  }
  if (diagnostics.length || !site.site) return { diagnostics, files };

  const datasets = Object.fromEntries(PROFILES.map((p) => [p, project(v, records, site.site!, p, opts.asOf)])) as Record<
    Profile,
    BuiltDataset
  >;
  // The projection must produce exactly the documented response; a failure here is a pipeline bug.
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  for (const p of PROFILES) {
    const { meta, labels, events, relations, players, initiatives } = datasets[p];
    const response = { meta: { ...meta, counts: {} }, labels, events, relations, players, ...(initiatives ? { initiatives } : {}) };
    const ok = ajv.validate(schemas[`response-${p}`]!, response);
    if (!ok) throw new Error(`profile ${p} output does not match its response schema: ${ajv.errorsText()}`);
    progress(
      `プロファイル ${p}: イベント ${response.events.length}、関係 ${response.relations.length}、企業・機関 ${response.players.length}${response.initiatives ? `、イニシアティブ ${response.initiatives.length}` : ''}`,
    );
  }
  const changes = changeLogs(datasets, snapshot, removals);
  if (snapshot) for (const p of PROFILES) progress(`プロファイル ${p}: ${changes[p].summary}`);
  return { diagnostics, datasets, schemas, records, changes, files };
}

/** A failed record without the top-level fields its problems point at; undefined if not a mapping. */
function salvage(data: unknown, problems: readonly Diagnostic[]): object | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const failed = new Set(problems.map((d) => /^[^.[]*/.exec(d.path)![0]));
  if (failed.has('')) return undefined;
  return Object.fromEntries(Object.entries(data).filter(([k]) => !failed.has(k)));
}

/** The editor schemas in content/schemas/ must be the ones the vocabulary generates. */
async function checkSchemaFiles(contentDir: string, schemas: Record<string, Record<string, unknown>>): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const stem of Object.values(SCHEMA_FOR)) {
    const name = `${SCHEMA_DIR}/${stem}.schema.json`;
    const have = await readFile(join(contentDir, name), 'utf8').catch(() => undefined);
    if (have !== schemaFileText(schemas[stem]!)) {
      out.push({
        file: `content/${name}`,
        line: 1,
        col: 1,
        path: '',
        message: have === undefined ? 'エディタ用スキーマがありません' : 'エディタ用スキーマが vocabulary.yaml と食い違っています',
        hint: 'npm run generate を実行して、生成されたファイルもコミットしてください',
      });
    }
  }
  return out;
}

export interface BuildOptions extends PipelineOptions {
  buildDir: string;
  publicDir: string;
  served: Profile;
}

/** The pipeline, then the outputs, written only when no file has any problem. */
export async function build(opts: BuildOptions): Promise<PipelineResult> {
  const result = await runPipeline(opts);
  if (!result.diagnostics.length) {
    await writeOutputs({
      buildDir: opts.buildDir,
      publicDir: opts.publicDir,
      datasets: result.datasets!,
      served: opts.served,
      schemas: result.schemas!,
      changes: result.changes!,
    });
  }
  return result;
}
