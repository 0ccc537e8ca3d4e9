// Entry point: reads the state from the hash and shows one panel per view (the hash's exp), or
// one panel alone in embed mode; starts the workers, and keeps state, URL, history and the view in
// step. Only the panel in view is mounted, computed and in the accessibility tree.
import './style.css';
import 'katex/dist/katex.min.css';
import { parseHash, toHash, langFromNavigator } from './state/state.ts';
import type { State, StateKey, ParseIssue, Panel } from './state/state.ts';
import { PANELS, SECTIONS } from './state/schema.js';
import { Store } from './state/store.ts';
import { bindUrl } from './state/url.ts';
import { translator } from './i18n/messages.ts';
import type { T } from './i18n/messages.ts';
import { Compute, defaultPoolSize } from './compute.ts';
import { compileCore, coreWorker } from './worker/boot.ts';
import { poolOverride } from './worker/pool.ts';
import { h, setText } from './dom.ts';
import { select } from './controls.ts';
import type { Control } from './controls.ts';
import type { PanelView, PanelCtx } from './panels/shell.ts';
import { interviewPanel } from './panels/interview.ts';
import { variancePanel } from './panels/variance.ts';
import { saturationPanel } from './panels/saturation.ts';
import { gradientPanel } from './panels/gradient.ts';
import { articlePanel } from './panels/article.ts';
import { followupsPanel } from './panels/followups.ts';
import { precisionPanel } from './panels/precision.ts';
import { longctxPanel } from './panels/longctx.ts';
import { gqaPanel } from './panels/gqa.ts';
import { tensorsPanel } from './panels/tensors.ts';
import { trainingPanel } from './panels/training.ts';
import { devicePanel } from './panels/device.ts';
import { mupPanel } from './panels/mup.ts';
import { wildPanel } from './panels/wild.ts';
import { panelTitle, panelTitleKey, numberedTitle, tabTitle } from './panels/titles.ts';
import { applyTheme } from './theme.ts';
import { openEmbedDialog, closeEmbedDialog } from './embed/dialog.ts';
import { reportHeight } from './embed/report.ts';
import { focusPath, restoreFocus } from './focus.ts';
import type { CoreInfo } from '../../wasm/js/core.js';
import { copyText } from './copy.ts';
import { checkLinkVersion } from './version.ts';
import { startPwa } from './pwa.ts';

const FACTORIES: Record<Panel, (ctx: PanelCtx) => PanelView> = {
  interview: interviewPanel, variance: variancePanel, saturation: saturationPanel, gradient: gradientPanel, article: articlePanel, followups: followupsPanel,
  precision: precisionPanel, longctx: longctxPanel, gqa: gqaPanel, tensors: tensorsPanel, training: trainingPanel, device: devicePanel, mup: mupPanel, wild: wildPanel,
};

const root = document.getElementById('app')!;
const navLang = langFromNavigator(navigator.languages ?? [navigator.language]);
const initial = checkLinkVersion(parseHash(location.hash, navLang));
const store = new Store(initial.state);

let restartNotice: HTMLElement | null = null;
// the core's module is compiled once, here, and posted to every worker of the pool
const coreInit = compileCore();
const compute = new Compute({
  poolSize: poolOverride(location.search) ?? defaultPoolSize(navigator.hardwareConcurrency),
  createWorker: (i) => coreWorker(() => new Worker(new URL('./worker/worker.ts', import.meta.url), { type: 'module', name: `sqrtdk-core-${i}` }), coreInit),
  onRestart: (reason) => {
    const w = window as unknown as { __sqrtdkRestarts?: number };
    w.__sqrtdkRestarts = (w.__sqrtdkRestarts ?? 0) + 1;
    showRestart(reason);
  },
});
// bench:ui clears the result cache between measured changes, so each one is really computed;
// tests and bench:ui read the pool size and the counters of computations per panel
(window as unknown as { __sqrtdkBench?: object }).__sqrtdkBench = { clearCache: () => compute.clearCache(), stats: () => compute.stats() };
let info: CoreInfo | null = null;
let infoError = '';

