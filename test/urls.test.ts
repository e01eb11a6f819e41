import { describe, expect, it } from 'vitest';
import { dateInUrl, republisherOf, urlProblems } from '../pipeline/urls.js';

// The position of each report is covered by the broken-content fixtures; this table pins which
// addresses each rule catches and, as importantly, which ordinary addresses it leaves alone.

describe('source URL rules', () => {
  it.each([
    'https://www.boj.or.jp/paym/digital/index.htm',
    'https://coinpost.jp/?p=350288',
    'https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0001679788',
    'https://www.fsa.go.jp/news/r4/sonota/20220603/20220603.html',
    'https://www.reuters.com/technology/amplify-blockchain-2023-05-01/',
    'https://prtimes.jp/main/html/rd/p/000000012.000012345.html',
    'https://www.example-bank.co.jp/news/2024/0315.html',
    'https://news.example-fixture.org/article?id=42',
    'https://www.printful.com/news/2024',
    'https://printing.example-fixture.org/news/2024',
    'https://www.sangiin.go.jp/japanese/joho1/a.htm',
    'https://news.example-fixture.org:8443/a',
  ])('accepts %s', (url) => {
    expect(urlProblems(url)).toEqual([]);
  });

  it.each([
    ['https://www.coindesk.com/x/?utm_medium=referral&utm_source=rss', 'トラッキング用のパラメータ utm_medium, utm_source'],
    ['https://www.theblock.co/post/156301/x?ref=bitcoin.com.mx', 'トラッキング用のパラメータ ref'],
    ['https://nordot.app/1169282211476685067?ncmp=post_rcmd', 'トラッキング用のパラメータ ncmp'],
    ['https://www.neweconomy.jp/?p=353362', 'WordPress の短縮形'],
    ['https://t.co/AbCdEf', '短縮 URL'],
    ['https://forklog.com/en/news/x/amp', 'AMP 版'],
    ['https://amp.tokeninsight.com/en/news/x?outputType=amp', 'AMP 版'],
    ['https://www.businessinsider.in/x/amp_articleshow/82296457.cms', 'AMP 版'],
    ['https://www.livemint.com/news/world/a-twist/amp-11730442296406.html', 'AMP 版'],
    ['https://fca.org.uk/firms/x/printable/print', '印刷用ページ'],
    ['https://print.casetext.com/case/in-re-genesis-glob-holdco-2', '印刷用ページ'],
    ['https://example.com/news', '例示用・手元専用のホスト'],
    ['https://news.example.org/a', '例示用・手元専用のホスト'],
    ['https://bank.test/a', '例示用・手元専用のホスト'],
    ['https://127.0.0.1/a', '例示用・手元専用のホスト'],
    ['https://user:pw@news.org/a', '利用者名やパスワード'],
    ['https://news.org/a#:~:text=stablecoin', 'テキストフラグメント'],
    ['https://www.sangiin.go.jp:443/japanese/joho1/a.htm', '既定のポート番号'],
    ['https://www.jpx.co.jp./corporate/news/202210.html', '末尾に「.」'],
  ])('rejects %s', (url, fragment) => {
    const problems = urlProblems(url);
    expect(problems.map((p) => p.message).join(' ')).toContain(fragment);
    for (const p of problems) expect(p.hint.length).toBeGreaterThan(0);
  });

  it('suggests the address without the tracking parameters and keeps the others', () => {
    const [p] = urlProblems('https://news.org/a?id=7&utm_source=rss&fbclid=x');
    expect(p!.hint).toContain('https://news.org/a?id=7');
    expect(p!.hint).not.toContain('utm_source');
  });
});

describe('republishing sites', () => {
  it.each([
    ['https://m.followin.io/en/feed/17937365', 'followin.io'],
    ['https://www.odaily.news/en/post/5187020', 'odaily.news'],
    ['https://news.bitdegree.org/genesis-to-return', 'bitdegree.org'],
    ['https://www.binance.com/en/square/post/9313783000929', 'Binance Square'],
    ['https://www.binance.bh/ja/square/post/32152322430401', 'Binance Square'],
    ['https://www.binance.bh/en/academy/articles/what-is-uniswap-v4', 'Binance Academy'],
    ['https://academy.binance.com/en/articles/what-is-a-stablecoin', 'Binance Academy'],
    ['https://seotools.jp/news/id_000000095.000036656.html', 'seotools.jp'],
    ['https://coingape.com/sec-drops-binance-lawsuit/', 'coingape.com'],
    ['https://hodlfm.com/bitcoin/strategy-rebrand', 'hodlfm.com'],
    ['https://bullsgazette.com/coinbase-delists-usdt-eea', 'bullsgazette.com'],
    ['https://www.world-economist.com/hsbc-tokenised-deposit', 'world-economist.com'],
    ['https://gate.io/pt-br/learn/articles/what-is-yfi/168', 'gate.io'],
    ['https://bitget.com/news/detail/12560604123605', 'Bitget News'],
    ['https://d1eu30co0ohy4w.cloudfront.net/progmat/wg-dcc-onchain-st', 'cloudfront.net'],
    ['https://cryptonewz.pages.dev/crypto-news-coindesk.com/business/2021/04/08/x', 'pages.dev'],
    ['https://staging.coindesk.com/business/2021/06/10/x', 'staging.coindesk.com'],
    ['https://dev.coindesk.com/business/2022/x', 'dev.coindesk.com'],
    ['https://gcp.bankingdive.com/news/circle-applies-national-trust-bank-charter/752265', 'gcp.bankingdive.com'],
    ['https://webiis06.mondaq.com/uk/financial-services/1354320/x', 'webiis06.mondaq.com'],
    ['https://hunton.sitepilot11.firmseek.com/blockchain/2019/04/x', 'firmseek.com'],
  ])('names the site behind %s', (url, site) => {
    expect(republisherOf(url)).toBe(site);
  });

  it.each([
    'https://www.binance.com/en/blog/ecosystem/x',
    'https://www.coindesk.com/markets/2024/01/10/x/',
    'https://www.theblock.co/post/356298/sec-moves-to-dismiss-binance-litigation',
    'https://moneykit.net/visitor/info/',
    'https://notfollowin.io/a',
    'https://dev.to/someone/a-post',
    'https://www.bitget.com/support/articles/123',
    'https://beta.bankofengland.co.uk/paper/2023/x',
    'https://www.mondaq.com/uk/financial-services/1354320/x',
    'https://prtimes.jp/main/html/rd/p/000000095.000036656.html',
    'not a url',
  ])('leaves %s alone', (url) => {
    expect(republisherOf(url)).toBeUndefined();
  });
});

describe('dates in source URLs', () => {
  it.each([
    ['https://gamebusiness.jp/article/2024/01/11/22639.html', '2024-01-11'],
    ['https://www.fsb.org/2022/10/review-of-the-fsb-high-level-recommendations/', '2022-10-01'],
    ['https://www.itv.com/news/2021-03-12/nfts-digital-crypto-art', '2021-03-12'],
    ['https://www.axios.com/pro/fintech-deals/2024/04/24/apex', '2024-04-24'],
  ])('reads %s as %s', (url, date) => {
    expect(dateInUrl(url)).toBe(date);
  });

  it.each([
    'https://news.goo.ne.jp/article/reuters/business/reuters-20240408022.html',
    'https://coinpost.jp/?p=2024',
    'https://example.org/news/2020-12345',
    'https://example.org/2024/13/01/not-a-month',
    'not a url',
  ])('finds no date in %s', (url) => {
    expect(dateInUrl(url)).toBeUndefined();
  });
});
