import { DATE_PATTERN } from '../functions/chronicle/dates.js';

// Text formats of the content, each with the message a curator sees when a value breaks it.
// The schemas use the regular expressions; the error report looks the message up by pattern.

export interface TextFormat {
  re: RegExp;
  message: string;
  hint?: string;
}

export const FORMATS = {
  eventId: {
    re: /^\d{4}-[a-z0-9]+(?:-[a-z0-9]+)*$/,
    message: 'イベントIDは「年-英小文字の説明」の形で書きます（英小文字・数字・ハイフン）',
    hint: '例: 2024-boj-cbdc-pilot-forum。ファイル名は「ID.yaml」です',
  },
  playerId: {
    re: /^[A-Za-z0-9](?:[A-Za-z0-9.' -]*[A-Za-z0-9.])?$/,
    message: "企業・機関のIDは英語名で書きます（英数字・空白・ . - ' のみ）",
    hint: '例: Mitsubishi UFJ Financial Group',
  },
  initiativeId: {
    re: /^[a-z]+(?:-[a-z]+)*$/,
    message: 'イニシアティブのIDは英小文字とハイフンで書きます',
    hint: '例: project-mbridge（数字や連続したハイフンは使えません）',
  },
  date: {
    re: DATE_PATTERN,
    message: '日付は YYYY、YYYY-MM、YYYY-MM-DD のいずれかで書きます',
    hint: '例: 2024-03 または 2024-03-15',
  },
  year: { re: /^\d{4}$/, message: '年は YYYY で書きます', hint: '例: 2023' },
  url: {
    re: /^https:\/\/[^\s/]+\.[^\s]*$/,
    message: 'URL は https:// で始まる完全な形で書きます',
    hint: 'http:// のページは https:// の版を探してください',
  },
  english: {
    re: /^(?:[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?)?$/,
    message: '英語（半角英数字）で書き、前後に空白を入れません',
  },
  eventDescription: {
    // The last sentence says which stage the date marks: announcement, start and entry into force
    // are different days of one development.
    re: /^(?=\S)[\s\S]*日付は[^。\n]*。$/,
    message: '説明の最後に、日付がどの段階の日かを「日付は発表日。」のように書きます（前後に空白を入れません）',
    hint: '例: 「…を発表した。日付は発表日。」。日付が月や年までなら「日付は発表の月。」「日付は施行の年。」',
  },
  text: {
    re: /^\S(?:[\s\S]*\S)?$/,
    message: '前後に空白や改行を入れずに書きます',
  },
} as const satisfies Record<string, TextFormat>;

export function formatByPattern(pattern: string): TextFormat | undefined {
  return Object.values(FORMATS).find((f) => f.re.source === pattern);
}
