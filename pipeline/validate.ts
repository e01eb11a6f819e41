import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { diagnose, type Diagnostic, type Path } from './diagnostics.js';
import type { YamlFile } from './loaders/yaml.js';
import { formatByPattern } from './patterns.js';
import { closest } from '../functions/chronicle/suggest.js';

/** Compiles JSON Schemas once; validates parsed files and reports each problem at its YAML node. */
export class SchemaValidator {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
  private readonly compiled = new Map<object, ValidateFunction>();

  validate(schema: Record<string, unknown>, file: YamlFile): Diagnostic[] {
    let fn = this.compiled.get(schema);
    if (!fn) {
      fn = this.ajv.compile(schema);
      this.compiled.set(schema, fn);
    }
    if (fn(file.data)) return [];
    return explain(fn.errors ?? [], file);
  }
}

function toPath(pointer: string): (string | number)[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

const TYPE_NAMES: Record<string, string> = {
  string: '文字列',
  boolean: '真偽値（true か false）',
  array: 'リスト（[a, b] または - で始まる行）',
  object: '「項目: 値」の組',
  null: 'null',
  integer: '整数',
  number: '数',
};

function valueAt(data: unknown, path: Path): unknown {
  let v = data;
  for (const p of path) v = (v as Record<string | number, unknown> | undefined)?.[p];
  return v;
}

/** A value quoted in a message: short, on one line, whatever the file holds. */
function show(value: unknown): string {
  const text = typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
  const clipped = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  // eslint-disable-next-line no-control-regex -- escaping control characters is the point
  return clipped.replace(/[\u0000-\u001F\u007F-\u009F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Turns ajv's errors into one message per problem. ajv reports a failed `anyOf` (a nullable code)
 * as one error per branch plus the anyOf itself; those collapse into a single "one of … or null".
 */
export function explain(errors: readonly ErrorObject[], file: YamlFile): Diagnostic[] {
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const inAnyOf = anyOfPaths.has(e.instancePath) && /\/anyOf\/\d+\//.test(e.schemaPath);
    if (inAnyOf) continue;
    const path = toPath(e.instancePath);
    const value = valueAt(file.data, path);
    let d: Diagnostic;
    switch (e.keyword) {
      case 'required': {
        const missing = (e.params as { missingProperty: string }).missingProperty;
        d = diagnose(file, path, `必須の項目 ${missing} がありません`, `${missing}: を追加してください`);
        break;
      }
      case 'additionalProperties': {
        const extra = (e.params as { additionalProperty: string }).additionalProperty;
        const allowed = Object.keys((e.parentSchema as { properties?: object }).properties ?? {});
        const near = closest(extra, allowed);
        d = diagnose(
          file,
          [...path, extra],
          `${extra} という項目はありません`,
          near ? `${near} の書き間違いではありませんか（使える項目: ${allowed.join(', ')}）` : `使える項目: ${allowed.join(', ')}`,
          true,
        );
        break;
      }
      case 'type': {
        const want = String((e.params as { type: string }).type);
        d = diagnose(
          file,
          path,
          `${show(value)} ではなく、${want
            .split(',')
            .map((t) => TYPE_NAMES[t] ?? t)
            .join(' または ')}で書きます`,
        );
        break;
      }
      case 'enum': {
        const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map(String);
        const near = typeof value === 'string' ? closest(value, allowed) : undefined;
        d = diagnose(
          file,
          path,
          `${show(value)} は使えないコードです`,
          `${near ? `${near} ではありませんか。` : ''}使える値: ${allowed.join(', ')}`,
        );
        break;
      }
      case 'anyOf': {
        const branches = (e.parentSchema as { anyOf: { enum?: unknown[]; type?: string }[] }).anyOf;
        const allowed = branches.flatMap((b) => b.enum ?? (b.type === 'null' ? ['null'] : [b.type ?? '']));
        const near = typeof value === 'string' ? closest(value, allowed.map(String)) : undefined;
        d = diagnose(
          file,
          path,
          `${show(value)} は使えない値です`,
          `${near ? `${near} ではありませんか。` : ''}使える値: ${allowed.join(', ')}`,
        );
        break;
      }
      case 'pattern': {
        const pattern = (e.params as { pattern: string }).pattern;
        const f = formatByPattern(pattern);
        if (typeof value === 'string' && value.includes(',') && /id|players|members|^[ab]$/i.test(String(path.at(-1) ?? path.at(-2)))) {
          d = diagnose(
            file,
            path,
            `ID にカンマは使えません: ${show(value)}`,
            'API の絞り込みではカンマで複数の値を区切るためです。カンマを取り除いてください',
          );
        } else {
          d = diagnose(file, path, `${show(value)}: ${f?.message ?? `形式 ${pattern} に合いません`}`, f?.hint);
        }
        break;
      }
      case 'minItems': {
        const n = (e.params as { limit: number }).limit;
        d = diagnose(file, path, `${n} 件以上書いてください`);
        break;
      }
      case 'uniqueItems': {
        // ajv's i is the earlier copy and j the later one; the later one is what to delete.
        const { i, j } = e.params as { i: number; j: number };
        d = diagnose(file, [...path, Math.max(i, j)], `${show((value as unknown[])[i])} が ${Math.min(i, j) + 1} 番目と重複しています`);
        break;
      }
      case 'maxLength': {
        const n = (e.params as { limit: number }).limit;
        d = diagnose(file, path, `${n} 文字以内で書いてください（今は ${String(value).length} 文字）`);
        break;
      }
      case 'minLength':
        d = diagnose(file, path, '空にはできません');
        break;
      default:
        d = diagnose(file, path, e.message ?? e.keyword);
    }
    const k = `${d.line}:${d.col}:${d.message}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(d);
    }
  }
  return out;
}
