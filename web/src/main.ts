// Entry point: reads the state from the hash and shows one panel per view (the hash's exp), or
// one panel alone in embed mode; starts the workers, and keeps state, URL, history and the view in
// step. Only the panel in view is mounted, computed and in the accessibility tree.
import './style.css';
// the views' own stylesheets stay in the page's (they are small): loaded with a view's chunk they
// would come before this one in the document and lose to it where rules tie (the interview's
// print sheet grew from 2 A4 pages to 5)
import './panels/interview.css';
import './panels/drill.css';
import './panels/device.css';
import './panels/scales.css';
import './embed/formats.css';
import { parseHash, toHash, shareHash, langFromNavigator } from './state/state.ts';
import type { State, StateKey, ParseIssue, Panel } from './state/state.ts';
import { PANELS, SECTIONS } from './state/schema.js';
import { Store } from './state/store.ts';
import { bindUrl } from './state/url.ts';
import { translator, loadCatalogue, hasCatalogue } from './i18n/catalogue.ts';
import type { T } from './i18n/messages.ts';
import { Compute, CoreError, defaultPoolSize } from './compute.ts';
import { CoreSource, coreWorker, pageCore } from './worker/boot.ts';
import { useCostCore, warmCost, FIRST_PART_VIEWS } from './worker/cost.ts';
import { poolOverride, backoffOverride } from './worker/pool.ts';
import type { StartState } from './worker/pool.ts';
import { moduleWorker, blobWorkerFailures, pageThreadOverride } from './worker/spawn.ts';
import { InThreadCore } from './worker/in-thread.ts';
import coreWorkerUrl from './worker/worker.ts?worker&url';
import { h, setText } from './dom.ts';
import { select } from './controls.ts';
import type { Control } from './controls.ts';
import type { PanelView, PanelCtx } from './panels/kit.ts';
import { staleNotice } from './panels/kit.ts';
import { panelTitle, panelTitleKey, numberedTitle, tabTitle } from './i18n/titles.ts';
import { applyTheme } from './theme.ts';
import { reportHeight } from './embed/report.ts';
import { focusPath, restoreFocus } from './focus.ts';
import { setEngineInfo, effectiveKernel } from './engine.ts';
import type { CoreInfo } from '../../wasm/js/core.js';
import { simdSupported } from '../../wasm/js/core.js';
import { copyText } from './copy.ts';
import { checkLinkVersion } from './app/link-version.ts';
import { startPwa } from './app/pwa.ts';
import { FIRST_FINAL_DRAW_EVENT } from './charts/events.ts';
import { pageContext, siteRoot, withPageView, shareUrl } from './share/url.ts';
import { takeFirstPaint } from './share/firstpaint.ts';

type Factory = (ctx: PanelCtx) => PanelView;
/**
 * Each view's code, loaded when the view is first opened (its chunk, and the chunks it shares with
 * other views: Chart.js, the chart builders, the claims), so the first view does not wait for the
 * other twelve; the service worker precaches them all for offline use.
 */
const VIEW_CODE: Record<Panel, () => Promise<Factory>> = {
  interview: () => import('./panels/interview.ts').then((m) => m.interviewPanel),
  variance: () => import('./panels/variance.ts').then((m) => m.variancePanel),
  saturation: () => import('./panels/saturation.ts').then((m) => m.saturationPanel),
  gradient: () => import('./panels/gradient.ts').then((m) => m.gradientPanel),
  article: () => import('./panels/article.ts').then((m) => m.articlePanel),
  followups: () => import('./panels/followups.ts').then((m) => m.followupsPanel),
  precision: () => import('./panels/precision.ts').then((m) => m.precisionPanel),
  longctx: () => import('./panels/longctx.ts').then((m) => m.longctxPanel),
  gqa: () => import('./panels/gqa.ts').then((m) => m.gqaPanel),
  tensors: () => import('./panels/tensors.ts').then((m) => m.tensorsPanel),
  training: () => import('./panels/training.ts').then((m) => m.trainingPanel),
  device: () => import('./panels/device.ts').then((m) => m.devicePanel),
  mup: () => import('./panels/mup.ts').then((m) => m.mupPanel),
  wild: () => import('./panels/wild.ts').then((m) => m.wildPanel),
};
const viewCode = new Map<Panel, Promise<Factory>>();
/** The factory of a view, its code loaded once (a failed load is tried again the next time the view is opened). */
function loadView(p: Panel): Promise<Factory> {
  let got = viewCode.get(p);
  if (!got) {
    got = VIEW_CODE[p]();
    viewCode.set(p, got);
    got.catch(() => { if (viewCode.get(p) === got) viewCode.delete(p); });
  }
  return got;
}
/** A view's code and the parts of the page language's catalogue it needs, both in (its factory). */
function viewReady(p: Panel): Promise<Factory> {
  // a view beyond the core's first part sizes its requests with the full core's cost model
  const cost = startsWithFirstPart && !FIRST_PART_VIEWS.includes(p) ? waitForFull() : undefined;
  return Promise.all([loadView(p), loadCatalogue(store.state.lang, p), cost]).then(([factory]) => factory);
}

