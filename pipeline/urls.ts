// What makes a source URL unfit to cite, beyond being a well-formed https URL. A reader following
// a source must land on the canonical page that reports the occurrence: not a copy stripped for
// phones or printers, not a redirect whose target can change, not a link that tells the outlet
// where the reader came from, and never a placeholder.

export interface UrlProblem {
  message: string;
  hint: string;
}

/** Query parameters that only track the visit; the page is the same without them. */
const TRACKING_PARAMS = [
  /^utm_/i,
  /^(fbclid|gclid|dclid|gbraid|wbraid|msclkid|yclid|twclid|igshid|mc_cid|mc_eid|_hsenc|_hsmi|mkt_tok|oly_anon_id|oly_enc_id|vero_id|wickedid)$/i,
  /^(ref|ref_src|ref_url|referrer|cmpid|cmp|ncid|sr_share|smid|s_cid|mod|taid|guccounter|guce_referrer|guce_referrer_sig|sh|share|ncmp|ppcid|trk|tracking|source|spm|__twitter_impression)$/i,
];

/** Hosts whose only job is to redirect elsewhere. */
const SHORTENER_HOSTS = new Set([
  'bit.ly',
  'buff.ly',
  'dlvr.it',
  'goo.gl',
  'is.gd',
  'lnkd.in',
  'ow.ly',
  'rebrand.ly',
  't.co',
  't.ly',
  'tiny.cc',
  'tinyurl.com',
  'trib.al',
  'youtu.be',
]);

/** Outlets whose canonical article address is WordPress's `/?p=123`, so there it is no shortlink. */
const P_PERMALINK_HOSTS = new Set(['coinpost.jp']);

/**
 * Sites that republish or rewrite other outlets' articles: aggregators, machine-written or
 * machine-translated feeds, copies of press releases on unrelated sites, exchanges' explainer feeds,
 * and crypto news sites whose stories restate someone else's report. A page there is never the
 * report itself, and its text may not match the original. The check lists these sources rather
 * than refusing them, because published records that still rest on one keep that page until the
 * primary page or the original report is found.
 */
const REPUBLISHER_HOSTS = [
  '36crypto.com',
  '99crypto.com',
  'ambcrypto.com',
  'aped.ai',
  'azcoinnews.com',
  'bitcoinist.com',
  'bitcoinke.io',
  'bitcoinnews.com',
  'bitcoinsensus.com',
  'bitcoinsistemi.com',
  'bitcoinworld.news',
  'bitdegree.org',
  'block319.com',
  'blockchainjournal.news',
  'blockchainmedia.id',
  'blockchaintipsheet.com',
  'blockflow.news',
  'blocking.net',
  'blockinsider.com',
  'blocklore.co',
  'blocknews.com',
  'blocknewsint.com',
  'blocknewsx.com',
  'blockogmedia.com',
  'blockonomi.com',
  'blocktribune.com',
  'blockzeit.com',
  'btcfxpro.com',
  'btcpeers.com',
  'btctimes.com',
  'bullsgazette.com',
  'businesscryptonews.com',
  'buycrypto.news',
  'capwolf.com',
  'coin360.com',
  'coinalertnews.com',
  'coinbeat.com',
  'coincentral.com',
  'coincollege.xyz',
  'coincult.com',
  'coindaraz.com',
  'coinedition.com',
  'coinengineer.net',
  'coinews.link',
  'coinfeather.com',
  'coinfomania.com',
  'coinfox.info',
  'coingape.com',
  'coinheadlines.com',
  'coinjournal.net',
  'coinlaw.io',
  'coinliberal.com',
  'coinmedium.com',
  'coinmela.com',
  'coinnews.com',
  'coinnewsbyte.com',
  'coinninja.news',
  'coinpaper.com',
  'coinpasar.sg',
  'coinpri.com',
  'coinrockmedia.com',
  'coinscreed.com',
  'coinsider.it',
  'coinsnetwork.com',
  'coinspaidmedia.com',
  'coinspress.com',
  'coinstrs.com',
  'cointeeth.com',
  'cointoday.ai',
  'cointribune.com',
  'cointrust.com',
  'coinwire.com',
  'coinyuppie.com',
  'crypoch.com',
  'crypto-economy.com',
  'crypto-news-network.com',
  'crypto.report',
  'crypto.ro',
  'cryptoapa.com',
  'cryptoassetbuyer.com',
  'cryptoblog.tv',
  'cryptoboostnews.com',
  'cryptobreak.org',
  'cryptocapitalnews.com',
  'cryptocoin.news',
  'cryptocoinstart.com',
  'cryptocurrency.news',
  'cryptodaily.co.uk',
  'cryptodataspace.com',
  'cryptodnes.bg',
  'cryptoflexs.com',
  'cryptogloss.io',
  'cryptohead.io',
  'cryptomag.finance',
  'cryptometer.io',
  'cryptonewsjapan.com',
  'cryptonewsz.com',
  'cryptonite.ae',
  'cryptopolitan.com',
  'cryptotale.org',
  'cryptotantrik.com',
  'cryptotimes.io',
  'cryptotvplus.com',
  'cryptowisser.com',
  'dailycoin.com',
  'dailydapp.com',
  'dailyhodl.com',
  'dapp.expert',
  'defi.win',
  'edgen.tech',
  'en.cryptory.net',
  'followin.io',
  'foretoken.media',
  'fudngmi.com',
  'fullycrypto.com',
  'gate-link.tech',
  'gate.io',
  'gfdaily.com',
  'globalfintechseries.com',
  'gncrypto.news',
  'grafa.com',
  'hodl.ist',
  'hodlfm.com',
  'hodlin.com',
  'igcurrencynews.com',
  'ihodl.com',
  'incrypthos.com',
  'inkl.com',
  'insidebitcoins.com',
  'investorempires.com',
  'iq.wiki',
  'izujun-tax.com',
  'lastcryptocurrency.com',
  'learncrypto.com',
  'letstalkbitco.in',
  'lexbuild.dev',
  'marketcheese.com',
  'marshalnews.com',
  'monexa.ai',
  'money-sense.net',
  'mytoken.io',
  'news.chainspot.io',
  'newsdiaryonline.com',
  'newsonjapan.com',
  'nft-labo.tokyo',
  'odaily.news',
  'particle.news',
  'qbittimes.com',
  'regtechafrica.com',
  'remoteua.com',
  'satoshihodler.com',
  'scribd.com',
  'seeblockchain.com',
  'seotools.jp',
  'spotedcrypto.com',
  'stablecoin-news.nicheflash.com',
  'stablecoininsider.org',
  'stablecoinsolutions.io',
  'stabledash.com',
  'syntifi.com',
  'techflowpost.com',
  'tekedia.com',
  'tetherzone.com',
  'the-blockchain.com',
  'thebittimes.com',
  'thecryptobasic.com',
  'thecryptoverse.online',
  'thedailychain.com',
  'thedailyscrypt.io',
  'thefederalnewswire.com',
  'thefinrate.com',
  'thenewscrypto.com',
  'thismorningonchain.com',
  'timescrypto.com',
  'timesofblockchain.com',
  'todayincrypto.com',
  'tokenist.com',
  'toolsforinvestors.com',
  'tradecrypto.com',
  'tradersdex.com',
  'tradersunion.com',
  'u.today',
  'usdaed.com',
  'usethebitcoin.com',
  'voiceofcrypto.online',
  'votermaker.com',
  'whichblockchain.com',
  'winappnet.com',
  'world-economist.com',
  'yellow.com',
];

