// Mounting a view: the page built for the state once its catalogue is in (the full page or an embed), the view shown once its code is in, and what follows a view's arrival (its notices, its state, the first paint).
import { h } from '../dom.ts';
import { toHash } from '../state/state.ts';
import type { State } from '../state/state.ts';
import { PANELS, SECTIONS } from '../state/schema.js';
import { translator, loadCatalogue, hasCatalogue } from '../i18n/catalogue.ts';
import type { PanelView, PanelCtx } from '../panels/kit.ts';
import { moduleWorker } from '../worker/spawn.ts';
import { staleNotice } from '../panels/kit.ts';
import { applyTheme } from '../theme.ts';
import type { AppState } from './state.ts';
import { viewReady } from './views.ts';
import { costCore, loadFullWhenIdle, requestInfo } from './core.ts';
import { pageChrome, markNav, pager, setMeta } from './chrome.ts';
import { noticeBox, issuesBeside, showPendingRestart, showKernelNotice, showStartNotice } from './notices.ts';
import { showStatus } from './status.ts';
import { codeBar } from './code-export.ts';
import { shareLink } from './sharebar.ts';

/** What a view is made with: the page's translator, store, compute client, charts and workers, and a place to keep what outlives a rebuild. */
function panelCtx(app: AppState): PanelCtx {
  return {
    t: app.t, store: app.store, compute: app.compute, charts: app.charts, engine: app.engine,
    spawnWorker: (url, name) => moduleWorker(url, name, app.blobFailures),
    keep: <V>(key: string, make: () => V): V => {
      if (!app.kept.has(key)) app.kept.set(key, make());
      return app.kept.get(key) as V;
    },
  };
}

/** Gives the view just mounted its state, when its requests can be sized (else startSizing does). */
function startView(app: AppState, v: PanelView): void {
  if (app.sizing) v.update(app.store.state, null);
}

/** The page's core answers cost estimates (or failed to load): the view waiting for them gets its state. */
export function startSizing(app: AppState): void {
  if (app.sizing) return;
  app.sizing = true;
  if (app.view && app.shownSeq === app.viewSeq) app.view.update(app.store.state, null);
}

/**
 * A view whose code could not be loaded (offline before the precache, a version gone from the
 * site): the reload notice, and the view is asked for again once the browser is back online.
 */
function viewFailed(app: AppState, seq: number, host: HTMLElement, again: () => void): void {
  if (seq !== app.viewSeq) return;
  host.replaceChildren(staleNotice());
  window.addEventListener('online', () => { if (seq === app.viewSeq) again(); }, { once: true });
}

/** What follows a view's arrival in the page (a page's or an embed's): its notices, its state, the first paint, the title. */
function viewInPage(app: AppState, v: PanelView, now: State): void {
  loadFullWhenIdle(app);
  showPendingRestart(app);
  showKernelNotice(app);
  showStartNotice(app);
  issuesBeside(app, v.el);
  startView(app, v);
  app.firstPaint.place(v.el, now);
  setMeta(app, now);
  if (!now.embed) placeCodeBar(app, v, now);
}

/** "Copy as code" below the readouts of a view that computes (not in an embed: its frame keeps its measured height). */
function placeCodeBar(app: AppState, v: PanelView, now: State): void {
  const bar = codeBar(app, now, app.t, () => { app.url.flush(); return shareLink(app); }, () => app.store.state);
  if (!bar) return;
  const after = v.el.querySelector(':scope > .readouts') ?? v.el.querySelector(':scope > .charts');
  if (after) after.after(bar); else v.el.append(bar);
}

/** Shows the panel of state.exp in the view (destroying the one shown before) once its code is loaded. */
export function showPanel(app: AppState, state: State, focusHeading: boolean): void {
  const seq = ++app.viewSeq;
  const main = app.viewHost!;
  // the tab and the title follow the click at once, while the view's code loads
  markNav(app, state);
  setMeta(app, state);
  viewReady(app, state.exp).then((factory) => {
    if (seq !== app.viewSeq) return;
    const now = app.store.state;  // the state may have moved on (not to another view) while the code loaded
    app.view?.destroy();
    app.restartNotice = null;
    const view = factory(panelCtx(app));
    app.view = view;
    app.shownSeq = seq;
    const notice = noticeBox(app, app.pendingIssues);
    main.replaceChildren(...(notice ? [notice] : []), view.el, pager(app, now));
    viewInPage(app, view, now);
    markNav(app, now);
    if (focusHeading) {
      const head = view.el.querySelector<HTMLElement>('h2');
      if (head) { head.tabIndex = -1; head.focus({ preventScroll: true }); }
      const bar = document.querySelector<HTMLElement>('[data-bar]');
      const top = main.getBoundingClientRect().top + window.scrollY - (bar?.offsetHeight ?? 0) - 8;
      if (window.scrollY > top) window.scrollTo({ top: Math.max(0, top) });
    }
  }, () => viewFailed(app, seq, main, () => showPanel(app, app.store.state, false)));
}

