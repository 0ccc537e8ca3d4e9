// The ALiBi sections (Press, Smith & Lewis 2022, slopes 2^(−8h/H)): a checkbox, off by default (nothing asked, nothing drawn), and when on a chart, readouts and a text from the core — on long context (key lalibi) each head's entropy against L beside 1/√d_k alone (worker/alibi.ts alibiEntropy), on saturation (key salibi) each head's entropy at the view's d_k and L under ÷√d_k, no scale and ÷d_k (alibiScales); charts/alibi.ts draws both.
import type { State, StateKey } from '../state/state.ts';
import type { Store } from '../state/store.ts';
import type { Control } from '../controls.ts';
import type { T, MessageKey } from '../i18n/messages.ts';
import type { ChartSpec } from '../charts/kit.ts';
import { fmt } from '../format.ts';
import { h, setText } from '../dom.ts';
import { ln, exp } from '../portable-math.ts';
import { KeyedRequest, readout, showFigures } from './kit.ts';
import type { PanelCtx } from './kit.ts';
import { ChartBox } from '../charts/chartbox.ts';
import { buildAlibi, buildAlibiScales } from '../charts/alibi.ts';
import { alibiParams, alibiScalesParams, alibiScalesTooBig, ALIBI_SAT_MAX_MACS } from '../requests/longctx.ts';
import { alibiScaleFigures } from '../requests/key-figures.ts';
import type { KeyFigure } from '../requests/key-figures.ts';
import type { AlibiResult, AlibiScalesResult } from '../worker/alibi.ts';

export interface Section { el: HTMLElement; update(next: State, changed: Set<StateKey> | null, source?: StateKey): void; destroy(): void }

/** What differs between the two sections: their key and view, strings, request, chart, figures and text. */
interface OptionalSpec<R> {
  key: 'lalibi' | 'salibi'; exp: 'longctx' | 'saturation';
  /** the strings `${prefix}.h`, `.note`, `.toggle`, `.hint`, `.chart`; the section's data attribute data-${prefix} */
  prefix: 'al' | 'sal';
  chartId: string; owner: string; height: number;
  /** the request of state s (its cache key and call), a reason to ask nothing (shown in the section), or null when off */
  request(s: State, compute: PanelCtx['compute']): { key: string; call: (step: (r: R) => void) => Promise<R> } | { refused: string } | null;
  build(r: R, t: T): ChartSpec;
  figures(r: R, t: T): KeyFigure[];
  text(r: R, s: State, t: T): string;
}

function toggle(store: Store, t: T, spec: { key: 'lalibi' | 'salibi'; exp: 'longctx' | 'saturation'; prefix: 'al' | 'sal' }): Control {
  const id = `c-${spec.key}-${Math.random().toString(36).slice(2, 8)}`;
  const input = h('input', { type: 'checkbox', id }) as HTMLInputElement;
  input.addEventListener('change', () => store.set({ [spec.key]: input.checked, exp: spec.exp } as Partial<State>, spec.key));
  const el = h('div', { class: 'control', 'data-key': spec.key },
    h('label', { for: id, text: t(`${spec.prefix}.toggle` as MessageKey) }),
    h('div', { class: 'control-row' }, h('label', { class: 'check', for: id }, input, h('span', { class: 'hint', text: t(`${spec.prefix}.hint` as MessageKey) }))),
    h('span', { class: 'err', 'data-err-for': spec.key, role: 'alert' }));
  return { el, sync(s) { input.checked = s[spec.key]; } };
}

/** A section behind a checkbox: its chart, readouts and text exist only while its key is on and a result has come. */
function optionalSection<R>(root: HTMLElement, { t, store, compute, charts }: PanelCtx, spec: OptionalSpec<R>): Section {
  const box = toggle(store, t, spec);
  const refusal = h('p', { class: 'note', [`data-${spec.prefix}-refused`]: '' });
  const el = h('section', { class: 'alibi', [`data-${spec.prefix}`]: '' },
    h('h3', { text: t(`${spec.prefix}.h` as MessageKey) }), h('p', { class: 'note', text: t(`${spec.prefix}.note` as MessageKey) }),
    h('div', { class: 'controls' }, box.el), refusal);
  const req = new KeyedRequest<R>(root, spec.owner, t);
  let state = store.state;
  let last: R | null = null;
  /**
   * The chart, readouts and text exist only while the key is on: off, the view holds no empty chart box or readout
   * (the page's "every chart drawn, every readout filled" waits, and the tests', see none of them). On, the chart box
   * is there from the moment the request is asked, pending until its result is drawn, and the readouts come with that
   * drawing: the page is not settled before the section is.
   */
  let body: { el: HTMLElement; chart: ChartBox; ro: HTMLElement; text: HTMLElement } | null = null;
  const open = () => {
    if (body) return body;
    const chart = new ChartBox(charts, spec.chartId, t(`${spec.prefix}.chart` as MessageKey), t, { height: spec.height });
    const ro = h('dl', { class: 'readouts' });
    const text = h('p', { class: 'explain', [`data-${spec.prefix}-text`]: '' });
    body = { el: h('div', { class: 'alibi-body' }, chart.el, ro, text), chart, ro, text };
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
    if (!res || !state[spec.key]) return;
    const figs = spec.figures(res, t);
    const { chart, ro, text } = open();
    if (ro.childElementCount === 0) for (const f of figs) readout(ro, f.id, f.label);
    showFigures(ro, figs);
    chart.set(spec.build(res, t));
    setText(text, spec.text(res, state, t));
  };

  return {
    el,
    update(next, changed, source) {
      state = next;
      box.sync(next);
      const r = spec.request(next, compute);
      setText(refusal, r && 'refused' in r ? r.refused : '');
      if (!r || 'refused' in r) { close(); req.forget(); last = null; return; }  // off or too big: nothing asked, nothing shown
      // a language switch rebuilds the labels of the readouts; the chart box stands (pending) while the request runs
      if (changed === null || changed.has('lang')) close();
      open();
      const asked = req.ask(r.key, r.call, source, (x) => { last = x; draw(); });
      // a chart of an earlier state is marked as not final until this state's result is drawn
      if (asked && body?.chart.el.dataset.points) body.chart.el.classList.add('refining');
      if (!asked && (changed === null || changed.has('lang') || changed.has(spec.key))) draw();
    },
    destroy() { close(); },
  };
}

