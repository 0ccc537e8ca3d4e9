// Panel 1, the variance law (claims C1, C3): Var(q·k) against d_k with the theory lines, and the
// histograms of raw and ÷√d_k scores at the chosen d_k.
import type { ScoreVarianceResult } from '../../../wasm/js/core.js';
import { ChartBox } from '../charts/chartbox.ts';
import { buildVarianceLaw, buildHistogram } from '../charts/variance.ts';
import { SCALE_COLOURS } from '../charts/kit.ts';
import { stepSlider, select, seedInput } from '../controls.ts';
import type { Control } from '../controls.ts';
import { DK_STEPS, SAMPLE_STEPS } from '../state/schema.js';
import type { State, StateKey } from '../state/state.ts';
import { varianceSweepParams, variancePointParams } from '../requests/attention.ts';
import { PREVIEW_SAMPLES } from '../worker/plan.ts';
import { fmt } from '../format.ts';
import { CLAIMS } from '../claims.ts';
import { h, setText } from '../dom.ts';
import { shell, readout, claimBox, track, showFigures } from './kit.ts';
import { varianceFigures } from '../requests/key-figures.ts';
import type { KeyFigure } from '../requests/key-figures.ts';
import type { PanelCtx, PanelView } from './kit.ts';

export function variancePanel({ t, store, compute, charts }: PanelCtx): PanelView {
  const s = shell('variance', 1, t('var.title'), t('var.lede'), ['variance'], t, charts);
  const controls: Control[] = [
    stepSlider(store, 'variance', 'dk', t('common.dk'), DK_STEPS),
    select(store, 'variance', 'samples', t('common.samples'), SAMPLE_STEPS.map((n) => ({ value: String(n), label: String(n) }))),
    seedInput(store, 'variance', 'seed', t('common.seed'), t('common.reroll')),
  ];
  for (const c of controls) s.controls.append(c.el);

  const law = new ChartBox(charts, 'variance-law', t('var.chart.law'), t, { height: 320 });
  const histRaw = new ChartBox(charts, 'variance-hist-raw', '', t, { height: 220 });
  const histScaled = new ChartBox(charts, 'variance-hist-scaled', '', t, { height: 220 });
  s.charts.append(law.el, h('div', { class: 'chart-pair' }, histRaw.el, histScaled.el));
  // the readouts of the key figures (requests/key-figures.ts varianceFigures writes them)
  readout(s.readouts, 'var-var', t('var.ro.var'));
  readout(s.readouts, 'var-std', t('var.ro.std'));
  readout(s.readouts, 'var-sqrt', t('var.ro.sqrt'));
  readout(s.readouts, 'var-dk', t('var.ro.dk'));
  const c1 = claimBox(s.claims, 'C1', t('var.claim'), t);
  const c3 = claimBox(s.claims, 'C3', t('var.claim3'), t);

  let sweep: ScoreVarianceResult | null = null;
  let point: ScoreVarianceResult | null = null;
  let figures: KeyFigure[] = [];
  let sweepKey = '';
  let pointKey = '';
  let state = store.state;
  // false while a chart shows a first estimate (worker/plan.ts: fewer samples) of the sweep or of the point
  let sweepFinal = true;
  let pointFinal = true;

  const drawLaw = () => {
    if (!sweep) return;
    law.set(buildVarianceLaw(sweep, point, state, t, sweepFinal ? state.samples : PREVIEW_SAMPLES), !sweepFinal || !pointFinal);
    const dks = sweep.rows.map((r) => r.dk);
    law.setNote(dks[dks.length - 1] < 4096 ? t('common.sweepSkipped', { dk: dks[dks.length - 1] }) : '');
    if (!sweepFinal) return;  // the claims quote full results only
    const r512 = sweep.rows.find((r) => r.dk === 512);
    if (r512) {
      // the rules of web/src/claims.ts, on the same request the claim checker sends
      const l1 = CLAIMS.C1.extract([sweep], state), l3 = CLAIMS.C3a.extract([sweep], state);
      c1.set(t('var.live', { std: fmt(l1.std), three: fmt(l1.three) }), CLAIMS.C1.verdict(l1), undefined, l1);
      c3.set(t('var.live3', { v: fmt(l3.v) }), CLAIMS.C3a.verdict(l3), undefined, l3);
    }
  };
  const drawPoint = () => {
    if (!point) return;
    const r = point.rows[0];
    histRaw.setTitle(t('var.chart.histRaw', { dk: r.dk }));
    histScaled.setTitle(t('var.chart.histScaled', { dk: r.dk }));
    histRaw.set(buildHistogram(point.histRaw, r.theory.raw.std, SCALE_COLOURS.none, t), !pointFinal);
    histScaled.set(buildHistogram(point.histInvSqrtDk, r.theory.invSqrtDk.std, SCALE_COLOURS.inv_sqrt_dk, t), !pointFinal);
    s.readouts.classList.toggle('refining', !pointFinal);
    if (!pointFinal) return;  // readouts show full results only
    figures = varianceFigures(r, t);
    showFigures(s.readouts, figures);
    setText(s.text, t('var.text', {
      dk: r.dk, samples: state.samples, var: fmt(r.raw.variance), theory: fmt(r.theory.raw.variance),
      std: fmt(r.raw.std), sqrt: fmt(Math.sqrt(r.dk)), v1: fmt(r.invSqrtDk.variance), v2: fmt(r.invDk.variance), inv: fmt(1 / r.dk),
    }));
  };

  return {
    id: 'variance',
    el: s.el,
    keyFigures: () => figures,
    update(next: State, changed: Set<StateKey> | null, source?: StateKey) {
      state = next;
      for (const c of controls) c.sync(next);
      const sp = varianceSweepParams(next);
      const sk = JSON.stringify(sp);
      if (sk !== sweepKey) {
        sweepKey = sk;
        const got = (final: boolean) => (r: ScoreVarianceResult) => {
          if (sk !== sweepKey) return;
          sweep = r;
          sweepFinal = final;
          drawLaw();
        };
        track(s.el, 'var:sweep', compute.get('sweep', 'scoreVariance', sp, 'var:sweep', undefined, got(false)), source, t, got(true));
      }
      const pp = variancePointParams(next);
      const pk = JSON.stringify(pp);
      if (pk !== pointKey) {
        pointKey = pk;
        const got = (final: boolean) => (r: ScoreVarianceResult) => {
          if (pk !== pointKey) return;
          point = r;
          pointFinal = final;
          drawLaw();
          drawPoint();
        };
        track(s.el, 'var:point', compute.get('live', 'scoreVariance', pp, 'var:point', undefined, got(false)), source, t, got(true));
      } else if (changed === null) {
        drawLaw();
        drawPoint();
      }
    },
    destroy() { law.destroy(); histRaw.destroy(); histScaled.destroy(); },
  };
}