const root = document.getElementById('app')!;
// a share page (p/<exp>/, zh-CN/p/<exp>/) opens its view in its language unless the hash says otherwise
const page = pageContext(document.documentElement);
const firstPaint = takeFirstPaint(root);
const navLang = page.lang ?? langFromNavigator(navigator.languages ?? [navigator.language]);
const initial = checkLinkVersion(parseHash(withPageView(location.hash, page), navLang));
const store = new Store(initial.state);

let restartNotice: HTMLElement | null = null;
/** A worker restart reported while no view was on screen yet (shown with the view that comes). */
let pendingRestart: 'timeout' | 'crash' | null = null;
/** Shows the restart a view still loading missed, once that view is in the page. */
function showPendingRestart(): void {
  const reason = pendingRestart;
  pendingRestart = null;
  if (reason) showRestart(reason);
}
/** the download of the core (bytes so far, whole size or null) until it is compiled */
let download: { loaded: number; total: number | null } | null = null;
/** views waiting for the full core (waitForFull): the status bar says the core is loading meanwhile */
let waitingFull = 0;
/** the workers' start after a failure: retrying with a backoff, or given up (unavailable) */
let start: StartState = { state: 'ready' };
// the core's module is compiled once, here, and posted to every worker of the pool
// on the variance view the core starts with its first part (boot.ts; the full core follows when
// another view or the page's idle time asks for it)
const startsWithFirstPart = FIRST_PART_VIEWS.includes(initial.state.exp);
const coreSource = new CoreSource((loaded, total) => { download = { loaded, total }; showStatus(); }, startsWithFirstPart);
const compute = new Compute({
  poolSize: poolOverride(location.search) ?? defaultPoolSize(navigator.hardwareConcurrency),
  // a worker where one can start (from a blob: script in a sandboxed frame, worker/spawn.ts), else
  // the core on this thread with the same handler and module: the same numbers, never a blank view
  // (<html data-core-thread> says which, for tests)
  createWorker: (i) => {
    if (blobWorkerFailures() === 0 && !pageThreadOverride(location.search)) {
      try {
        const w = coreWorker(() => moduleWorker(coreWorkerUrl, `sqrtdk-core-${i}`), coreSource);
        document.documentElement.dataset.coreThread ??= 'worker';
        return w;
      } catch { /* no worker may start here */ }
    }
    document.documentElement.dataset.coreThread = 'page';
    return new InThreadCore(coreSource.get(), coreSource);
  },
  announcesReady: true,
  // ?backoff=ms,… (tests) replaces the production delays between attempts (pool.ts START_BACKOFF_MS)
  ...(backoffOverride(location.search) ? { backoffMs: backoffOverride(location.search)! } : {}),
  onStartState: (s) => {
    const was = start.state;
    start = s;
    if (s.state !== 'ready') void coreSource.failed();
    showStartNotice();
    if (s.state === 'ready' && was === 'unavailable') recovered();
    showStatus();
  },
  onRestart: (reason) => {
    const w = window as unknown as { __sqrtdkRestarts?: number };
    w.__sqrtdkRestarts = (w.__sqrtdkRestarts ?? 0) + 1;
    showRestart(reason);
  },
});
// back online: the workers that could not start try again at once (during a wait, or after giving up)
window.addEventListener('online', () => compute.retry());
// bench:ui clears the result cache between measured changes, so each one is really computed;
// tests and bench:ui read the pool size and the counters of computations per panel
(window as unknown as { __sqrtdkBench?: object }).__sqrtdkBench = { clearCache: () => compute.clearCache(), stats: () => compute.stats() };

let view: PanelView | null = null;
let viewHost: HTMLElement | null = null;
let chrome: { controls: Control[]; status: HTMLElement; nav: HTMLElement; menu: HTMLSelectElement } | null = null;
let info: CoreInfo | null = null;
let infoError = '';
let t: T = translator(store.state.lang);
let pendingIssues: ParseIssue[] = initial.issues;
/** the reader picked a language in the menu: only then does Copy link carry lang */
let langChosen = false;
/** in embed mode: the raw exp of a link that named no panel */
let badEmbed: { key: 'exp' | 'show'; raw: string } | null = null;

function embedProblem(issues: ParseIssue[], present: StateKey[], state: State): typeof badEmbed {
  if (!state.embed) return null;
  const bad = issues.find((i) => i.key === 'exp' && (i.kind === 'invalid'));
  if (bad) return { key: 'exp', raw: bad.raw };
  if (!present.includes('exp') && !issues.some((i) => i.key === 'exp')) return { key: 'exp', raw: '' };
  const badShow = issues.find((i) => i.key === 'show' && i.kind === 'invalid');
  if (badShow) return { key: 'show', raw: badShow.raw };
  return null;
}
badEmbed = embedProblem(initial.issues, initial.present, initial.state);