/** Hosts that serve copies of other sites' pages: content-delivery networks and preview deployments. */
const COPY_HOST_SUFFIXES = [
  'cloudfront.net',
  'firmseek.com',
  'googleusercontent.com',
  'herokuapp.com',
  'pages.dev',
  'translate.goog',
  'vercel.app',
];

/**
 * A site's own copy that is not its public page: `staging.`, `dev.`, `uat.`, `preview.` before its
 * domain, or a serving node (`gcp.`, Mondaq's `webiis06.`).
 */
const PREVIEW_LABEL = /^(staging|stage|dev|uat|preview|gcp|webiis)\d*$/;

/**
 * The republishing site or copy a source URL points at, if any: a site in REPUBLISHER_HOSTS,
 * a post on Binance Square (the exchange's feed of reposted news), an article of its Academy or a
 * post on an exchange's news feed,
 * a content-delivery or preview host, or a site's staging or development copy of its own page
 * (whose public address cannot be guessed from it, so the curator must find the page).
 */
export function republisherOf(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase();
  const on = (domain: string) => host === domain || host.endsWith(`.${domain}`);
  const listed = REPUBLISHER_HOSTS.find(on);
  if (listed) return listed;
  const path = url.pathname.split('/');
  const binance = /(^|\.)binance\.(com|bh|us)$/.test(host);
  if (binance && path.includes('square')) return 'Binance Square';
  // The exchange's explainers restate others' reporting, undated, and are rewritten over time.
  if (binance && (path.includes('academy') || host.startsWith('academy.'))) return 'Binance Academy';
  if (/(^|\.)bitget\.com$/.test(host) && path[1] === 'news') return 'Bitget News';
  const copy = COPY_HOST_SUFFIXES.find(on);
  if (copy) return copy;
  // Three labels at least, so that a site named dev.to or stage.com is not taken for a copy.
  const labels = host.split('.');
  if (labels.length >= 3 && PREVIEW_LABEL.test(labels[0]!)) return host;
  return undefined;
}

/**
 * The date an outlet wrote into a source URL's path (`/2024/01/11/`, `/2022/10/`, `/2023-06-08-`),
 * as `YYYY-MM-DD`, the first of the month when the path gives no day. Most news sites put the day
 * they published there, so a path far later than the event it is cited for points at a later article.
 */
