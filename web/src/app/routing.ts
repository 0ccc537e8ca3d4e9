// Routing between views: a change of the state (a control, a tab, the language) decides whether the view, the page or nothing is rebuilt; a hash the browser brings (Back, Forward, a link) is read back into the store.
import { parseHash, issuesToShow } from '../state/state.ts';
import type { State, StateKey } from '../state/state.ts';
import { focusPath, restoreFocus } from '../focus.ts';
import { checkLinkVersion, isOwnAddress } from './link-version.ts';
import { withPageView } from '../share/url.ts';
import type { AppState } from './state.ts';
import { mount, showPanel } from './mount.ts';
import { markNav } from './chrome.ts';
import { markEngine } from './status.ts';
import { checkKernel } from './notices.ts';
import { embedProblem } from './embed.ts';
import { closeEmbedDialog, closeShare } from './sharebar.ts';

/** The store's listener: what a change of state does to the page. */
export function onStateChange(app: AppState, state: State, changed: Set<StateKey>, source: StateKey | undefined): void {
  const { root } = app;
  if (changed.has('kernel') && state.kernel === 'simd' && app.simdOk === false) { checkKernel(app); return; }
  if (changed.has('kernel')) markEngine(app);
  if (changed.has('lang') || changed.has('embed') || changed.has('show') || changed.has('theme') || (state.embed && changed.has('exp'))) {
    closeEmbedDialog();
    closeShare();
    const keep = focusPath(root);
    mount(app, () => restoreFocus(root, keep));
    return;
  }
  if (changed.has('exp')) {
    if (source === 'exp') app.pendingIssues = [];  // the link's notice belongs to the view it opened
    closeEmbedDialog();
    closeShare();
    // no page yet, or one about to be rebuilt in another language: build it for this view (with
    // the catalogue parts this view needs) instead of showing the view in a page that is not there
    if (!app.viewHost || app.mountPending) { mount(app); return; }
    // focus follows the change of view (a tab, the menu, Back or Forward), for keyboards and screen readers
    showPanel(app, state, true);
    for (const c of app.chrome?.controls ?? []) c.sync(state);
    return;
  }
  for (const c of app.chrome?.controls ?? []) c.sync(state);
  markNav(app, state);
  // a control moved: its echo (the view's controls sync in update) paints before any chart draws
  if (source !== undefined) app.charts.paintFirst();
  // a view still loading, or waiting for the cost estimates, gets the whole state when it starts
  if (app.sizing && app.shownSeq === app.viewSeq) app.view?.update(state, changed, source);
}

/** A hash the browser brings: Back / Forward through panels, a typed URL, a followed link. */
export function onBrowserHash(app: AppState): void {
  const { url, store } = app;
  if (location.hash === url.lastWritten()) return;
  const parsed = checkLinkVersion(parseHash(withPageView(url.current(), app.page), app.navLang), app.linkReads, isOwnAddress());
  const hadNotice = app.pendingIssues.length > 0 || app.badEmbed !== null;
  app.pendingIssues = issuesToShow(parsed);
  const wasEmbed = store.state.embed;
  app.badEmbed = embedProblem(parsed.issues, parsed.present, parsed.state);
  closeEmbedDialog();
  url.adopt(() => store.replace(parsed.state));
  // rebuild when the link brings a notice or an embed error, or clears one that is shown
  if (parsed.issues.length > 0 || wasEmbed !== parsed.state.embed || hadNotice || app.badEmbed !== null) mount(app);
}