/** The notice of a link's unusable parts: the first few named (keys and values cut short), then how many more. */
const NOTICE_MAX_ITEMS = 8;
function noticeBox(issues: ParseIssue[]): HTMLElement | null {
  if (issues.length === 0) return null;
  const cut = (s: string) => (s.length > 60 ? s.slice(0, 60) + '…' : s);
  const shown = issues.slice(0, NOTICE_MAX_ITEMS);
  const list = h('ul', {}, ...shown.map((i) => h('li', { 'data-issue-key': cut(i.key), text: t(`notice.${i.kind}`, { key: cut(i.key), raw: cut(i.raw), used: cut(i.used) }) })),
    issues.length > shown.length ? h('li', { 'data-issue-more': String(issues.length - shown.length), text: t('notice.more', { n: issues.length - shown.length }) }) : null);
  const box = h('div', { class: 'notice', role: 'status', 'data-notice': 'parse' },
    h('p', { text: t('notice.title') }), list,
    h('button', { type: 'button', class: 'mini', text: t('notice.dismiss'), onclick: () => { box.remove(); pendingIssues = []; } }));
  return box;
}

function showRestart(reason: 'timeout' | 'crash'): void {
  // before any view is on screen (its code still loading) the notice is for the view to come:
  // kept and shown with it (the page built meanwhile would drop it)
  if (view === null) pendingRestart = reason;
  if (!restartNotice || !restartNotice.isConnected) {
    restartNotice = h('div', { class: 'notice warn', role: 'alert', 'data-notice': 'restart' });
    (viewHost ?? root).prepend(restartNotice);
  }
  setText(restartNotice, t('notice.restart', { reason: t(`notice.restart.${reason}`) }));
}

/**
 * The notice of a core that could not be loaded: while retrying, nothing (the status line counts
 * the attempts); once given up, what happened, its likely causes and Retry / Reload — and no
 * further request until the reader picks one (or the browser comes back online).
 */
let startNotice: HTMLElement | null = null;
function showStartNotice(): void {
  if (start.state !== 'unavailable') { startNotice?.remove(); startNotice = null; return; }
  startNotice?.remove();
  const retry = h('button', { type: 'button', class: 'button', 'data-action': 'core-retry', text: t('notice.unavailable.retry') }) as HTMLButtonElement;
  retry.addEventListener('click', () => {
    retry.disabled = true;
    setText(retry, t('notice.unavailable.retrying'));
    compute.retry();
  });
  const reload = h('button', { type: 'button', class: 'button ghost', 'data-action': 'core-reload', text: t('notice.unavailable.reload') });
  reload.addEventListener('click', () => location.reload());
  startNotice = h('div', { class: 'notice warn', role: 'alert', 'data-notice': 'core-unavailable' },
    h('p', {}, h('strong', { text: t('notice.unavailable.title') })),
    h('p', { text: t('notice.unavailable.why') }),
    h('p', { class: 'note', text: t('notice.unavailable.detail', { message: start.error }) }),
    h('div', { class: 'notice-actions' }, retry, reload));
  (viewHost ?? root).prepend(startNotice);
}

/** The core loads again after the pool gave up: the requests it refused meanwhile are made again. */
function recovered(): void {
  infoError = '';
  requestInfo();
  void costCore().then(() => {
    if (!viewHost) return;
    if (store.state.embed) mount(); else showPanel(store.state, false);
  });
}

/**
 * The core's start in plain words while it is not ready — its download, the retries, why it failed —
 * in the bar under the header; nothing once it computes (the device panel names the engine).
 */
function statusText(): { text: string; title: string } {
  if (start.state === 'unavailable') return { text: t('app.status.unavailable'), title: start.error };
  if (start.state === 'retrying') return { text: t('app.status.retrying', { attempt: start.attempt, attempts: start.attempts, s: Math.max(1, Math.round(start.inMs / 1000)) }), title: start.error };
  if (infoError) return { text: t('app.status.failed', { message: infoError }), title: '' };
  if ((!info || waitingFull > 0) && download && download.loaded > 0) {
    const mb = (b: number) => (b / 1048576).toFixed(1);
    return { text: download.total ? t('app.status.download', { loaded: mb(download.loaded), total: mb(download.total) }) : t('app.status.downloadSome', { loaded: mb(download.loaded) }), title: '' };
  }
  if (!info || waitingFull > 0) return { text: t('app.status.loading'), title: '' };
  // loaded: nothing to say here (the device panel names the engine, its version and build)
  return { text: '', title: '' };
}
function showStatus(): void {
  if (!chrome) return;
  const s = statusText();
  chrome.status.dataset.state = start.state === 'unavailable' || infoError ? 'failed' : start.state === 'retrying' ? 'retrying' : info && waitingFull === 0 ? 'ready' : 'loading';
  setText(chrome.status, s.text);
  chrome.status.hidden = s.text === '';
  if (s.title) chrome.status.title = s.title; else chrome.status.removeAttribute('title');
}

