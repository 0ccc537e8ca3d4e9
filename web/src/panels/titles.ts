// The message-key prefix and the title of each panel (tabs, menu, pager, document title, embeds).
import type { Panel } from '../state/state.ts';
import type { T, MessageKey } from '../i18n/messages.ts';

export const TITLE_PREFIX = { variance: 'var', saturation: 'sat', gradient: 'grad', article: 'art', followups: 'fu', precision: 'prec', longctx: 'lc', gqa: 'gqa', tensors: 'tens', training: 'train', device: 'dev' } as const;

export function panelTitleKey(p: Panel): (typeof TITLE_PREFIX)[Panel] { return TITLE_PREFIX[p]; }
export function panelTitle(t: T, p: Panel): string { return t(`${TITLE_PREFIX[p]}.title` as MessageKey); }
