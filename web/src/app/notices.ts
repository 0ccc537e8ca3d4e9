// The page's notices above the view: the link's unusable parts, a worker restarted, the core that could not be loaded (Retry / Reload), and the SIMD link that fell back to the scalar kernel.
import { h, setText } from '../dom.ts';
import type { ParseIssue } from '../state/state.ts';
import type { AppState } from './state.ts';

/** The notice of a link's unusable parts: the first few named (keys and values cut short), then how many more. */
const NOTICE_MAX_ITEMS = 8;
export function noticeBox(app: AppState, issues: ParseIssue[]): HTMLElement | null {
  if (issues.length === 0) return null;
  const { t } = app;
  const cut = (s: string) => (s.length > 60 ? s.slice(0, 60) + '…' : s);
  const shown = issues.slice(0, NOTICE_MAX_ITEMS);
  const list = h('ul', {}, ...shown.map((i) => h('li', { 'data-issue-key': cut(i.key), text: t(`notice.${i.kind}`, { key: cut(i.key), raw: cut(i.raw), used: cut(i.used) }) })),
    issues.length > shown.length ? h('li', { 'data-issue-more': String(issues.length - shown.length), text: t('notice.more', { n: issues.length - shown.length }) }) : null);
  const box = h('div', { class: 'notice', role: 'status', 'data-notice': 'parse' },
    h('p', { text: t('notice.title') }), list,
    h('button', { type: 'button', class: 'mini', text: t('notice.dismiss'), onclick: () => {
      box.remove();
      app.pendingIssues = [];
      for (const el of document.querySelectorAll('[data-link-issue]')) el.remove();
    } }));
  return box;
}

/** The kinds of link issue that are about a value a control of the view shows. */
const VALUE_ISSUES: ReadonlySet<ParseIssue['kind']> = new Set(['invalid', 'range', 'rounded']);
/**
 * Names a bad value of the link beside the control of its key too (every key alike: a checkbox as a slider), in the
 * notice's words; gone once the reader changes that control or dismisses the notice. Not an error slot
 * (data-err-for): those hold the refusals of requests.
 */
export function issuesBeside(app: AppState, view: HTMLElement): void {
  for (const i of app.pendingIssues) {
    if (!VALUE_ISSUES.has(i.kind)) continue;
    const control = view.querySelector<HTMLElement>(`.control[data-key="${CSS.escape(i.key)}"]`);
    if (!control || control.querySelector('[data-link-issue]')) continue;
    const cut = (s: string) => (s.length > 60 ? s.slice(0, 60) + '…' : s);
    const note = h('span', { class: 'err', 'data-link-issue': i.key, text: app.t(`notice.${i.kind}`, { key: i.key, raw: cut(i.raw), used: cut(i.used) }) });
    control.append(note);
    const drop = () => note.remove();
    control.addEventListener('input', drop, { once: true });
    control.addEventListener('change', drop, { once: true });
  }
}

export function showRestart(app: AppState, reason: 'timeout' | 'crash'): void {
  // before any view is on screen (its code still loading) the notice is for the view to come:
  // kept and shown with it (the page built meanwhile would drop it)
  if (app.view === null) app.pendingRestart = reason;
  if (!app.restartNotice || !app.restartNotice.isConnected) {
    app.restartNotice = h('div', { class: 'notice warn', role: 'alert', 'data-notice': 'restart' });
    (app.viewHost ?? app.root).prepend(app.restartNotice);
  }
  setText(app.restartNotice, app.t('notice.restart', { reason: app.t(`notice.restart.${reason}`) }));
}

/** Shows the restart a view still loading missed, once that view is in the page. */
export function showPendingRestart(app: AppState): void {
  const reason = app.pendingRestart;
  app.pendingRestart = null;
  if (reason) showRestart(app, reason);
}

/**
 * The notice of a core that could not be loaded: while retrying, nothing (the status line counts
 * the attempts); once given up, what happened, its likely causes and Retry / Reload — and no
 * further request until the reader picks one (or the browser comes back online).
 */
export function showStartNotice(app: AppState): void {
  const { start, t } = app;
  if (start.state !== 'unavailable') { app.startNotice?.remove(); app.startNotice = null; return; }
  app.startNotice?.remove();
  const retry = h('button', { type: 'button', class: 'button', 'data-action': 'core-retry', text: t('notice.unavailable.retry') }) as HTMLButtonElement;
  retry.addEventListener('click', () => {
    retry.disabled = true;
    setText(retry, app.t('notice.unavailable.retrying'));
    retryCore(app);
  });
  const reload = h('button', { type: 'button', class: 'button ghost', 'data-action': 'core-reload', text: t('notice.unavailable.reload') });
  reload.addEventListener('click', () => location.reload());
  app.startNotice = h('div', { class: 'notice warn', role: 'alert', 'data-notice': 'core-unavailable' },
    h('p', {}, h('strong', { text: t('notice.unavailable.title') })),
    h('p', { text: t('notice.unavailable.why') }),
    h('p', { class: 'note', text: t('notice.unavailable.detail', { message: start.error }) }),
    h('div', { class: 'notice-actions' }, retry, reload));
  (app.viewHost ?? app.root).prepend(app.startNotice);
}

/**
 * The workers that could not start try again now (the reader's Retry, the browser back online):
 * the core is fetched afresh, past the module the workers rejected if they rejected one (another
 * version or build), so a server fixed meanwhile is seen without a reload.
 */
export function retryCore(app: AppState): void {
  if (app.start.state !== 'ready') app.coreSource.retry();
  app.compute.retry();
}

// A link with kernel=simd on an engine without WebAssembly SIMD128 (the baseline build, which has
// no SIMD kernel): the scalar kernel is used, with a notice — its numbers are the same, bit for
// bit (the two families compute identical products) — instead of refusing every request.
export function checkKernel(app: AppState): void {
  if (app.simdOk !== false || app.store.state.kernel !== 'simd') return;
  app.kernelFellBack = true;
  app.store.set({ kernel: 'scalar' }, 'kernel');
  showKernelNotice(app);
}

export function showKernelNotice(app: AppState): void {
  app.kernelNotice?.remove();
  app.kernelNotice = null;
  if (!app.kernelFellBack || !app.viewHost) return;
  app.kernelNotice = h('div', { class: 'notice', role: 'status', 'data-notice': 'kernel-fallback' },
    h('p', { text: app.t('notice.noSimd') }),
    h('button', { type: 'button', class: 'mini', text: app.t('notice.dismiss'), onclick: () => { app.kernelFellBack = false; showKernelNotice(app); } }));
  app.viewHost.prepend(app.kernelNotice);
}
