// Embed mode's own messages: a link that names no panel (or no part), and an embed whose core cannot start on its host (the view's full address to open instead).
import { h } from '../dom.ts';
import { toHash } from '../state/state.ts';
import type { State, StateKey, ParseIssue } from '../state/state.ts';
import type { AppState, BadEmbed } from './state.ts';
import { pageUrl } from './sharebar.ts';

/** In embed mode: what the link names that is no panel (exp) or no part (show), or a hash too long to read, if anything. */
export function embedProblem(issues: ParseIssue[], present: StateKey[], state: State): BadEmbed {
  if (!state.embed) return null;
  const long = issues.find((i) => i.kind === 'toolong');
  if (long) return { key: 'hash', raw: long.raw, used: long.used };
  const bad = issues.find((i) => i.key === 'exp' && (i.kind === 'invalid'));
  if (bad) return { key: 'exp', raw: bad.raw };
  if (!present.includes('exp') && !issues.some((i) => i.key === 'exp')) return { key: 'exp', raw: '' };
  const badShow = issues.find((i) => i.key === 'show' && i.kind === 'invalid');
  if (badShow) return { key: 'show', raw: badShow.raw };
  return null;
}

/**
 * An embed whose core cannot start here (no worker and no core on the page's thread: the host
 * blocks the .wasm): a clear message and the view's full address to open in a new tab, above the
 * panel, never a box of charts that stay empty.
 */
export function showEmbedFailure(app: AppState, message: string): void {
  const { root, t } = app;
  root.querySelector('[data-embed-error="core"]')?.remove();
  const href = pageUrl(app, toHash({ ...app.store.state, embed: false }));
  const box = h('div', { class: 'embed-error', role: 'alert', 'data-embed-error': 'core' },
    h('p', { text: t('embed.coreFailed', { message }) }),
    h('p', {}, h('a', { href, target: '_blank', rel: 'noopener', text: t('app.openFull') })),
    h('p', { class: 'small muted embed-url', text: href }));
  (app.viewHost ?? root).prepend(box);
}
