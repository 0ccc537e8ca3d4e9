// "Copy embed code": a dialog to choose what the embed shows (controls, charts, formula, text),
// its colours and the blog's format (HTML, the <sqrtdk-lab> element, Hugo, Jekyll, MDX, oEmbed:
// formats.ts), with a live preview of exactly that embed, the lines to copy into a post and, for
// Hugo, Jekyll and MDX, the file to add once to the blog.
import type { State, Section } from '../state/state.ts';
import { SECTIONS } from '../state/schema.js';
import type { T } from '../i18n/messages.ts';
import { h, setText } from '../dom.ts';
import { embedTarget } from './snippet.ts';
import { EMBED_FORMATS, formatSnippet } from './formats.ts';
import type { EmbedFormat } from './formats.ts';
import { embedHash } from '../state/state.ts';
import { panelTitle } from '../i18n/titles.ts';
import { HEIGHT_MESSAGE } from './report.ts';
import './formats.css';

export interface EmbedDialogOptions {
  state: State;
  /** the parts this panel has (a panel without controls or formula offers no such choice) */
  parts: readonly Section[];
  t: T;
  pageUrl: (hash: string) => string;
  /** the format chosen last in this page (a blogger embeds several views in one format): read, and set on a change */
  choice: { format: EmbedFormat };
  returnFocus: HTMLElement;
  /** "Copy as code" of a view that computes: the script of each flavour (the page's generator), or absent */
  code?: (lang: 'numpy' | 'torch') => Promise<string>;
}

