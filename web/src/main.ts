// Entry point: reads the state from the hash, builds the page (or one panel in embed mode),
// starts the workers, and keeps state, URL and panels in step.
import './style.css';
import 'katex/dist/katex.min.css';
import { parseHash, toHash, langFromNavigator } from './state/state.ts';
import type { State, StateKey, ParseIssue } from './state/state.ts';
import { PANELS, SECTIONS } from './state/schema.js';
import type { Panel } from './state/state.ts';
import { Store } from './state/store.ts';
import { bindUrl } from './state/url.ts';
import { translator } from './i18n/messages.ts';
import type { T } from './i18n/messages.ts';
import { Compute } from './compute.ts';
import type { WorkerLike } from './worker/protocol.ts';
import { h, setText } from './dom.ts';
import { select } from './controls.ts';
import type { Control } from './controls.ts';
import type { PanelView, PanelCtx } from './panels/shell.ts';
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
import type { CoreInfo } from '../../wasm/js/core.js';
import { checkLinkVersion } from './version.ts';
import { startPwa } from './pwa.ts';

const FACTORIES: Record<Panel, (ctx: PanelCtx) => PanelView> = {
  variance: variancePanel, saturation: saturationPanel, gradient: gradientPanel, article: articlePanel, followups: followupsPanel,
  precision: precisionPanel, longctx: longctxPanel, gqa: gqaPanel, tensors: tensorsPanel, training: trainingPanel,
};

const TITLE_PREFIX = { variance: 'var', saturation: 'sat', gradient: 'grad', article: 'art', followups: 'fu', precision: 'prec', longctx: 'lc', gqa: 'gqa', tensors: 'tens', training: 'train' } as const;

const root = document.getElementById('app')!;
const navLang = langFromNavigator(navigator.languages ?? [navigator.language]);
const initial = checkLinkVersion(parseHash(location.hash, navLang));
const store = new Store(initial.state);

let restartNotice: HTMLElement | null = null;
const compute = new Compute({
  createWorker: () => new Worker(new URL('./worker/worker.ts', import.meta.url), { type: 'module', name: 'sqrtdk-core' }) as unknown as WorkerLike,
  onRestart: (reason) => {
    const w = window as unknown as { __sqrtdkRestarts?: number };
    w.__sqrtdkRestarts = (w.__sqrtdkRestarts ?? 0) + 1;
    showRestart(reason);
  },
});
// bench:ui clears the result cache between measured changes, so each one is really computed
(window as unknown as { __sqrtdkBench?: object }).__sqrtdkBench = { clearCache: () => compute.clearCache() };
let info: CoreInfo | null = null;
let infoError = '';

let panels: PanelView[] = [];
let headerControls: Control[] = [];
let statusEl: HTMLElement | null = null;
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

function noticeBox(issues: ParseIssue[]): HTMLElement | null {
  if (issues.length === 0) return null;
  const list = h('ul', {}, ...issues.map((i) => h('li', { 'data-issue-key': i.key, text: t(`notice.${i.kind}`, { key: i.key, raw: i.raw.length > 60 ? i.raw.slice(0, 60) + '…' : i.raw, used: i.used }) })));
  const box = h('div', { class: 'notice', role: 'status', 'data-notice': 'parse' },
    h('p', { text: t('notice.title') }), list,
    h('button', { type: 'button', class: 'mini', text: t('notice.dismiss'), onclick: () => { box.remove(); pendingIssues = []; } }));
  return box;
}

function showRestart(reason: 'timeout' | 'crash'): void {
  if (!restartNotice || !restartNotice.isConnected) {
    restartNotice = h('div', { class: 'notice warn', role: 'alert', 'data-notice': 'restart' });
    root.prepend(restartNotice);
  }
  setText(restartNotice, t('notice.restart', { reason: t(`notice.restart.${reason}`) }));
}

function statusText(): string {
  if (infoError) return t('app.status.failed', { message: infoError });
  if (!info) return t('app.status.loading');
  const kernel = store.state.kernel === 'auto' ? info.kernel : store.state.kernel;
  return t('app.status', { version: info.version, build: t(`app.build.${info.build}`), kernel: t(`app.kernel.${kernel}`) + (store.state.kernel === 'auto' ? ` (${t('app.kernel.auto')})` : '') });
}

async function copy(text: string, button: HTMLButtonElement, fallback: HTMLTextAreaElement): Promise<void> {
  const label = button.textContent ?? '';
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = t('app.copied');
    fallback.hidden = true;
  } catch {
    button.textContent = t('app.copyFailed');
    fallback.hidden = false;
  }
  fallback.value = text;
  setTimeout(() => { button.textContent = label; }, 1500);
}

