// The explorer: reads the dataset once from GET /api/chronicle and shows it as the address says.
// Filters are the API's own parameters, checked and applied by the API's own code (query.ts,
// select.ts), so the page shows exactly what the API returns for the same query.
import { CONFIG_ELEMENT_ID, type ExplorerConfig } from './config.js';
import { loadExplorer, type Explorer } from './data.js';
import { h } from './dom.js';
import { initiativePage, initiativesPage, networkPage, orgPage, unknownPage, type Page } from './pages.js';
import { hrefOf, parseRoute, type Route } from './route.js';
import { TimelineView } from './timeline-view.js';

const SITE = 'オンチェーン金融クロニクル';

class App {
  private timeline: TimelineView | undefined;
  private mounted: 'timeline' | 'page' | undefined;

  constructor(
    private readonly ex: Explorer,
    private readonly main: HTMLElement,
  ) {}

  /** Goes to an address inside the page; `replace` while typing, so that Back skips keystrokes. */
  navigate = (route: Route, how: 'push' | 'replace'): void => {
    const href = hrefOf(route);
    if (href === `${location.pathname}${location.search}`) return;
    if (how === 'push') history.pushState(null, '', href);
    else history.replaceState(null, '', href);
    this.render(false);
  };

  /** Draws the view the address names. `moved`: a new page was opened, so focus goes to its heading. */
  render(moved: boolean): void {
    const route = parseRoute(location.search);
    if (route.view === 'timeline') {
      this.timeline ??= new TimelineView(this.ex, this.navigate);
      if (this.mounted !== 'timeline') {
        this.main.replaceChildren(this.timeline.el);
        this.mounted = 'timeline';
      }
      this.timeline.update(route);
      document.title = `${SITE} — Onchain Finance Trends`;
    } else {
      const page = this.page(route);
      const active = document.activeElement?.id;
      this.main.replaceChildren(page.el);
      this.mounted = 'page';
      document.title = `${page.title} — ${SITE}`;
      // A filter changed on the same page: keep focus on the control that changed it.
      if (!moved && active) document.getElementById(active)?.focus();
    }
    if (moved) {
      this.main.querySelector<HTMLElement>('h1')?.focus();
      window.scrollTo(0, 0);
    }
  }

  private page(route: Route): Page {
    switch (route.view) {
      case 'org':
        return orgPage(this.ex, route.org!);
      case 'initiative':
        return initiativePage(this.ex, route.initiative!);
      case 'initiatives':
        return initiativesPage(this.ex);
      case 'network':
        return networkPage(this.ex, route, this.navigate);
      default:
        return unknownPage();
    }
  }
}

/** Links to another view of this page are followed without reloading. */
function internalHref(e: MouseEvent): string | undefined {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return undefined;
  const a = (e.target as Element | null)?.closest('a');
  const raw = a?.getAttribute('href');
  if (!a || !raw || a.hasAttribute('download') || (a.getAttribute('target') ?? '_self') !== '_self') return undefined;
  const url = new URL(raw, location.href);
  if (url.origin !== location.origin || url.pathname !== '/' || (url.hash && url.search === location.search)) return undefined;
  return `${url.pathname}${url.search}`;
}

async function start(): Promise<void> {
  const main = document.getElementById('main')!;
  const config = JSON.parse(document.getElementById(CONFIG_ELEMENT_ID)!.textContent!) as ExplorerConfig;
  let ex: Explorer;
  try {
    ex = await loadExplorer(config);
  } catch (err) {
    main.replaceChildren(
      h('h1', { tabindex: '-1' }, SITE),
      h(
        'div',
        { class: 'error', role: 'alert' },
        h(
          'p',
          null,
          `データを読み込めませんでした（${err instanceof Error ? err.message : String(err)}）。時間をおいて再読み込みしてください。`,
        ),
      ),
    );
    return;
  }
  performance.mark('chronicle:data');
  const app = new App(ex, main);
  app.render(false);
  // Says how many events the first view holds: a long timeline adds the rest after it is shown.
  performance.mark('chronicle:first-view', { detail: { events: main.querySelectorAll('.event').length } });
  document.documentElement.dataset.ready = 'true';
  window.addEventListener('popstate', () => app.render(false));
  document.addEventListener('click', (e) => {
    const href = internalHref(e);
    if (href === undefined) return;
    e.preventDefault();
    history.pushState(null, '', href);
    app.render(true);
  });
}

void start();
