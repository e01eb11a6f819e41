import { describe, expect, it } from 'vitest';
import { hrefOf, parseRoute, valuesOf, withParam } from '../site/route.js';
import type { Event, Player } from '../functions/chronicle/dataset.js';
import { EventSearch, queryTokens } from '../site/search.js';

// The explorer's pure parts, without a browser: its address and its Japanese tokenizer.

describe('the explorer’s address', () => {
  it('keeps the API part as written, for the API’s own parser and messages, and takes its own parameters out', () => {
    const r = parseRoute('?topic=cbdc,rwa&q=%E6%97%A5%E9%8A%80&region=JP&view=network&topik=x');
    expect(r.view).toBe('network');
    expect(r.q).toBe('日銀');
    expect(r.filter).toBe('topic=cbdc,rwa&region=JP&topik=x');
    expect(valuesOf(r, 'topic')).toEqual(['cbdc', 'rwa']);
  });

  it('keeps an undecodable piece for the API to report', () => {
    const r = parseRoute('?topic=%E3%81&org=');
    expect(r.view).toBe('org');
    expect(r.filter).toBe('topic=%E3%81');
  });

  it('names organization and initiative pages, and unknown views', () => {
    expect(parseRoute('?org=Bank%20of%20Japan')).toMatchObject({ view: 'org', org: 'Bank of Japan' });
    expect(parseRoute('?initiative=project-agora')).toMatchObject({ view: 'initiative', initiative: 'project-agora' });
    expect(parseRoute('?view=maps').view).toBe('unknown');
    expect(parseRoute('').view).toBe('timeline');
  });

  it('writes parameters in the API’s order with readable commas, and removes them when empty', () => {
    let r = parseRoute('?region=JP&q=x');
    r = withParam(r, 'topic', ['cbdc', 'rwa']);
    expect(hrefOf(r)).toBe('/?topic=cbdc,rwa&region=JP&q=x');
    r = withParam(r, 'player', ['Bank of Japan']);
    expect(hrefOf(r)).toBe('/?topic=cbdc,rwa&region=JP&player=Bank%20of%20Japan&q=x');
    r = withParam(withParam(r, 'region', []), 'topic', []);
    expect(hrefOf(r)).toBe('/?player=Bank%20of%20Japan&q=x');
    expect(hrefOf({ view: 'org', org: 'Bank of Japan', q: 'x', filter: 'topic=cbdc' })).toBe('/?org=Bank%20of%20Japan');
  });
});

describe('the Japanese search tokenizer', () => {
  it('cuts text into runs of letters and digits, and those into overlapping bigrams', () => {
    expect(queryTokens('預金トークン')).toEqual(['預金', '金ト', 'トー', 'ーク', 'クン']);
    expect(queryTokens('日銀、JPM')).toEqual(['日銀', 'jp', 'pm']);
    // A one-character query is the character itself.
    expect(queryTokens('円')).toEqual(['円']);
  });

  it('folds full-width letters and case (NFKC, lower case)', () => {
    expect(queryTokens('ＪＰＹＣ')).toEqual(queryTokens('jpyc'));
    expect(queryTokens('   ・、。')).toEqual([]);
  });

  it('finds an event when every piece of the query occurs within one of its fields, never across two', () => {
    const event = (title: string, description: string, players: string[] = []) => ({ title, description, players }) as unknown as Event;
    const players = new Map<string, Player>([
      ['Bank of Japan', { id: 'Bank of Japan', nameJa: '日本銀行', members: ['日銀'] } as unknown as Player],
    ]);
    const search = new EventSearch(
      [
        event('預金トークンの発行', '円建ての預金を対象とする。'),
        event('実証を開始', '日本の銀行が参加する。', ['Bank of Japan']),
        event('ＪＰＹＣの発行', '預金・トークン化の検討'),
      ],
      players,
    );
    const found = (q: string) => [...(search.match(q) ?? [])];
    expect(search.match('  、')).toBeUndefined();
    expect(found('預金トークン')).toEqual([0]);
    expect(found('円')).toEqual([0]);
    expect(found('日銀')).toEqual([1]);
    expect(found('日本銀行')).toEqual([1]);
    expect(found('jpyc')).toEqual([2]);
    // The title ends in 始 and the description begins with 日: the piece 始日 spans two fields.
    expect(found('始日')).toEqual([]);
    // 金・ト: the dot ends a run, so 金ト is not a piece of event 2's text.
    expect(found('金ト')).toEqual([0]);
    expect(found('発行 預金')).toEqual([0, 2]);
  });
});