export function dateInUrl(raw: string): string | undefined {
  let path: string;
  try {
    path = new URL(raw).pathname;
  } catch {
    return undefined;
  }
  const m = /\/(20\d\d)[/-](0[1-9]|1[0-2])(?:[/-](0[1-9]|[12]\d|3[01]))?(?=[/.-]|$)/.exec(path);
  return m ? `${m[1]}-${m[2]}-${m[3] ?? '01'}` : undefined;
}

/** Hosts reserved for examples and tests (RFC 2606, RFC 6761) or that only exist on one machine. */
function isPlaceholderHost(host: string): boolean {
  return (
    /(^|\.)example\.(com|net|org)$/.test(host) ||
    /\.(example|test|invalid|localhost|local|internal)$/.test(host) ||
    host === 'localhost' ||
    /^\d{1,3}(\.\d{1,3}){3}$/.test(host) ||
    host.startsWith('[')
  );
}

export function urlProblems(raw: string): UrlProblem[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return [{ message: `${raw} は URL として読めません`, hint: 'https:// で始まる完全な URL を書いてください' }];
  }
  const host = url.hostname.toLowerCase();
  const out: UrlProblem[] = [];
  if (isPlaceholderHost(host)) {
    out.push({
      message: `${host} は例示用・手元専用のホストで、出典になりません`,
      hint: '出来事を報じた実在のページの URL を書いてください',
    });
  }
  if (url.username || url.password) {
    out.push({ message: 'URL に利用者名やパスワードが含まれています', hint: 'ページの公開 URL だけを書いてください' });
  }
  if (SHORTENER_HOSTS.has(host.replace(/^www\./, ''))) {
    out.push({
      message: `${host} は短縮 URL です`,
      hint: 'ブラウザで開いて、転送先のページの URL を書いてください',
    });
  }
  const tracking = [...url.searchParams.keys()].filter((k) => TRACKING_PARAMS.some((re) => re.test(k)));
  if (tracking.length) {
    out.push({
      message: `トラッキング用のパラメータ ${tracking.join(', ')} が付いています`,
      hint: `取り除いた URL を書いてください（例: ${withoutParams(url, tracking)}）`,
    });
  }
  if (
    url.pathname.replace(/\/+$/, '') === '' &&
    /^\d+$/.test(url.searchParams.get('p') ?? '') &&
    !P_PERMALINK_HOSTS.has(host.replace(/^www\./, ''))
  ) {
    out.push({
      message: '?p=番号 は WordPress の短縮形の URL です',
      hint: 'ページを開いたときにアドレス欄に出る、記事の正式な URL を書いてください',
    });
  }
  if (isAmp(url, host)) {
    out.push({
      message: 'AMP 版（携帯向けの複製）の URL です',
      hint: '記事の通常版の URL を書いてください（/amp や amp. を除いたもの）',
    });
  }
  if (isPrint(url, host)) {
    out.push({ message: '印刷用ページの URL です', hint: '記事の通常版の URL を書いてください' });
  }
  // The parser drops a default port, so one written out shows only in the raw text. It and a
  // trailing dot on the host give a second spelling of the page's address, and some servers
  // refuse the dotted form outright.
  const port = /^https?:\/\/[^/?#]*(:\d+)(?:[/?#]|$)/i.exec(raw)?.[1];
  if (url.port === '' && port) {
    out.push({
      message: `既定のポート番号（${port}）が書かれています`,
      hint: `ポート番号を除いた URL を書いてください（例: ${url.href}）`,
    });
  }
  if (host.endsWith('.')) {
    const bare = new URL(url);
    bare.hostname = host.replace(/\.+$/, '');
    out.push({
      message: `ホスト名 ${host} の末尾に「.」が付いています`,
      hint: `末尾の「.」を除いた URL を書いてください（例: ${bare.href}）`,
    });
  }
  if (url.hash.startsWith('#:~:text=')) {
    out.push({ message: 'URL にテキストフラグメント（#:~:text=）が付いています', hint: '# 以降を取り除いてください' });
  }
  return out;
}

function withoutParams(url: URL, drop: string[]): string {
  const copy = new URL(url);
  for (const k of drop) copy.searchParams.delete(k);
  return copy.href;
}

function isAmp(url: URL, host: string): boolean {
  if (host.startsWith('amp.') || host.endsWith('.cdn.ampproject.org')) return true;
  // `/amp`, `/amp/`, `story.amp`, the Times Internet form `/amp_articleshow/123.cms` and
  // Mint's `/amp-11730442296406.html`.
  if (url.pathname.split('/').some((s) => /^amp(_|$)|^amp-\d+\.html?$|\.amp$/i.test(s))) return true;
  if (url.searchParams.has('amp') || /amp/i.test(url.searchParams.get('outputType') ?? '')) return true;
  return false;
}

function isPrint(url: URL, host: string): boolean {
  // Casetext and others serve a printer-friendly copy of each page on a `print.` host.
  if (host.startsWith('print.')) return true;
  const segments = url.pathname.toLowerCase().split('/');
  if (segments.includes('print') || segments.some((s) => /^print(able)?\.(html?|php|aspx?)$/.test(s))) return true;
  return url.searchParams.has('print') || /print/i.test(url.searchParams.get('outputType') ?? '');
}
