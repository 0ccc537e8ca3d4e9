// The interview view (issue 10), the landing view of a link without exp: the answer to “why divide
// by √d_k?” at three depths, the follow-ups, the wrong answers that sound right, the drill and the
// claim checker (mounted from web/src/interview/), and the take-away (copy, print).
import { h } from '../dom.ts';
import type { State, StateKey } from '../state/state.ts';
import type { PanelCtx, PanelView } from './shell.ts';
import { mountDrill } from '../interview/drill.ts';
import { mountClaimChecker } from '../interview/checker.ts';

export function interviewPanel(ctx: PanelCtx): PanelView {
  const { t } = ctx;
  const drillHost = h('section', { class: 'iv-section', 'data-slot': 'drill' });
  const claimsHost = h('section', { class: 'iv-section', 'data-slot': 'claims' });
  const el = h('section', { class: 'panel interview', id: 'panel-interview', 'data-panel': 'interview' },
    h('header', { class: 'panel-head' },
      h('div', {}, h('h2', { text: t('iv.title') }), h('p', { class: 'lede', text: t('iv.lede') }))),
    drillHost,
    claimsHost);
  const slots = [mountDrill(drillHost, ctx), mountClaimChecker(claimsHost, ctx)];
  return {
    id: 'interview',
    el,
    update(state: State, changed: Set<StateKey> | null) {
      for (const s of slots) s.update(state, changed);
    },
    destroy() { for (const s of slots) s.destroy(); },
  };
}