function pageUrl(hash: string): string {
  return location.href.replace(/#.*$/, '') + hash;
}

function embedSnippet(state: State): string {
  const src = pageUrl(toHash({ ...state, embed: true }));
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const title = `√dk Lab — ${t(`${TITLE_PREFIX[state.exp]}.title`)}`;
  return `<iframe src="${esc(src)}" title="${esc(title)}" width="100%" height="720" style="border:0" loading="lazy"></iframe>`;
}

function header(): HTMLElement {
  headerControls = [
    select(store, null, 'lang', t('app.lang'), [{ value: 'en', label: 'English' }, { value: 'zh-CN', label: '简体中文' }]),
    select(store, null, 'kernel', t('app.kernel'), (['auto', 'simd', 'scalar'] as const).map((k) => ({ value: k, label: t(`app.kernel.${k}`) }))),
  ];
  const fallback = h('textarea', { class: 'copy-fallback', readOnly: true, rows: 2, hidden: true }) as HTMLTextAreaElement;
  const linkBtn = h('button', { type: 'button', class: 'button', 'data-action': 'copy-link', text: t('app.copyLink') }) as HTMLButtonElement;
  linkBtn.addEventListener('click', () => { url.flush(); void copy(pageUrl(toHash(store.state)), linkBtn, fallback); });
  const embedBtn = h('button', { type: 'button', class: 'button ghost', 'data-action': 'copy-embed', text: t('app.copyEmbed') }) as HTMLButtonElement;
  embedBtn.addEventListener('click', () => void copy(embedSnippet(store.state), embedBtn, fallback));
  statusEl = h('p', { class: 'status', 'data-status': '', role: 'status', text: statusText() });
  const nav = h('nav', { class: 'nav', 'aria-label': t('app.nav') }, ...PANELS.map((p, i) => {
    return h('button', { type: 'button', class: 'nav-item', 'data-nav': p, text: `${i + 1} ${t(`${TITLE_PREFIX[p]}.title`)}`, onclick: () => {
      store.set({ exp: p }, 'exp');
      document.getElementById(`panel-${p}`)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    } });
  }));
  return h('header', { class: 'top' },
    h('div', { class: 'brand' }, h('h1', { text: t('app.title') }), h('p', { class: 'tagline', text: t('app.tagline') })),
    h('div', { class: 'top-controls' }, ...headerControls.map((c) => c.el),
      h('div', { class: 'actions' }, linkBtn, embedBtn)),
    fallback, statusEl, nav);
}

/** Builds the whole page for the current state (again on a language change; results are cached). */
function mount(): void {
  for (const p of panels) p.destroy();
  panels = [];
  root.textContent = '';
  restartNotice = null;
  const state = store.state;
  t = translator(state.lang);
  document.documentElement.lang = state.lang;
  document.title = `${t('app.title')} — ${t('app.tagline').split(/[?？]/)[0]}?`;
  document.body.classList.toggle('embed', state.embed);
  const ctx: PanelCtx = { t, store, compute };
  const notice = noticeBox(pendingIssues);

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
    const view = FACTORIES[state.exp](ctx);
    for (const part of SECTIONS) {
      if (!state.show.includes(part)) for (const el of view.el.querySelectorAll(`[data-part="${part}"]`)) (el as HTMLElement).hidden = true;
    }
    panels = [view];
    root.append(...(notice ? [notice] : []), view.el,
      h('p', { class: 'embed-foot' }, h('a', { href: toHash({ ...state, embed: false }), target: '_blank', rel: 'noopener', text: `${t('app.title')} · ${t('app.openFull')}` })));
  } else {
    const order = [state.exp, ...PANELS.filter((p) => p !== state.exp)];
    const views = new Map(order.map((p) => [p, FACTORIES[p](ctx)] as const));
    panels = PANELS.map((p) => views.get(p)!);
    root.append(header(), ...(notice ? [notice] : []), h('main', {}, ...panels.map((p) => p.el)),
      h('footer', { class: 'foot', text: t('app.footer') }));
    for (const c of headerControls) c.sync(state);
    // request order: the panel in focus first
    for (const p of order) views.get(p)!.update(state, null);
    if (state.exp !== 'variance') requestAnimationFrame(() => document.getElementById(`panel-${state.exp}`)?.scrollIntoView({ block: 'start' }));
    markNav(state);
    return;
  }
  for (const p of panels) p.update(state, null);
}

function markNav(state: State): void {
  for (const b of document.querySelectorAll<HTMLElement>('[data-nav]')) b.classList.toggle('active', b.dataset.nav === state.exp);
}

store.subscribe((state, changed, source) => {
  if (changed.has('lang') || changed.has('embed') || changed.has('show') || (state.embed && changed.has('exp'))) {
    mount();
    return;
  }
  for (const c of headerControls) c.sync(state);
  if (statusEl) setText(statusEl, statusText());
  markNav(state);
  for (const p of panels) p.update(state, changed, source);
});

const url = bindUrl(store);

window.addEventListener('hashchange', () => {
  if (location.hash === url.lastWritten()) return;
  const parsed = checkLinkVersion(parseHash(location.hash, navLang));
  pendingIssues = parsed.issues;
  const wasEmbed = store.state.embed;
  badEmbed = embedProblem(parsed.issues, parsed.present, parsed.state);
  const prevExp = store.state.exp;
  store.replace(parsed.state);
  if (parsed.issues.length > 0 || (wasEmbed !== parsed.state.embed)) mount();
  else if (!parsed.state.embed && parsed.state.exp !== prevExp) document.getElementById(`panel-${parsed.state.exp}`)?.scrollIntoView({ block: 'start' });
  else if (!parsed.state.embed) document.getElementById(`panel-${parsed.state.exp}`)?.scrollIntoView({ block: 'start' });
});

// Building the panels keeps the main thread busy for a few hundred ms, and a worker cannot start
// while it is: let the two compute workers (created above) start fetching and compiling the core
// first, so the wasm loads while the page is built.
setTimeout(mount, 0);
startPwa(() => t);
compute.call('live', 'info', {}).then((i) => { info = i; if (statusEl) setText(statusEl, statusText()); }, (e: unknown) => {
  infoError = e instanceof Error ? e.message : String(e);
  if (statusEl) setText(statusEl, statusText());
});