let view: PanelView | null = null;
let viewHost: HTMLElement | null = null;
let chrome: { controls: Control[]; status: HTMLElement; nav: HTMLElement; menu: HTMLSelectElement } | null = null;
let t: T = translator(store.state.lang);
let pendingIssues: ParseIssue[] = initial.issues;
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
  if (!restartNotice || !restartNotice.isConnected) {
    restartNotice = h('div', { class: 'notice warn', role: 'alert', 'data-notice': 'restart' });
    (viewHost ?? root).prepend(restartNotice);
  }
  setText(restartNotice, t('notice.restart', { reason: t(`notice.restart.${reason}`) }));
}

/** "Engine: SIMD" in plain words; the core's version and build behind the tooltip. */
function statusText(): { text: string; title: string } {
  if (infoError) return { text: t('app.status.failed', { message: infoError }), title: '' };
  if (!info) return { text: t('app.status.loading'), title: '' };
  const kernel = store.state.kernel === 'auto' ? info.kernel : store.state.kernel;
  return {
    text: t('app.engine', { kernel: t(`app.engine.${kernel}`) }),
    title: t('app.status', { version: info.version, build: t(`app.build.${info.build}`), kernel: t(`app.kernel.${kernel}`) + (store.state.kernel === 'auto' ? ` (${t('app.kernel.auto')})` : '') }),
  };
}
function showStatus(): void {
  if (!chrome) return;
  const s = statusText();
  setText(chrome.status, s.text);
  if (s.title) chrome.status.title = s.title; else chrome.status.removeAttribute('title');
}