export function openEmbedDialog({ state, parts: available, t, pageUrl, choice, returnFocus, code: codeOf }: EmbedDialogOptions): HTMLDialogElement {
  closeEmbedDialog();
  // the full page starts from every part the panel has; an embed from the parts it shows
  let show: Section[] = SECTIONS.filter((p) => available.includes(p) && (!state.embed || state.show.includes(p)));
  let theme: State['theme'] = state.theme;
  let format: EmbedFormat = choice.format;
  const base = pageUrl('');
  const copyBtn = h('button', { type: 'button', class: 'button', 'data-embed-copy': '', text: t('embed.copy') }) as HTMLButtonElement;
  const title = `${t('app.title')} — ${panelTitle(t, state.exp)}`;

  const code = h('textarea', { class: 'embed-code', readOnly: true, rows: 5, id: 'embed-code', 'data-embed-code': '', spellcheck: false }) as HTMLTextAreaElement;
  const fileCode = h('textarea', { class: 'embed-code', readOnly: true, rows: 8, id: 'embed-file', 'data-embed-file': '', spellcheck: false }) as HTMLTextAreaElement;
  const fileLabel = h('label', { for: 'embed-file', class: 'embed-label' });
  const fileLink = h('a', { 'data-embed-file-link': '', download: '' }) as HTMLAnchorElement;
  const fileStatus = h('span', { class: 'embed-status', role: 'status' });
  const fileCopy = h('button', { type: 'button', class: 'button ghost', 'data-embed-file-copy': '', text: t('embed.copyFile') }) as HTMLButtonElement;
  const fileBox = h('div', { class: 'embed-file', 'data-embed-file-box': '' }, fileLabel, fileCode, h('p', { class: 'embed-actions' }, fileCopy, fileLink, fileStatus));
  const formatHelp = h('p', { class: 'small muted', 'data-embed-format-help': '' });
  const preview = h('iframe', { class: 'embed-preview', title: t('embed.preview'), 'data-embed-preview': '' }) as HTMLIFrameElement;
  const err = h('p', { class: 'err', role: 'alert' });
  const status = h('p', { class: 'embed-status', role: 'status' });
  const current = (): State => ({ ...state, show, theme, embed: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const refresh = () => {
    clearTimeout(timer);
    const none = show.length === 0;
    copyBtn.disabled = none;
    setText(status, '');
    if (none) {
      // nothing to embed: no snippet to copy, and the preview keeps the last embed
      code.value = '';
      setText(err, t('embed.noParts'));
      return;
    }
    setText(err, '');
    const state = current();
    const snip = formatSnippet(format, embedTarget(state, base, title));
    code.value = snip.usage;
    // about 80 characters a line at the dialog's width (a long shortcode line wraps)
    code.rows = Math.min(8, Math.max(2, snip.usage.split('\n').reduce((n, l) => n + Math.ceil((l.length + 1) / 80), 0)));
    setText(formatHelp, t(`embed.format.${format}.help`));
    fileBox.hidden = snip.file === null;
    if (snip.file) {
      setText(fileLabel, t('embed.file', { path: snip.file.path.replace(/^[^/]+\//, '') }));
      fileCode.value = snip.file.text;
      fileLink.href = `${base.replace(/[^/]*$/, '')}integrations/${snip.file.path}`;
      setText(fileLink, t('embed.fileDownload'));
      setText(fileStatus, '');
    }
    timer = setTimeout(() => { preview.src = base + embedHash(state); }, 120);
  };
  const onHeight = (ev: MessageEvent) => {
    if (ev.source !== preview.contentWindow || !ev.data || ev.data.type !== HEIGHT_MESSAGE) return;
    preview.style.height = `${Math.min(Number(ev.data.height) || 0, 4000)}px`;
  };
  window.addEventListener('message', onHeight);

  const parts = h('fieldset', { class: 'embed-parts' }, h('legend', { text: t('embed.parts') }),
    ...SECTIONS.filter((p) => available.includes(p)).map((p) => {
      const id = `embed-part-${p}`;
      const cb = h('input', { type: 'checkbox', id, checked: show.includes(p), 'data-embed-part': p }) as HTMLInputElement;
      cb.addEventListener('change', () => { show = SECTIONS.filter((s) => (s === p ? cb.checked : show.includes(s))); refresh(); });
      return h('label', { class: 'check', for: id }, cb, t(`embed.part.${p}`));
    }));
  const themes = h('fieldset', { class: 'embed-theme' }, h('legend', { text: t('embed.theme') }),
    ...(['auto', 'light', 'dark'] as const).map((v) => {
      const id = `embed-theme-${v}`;
      const rb = h('input', { type: 'radio', name: 'embed-theme', id, value: v, checked: theme === v, 'data-embed-theme': v }) as HTMLInputElement;
      rb.addEventListener('change', () => { if (rb.checked) { theme = v; refresh(); } });
      return h('label', { class: 'check', for: id }, rb, t(`embed.theme.${v}`));
    }));
  const formats = h('fieldset', { class: 'embed-format' }, h('legend', { text: t('embed.format') }),
    ...EMBED_FORMATS.map((v) => {
      const id = `embed-format-${v}`;
      const rb = h('input', { type: 'radio', name: 'embed-format', id, value: v, checked: format === v, 'data-embed-format': v }) as HTMLInputElement;
      rb.addEventListener('change', () => { if (rb.checked) { format = v; choice.format = v; refresh(); } });
      return h('label', { class: 'check', for: id }, rb, t(`embed.format.${v}`));
    }));
  fileCopy.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(fileCode.value); setText(fileStatus, t('app.copied')); } catch { fileCode.select(); setText(fileStatus, t('app.copyFailed')); }
  });
  copyBtn.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(code.value); setText(status, t('app.copied')); } catch { code.select(); setText(status, t('app.copyFailed')); }
  });
  // Copy as code: the view's NumPy or PyTorch script for the link (shown in the snippet box where the clipboard is refused)
  const codeStatus = h('span', { class: 'embed-status', role: 'status' });
  const codeRow = codeOf ? h('p', { class: 'embed-actions', 'data-embed-code-export': '' },
    h('span', { class: 'small muted', text: t('embed.codeLabel') }),
    ...(['numpy', 'torch'] as const).map((lang) => {
      const b = h('button', { type: 'button', class: 'button ghost', 'data-embed-copy-code': lang, 'aria-label': t(`code.${lang}.name`), text: t(`code.${lang}`) }) as HTMLButtonElement;
      b.addEventListener('click', async () => {
        const text = await codeOf(lang);
        try { await navigator.clipboard.writeText(text); setText(codeStatus, t('app.copied')); } catch { code.value = text; code.select(); setText(codeStatus, t('app.copyFailed')); }
      });
      return b;
    }), codeStatus) : null;
  const closeBtn = h('button', { type: 'button', class: 'button ghost', 'data-embed-close': '', text: t('embed.close') }) as HTMLButtonElement;
  const dialog = h('dialog', { class: 'embed-dialog', 'data-embed-dialog': '', 'aria-labelledby': 'embed-title' },
    h('h2', { id: 'embed-title', text: t('embed.title', { panel: panelTitle(t, state.exp) }) }),
    h('p', { class: 'small muted', text: t('embed.help') }),
    h('div', { class: 'embed-options' }, parts, themes),
    formats,
    err,
    h('label', { for: 'embed-code', class: 'embed-label', text: t('embed.code') }),
    formatHelp,
    code,
    h('div', { class: 'embed-actions' }, copyBtn, closeBtn, status),
    fileBox,
    ...(codeRow ? [codeRow] : []),
    h('h3', { class: 'embed-label', text: t('embed.preview') }),
    h('div', { class: 'embed-preview-box', role: 'region', tabIndex: 0, 'aria-label': t('embed.preview') }, preview)) as HTMLDialogElement;
  closeBtn.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    window.removeEventListener('message', onHeight);
    clearTimeout(timer);
    dialog.remove();
    // focus back to the button that opened it (or its successor when the page was rebuilt), unless
    // the page has already put it elsewhere (a change of view focuses the new panel's heading)
    const a = document.activeElement;
    if (a === null || a === document.body || dialog.contains(a)) {
      (returnFocus.isConnected ? returnFocus : document.querySelector<HTMLElement>('[data-action="copy-embed"]'))?.focus();
    }
  });
  document.body.append(dialog);
  refresh();
  dialog.showModal();
  copyBtn.focus();
  return dialog;
}

/** Closes the embed dialog if one is open (its state would be stale after a change of view). */
export function closeEmbedDialog(): void {
  const d = document.querySelector<HTMLDialogElement>('dialog[data-embed-dialog]');
  if (d?.open) d.close(); else d?.remove();
}