/** The engine's state on the page: the kernel that computes, for tests and styles (the device panel shows it in words). */
function markEngine(): void {
  const k = effectiveKernel(store.state.kernel);
  if (k) document.documentElement.dataset.engine = k;
}

/** Closes the embed dialog if one is open (without loading its module). */
function closeEmbedDialog(): void {
  const d = document.querySelector<HTMLDialogElement>('dialog[data-embed-dialog]');
  if (d?.open) d.close(); else d?.remove();
}

/** Closes the share dialog if one is open (without loading its module). */
function closeShare(): void {
  const d = document.querySelector<HTMLDialogElement>('dialog[data-share-dialog]');
  if (d?.open) d.close(); else d?.remove();
}

/** The site's root (the app, whichever share page this is) with a hash; a query such as utm_source=… is not part of a link's state. */
function pageUrl(hash: string): string {
  return siteRoot(location.href, page) + hash;
}

/** What Copy link and the poster's QR code give: the view's share page with the short hash (lang only if chosen). */
function shareLink(): string {
  return shareUrl(store.state, siteRoot(location.href, page), shareHash(store.state, langChosen));
}

/** A click that should switch the view here (not one that opens the link in a new tab or window). */
function plainClick(ev: Event): boolean {
  const e = ev as MouseEvent;
  return !(e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0);
}

function go(panel: Panel): void {
  if (panel === store.state.exp) return;
  store.set({ exp: panel }, 'exp');
}

/** The page's frame: brand and language (the kernel choice and the engine are in the device panel); then the sticky bar with the panel tabs (a menu on phones) and the copy buttons. */
function pageChrome(state: State): { top: HTMLElement; bar: HTMLElement } {
  const controls = [
    select(store, null, 'lang', t('app.lang'), [{ value: 'en', label: 'English', lang: 'en' }, { value: 'zh-CN', label: '简体中文', lang: 'zh-CN' }]),
  ];
  // the other language's catalogue is fetched when the reader reaches for the menu, so a switch
  // rebuilds the page at once (the page loads only its own language's)
  const prefetch = () => { for (const l of ['en', 'zh-CN'] as const) if (l !== store.state.lang) void loadCatalogue(l, store.state.exp).catch(() => {}); };
  controls[0].el.addEventListener('pointerenter', prefetch, { once: true });
  controls[0].el.addEventListener('focusin', prefetch, { once: true });
  const fallback = h('textarea', { class: 'copy-fallback', readOnly: true, rows: 2, hidden: true, 'aria-label': t('app.copyFallback') }) as HTMLTextAreaElement;
  // on phones the buttons show a short word; the accessible name is the full label, which contains it
  const twoLabels = (long: string, short: string) => [h('span', { class: 'long', text: long }), h('span', { class: 'short', 'aria-hidden': 'true', text: short })];
  const linkBtn = h('button', { type: 'button', class: 'button', 'data-action': 'copy-link', 'aria-label': t('app.copyLink') }, ...twoLabels(t('app.copyLink'), t('app.copyLinkShort'))) as HTMLButtonElement;
  // the share page of the view (its link card names the experiment) with the short hash: the view's
  // keys that differ from their defaults (the address bar keeps the full state)
  linkBtn.addEventListener('click', () => { url.flush(); void copyText(shareLink(), linkBtn, fallback, t); });
  const embedBtn = h('button', { type: 'button', class: 'button ghost', 'data-action': 'copy-embed', 'aria-haspopup': 'dialog', 'aria-label': t('app.copyEmbed') }, ...twoLabels(t('app.copyEmbed'), t('app.copyEmbedShort'))) as HTMLButtonElement;
  embedBtn.addEventListener('click', () => {
    const opts = { state: store.state, t, pageUrl, returnFocus: embedBtn, parts: SECTIONS.filter((p) => view?.el.querySelector(`[data-part="${p}"]`)) };
    // the dialog and its snippet formats load on the first click, not with the page
    void import('./embed/dialog.ts').then((m) => m.openEmbedDialog(opts));
  });
  const shareBtn = h('button', { type: 'button', class: 'button ghost', 'data-action': 'share-image', 'aria-haspopup': 'dialog', 'aria-label': t('share.button') }, ...twoLabels(t('share.button'), t('share.buttonShort'))) as HTMLButtonElement;
  shareBtn.addEventListener('click', () => {
    if (!view) return;
    url.flush();
    const opts = { state: store.state, t, view: view.el, link: shareLink(), figures: view.keyFigures?.() ?? [], returnFocus: shareBtn };
    // the poster and its QR code library load on the first click, not with the page
    void import('./share/dialog.ts').then((m) => m.openShareDialog(opts));
  });
  const status = h('p', { class: 'status core-status', 'data-core-status': '', role: 'status', hidden: '' });
  const nav = h('nav', { class: 'tabs', 'aria-label': t('app.nav') },
    h('ul', {}, ...PANELS.map((p) => h('li', {}, h('a', {
      class: 'nav-item', 'data-nav': p, href: toHash({ ...state, exp: p }), text: tabTitle(t, p), title: numberedTitle(t, p),
      onclick: (ev: Event) => { if (!plainClick(ev)) return; ev.preventDefault(); go(p); },
    })))));
  const menuId = 'panel-menu';
  const menu = h('select', { id: menuId, 'data-nav-menu': '' }, ...PANELS.map((p) => h('option', { value: p, text: numberedTitle(t, p) }))) as HTMLSelectElement;
  menu.value = state.exp;
  menu.addEventListener('change', () => go(menu.value as Panel));
  const menuBox = h('div', { class: 'menu' }, h('label', { for: menuId, text: t('app.nav') }), menu);
  chrome = { controls, status, nav, menu };
  const top = h('header', { class: 'top' },
    h('div', { class: 'brand' }, h('h1', { class: 'site-name', text: t('app.title') }), h('p', { class: 'tagline', text: t('app.tagline') })),
    h('div', { class: 'top-controls' }, ...controls.map((c) => c.el)));
  for (const c of controls) c.el.classList.add('inline');
  const bar = h('div', { class: 'bar', 'data-bar': '' }, nav, menuBox, h('div', { class: 'actions' }, linkBtn, embedBtn, shareBtn), fallback, status);
  return { top, bar };
}

