// The message-key prefix and the title of each panel (tabs, menu, pager, document title, embeds),
// kept with the strings they name.
import type { Panel } from '../state/state.ts';
import type { T, MessageKey } from './messages.ts';
import { PANELS as PANEL_ORDER } from '../state/schema.js';

export const TITLE_PREFIX = { interview: 'iv', variance: 'var', saturation: 'sat', gradient: 'grad', article: 'art', followups: 'fu', precision: 'prec', longctx: 'lc', gqa: 'gqa', tensors: 'tens', training: 'train', device: 'dev', mup: 'mup', wild: 'wild', sumone: 'sum' } as const;

export function panelTitleKey(p: Panel): (typeof TITLE_PREFIX)[Panel] { return TITLE_PREFIX[p]; }
export function panelTitle(t: T, p: Panel): string { return t(`${TITLE_PREFIX[p]}.title` as MessageKey); }
/** The number of a panel in the tabs and the pager: the labs count from 1; the interview view (first, index 0) has none. */
export function panelNum(p: Panel): number { return PANEL_ORDER.indexOf(p); }
/**
 * The label of a panel's tab: its number and a short form of its title (`<prefix>.tab`), so the
 * tabs (one per view in PANELS) keep to two rows at 1366 px in either language. The full numbered title is the
 * tab's tooltip, the menu's entry and the view's heading.
 */
export function tabTitle(t: T, p: Panel): string {
  const n = panelNum(p);
  const label = t(`${TITLE_PREFIX[p]}.tab` as MessageKey);
  return n > 0 ? `${n} ${label}` : label;
}
/** "3 Gradient" for a lab, the bare title for the interview view. */
export function numberedTitle(t: T, p: Panel): string { const n = panelNum(p); return n > 0 ? `${n} ${panelTitle(t, p)}` : panelTitle(t, p); }