/** The page's address with a hash: origin and path only (a query such as utm_source=… is not part of a link's state). */
function pageUrl(hash: string): string {
  return location.origin + location.pathname + hash;
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

/** The page's frame: brand, language and kernel; then the sticky bar with the panel tabs (a menu on phones) and the copy buttons. */
function pageChrome(state: State): { top: HTMLElement; bar: HTMLElement } {
  const controls = [
    select(store, null, 'lang', t('app.lang'), [{ value: 'en', label: 'English' }, { value: 'zh-CN', label: '简体中文' }]),
    select(store, null, 'kernel', t('app.kernel'), (['auto', 'simd', 'scalar'] as const).map((k) => ({ value: k, label: t(`app.kernel.${k}`) }))),
  ];
  const fallback = h('textarea', { class: 'copy-fallback', readOnly: true, rows: 2, hidden: true, 'aria-label': t('app.copyFallback') }) as HTMLTextAreaElement;
  // on phones the buttons show a short word; the accessible name is the full label, which contains it
  const twoLabels = (long: string, short: string) => [h('span', { class: 'long', text: long }), h('span', { class: 'short', 'aria-hidden': 'true', text: short })];
  const linkBtn = h('button', { type: 'button', class: 'button', 'data-action': 'copy-link', 'aria-label': t('app.copyLink') }, ...twoLabels(t('app.copyLink'), t('app.copyLinkShort'))) as HTMLButtonElement;
  linkBtn.addEventListener('click', () => { url.flush(); void copyText(pageUrl(toHash(store.state)), linkBtn, fallback, t); });
  const embedBtn = h('button', { type: 'button', class: 'button ghost', 'data-action': 'copy-embed', 'aria-haspopup': 'dialog', 'aria-label': t('app.copyEmbed') }, ...twoLabels(t('app.copyEmbed'), t('app.copyEmbedShort'))) as HTMLButtonElement;
  embedBtn.addEventListener('click', () => openEmbedDialog({
    state: store.state, t, pageUrl, returnFocus: embedBtn,
    parts: SECTIONS.filter((p) => view?.el.querySelector(`[data-part="${p}"]`)),
  }));
  const status = h('p', { class: 'status', 'data-status': '', role: 'status' });
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
    h('div', { class: 'top-controls' }, ...controls.map((c) => c.el), status));
  for (const c of controls) c.el.classList.add('inline');
  const bar = h('div', { class: 'bar', 'data-bar': '' }, nav, menuBox, h('div', { class: 'actions' }, linkBtn, embedBtn), fallback);
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

/** Shows the panel of state.exp in the view (destroying the one shown before). */
function showPanel(state: State, focusHeading: boolean): void {
  view?.destroy();
  restartNotice = null;
  const ctx: PanelCtx = { t, store, compute };
  view = FACTORIES[state.exp](ctx);
  const main = viewHost!;
  const notice = noticeBox(pendingIssues);
  main.replaceChildren(...(notice ? [notice] : []), view.el, pager(state));
  view.update(state, null);
  setMeta(state);
  markNav(state);
  if (focusHeading) {
    const head = view.el.querySelector<HTMLElement>('h2');
    if (head) { head.tabIndex = -1; head.focus({ preventScroll: true }); }
    const bar = document.querySelector<HTMLElement>('[data-bar]');
    const top = main.getBoundingClientRect().top + window.scrollY - (bar?.offsetHeight ?? 0) - 8;
    if (window.scrollY > top) window.scrollTo({ top: Math.max(0, top) });
  }
}

/** Builds the page for the current state (again on a language change; results are cached). */
function mount(): void {
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
    const ctx: PanelCtx = { t, store, compute };
    view = FACTORIES[state.exp](ctx);
    for (const part of SECTIONS) {
      if (!state.show.includes(part)) for (const el of view.el.querySelectorAll(`[data-part="${part}"]`)) (el as HTMLElement).hidden = true;
    }
    view.el.classList.toggle('no-controls', !state.show.includes('controls'));
    const notice = noticeBox(pendingIssues);
    viewHost = h('main', { id: 'main' });
    viewHost.append(h('h1', { class: 'sr-only', text: t('app.title') }), ...(notice ? [notice] : []), view.el,
      h('p', { class: 'embed-foot' }, h('a', { href: toHash({ ...state, embed: false }), target: '_blank', rel: 'noopener', text: `${t('app.title')} · ${t('app.openFull')}` })));
    root.append(viewHost);
    view.update(state, null);
    setMeta(state);
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

store.subscribe((state, changed, source) => {
  if (changed.has('lang') || changed.has('embed') || changed.has('show') || changed.has('theme') || (state.embed && changed.has('exp'))) {
    closeEmbedDialog();
    const keep = focusPath(root);
    mount();
    restoreFocus(root, keep);
    return;
  }
  if (changed.has('exp')) {
    if (source === 'exp') pendingIssues = [];  // the link's notice belongs to the view it opened
    closeEmbedDialog();
    // focus follows the change of view (a tab, the menu, Back or Forward), for keyboards and screen readers
    showPanel(state, true);
    for (const c of chrome?.controls ?? []) c.sync(state);
    showStatus();
    return;
  }
  for (const c of chrome?.controls ?? []) c.sync(state);
  showStatus();
  markNav(state);
  view?.update(state, changed, source);
});

const url = bindUrl(store);

/** A hash the browser brings: Back / Forward through panels, a typed URL, a followed link. */
function onBrowserHash(): void {
  if (location.hash === url.lastWritten()) return;
  const parsed = checkLinkVersion(parseHash(location.hash, navLang));
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

// Building the panel keeps the main thread busy for a while, and a worker cannot start while it
// is: let the two compute workers (created above) start fetching and compiling the core first.
setTimeout(mount, 0);
startPwa(() => t);
compute.call('live', 'info', {}).then((i) => { info = i; showStatus(); }, (e: unknown) => {
  infoError = e instanceof Error ? e.message : String(e);
  showStatus();
});
