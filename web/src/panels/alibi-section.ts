// The long-context view's section "ALiBi: a linear bias per head": a checkbox (key lalibi, off by default: nothing asked, nothing drawn) and, when on, each head's entropy against L with Press's slopes on top of 1/√d_k beside 1/√d_k alone, from the core (worker/alibi.ts, charts/alibi.ts).
import type { State, StateKey } from '../state/state.ts';
import type { Store } from '../state/store.ts';
import type { Control } from '../controls.ts';
import type { T } from '../i18n/messages.ts';
import { fmt } from '../format.ts';
import { h, setText } from '../dom.ts';
import { ln, exp } from '../portable-math.ts';
import { KeyedRequest, readout } from './kit.ts';
import type { PanelCtx } from './kit.ts';
import { ChartBox } from '../charts/chartbox.ts';
import { buildAlibi } from '../charts/alibi.ts';
import { alibiParams } from '../requests/longctx.ts';
import type { AlibiResult } from '../worker/alibi.ts';

export interface Section { el: HTMLElement; update(next: State, changed: Set<StateKey> | null, source?: StateKey): void; destroy(): void }

function alibiToggle(store: Store, t: T): Control {
  const id = `c-lalibi-${Math.random().toString(36).slice(2, 8)}`;
  const input = h('input', { type: 'checkbox', id }) as HTMLInputElement;
  input.addEventListener('change', () => store.set({ lalibi: input.checked, exp: 'longctx' }, 'lalibi'));
  const el = h('div', { class: 'control', 'data-key': 'lalibi' },
    h('label', { for: id, text: t('al.toggle') }),
    h('div', { class: 'control-row' }, h('label', { class: 'check', for: id }, input, h('span', { class: 'hint', text: t('al.hint') }))),
    h('span', { class: 'err', 'data-err-for': 'lalibi', role: 'alert' }));
  return { el, sync(s) { input.checked = s.lalibi; } };
}

export function alibiSection(root: HTMLElement, { t, store, compute, charts }: PanelCtx): Section {
  const toggle = alibiToggle(store, t);
  const el = h('section', { class: 'alibi', 'data-al': '' },
    h('h3', { text: t('al.h') }), h('p', { class: 'note', text: t('al.note') }),
    h('div', { class: 'controls' }, toggle.el));
  const req = new KeyedRequest<AlibiResult>(root, 'lc:alibi', t);
  let state = store.state;
  let last: AlibiResult | null = null;
  /**
   * The chart, readouts and text exist only while lalibi is on: off, the view holds no empty chart box or readout
   * (the page's "every chart drawn, every readout filled" waits, and the tests', see none of them).
   */
  let body: { el: HTMLElement; chart: ChartBox; r: Record<'plain' | 'steep' | 'gentle' | 'lnL', HTMLElement>; text: HTMLElement } | null = null;
  const open = () => {
    if (body) return body;
    const chart = new ChartBox(charts, 'longctx-alibi', t('al.chart'), t, { height: 300 });
    const ro = h('dl', { class: 'readouts' });
    const r = {
      plain: readout(ro, 'al-plain', t('al.ro.plain')),
      steep: readout(ro, 'al-steep', t('al.ro.steep')),
      gentle: readout(ro, 'al-gentle', t('al.ro.gentle')),
      lnL: readout(ro, 'al-lnL', t('al.ro.lnL')),
    };
    const text = h('p', { class: 'explain', 'data-al-text': '' });
    body = { el: h('div', { class: 'alibi-body' }, chart.el, ro, text), chart, r, text };
    el.append(body.el);
    return body;
  };
  const close = () => {
    if (!body) return;
    body.chart.destroy();
    body.el.remove();
    body = null;
  };

  const draw = () => {
    const res = last;
    if (!res || !state.lalibi) return;
    const { chart, r, text } = open();
    chart.set(buildAlibi(res, t));
    const n = res.seqLens.length - 1, L = res.seqLens[n], H = res.slopes.length;
    const plain = res.plainMean[n], steep = res.alibi[0][n], gentle = res.alibi[H - 1][n];
    setText(r.plain, fmt(plain));
    setText(r.steep, fmt(steep));
    setText(r.gentle, fmt(gentle));
    setText(r.lnL, fmt(ln(L)));
    const i64 = Math.max(0, res.seqLens.indexOf(64));
    setText(text, t('al.text', {
      L, H, dk: state.ldk, tail: res.tail, scale: fmt(res.scale, 4), plain: fmt(plain), lnL: fmt(ln(L)), plain64: fmt(res.plainMean[i64]),
      m1: fmt(res.slopes[0], 3), steep: fmt(steep), steep64: fmt(res.alibi[0][i64]),
      mH: fmt(res.slopes[H - 1], 4), gentle: fmt(gentle), keys: Math.round(exp(gentle)),
    }));
  };

  return {
    el,
    update(next, changed, source) {
      state = next;
      toggle.sync(next);
      const p = alibiParams(next);
      if (!p) { close(); return; }  // off: nothing asked, nothing shown
      const asked = req.ask(JSON.stringify(p), (step) => compute.get('sweep', 'alibiEntropy', p, 'lc:alibi', undefined, step), source, (x) => { last = x; draw(); });
      if (!asked && (changed === null || changed.has('lang') || changed.has('lalibi'))) draw();
    },
    destroy() { close(); },
  };
}
