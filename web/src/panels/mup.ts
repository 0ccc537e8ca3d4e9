// View "When is 1/d_k right?" (μP; claim C3 past the iid case): q and its matched key correlated
// coordinate by coordinate with ρ. Var(q·k) and mean(q·k) against d_k for ρ = 0 and the chosen ρ with
// the theory lines d_k(1 + ρ²) and ρ·d_k; the mean row entropy against d_k for 1/√d_k, 1/d_k and
// d_k^−p at that ρ; a table at d_k 64, 256 and 1024; C3's verdict at ρ (web/src/claims.ts).
import type { SaturationSweepResult, ScoreVarianceResult } from '../../../wasm/js/core.js';
import { ChartBox } from '../charts/chartbox.ts';
import { buildMupMoments, buildMupEntropy, powerLabel, rhoLabel } from '../charts/mup.ts';
import { numSlider, seedInput } from '../controls.ts';
import type { Control } from '../controls.ts';
import type { State, StateKey } from '../state/state.ts';
import { fmt } from '../format.ts';
import { h, setText } from '../dom.ts';
import { shell, claimBox, scrollTable, KeyedRequest, showFigures } from './kit.ts';
import { MUP_COLUMNS, mupMomentFigures, mupSweepFigures } from '../requests/key-figures.ts';
import type { KeyFigure } from '../requests/key-figures.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { mupVarianceParams, mupSweepParams, MUP_QUOTE_DKS, MUP_SCALE, MUP_SHAPE } from '../requests/mup.ts';
import { mupLive, c3AtRho } from '../claims.ts';
import './scales.css';

/** The columns of the table at d_k 64/256/1024, each a data-readout id prefix. */
const COLS = MUP_COLUMNS;