/** Previous / next panel links at the end of a view: the reading order of the story. */
function pager(state: State): HTMLElement {
  const i = PANELS.indexOf(state.exp);
  const link = (p: Panel, dir: 'prev' | 'next') => h('a', {
    class: `pager-${dir}`, 'data-pager': dir, href: toHash({ ...state, exp: p }),
    onclick: (ev: Event) => { if (!plainClick(ev)) return; ev.preventDefault(); go(p); },
  }, h('span', { class: 'pager-dir', text: t(`app.${dir}`) }), h('span', { class: 'pager-title', text: numberedTitle(t, p) }));
  return h('nav', { class: 'pager', 'aria-label': t('app.pager') },
    i > 0 ? link(PANELS[i - 1], 'prev') : h('span', {}),
    i < PANELS.length - 1 ? link(PANELS[i + 1], 'next') : h('span', {}));
}

function setMeta(state: State): void {
  const title = `${panelTitle(t, state.exp)} — ${t('app.title')}`;
  document.title = title;
  const desc = t(`${panelTitleKey(state.exp)}.lede` as never);
  for (const [sel, value] of [['meta[property="og:title"]', title], ['meta[property="og:description"]', desc], ['meta[name="description"]', desc]] as const) {
    const m = document.querySelector<HTMLMetaElement>(sel);
    if (m) m.content = value;
  }
}

/** Counts the views asked for (showPanel, mount): a view whose code arrives after a newer one was asked for is not shown. */
let viewSeq = 0;
/** The viewSeq of the view mounted now (view): it gets the state's changes only while no newer view is loading. */
let shownSeq = 0;
/**
 * Whether the page can size requests: its core answers cost estimates (worker/cost.ts), or could
 * not load (the requests then say why). A view mounts at once and gets its state (its controls'
 * values were set when they were built), and so sends its requests, once this is true.
 */
let sizing = false;
/** Gives the view just mounted its state, when its requests can be sized (else startSizing does). */
function startView(v: PanelView): void {
  if (sizing) v.update(store.state, null);
}
/** The page's core answers cost estimates (or failed to load): the view waiting for them gets its state. */
function startSizing(): void {
  if (sizing) return;
  sizing = true;
  if (view && shownSeq === viewSeq) view.update(store.state, null);
}
/**
 * A view whose code could not be loaded (offline before the precache, a version gone from the
 * site): the reload notice, and the view is asked for again once the browser is back online.
 */
function viewFailed(seq: number, host: HTMLElement, again: () => void): void {
  if (seq !== viewSeq) return;
  host.replaceChildren(staleNotice());
  window.addEventListener('online', () => { if (seq === viewSeq) again(); }, { once: true });
}

/** What follows a view's arrival in the page (a page's or an embed's): its notices, its state, the first paint, the title. */
function viewInPage(v: PanelView, now: State): void {
  loadFullWhenIdle();
  showPendingRestart();
  showKernelNotice();
  showStartNotice();
  startView(v);
  firstPaint.place(v.el, now);
  setMeta(now);
}

