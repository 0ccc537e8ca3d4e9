// The share bar: Copy link (the view's share page with the short hash), Embed (the snippet dialog, with Copy as code) and Share as image (the poster dialog), each dialog's code loaded on its first click.
import { h } from '../dom.ts';
import { shareHash } from '../state/state.ts';
import { SECTIONS } from '../state/schema.js';
import { copyText } from '../copy.ts';
import { siteRoot, shareUrl } from '../share/url.ts';
import type { AppState } from './state.ts';
import { codeOf } from './code-export.ts';
import { hasCode } from '../reproduce/views.ts';
import type { CodeLang } from '../reproduce/views.ts';

/** Closes the embed dialog if one is open (without loading its module). */
export function closeEmbedDialog(): void {
  const d = document.querySelector<HTMLDialogElement>('dialog[data-embed-dialog]');
  if (d?.open) d.close(); else d?.remove();
}

/** Closes the share dialog if one is open (without loading its module). */
export function closeShare(): void {
  const d = document.querySelector<HTMLDialogElement>('dialog[data-share-dialog]');
  if (d?.open) d.close(); else d?.remove();
}

/** The site's root (the app, whichever share page this is) with a hash; a query such as utm_source=… is not part of a link's state. */
export function pageUrl(app: AppState, hash: string): string {
  return siteRoot(location.href, app.page) + hash;
}

/** What Copy link and the poster's QR code give: the view's share page with the short hash (lang only if chosen). */
export function shareLink(app: AppState): string {
  const { store } = app;
  return shareUrl(store.state, siteRoot(location.href, app.page), shareHash(store.state, app.url.langChosen()));
}

/** The bar's three buttons, and the text box a link is shown in where the clipboard is refused. */
export function shareBar(app: AppState): { actions: HTMLElement; fallback: HTMLTextAreaElement } {
  const { t, store, url } = app;
  const fallback = h('textarea', { class: 'copy-fallback', readOnly: true, rows: 2, hidden: true, 'aria-label': t('app.copyFallback') }) as HTMLTextAreaElement;
  // on phones the buttons show a short word; the accessible name is the full label, which contains it
  const twoLabels = (long: string, short: string) => [h('span', { class: 'long', text: long }), h('span', { class: 'short', 'aria-hidden': 'true', text: short })];
  const linkBtn = h('button', { type: 'button', class: 'button', 'data-action': 'copy-link', 'aria-label': t('app.copyLink') }, ...twoLabels(t('app.copyLink'), t('app.copyLinkShort'))) as HTMLButtonElement;
  // the share page of the view (its link card names the experiment) with the short hash: the view's
  // keys that differ from their defaults (the address bar keeps the full state)
  linkBtn.addEventListener('click', () => { url.flush(); void copyText(shareLink(app), linkBtn, fallback, app.t); });
  const embedBtn = h('button', { type: 'button', class: 'button ghost', 'data-action': 'copy-embed', 'aria-haspopup': 'dialog', 'aria-label': t('app.copyEmbed') }, ...twoLabels(t('app.copyEmbed'), t('app.copyEmbedShort'))) as HTMLButtonElement;
  embedBtn.addEventListener('click', () => {
    const state = store.state;
    const code = hasCode(state.exp) ? (lang: CodeLang) => { url.flush(); return codeOf(app, store.state, lang, app.t, shareLink(app)); } : undefined;
    const opts = { state, t: app.t, pageUrl: (hash: string) => pageUrl(app, hash), choice: app.embedChoice, returnFocus: embedBtn, parts: SECTIONS.filter((p) => app.view?.el.querySelector(`[data-part="${p}"]`)), code };
    // the dialog and its snippet formats load on the first click, not with the page
    void import('../embed/dialog.ts').then((m) => m.openEmbedDialog(opts));
  });
  const shareBtn = h('button', { type: 'button', class: 'button ghost', 'data-action': 'share-image', 'aria-haspopup': 'dialog', 'aria-label': t('share.button') }, ...twoLabels(t('share.button'), t('share.buttonShort'))) as HTMLButtonElement;
  shareBtn.addEventListener('click', () => {
    if (!app.view) return;
    url.flush();
    const opts = { state: store.state, t: app.t, view: app.view.el, link: shareLink(app), figures: app.view.keyFigures?.() ?? [], returnFocus: shareBtn };
    // the poster and its QR code library load on the first click, not with the page
    void import('../share/dialog.ts').then((m) => m.openShareDialog(opts));
  });
  return { actions: h('div', { class: 'actions' }, linkBtn, embedBtn, shareBtn), fallback };
}