/**
 * Builds the page for the current state (again on a language change; results are cached) once
 * the parts of its language's catalogue the view needs are in: at once when they are; else the
 * page shown (or the first paint) stays until they are. `after` runs once the page is built.
 */
export function mount(app: AppState, after?: () => void): void {
  const seq = ++app.mountSeq;
  const { lang, exp } = app.store.state;
  const build = () => { if (seq !== app.mountSeq) return; app.mountPending = false; buildPage(app); after?.(); };
  app.mountPending = true;
  if (hasCatalogue(lang, exp)) { build(); return; }
  void loadCatalogue(lang, exp).then(build, () => {
    // offline before its chunk came (a first visit, before the precache): the page in a language
    // that is in (the view then says why it cannot load), else built once the browser is back online
    if (hasCatalogue('en') || hasCatalogue('zh-CN')) build();
    else window.addEventListener('online', () => { if (seq === app.mountSeq) mount(app, after); }, { once: true });
  });
}

/** Builds the page for the current state, in a language whose catalogue is in (mount). */
function buildPage(app: AppState): void {
  const { root } = app;
  app.viewSeq++;  // a view whose code is still loading is not shown in the page built now
  app.view?.destroy();
  app.view = null;
  app.chrome = null;
  root.textContent = '';
  app.restartNotice = null;
  const state = app.store.state;
  app.t = translator(state.lang);
  document.documentElement.lang = state.lang;
  document.body.classList.toggle('embed', state.embed);
  applyTheme(state.theme);

  if (state.embed) { buildEmbed(app, state); return; }
  const { t } = app;
  const { top, bar } = pageChrome(app, state);
  const viewHost = h('main', { id: 'main', tabIndex: -1 });
  app.viewHost = viewHost;
  root.append(
    h('a', { class: 'skip-link', href: '#main', 'data-skip': '', text: t('app.skip'), onclick: (ev: Event) => { ev.preventDefault(); skipToPanel(app); } }),
    top, bar, viewHost, h('footer', { class: 'foot', text: t('app.footer') }));
  for (const c of app.chrome!.controls) c.sync(state);
  showStatus(app);
  showPanel(app, state, false);
}

/** The page of an embed: its one view (the parts the link shows) and a link to the full page, or why the link names no view. */
function buildEmbed(app: AppState, state: State): void {
  const { root, t, badEmbed } = app;
  if (badEmbed) {
    const msg = badEmbed.key === 'exp'
      ? t('embed.bad', { raw: badEmbed.raw, panels: PANELS.join(', ') })
      : badEmbed.key === 'hash' ? t('embed.tooLong', { raw: badEmbed.raw, used: badEmbed.used ?? '' })
        : t('embed.badShow', { raw: badEmbed.raw, parts: SECTIONS.join(', ') });
    root.append(h('div', { class: 'embed-error', role: 'alert', 'data-embed-error': '' },
      h('p', { text: msg }),
      h('a', { href: toHash({ ...state, embed: false }), target: '_blank', rel: 'noopener', text: t('app.openFull') })));
    return;
  }
  const seq = ++app.viewSeq;
  viewReady(app, state.exp).then((factory) => {
    if (seq !== app.viewSeq) return;
    const now = app.store.state;
    const view = factory(panelCtx(app));
    app.view = view;
    app.shownSeq = seq;
    for (const part of SECTIONS) {
      if (!now.show.includes(part)) for (const el of view.el.querySelectorAll(`[data-part="${part}"]`)) (el as HTMLElement).hidden = true;
    }
    view.el.classList.toggle('no-controls', !now.show.includes('controls'));
    const notice = noticeBox(app, app.pendingIssues);
    const viewHost = h('main', { id: 'main' });
    app.viewHost = viewHost;
    viewHost.append(h('h1', { class: 'sr-only', text: app.t('app.title') }), ...(notice ? [notice] : []), view.el,
      h('p', { class: 'embed-foot' }, h('a', { href: toHash({ ...now, embed: false }), target: '_blank', rel: 'noopener', text: `${app.t('app.title')} · ${app.t('app.openFull')}` })));
    root.append(viewHost);
    viewInPage(app, view, now);
  }, () => viewFailed(app, seq, root, () => mount(app)));
}

/** The skip link: focus moves to the panel, so the next Tab reaches its first control. */
function skipToPanel(app: AppState): void {
  const head = app.view?.el.querySelector<HTMLElement>('h2');
  const target = head ?? app.viewHost;
  if (!target) return;
  target.tabIndex = -1;
  target.focus();
}

/** The core loads again after the pool gave up: the requests it refused meanwhile are made again. */
export function recovered(app: AppState): void {
  app.infoError = '';
  requestInfo(app);
  void costCore(app).then(() => {
    if (!app.viewHost) return;
    if (app.store.state.embed) mount(app); else showPanel(app, app.store.state, false);
  });
}