/** Shows the panel of state.exp in the view (destroying the one shown before) once its code is loaded. */
function showPanel(state: State, focusHeading: boolean): void {
  const seq = ++viewSeq;
  const main = viewHost!;
  // the tab and the title follow the click at once, while the view's code loads
  markNav(state);
  setMeta(state);
  viewReady(state.exp).then((factory) => {
    if (seq !== viewSeq) return;
    const now = store.state;  // the state may have moved on (not to another view) while the code loaded
    view?.destroy();
    restartNotice = null;
    view = factory({ t, store, compute });
    shownSeq = seq;
    const notice = noticeBox(pendingIssues);
    main.replaceChildren(...(notice ? [notice] : []), view.el, pager(now));
    viewInPage(view, now);
    markNav(now);
    if (focusHeading) {
      const head = view.el.querySelector<HTMLElement>('h2');
      if (head) { head.tabIndex = -1; head.focus({ preventScroll: true }); }
      const bar = document.querySelector<HTMLElement>('[data-bar]');
      const top = main.getBoundingClientRect().top + window.scrollY - (bar?.offsetHeight ?? 0) - 8;
      if (window.scrollY > top) window.scrollTo({ top: Math.max(0, top) });
    }
  }, () => viewFailed(seq, main, () => showPanel(store.state, false)));
}

/** Counts the page builds asked for: one waiting for its language's catalogue is dropped once a newer one is asked for. */
let mountSeq = 0;
/** A page build waits for its catalogue (the page shown, if any, is about to be replaced). */
let mountPending = false;
/**
 * Builds the page for the current state (again on a language change; results are cached) once
 * the parts of its language's catalogue the view needs are in: at once when they are; else the
 * page shown (or the first paint) stays until they are. `after` runs once the page is built.
 */
function mount(after?: () => void): void {
  const seq = ++mountSeq;
  const { lang, exp } = store.state;
  const build = () => { if (seq !== mountSeq) return; mountPending = false; buildPage(); after?.(); };
  mountPending = true;
  if (hasCatalogue(lang, exp)) { build(); return; }
  void loadCatalogue(lang, exp).then(build, () => {
    // offline before its chunk came (a first visit, before the precache): the page in a language
    // that is in (the view then says why it cannot load), else built once the browser is back online
    if (hasCatalogue('en') || hasCatalogue('zh-CN')) build();
    else window.addEventListener('online', () => { if (seq === mountSeq) mount(after); }, { once: true });
  });
}

/** Builds the page for the current state, in a language whose catalogue is in (mount). */
function buildPage(): void {
  viewSeq++;  // a view whose code is still loading is not shown in the page built now
  view?.destroy();
  view = null;
  chrome = null;
  root.textContent = '';
  restartNotice = null;
  const state = store.state;
  t = translator(state.lang);
  document.documentElement.lang = state.lang;
  document.body.classList.toggle('embed', state.embed);
  applyTheme(state.theme);

  if (state.embed) {
    if (badEmbed) {
      const msg = badEmbed.key === 'exp'
        ? t('embed.bad', { raw: badEmbed.raw, panels: PANELS.join(', ') })
        : t('embed.badShow', { raw: badEmbed.raw, parts: SECTIONS.join(', ') });
      root.append(h('div', { class: 'embed-error', role: 'alert', 'data-embed-error': '' },
        h('p', { text: msg }),
        h('a', { href: toHash({ ...state, embed: false }), target: '_blank', rel: 'noopener', text: t('app.openFull') })));
      return;
    }
    const seq = ++viewSeq;
    viewReady(state.exp).then((factory) => {
      if (seq !== viewSeq) return;
      const now = store.state;
      view = factory({ t, store, compute });
      shownSeq = seq;
      for (const part of SECTIONS) {
        if (!now.show.includes(part)) for (const el of view.el.querySelectorAll(`[data-part="${part}"]`)) (el as HTMLElement).hidden = true;
      }
      view.el.classList.toggle('no-controls', !now.show.includes('controls'));
      const notice = noticeBox(pendingIssues);
      viewHost = h('main', { id: 'main' });
      viewHost.append(h('h1', { class: 'sr-only', text: t('app.title') }), ...(notice ? [notice] : []), view.el,
        h('p', { class: 'embed-foot' }, h('a', { href: toHash({ ...now, embed: false }), target: '_blank', rel: 'noopener', text: `${t('app.title')} · ${t('app.openFull')}` })));
      root.append(viewHost);
      viewInPage(view, now);
    }, () => viewFailed(seq, root, () => mount()));
    return;
  }
  const { top, bar } = pageChrome(state);
  viewHost = h('main', { id: 'main', tabIndex: -1 });
  root.append(
    h('a', { class: 'skip-link', href: '#main', 'data-skip': '', text: t('app.skip'), onclick: (ev: Event) => { ev.preventDefault(); skipToPanel(); } }),
    top, bar, viewHost, h('footer', { class: 'foot', text: t('app.footer') }));
  for (const c of chrome!.controls) c.sync(state);
  showStatus();
  showPanel(state, false);
}

