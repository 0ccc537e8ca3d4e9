// The "Share as image" dialog: the poster of the view as it is now (poster.ts) shown as a picture,
// Download PNG, and Copy for WeChat/Zhihu (the answer or the numbers, the link as a footnote).
// The numbers (the view's key figures) and the link drawn are kept in data-poster-* attributes (the
// browser test reads them).
import type { State, Panel } from '../state/state.ts';
import type { T } from '../i18n/messages.ts';
import { h, setText, download } from '../dom.ts';
import { panelTitle } from '../i18n/titles.ts';
import { drawPoster, mainChart, posterChart, posterNumbers, POSTER_WIDTH, POSTER_HEIGHT } from './poster.ts';
import { posterText } from './text.ts';
import type { PosterModel, PosterNumber } from './poster.ts';
import type { KeyFigure } from '../requests/key-figures.ts';
import './share.css';

export interface ShareDialogOptions {
  state: State;
  t: T;
  /** the view's element on screen ([data-panel]) */
  view: HTMLElement;
  /** the exact link of the view (the QR code and the text) */
  link: string;
  /** the view's key figures now (PanelView.keyFigures): the poster's numbers */
  figures: readonly KeyFigure[];
  returnFocus: HTMLElement;
}

/**
 * The first items of a view's list (its questions: each item's paragraphs joined, its buttons
 * left out), else the paragraphs of its "what this shows" text and its claims.
 */
function listPoints(view: HTMLElement): string[] {
  const text = (e: Element) => (e.textContent ?? '').replace(/\s+/g, ' ').trim();
  const items = [...view.querySelectorAll('li')].filter((e) => !e.closest('[hidden], nav, [data-part="controls"]'))
    .map((li) => { const ps = [...li.querySelectorAll('p')]; return ps.length > 0 ? ps.map(text).join(' — ') : text(li); })
    .filter((x) => x !== '');
  if (items.length > 0) return items.slice(0, 6);
  return [...view.querySelectorAll('.explain, .claim .quote')].map(text).filter((x) => x !== '').slice(0, 4);
}

/** What the poster of this view shows: its words from the page, its numbers from the view's key figures. */
export function posterModel(state: State, view: HTMLElement, link: string, figures: readonly KeyFigure[], t: T): PosterModel {
  const interview = state.exp === 'interview';
  // a view with no chart to show (the follow-up questions; the training lab before a run): its list or its text
  const chartless = !interview && mainChart(view) === undefined;
  const numbers: PosterNumber[] = posterNumbers(figures, state.exp);
  return {
    lang: state.lang,
    brand: t('app.title'),
    title: interview ? t('share.iv.title') : panelTitle(t, state.exp as Panel),
    lede: view.querySelector('.lede')?.textContent?.trim() ?? '',
    points: interview ? [...view.querySelectorAll('[data-depth="30s"] .iv-text')].map((e) => (e.textContent ?? '').trim()) : chartless ? listPoints(view) : [],
    pointsTitle: interview ? t('iv.a30.title') : view.querySelector('.lede')?.textContent?.trim() ?? '',
    numbers,
    link,
    scan: t('share.scan'),
    madeWith: t('share.madeWith'),
  };
}

export async function openShareDialog({ state, t, view, link, figures, returnFocus }: ShareDialogOptions): Promise<HTMLDialogElement> {
  closeShareDialog();
  const model = posterModel(state, view, link, figures, t);
  const box = state.exp === 'interview' ? undefined : mainChart(view);
  const chart = box ? posterChart(box) : null;
  const img = h('img', { class: 'share-poster', 'data-share-poster': '', width: POSTER_WIDTH, height: POSTER_HEIGHT, alt: t('share.alt', { title: model.title }) }) as HTMLImageElement;
  const status = h('p', { class: 'embed-status', role: 'status' });
  const textBox = h('textarea', { class: 'embed-code', id: 'share-text', readOnly: true, rows: 6, 'data-share-text': '', spellcheck: false }) as HTMLTextAreaElement;
  textBox.value = posterText(model, t('share.footnote'));
  const downloadBtn = h('button', { type: 'button', class: 'button', 'data-share-download': '', text: t('share.download'), disabled: true }) as HTMLButtonElement;
  const copyBtn = h('button', { type: 'button', class: 'button ghost', 'data-share-copy': '', text: t('share.copyText') }) as HTMLButtonElement;
  const closeBtn = h('button', { type: 'button', class: 'button ghost', 'data-share-close': '', text: t('embed.close') }) as HTMLButtonElement;
  const dialog = h('dialog', { class: 'embed-dialog share-dialog', 'data-share-dialog': '', 'aria-labelledby': 'share-title' },
    h('h2', { id: 'share-title', text: t('share.title', { panel: model.title }) }),
    h('p', { class: 'small muted', text: t('share.help') }),
    h('div', { class: 'embed-actions' }, downloadBtn, copyBtn, closeBtn, status),
    h('div', { class: 'share-preview' }, img),
    h('label', { for: 'share-text', class: 'embed-label', text: t('share.textLabel') }),
    textBox) as HTMLDialogElement;
  dialog.dataset.posterLink = model.link;
  dialog.dataset.posterNumbers = JSON.stringify(model.numbers);
  let png = '';
  downloadBtn.addEventListener('click', () => { if (png) download(`sqrtdk-${state.exp}-poster.png`, png); });
  copyBtn.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(textBox.value); setText(status, t('app.copied')); } catch { textBox.select(); setText(status, t('app.copyFailed')); }
  });
  closeBtn.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    dialog.remove();
    const a = document.activeElement;
    if (a === null || a === document.body || dialog.contains(a)) (returnFocus.isConnected ? returnFocus : document.querySelector<HTMLElement>('[data-action="share-image"]'))?.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  copyBtn.focus();
  try {
    const canvas = await drawPoster(model, chart);
    png = canvas.toDataURL('image/png');
    img.src = png;
    dialog.dataset.posterReady = '1';
    downloadBtn.disabled = false;
  } catch (e) {
    setText(status, t('share.failed', { message: e instanceof Error ? e.message : String(e) }));
  }
  return dialog;
}

/** Closes the share dialog if one is open (a change of view makes it stale). */
export function closeShareDialog(): void {
  const d = document.querySelector<HTMLDialogElement>('dialog[data-share-dialog]');
  if (d?.open) d.close(); else d?.remove();
}
