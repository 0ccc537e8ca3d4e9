// The page's frame around the view: the header (brand, language), the sticky bar (tabs, the phone menu, the share bar, the status line), the pager under the view, and the document's title and meta.
import { h } from '../dom.ts';
import type { State, Panel } from '../state/state.ts';
import { PANELS } from '../state/schema.js';
import { panelTitle, panelTitleKey, numberedTitle, tabTitle } from '../i18n/titles.ts';
import type { AppState } from './state.ts';
import { shareBar } from './sharebar.ts';
import { languageSwitch } from './language.ts';

/** A click that should switch the view here (not one that opens the link in a new tab or window). */
function plainClick(ev: Event): boolean {
  const e = ev as MouseEvent;
  return !(e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button !== 0);
}

/** Switches the view (a tab, the menu, the pager): a change of exp, which pushes a history entry. */
function go(app: AppState, panel: Panel): void {
  if (panel === app.store.state.exp) return;
  app.store.set({ exp: panel }, 'exp');
}

/** The page's frame: brand and language (the kernel choice and the engine are in the device panel); then the sticky bar with the panel tabs (a menu on phones) and the copy buttons. Sets app.chrome. */
export function pageChrome(app: AppState, state: State): { top: HTMLElement; bar: HTMLElement } {
  const { t } = app;
  const controls = [languageSwitch(app)];
  const { actions, fallback } = shareBar(app);
  const status = h('p', { class: 'status core-status', 'data-core-status': '', role: 'status', hidden: '' });
  const nav = h('nav', { class: 'tabs', 'aria-label': t('app.nav') },
    h('ul', {}, ...PANELS.map((p) => h('li', {}, h('a', {
      class: 'nav-item', 'data-nav': p, href: app.url.addressOf({ ...state, exp: p }), text: tabTitle(t, p), title: numberedTitle(t, p),
      onclick: (ev: Event) => { if (!plainClick(ev)) return; ev.preventDefault(); go(app, p); },
    })))));
  const menuId = 'panel-menu';
  const menu = h('select', { id: menuId, 'data-nav-menu': '' }, ...PANELS.map((p) => h('option', { value: p, text: numberedTitle(t, p) }))) as HTMLSelectElement;
  menu.value = state.exp;
  menu.addEventListener('change', () => go(app, menu.value as Panel));
  const menuBox = h('div', { class: 'menu' }, h('label', { for: menuId, text: t('app.nav') }), menu);
  app.chrome = { controls, status, nav, menu };
  const top = h('header', { class: 'top' },
    h('div', { class: 'brand' }, h('h1', { class: 'site-name', text: t('app.title') }), h('p', { class: 'tagline', text: t('app.tagline') })),
    h('div', { class: 'top-controls' }, ...controls.map((c) => c.el)));
  for (const c of controls) c.el.classList.add('inline');
  const bar = h('div', { class: 'bar', 'data-bar': '' }, nav, menuBox, actions, fallback, status);
  return { top, bar };
}

/** The tabs and the menu follow the view: the current one marked, every link carrying the state. */
export function markNav(app: AppState, state: State): void {
  const { chrome } = app;
  if (!chrome) return;
  for (const a of chrome.nav.querySelectorAll<HTMLAnchorElement>('[data-nav]')) {
    const p = a.dataset.nav as Panel;
    if (p === state.exp) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    a.href = app.url.addressOf({ ...state, exp: p });
  }
  if (chrome.menu.value !== state.exp) chrome.menu.value = state.exp;
}

/** Previous / next panel links at the end of a view: the reading order of the story. */
export function pager(app: AppState, state: State): HTMLElement {
  const { t } = app;
  const i = PANELS.indexOf(state.exp);
  const link = (p: Panel, dir: 'prev' | 'next') => h('a', {
    class: `pager-${dir}`, 'data-pager': dir, href: app.url.addressOf({ ...state, exp: p }),
    onclick: (ev: Event) => { if (!plainClick(ev)) return; ev.preventDefault(); go(app, p); },
  }, h('span', { class: 'pager-dir', text: t(`app.${dir}`) }), h('span', { class: 'pager-title', text: numberedTitle(t, p) }));
  return h('nav', { class: 'pager', 'aria-label': t('app.pager') },
    i > 0 ? link(PANELS[i - 1], 'prev') : h('span', {}),
    i < PANELS.length - 1 ? link(PANELS[i + 1], 'next') : h('span', {}));
}

/** The document's title and its description (meta and Open Graph) for the view. */
export function setMeta(app: AppState, state: State): void {
  const { t } = app;
  const title = `${panelTitle(t, state.exp)} — ${t('app.title')}`;
  document.title = title;
  const desc = t(`${panelTitleKey(state.exp)}.lede` as never);
  for (const [sel, value] of [['meta[property="og:title"]', title], ['meta[property="og:description"]', desc], ['meta[name="description"]', desc]] as const) {
    const m = document.querySelector<HTMLMetaElement>(sel);
    if (m) m.content = value;
  }
}
