// The message-key prefix and the title of each panel (tabs, menu, pager, document title, embeds).
import type { Panel } from '../state/state.ts';
import type { T, MessageKey } from '../i18n/messages.ts';
import { PANELS as PANEL_ORDER } from '../state/schema.js';

export const TITLE_PREFIX = { interview: 'iv', variance: 'var', saturation: 'sat', gradient: 'grad', article: 'art', followups: 'fu', precision: 'prec', longctx: 'lc', gqa: 'gqa', tensors: 'tens', training: 'train', device: 'dev', mup: 'mup', wild: 'wild' } as const;

export function panelTitleKey(p: Panel): (typeof TITLE_PREFIX)[Panel] { return TITLE_PREFIX[p]; }
export function panelTitle(t: T, p: Panel): string { return t(`${TITLE_PREFIX[p]}.title` as MessageKey); }
/** The number of a panel in the tabs and the pager: the labs count from 1; the interview view (first, index 0) has none. */
export function panelNum(p: Panel): number { return PANEL_ORDER.indexOf(p); }
/** Panels whose tab carries a shorter label than their title (`<prefix>.tab`), so the tabs keep to two rows at 1366 px. */
const SHORT_TAB: ReadonlySet<Panel> = new Set(['mup', 'wild']);
/** The label of a panel's tab and menu entry: the numbered title, or its short form. */
export function tabTitle(t: T, p: Panel): string {
  return SHORT_TAB.has(p) ? `${panelNum(p)} ${t(`${TITLE_PREFIX[p]}.tab` as MessageKey)}` : numberedTitle(t, p);
}
/** "3 Gradient" for a lab, the bare title for the interview view. */
export function numberedTitle(t: T, p: Panel): string { const n = panelNum(p); return n > 0 ? `${n} ${panelTitle(t, p)}` : panelTitle(t, p); }