export function mupPanel({ t, store, compute, charts }: PanelCtx): PanelView {
  const s = shell('mup', 12, t('mup.title'), t('mup.lede'), [], t, charts);
  s.readouts.remove();
  const controls: Control[] = [
    numSlider(store, 'mup', 'rho', t('mup.rho')),
    numSlider(store, 'mup', 'mpow', t('mup.power')),
    seedInput(store, 'mup', 'seed', t('common.seed'), t('common.reroll')),
  ];
  for (const c of controls) s.controls.append(c.el);

  const varC = new ChartBox(charts, 'mup-variance', t('mup.chart.var'), t, { height: 280 });
  const meanC = new ChartBox(charts, 'mup-mean', t('mup.chart.mean'), t, { height: 280 });
  const entC = new ChartBox(charts, 'mup-entropy', '', t, { height: 300 });
  const table = h('table', { class: 'table mup-table', 'data-mup-table': '' });
  const head = h('tr', {}, h('th', { scope: 'col', text: 'd_k' }));
  const headCells = COLS.map((c) => h('th', { scope: 'col', 'data-col': c }));
  head.append(...headCells);
  const body = h('tbody');
  for (const dk of MUP_QUOTE_DKS) {
    const tr = h('tr', {}, h('th', { scope: 'row', text: String(dk) }));
    for (const c of COLS) {
      const td = h('td', { 'data-readout': `mup-${c}-${dk}`, text: '–' });
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(h('thead', {}, head), body);
  s.charts.append(h('div', { class: 'chart-pair' }, varC.el, meanC.el), entC.el, scrollTable(table, t('mup.table.label')));
  const notes = h('div', { class: 'mup-notes' },
    h('p', { class: 'explain', text: t('mup.mupNote') }),
    h('p', { class: 'explain', text: t('mup.caveat') }));
  s.text.after(notes);
  const c3 = claimBox(s.claims, 'C3', t('mup.claim'), t);

  let state = store.state;
  let iid: ScoreVarianceResult | null = null;
  let cor: ScoreVarianceResult | null = null;
  let sweep: SaturationSweepResult | null = null;
  let sweepDks: number[] = [];
  const iidReq = new KeyedRequest<ScoreVarianceResult>(s.el, 'mup:iid', t);
  const corReq = new KeyedRequest<ScoreVarianceResult>(s.el, 'mup:cor', t);
  const sweepReq = new KeyedRequest<SaturationSweepResult>(s.el, 'mup:sweep', t);
  let varFinal = true, sweepFinal = true;
  /** the table's key figures by readout id (requests/key-figures.ts), each its last full value */
  const figures = new Map<string, KeyFigure>();

  const colTitle = (c: (typeof COLS)[number]): string => {
    switch (c) {
      case 'var0': return t('mup.th.var', { rho: rhoLabel(0) });
      case 'var': return t('mup.th.var', { rho: rhoLabel(state.rho) });
      case 'mean': return t('mup.th.mean', { rho: rhoLabel(state.rho) });
      case 'sqrt': return t('mup.th.entropy', { scale: t('scale.inv_sqrt_dk') });
      case 'inv': return t('mup.th.entropy', { scale: t('scale.inv_dk') });
      case 'power': return t('mup.th.entropy', { scale: `× ${powerLabel(state.mpow)}` });
      case 'maxw': return t('mup.th.maxw', { scale: t('scale.inv_sqrt_dk') });
    }
  };
  const corrOrIid = (): ScoreVarianceResult | null => (state.rho === 0 ? iid : cor);

  const drawMoments = () => {
    const c = corrOrIid();
    if (!iid || !c) return;
    const refining = !varFinal;
    varC.set(buildMupMoments(iid, state.rho === 0 ? null : c, state.rho, 'variance', t), refining);
    meanC.set(buildMupMoments(iid, state.rho === 0 ? null : c, state.rho, 'mean', t), refining);
    if (refining) return;
    for (const f of mupMomentFigures(MUP_QUOTE_DKS, iid, c, colTitle)) figures.set(f.id, f);
    showFigures(table, [...figures.values()]);
    drawText();
  };
  const drawSweep = () => {
    if (!sweep) return;
    entC.setTitle(t('mup.chart.entropy', { rho: rhoLabel(state.rho), heads: MUP_SHAPE.heads, seqLen: MUP_SHAPE.seqLen }));
    entC.set(buildMupEntropy(sweep, sweepDks, state.mpow, t), !sweepFinal);
    if (!sweepFinal) return;
    for (const f of mupSweepFigures(MUP_QUOTE_DKS, sweep, sweepDks, colTitle)) figures.set(f.id, f);
    showFigures(table, [...figures.values()]);
    // the rule of web/src/claims.ts at this ρ
    const live = mupLive(sweep, state);
    const v = c3AtRho(live.sqrt);
    c3.set(t('mup.live', { rho: fmt(state.rho, 2), sqrt: fmt(live.sqrt * 100, 3), inv: fmt(live.inv * 100, 3) }), v,
      t(v === 'agree' ? 'mup.why.holds' : 'mup.why.breaks'), live);
    drawText();
  };
  const drawText = () => {
    for (let i = 0; i < COLS.length; i++) setText(headCells[i], colTitle(COLS[i]));
    const c = corrOrIid();
    if (!sweep || !c || !sweepFinal || !varFinal) return;
    const at = (dk: number) => sweepDks.indexOf(dk);
    const lo = at(64), hi = at(1024);
    const r64 = c.rows.find((r) => r.dk === 64), r1024 = c.rows.find((r) => r.dk === 1024);
    if (lo < 0 || hi < 0 || !r64 || !r1024) { setText(s.text, ''); return; }
    const e = (si: number, i: number) => fmt(sweep!.points[si][i].entropy.mean);
    setText(s.text, t('mup.text', {
      rho: fmt(state.rho, 2), mean64: fmt(r64.raw.mean), mean1024: fmt(r1024.raw.mean), var64: fmt(r64.raw.variance), var1024: fmt(r1024.raw.variance),
      sqrt64: e(MUP_SCALE.sqrt, lo), sqrt1024: e(MUP_SCALE.sqrt, hi), inv64: e(MUP_SCALE.inv, lo), inv1024: e(MUP_SCALE.inv, hi),
      p: fmt(state.mpow, 2), pow64: e(MUP_SCALE.power, lo), pow1024: e(MUP_SCALE.power, hi), lnL: fmt(sweep.logSeqLen),
    }));
  };

  return {
    id: 'mup',
    // in the table's order, row by row; labels read with the column titles of the state now
    keyFigures: () => MUP_QUOTE_DKS.flatMap((dk) => COLS.flatMap((c) => { const f = figures.get(`mup-${c}-${dk}`); return f ? [{ ...f, label: `${dk} · ${colTitle(c)}` }] : []; })),
    el: s.el,
    update(next: State, changed: Set<StateKey> | null, source?: StateKey) {
      state = next;
      for (const c of controls) c.sync(next);
      const getVar = (which: 'iid' | 'cor', rho: number) => {
        const p = mupVarianceParams(next, rho);
        return (which === 'iid' ? iidReq : corReq).ask(JSON.stringify(p), (step) => compute.get('sweep', 'scoreVariance', p, `mup:${which}`, undefined, step), source, (r, final) => {
          if (which === 'iid') iid = r; else cor = r;
          varFinal = final;
          drawMoments();
        });
      };
      const a = getVar('iid', 0);
      const b = next.rho !== 0 && getVar('cor', next.rho);
      const sp = mupSweepParams(next);
      const asked = sweepReq.ask(JSON.stringify(sp), (step) => compute.get('sweep', 'saturationSweep', sp, 'mup:sweep', undefined, step), source, (r, final) => {
        sweep = r;
        sweepDks = sp.dks;
        sweepFinal = final;
        drawSweep();
      });
      if (!asked && (changed === null || changed.has('lang'))) drawSweep();
      if (!a && !b && (changed === null || changed.has('lang') || changed.has('rho'))) drawMoments();
    },
    destroy() { varC.destroy(); meanC.destroy(); entC.destroy(); },
  };
}
