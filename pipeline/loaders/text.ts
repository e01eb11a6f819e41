import type { YamlProblem } from './yaml.js';

// Characters that must never reach the published data: invisible control characters, and the
// bidirectional controls that make text display in another order than it reads ("Trojan Source").
// Tab, line feed and carriage return are ordinary whitespace in YAML.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF\uFFFD]/g;

const NAMES: Record<string, string> = {
  '\u200B': 'ゼロ幅スペース',
  '\uFEFF': 'ゼロ幅ノーブレークスペース（BOM）',
  '\uFFFD': 'UTF-8 として読めないバイト（置換文字）',
};
const MAX_REPORTED = 10;

export function unsafeCharacters(text: string): YamlProblem[] {
  const out: YamlProblem[] = [];
  for (const m of text.matchAll(UNSAFE)) {
    // A byte-order mark at the very start is how some editors save UTF-8; YAML allows it there.
    if (m.index === 0 && m[0] === '\uFEFF') continue;
    if (out.length === MAX_REPORTED) break;
    const ch = m[0];
    const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    const what =
      NAMES[ch] ?? (/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/.test(ch) ? '文字の向きを変える制御文字' : '見えない制御文字');
    out.push({
      offset: m.index,
      message: `${what} ${code} が含まれています`,
      hint:
        ch === '\uFFFD'
          ? 'ファイルを UTF-8 で保存し直してください'
          : '表示されない文字です。この位置の文字を消して打ち直してください（コピー元から紛れ込むことがあります）',
    });
  }
  return out;
}

/**
 * The file's bytes as text. Bytes that are not UTF-8 become U+FFFD, which `unsafeCharacters`
 * then reports at their position, so a wrongly saved file is a problem, not silently altered.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes);
}

/** `title：…` reads as one plain string, not a field: a full-width colon after a field name. */
export function fullWidthColons(text: string): YamlProblem[] {
  const out: YamlProblem[] = [];
  for (const m of text.matchAll(/^([ \t]*(?:-[ \t]+)?[A-Za-z_][A-Za-z0-9_]*[ \t]*)：/gm)) {
    out.push({
      offset: m.index + m[1]!.length,
      message: '項目名の後のコロンが全角（：）です',
      hint: '半角のコロンと空白「: 」にしてください',
    });
  }
  return out;
}