/** The skip link: focus moves to the panel, so the next Tab reaches its first control. */
function skipToPanel(): void {
  const head = view?.el.querySelector<HTMLElement>('h2');
  const target = head ?? viewHost;
  if (!target) return;
  target.tabIndex = -1;
  target.focus();
}

function markNav(state: State): void {
  if (!chrome) return;
  for (const a of chrome.nav.querySelectorAll<HTMLAnchorElement>('[data-nav]')) {
    const p = a.dataset.nav as Panel;
    if (p === state.exp) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    a.href = toHash({ ...state, exp: p });
  }
  if (chrome.menu.value !== state.exp) chrome.menu.value = state.exp;
}

// A link with kernel=simd on an engine without WebAssembly SIMD128 (the baseline build, which has
// no SIMD kernel): the scalar kernel is used, with a notice — its numbers are the same, bit for
// bit (the two families compute identical products) — instead of refusing every request.
let simdOk: boolean | null = null;
let kernelNotice: HTMLElement | null = null;
function checkKernel(): void {
  if (simdOk !== false || store.state.kernel !== 'simd') return;
  kernelFellBack = true;
  store.set({ kernel: 'scalar' }, 'kernel');
  showKernelNotice();
}
let kernelFellBack = false;
function showKernelNotice(): void {
  kernelNotice?.remove();
  kernelNotice = null;
  if (!kernelFellBack || !viewHost) return;
  kernelNotice = h('div', { class: 'notice', role: 'status', 'data-notice': 'kernel-fallback' },
    h('p', { text: t('notice.noSimd') }),
    h('button', { type: 'button', class: 'mini', text: t('notice.dismiss'), onclick: () => { kernelFellBack = false; showKernelNotice(); } }));
  viewHost.prepend(kernelNotice);
}
void simdSupported().then((ok) => { simdOk = ok; checkKernel(); }, () => {});

store.subscribe((state, changed, source) => {
  if (changed.has('kernel') && state.kernel === 'simd' && simdOk === false) { checkKernel(); return; }
  if (source === 'lang') langChosen = true;
  if (changed.has('kernel')) markEngine();
  if (changed.has('lang') || changed.has('embed') || changed.has('show') || changed.has('theme') || (state.embed && changed.has('exp'))) {
    closeEmbedDialog();
    closeShare();
    const keep = focusPath(root);
    mount(() => restoreFocus(root, keep));
    return;
  }
  if (changed.has('exp')) {
    if (source === 'exp') pendingIssues = [];  // the link's notice belongs to the view it opened
    closeEmbedDialog();
    closeShare();
    // no page yet, or one about to be rebuilt in another language: build it for this view (with
    // the catalogue parts this view needs) instead of showing the view in a page that is not there
    if (!viewHost || mountPending) { mount(); return; }
    // focus follows the change of view (a tab, the menu, Back or Forward), for keyboards and screen readers
    showPanel(state, true);
    for (const c of chrome?.controls ?? []) c.sync(state);
    return;
  }
  for (const c of chrome?.controls ?? []) c.sync(state);
  markNav(state);
  // a view still loading, or waiting for the cost estimates, gets the whole state when it starts
  if (sizing && shownSeq === viewSeq) view?.update(state, changed, source);
});

const url = bindUrl(store);

/** A hash the browser brings: Back / Forward through panels, a typed URL, a followed link. */
function onBrowserHash(): void {
  if (location.hash === url.lastWritten()) return;
  const parsed = checkLinkVersion(parseHash(withPageView(location.hash, page), navLang));
  const hadNotice = pendingIssues.length > 0 || badEmbed !== null;
  pendingIssues = parsed.issues;
  const wasEmbed = store.state.embed;
  badEmbed = embedProblem(parsed.issues, parsed.present, parsed.state);
  closeEmbedDialog();
  url.adopt(() => store.replace(parsed.state));
  // rebuild when the link brings a notice or an embed error, or clears one that is shown
  if (parsed.issues.length > 0 || wasEmbed !== parsed.state.embed || hadNotice || badEmbed !== null) mount();
}
window.addEventListener('popstate', onBrowserHash);
window.addEventListener('hashchange', onBrowserHash);
if (initial.state.embed) reportHeight();

// Building the page keeps the main thread busy for a while, and a worker cannot start while it
// is: let the compute workers (created above) start fetching and compiling the core first. The
// view mounts as soon as its code is in, while the core compiles; its requests are sized by the
// core's cost model (worker/cost.ts), so it gets its state (and sends them) once the page's own
// instance of the core (the same compiled module) answers — or could not load: the requests then
// say why they cannot be sized.
// The first paint stays until the view's code is in, so the page's frame and the view replace it
// in one frame (the frame alone, then the view below it, would move the footer on a cold load).
// The parts of the page language's catalogue the view needs load beside its code (the page waits
// for both). They are asked for in a task after this module's: the link tags of the view's chunks,
// which the dynamic import adds, were a third of the module's first run (a 50–60 ms task).
const mountSoon = () => setTimeout(mount, 0);
/** ms after the first view is in the page before the full core is loaded in idle time (its charts come first). */
const FULL_CORE_AFTER_MS = 500;
setTimeout(() => void Promise.allSettled([loadView(initial.state.exp), loadCatalogue(initial.state.lang, initial.state.exp)]).then(mountSoon), 0);
void costCore().finally(startSizing);

