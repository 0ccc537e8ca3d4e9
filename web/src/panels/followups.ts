// Panel 5, the interview's follow-up questions as links that set the state of the panel that
// answers them (claims C3, C5, C6, C7).
import type { State, StateKey } from '../state/state.ts';
import { toHash, withPatch } from '../state/state.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { h } from '../dom.ts';
import { shell } from './kit.ts';
import { QK_PRESET } from '../requests/precision.ts';
import type { PanelCtx, PanelView } from './kit.ts';

export const PRESETS: { id: string; q: MessageKey; a: MessageKey; patch: Partial<State> }[] = [
  { id: 'dk1024', q: 'fu.q1', a: 'fu.a1', patch: { exp: 'saturation', dk: 1024, scale: 'inv_sqrt_dk', heads: 4, seqLen: 128 } },
  { id: 'invdk', q: 'fu.q2', a: 'fu.a2', patch: { exp: 'saturation', dk: 512, scale: 'inv_dk', heads: 4, seqLen: 128 } },
  { id: 'dmodel', q: 'fu.q3', a: 'fu.a3', patch: { exp: 'saturation', dk: 64, scale: 'inv_sqrt_d_model', heads: 8, seqLen: 128 } },
  { id: 'vanish', q: 'fu.q4', a: 'fu.a4', patch: { exp: 'gradient', dk: 512, scale: 'none', gap: 10, gq: 'jac' } },
  { id: 'gqa', q: 'fu.q5', a: 'fu.a5', patch: { exp: 'gqa', hq: 32, hkv: 8, gdk: 128 } },
  { id: 'overflow', q: 'fu.q6', a: 'fu.a6', patch: { exp: 'precision', pmode: 'random', pdk: 512, pseqLen: 128, pscale: 'none' } },
  { id: 'causal', q: 'fu.q7', a: 'fu.a7', patch: { exp: 'saturation', dk: 64, scale: 'inv_sqrt_dk', heads: 4, seqLen: 128, causal: true, softcap: 0 } },
  { id: 'mup', q: 'fu.q8', a: 'fu.a8', patch: { exp: 'mup', rho: 0.2, mpow: 0.75 } },
  { id: 'cbrt', q: 'fu.q9', a: 'fu.a9', patch: { exp: 'mup', rho: 0, mpow: 0.33 } },
  { id: 'wild', q: 'fu.q10', a: 'fu.a10', patch: { exp: 'wild' } },
  { id: 'sink', q: 'fu.q11', a: 'fu.a11', patch: { exp: 'saturation', dk: 64, scale: 'inv_sqrt_dk', heads: 4, seqLen: 128, causal: false, softcap: 0, sscale: 0, sink: [2] } },
  { id: 'qk16', q: 'fu.q12', a: 'fu.a12', patch: { ...QK_PRESET, pk: [...QK_PRESET.pk] } },
];

export function followupsPanel({ t, store }: PanelCtx): PanelView {
  const s = shell('followups', 5, t('fu.title'), t('fu.lede'), [], t);
  s.readouts.remove();
  s.formula.remove();
  s.controls.remove();
  s.text.parentElement?.remove();
  const links: { a: HTMLAnchorElement; patch: Partial<State> }[] = [];
  const list = h('ol', { class: 'presets-list', 'data-part': 'charts' });
  for (const p of PRESETS) {
    const a = h('a', { class: 'button', 'data-preset': p.id, text: t('fu.open') }) as HTMLAnchorElement;
    links.push({ a, patch: p.patch });
    list.append(h('li', { class: 'preset' }, h('div', {}, h('p', { class: 'q', text: t(p.q) }), h('p', { class: 'a', text: t(p.a) })), a));
  }
  s.charts.append(list);
  return {
    id: 'followups',
    el: s.el,
    update(next: State, _changed: Set<StateKey> | null) {
      for (const { a, patch } of links) {
        a.href = toHash(withPatch({ ...next, embed: false }, patch));
        if (next.embed) { a.target = '_blank'; a.rel = 'noopener'; }
      }
      void store;
    },
    destroy() {},
  };
}