/** Long context (lalibi): each head's entropy of the last rows against L with ALiBi, beside 1/√d_k alone. */
export function alibiSection(root: HTMLElement, ctx: PanelCtx): Section {
  return optionalSection<AlibiResult>(root, ctx, {
    key: 'lalibi', exp: 'longctx', prefix: 'al', chartId: 'longctx-alibi', owner: 'lc:alibi', height: 300,
    request(s, compute) {
      const p = alibiParams(s);
      return p && { key: JSON.stringify(p), call: (step) => compute.get('sweep', 'alibiEntropy', p, 'lc:alibi', undefined, step) };
    },
    build: buildAlibi,
    figures(res, t) {
      const n = res.seqLens.length - 1, H = res.slopes.length;
      return [
        { id: 'al-plain', label: t('al.ro.plain'), value: fmt(res.plainMean[n]) },
        { id: 'al-steep', label: t('al.ro.steep'), value: fmt(res.alibi[0][n]) },
        { id: 'al-gentle', label: t('al.ro.gentle'), value: fmt(res.alibi[H - 1][n]) },
        { id: 'al-lnL', label: t('al.ro.lnL'), value: fmt(ln(res.seqLens[n])) },
      ];
    },
    text(res, s, t) {
      const n = res.seqLens.length - 1, L = res.seqLens[n], H = res.slopes.length;
      const plain = res.plainMean[n], steep = res.alibi[0][n], gentle = res.alibi[H - 1][n];
      const i64 = Math.max(0, res.seqLens.indexOf(64));
      return t('al.text', {
        L, H, dk: s.ldk, tail: res.tail, scale: fmt(res.scale, 4), plain: fmt(plain), lnL: fmt(ln(L)), plain64: fmt(res.plainMean[i64]),
        m1: fmt(res.slopes[0], 3), steep: fmt(steep), steep64: fmt(res.alibi[0][i64]),
        mH: fmt(res.slopes[H - 1], 4), gentle: fmt(gentle), keys: Math.round(exp(gentle)),
      });
    },
  });
}

/** Saturation (salibi): does ALiBi need the 1/√d_k? Each head's entropy at the view's d_k and L under three scales. */
export function alibiScaleSection(root: HTMLElement, ctx: PanelCtx): Section {
  return optionalSection<AlibiScalesResult>(root, ctx, {
    key: 'salibi', exp: 'saturation', prefix: 'sal', chartId: 'saturation-alibi', owner: 'sat:alibi', height: 280,
    request(s, compute) {
      const p = alibiScalesParams(s);
      if (!p) return null;
      if (alibiScalesTooBig(p)) return { refused: ctx.t('sal.tooBig', { dk: p.dk, L: p.seqLen, macs: fmt(p.heads * p.seqLen * p.seqLen * p.dk, 3), max: fmt(ALIBI_SAT_MAX_MACS, 3) }) };
      return { key: JSON.stringify(p), call: (step) => compute.get('sweep', 'alibiScales', p, 'sat:alibi', undefined, step) };
    },
    build: buildAlibiScales,
    figures: alibiScaleFigures,
    text(res, s, t) {
      const [sq, none, inv] = res.rows, H = res.slopes.length;
      const spread = (row: typeof sq) => row.alibi[H - 1] - row.alibi[0];
      return t('sal.text', {
        dk: s.dk, L: res.seqLen, tail: res.tail, H, m1: fmt(res.slopes[0], 3), mH: fmt(res.slopes[H - 1], 3),
        sq1: fmt(sq.alibi[0]), sqH: fmt(sq.alibi[H - 1]), sqPlain: fmt(sq.plainMean), sqSpread: fmt(spread(sq)),
        none1: fmt(none.alibi[0]), noneH: fmt(none.alibi[H - 1]), nonePlain: fmt(none.plainMean), noneSpread: fmt(spread(none)),
        inv1: fmt(inv.alibi[0]), invH: fmt(inv.alibi[H - 1]), invPlain: fmt(inv.plainMean), lnL: fmt(ln(res.seqLen)),
      });
    },
  });
}