/**
 * The page's own instance of the core for the cost model, once: tried again when the workers'
 * core loads after a failure (recovered()), so requests are sized again once the lab can compute.
 */
let costCoreLoaded = false;
/** The page's cost model runs on the full core (a view beyond the first part asked for it, or the page was idle). */
let costOnFull: Promise<void> | null = null;
function costCore(): Promise<void> {
  if (costCoreLoaded) return Promise.resolve();
  return pageCore(costOnFull ? coreSource.full() : coreSource.get()).then((c) => {
    costCoreLoaded = true;
    if (!(costOnFull && c.part === 'first')) useCostCore(c);
    setTimeout(warmCost, 0);
  }, (e: unknown) => console.warn('the core did not load on the page:', e instanceof Error ? e.message : e));
}
/**
 * The full core for the page's cost model (and so, through coreSource, for the workers): once a
 * view beyond the first part opens, or the page is idle after its first view. Never rejects: where
 * it cannot load, the first part's calls keep their estimates and the others are not sized.
 */
function fullCostCore(): Promise<void> {
  costOnFull ??= pageCore(coreSource.full()).then((c) => { costCoreLoaded = true; useCostCore(c); }, (e: unknown) => {
    costOnFull = null;
    console.warn('the full core did not load on the page:', e instanceof Error ? e.message : e);
  });
  return costOnFull;
}
/**
 * The views waiting for the full core (viewReady on a page that started on the first part): while
 * one does, the status bar says the core is loading, with its download's progress (a slow network
 * left the reader on the old view under the new tab, with no word of what it waited for).
 */
function waitForFull(): Promise<void> {
  waitingFull++;
  showStatus();
  return fullCostCore().finally(() => {
    waitingFull--;
    if (waitingFull === 0 && info) download = null;
    showStatus();
  });
}
/**
 * After the first view (on the first part), the full core is fetched and compiled (off the main
 * thread) in the page's idle time and handed to the workers, so another view opens at once; the
 * page's own instance of it (the cost model: a 50 ms instantiation on this thread) waits until a
 * view needs it (viewReady).
 */
// an embed shows its one view (a blog post may hold several): the full core only if its state
// turns to another view (viewReady), never in idle time for nothing
let fullSoon = !startsWithFirstPart || initial.state.embed;
function loadFullWhenIdle(): void {
  if (fullSoon) return;
  fullSoon = true;
  setTimeout(() => whenIdle(() => void coreSource.full()), FULL_CORE_AFTER_MS);
}
/** Runs `f` in the page's idle time (at the latest after 5 s). */
function whenIdle(f: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(f, { timeout: 5000 }); else setTimeout(f, 0);
}
/**
 * When the service worker registers: in idle time after the page's first chart has drawn final
 * data, or 10 s after the start if none does (a view without charts, or one that failed to load,
 * still gets its offline copy for the next visit).
 */
const firstChartDrawn = new Promise<void>((resolve) => {
  document.addEventListener(FIRST_FINAL_DRAW_EVENT, () => whenIdle(resolve), { once: true });
  setTimeout(resolve, 10_000);
});
startPwa(() => t, firstChartDrawn);
function requestInfo(): void {
  compute.call('live', 'info', {}).then((i) => { info = i; download = null; setEngineInfo(i); markEngine(); showStatus(); }, (e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    setEngineInfo(null, message);
    if (store.state.embed) showEmbedFailure(message);
    if (e instanceof CoreError && e.kind === 'unavailable') return;  // the notice says it
    infoError = message;
    showStatus();
  });
}
requestInfo();

/**
 * An embed whose core cannot start here (no worker and no core on the page's thread: the host
 * blocks the .wasm): a clear message and the view's full address to open in a new tab, above the
 * panel, never a box of charts that stay empty.
 */
function showEmbedFailure(message: string): void {
  root.querySelector('[data-embed-error="core"]')?.remove();
  const href = pageUrl(toHash({ ...store.state, embed: false }));
  const box = h('div', { class: 'embed-error', role: 'alert', 'data-embed-error': 'core' },
    h('p', { text: t('embed.coreFailed', { message }) }),
    h('p', {}, h('a', { href, target: '_blank', rel: 'noopener', text: t('app.openFull') })),
    h('p', { class: 'small muted embed-url', text: href }));
  (viewHost ?? root).prepend(box);
}
