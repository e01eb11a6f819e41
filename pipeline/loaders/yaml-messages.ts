import type { YAMLError, YAMLWarning } from 'yaml';

// The yaml parser's messages, said in Japanese with what to do. Curators read Japanese; the
// English original would tell them less.
const MESSAGES: Partial<Record<YAMLError['code'] | YAMLWarning['code'], [string, string?]>> = {
  DUPLICATE_KEY: ['同じ項目が二度書かれています', 'どちらか一方を消してください'],
  MULTIPLE_DOCS: ['1 ファイルには 1 件の記録だけを書きます（--- で区切れません）', '2 件目は別のファイルに移してください'],
  BAD_INDENT: ['インデント（行頭の空白）が揃っていないか、括弧が閉じていません', '同じ階層の項目は行頭の空白の数を揃えます'],
  MISSING_CHAR: ['閉じる引用符や括弧がありません', '開いた \' " [ { を同じ値の中で閉じてください'],
  TAB_AS_INDENT: ['インデントにタブは使えません', 'タブを半角空白に置き換えてください'],
  BLOCK_AS_IMPLICIT_KEY: [
    '一行に「項目: 値」が二つあるか、値の中に「: 」があります',
    '値に「: 」や「#」を含めるときは、値全体を引用符で囲みます',
  ],
  UNEXPECTED_TOKEN: ['思わぬ記号があります', '値が記号で始まるときは、値全体を引用符で囲みます'],
  MULTILINE_IMPLICIT_KEY: ['項目名が複数行にまたがっています', '「項目: 値」は一行に書き、前の行の引用符が閉じているか確かめてください'],
  BAD_SCALAR_START: ['値がこの記号では始められません', '値全体を引用符で囲んでください'],
  BAD_DQ_ESCAPE: ['ダブルクォートの中に使えない \\ の組み合わせがあります', "シングルクォート ' で囲むか、\\ を \\\\ と書きます"],
  BLOCK_IN_FLOW: ['[ ] や { } の中で改行して「- 」や「項目:」を書いています', '[ ] { } の中身は一行に書くか、括弧を使わない書き方にします'],
  KEY_OVER_1024_CHARS: ['項目名が長すぎます', '「項目: 値」の「: 」が抜けていないか確かめてください'],
  MULTIPLE_ANCHORS: ['& が一つの値に二つあります', '& で始まる値は引用符で囲みます'],
  MULTIPLE_TAGS: ['! が一つの値に二つあります', '! で始まる値は引用符で囲みます'],
  TAG_RESOLVE_FAILED: ['タグ（! で始まる型の指定）は使えません', '値だけを書いてください。! で始まる値は引用符で囲みます'],
  ALIAS_PROPS: ['エイリアス（*）に & や ! は付けられません', '* で始まる値は引用符で囲みます'],
  BAD_PROP_ORDER: ['& や ! の位置が正しくありません', '& や ! で始まる値は引用符で囲みます'],
  NON_STRING_KEY: ['項目名が文字ではありません', '項目名は英字で書き、「項目: 値」の形にします'],
  BAD_ALIAS: ['エイリアス（*）が正しくありません', '* で始まる値は引用符で囲みます'],
  BAD_DIRECTIVE: ['% で始まる指示は使えません', '行頭の % を消すか、値を引用符で囲みます'],
  BAD_COLLECTION_TYPE: ['この位置には「項目: 値」かリストを書きます', '行頭の空白と「- 」を確かめてください'],
  IMPOSSIBLE: ['YAML として読めません', '直前の行の引用符や括弧を確かめてください'],
};

export function yamlErrorText(e: YAMLError | YAMLWarning): { message: string; hint?: string } {
  const [message, hint] = MESSAGES[e.code] ?? ['YAML として読めない書き方です', '直前の行の引用符・括弧・インデントを確かめてください'];
  return { message: `YAML の書き方の誤り: ${message}`, ...(hint ? { hint } : {}) };
}
