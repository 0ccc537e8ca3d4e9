// Panel 3, the gradient (claims C5, C11): per-row ‖J‖_F or ‖∂ℓ/∂q‖ against d_k per scale as
// median, 10–90 % band and mean; and the two-logit explorer on softmaxJacobian([g, 0]).
import { gradientFigures } from '../requests/key-figures.ts';
import type { KeyFigure } from '../requests/key-figures.ts';
import type { AttentionStatsResult, SaturationSweepResult, SoftmaxJacobianResult } from '../../../wasm/js/core.js';
import type { JacobianCurveResult } from '../worker/protocol.ts';
import { ChartBox } from '../charts/chartbox.ts';
import { buildGradientSweep, buildJacobianCurve, buildProbs } from '../charts/gradient.ts';
import { sweepAt, ALL_SCALES } from '../requests/results.ts';
import { stepSlider, select, numSlider } from '../controls.ts';
import type { Control } from '../controls.ts';
import { DK_STEPS, SCALES } from '../state/schema.js';
import type { State, StateKey } from '../state/state.ts';
import { fmt, pct } from '../format.ts';
import { CLAIMED, CLAIMS, near } from '../claims.ts';
import { h, setText } from '../dom.ts';
import { shell, readout, claimBox, track, refuse, KeyedRequest, showFigures } from './kit.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { sweepParams, pointParams, pointTooBig, POINT_LIMIT_SECONDS } from '../requests/attention.ts';

const GAPS = Array.from({ length: 161 }, (_, i) => -20 + i * 0.25);

export function gradientPanel({ t, store, compute, charts }: PanelCtx): PanelView {
  const s = shell('gradient', 3, t('grad.title'), t('grad.lede'), ['gradient', 'twoLogit'], t, charts);
  const controls: Control[] = [
    stepSlider(store, 'gradient', 'dk', t('common.dk'), DK_STEPS),
    select(store, 'gradient', 'scale', t('common.scale'), SCALES.map((v) => ({ value: v, label: t(`scale.${v}`) }))),
    select(store, 'gradient', 'gq', t('grad.quantity'), [{ value: 'jac', label: t('grad.q.jac') }, { value: 'grad', label: t('grad.q.grad') }]),
  ];
  const gapCtl = numSlider(store, 'gradient', 'gap', t('grad.gap'));
  controls.push(gapCtl);
  const presets = h('div', { class: 'presets', 'data-key': 'gap-presets' },
    ...([[10, 'grad.preset.10'], [6, 'grad.preset.3'], [0, 'grad.preset.0']] as const).map(([g, key]) =>
      h('button', { type: 'button', class: 'mini', 'data-gap': g, text: t(key), onclick: () => store.set({ gap: g, exp: 'gradient' }, 'gap') })));
  for (const c of controls.slice(0, 3)) s.controls.append(c.el);

  const sweepChart = new ChartBox(charts, 'gradient-sweep', '', t, { height: 320 });
  const curve = new ChartBox(charts, 'gradient-jacobian', t('grad.chart.curve'), t, { height: 240 });
  const probs = new ChartBox(charts, 'gradient-probs', '', t, { height: 240 });
  const explorerRo = h('dl', { class: 'readouts' });
  const explorer = h('div', { class: 'explorer' },
    h('h3', { text: t('grad.explorer') }),
    h('div', { class: 'controls', 'data-part': 'controls' }, gapCtl.el, presets),
    h('div', { class: 'chart-pair' }, curve.el, probs.el),
    explorerRo);
  s.charts.append(sweepChart.el, s.readouts, explorer);
  // the readouts of the key figures (requests/key-figures.ts gradientFigures writes them)
  for (const [id, key] of [['grad-median', 'grad.ro.median'], ['grad-p10', 'grad.ro.p10'], ['grad-p90', 'grad.ro.p90'], ['grad-mean', 'grad.ro.mean']] as const) readout(s.readouts, id, t(key));
  let figures: KeyFigure[] = [];
  const xro = {
    p: readout(explorerRo, 'jac-p', t('grad.ro.p'), true),
    J: readout(explorerRo, 'jac-J', t('grad.ro.J'), true),
    fro: readout(explorerRo, 'jac-fro', t('grad.ro.fro')),
    spec: readout(explorerRo, 'jac-spec', t('grad.ro.spec')),
  };
  const compare = h('p', { class: 'explain' });
  s.text.after(compare);
  const c5 = claimBox(s.claims, 'C5', t('grad.claim5'), t);

  let sweep: SaturationSweepResult | null = null;
  let sweepDks: number[] = [];
  let point: AttentionStatsResult | null = null;
  let curveR: JacobianCurveResult | null = null;
  let here: SoftmaxJacobianResult | null = null;
  let gapKey = '';
  const sweepReq = new KeyedRequest<SaturationSweepResult>(s.el, 'sat:sweep', t);
  const pointReq = new KeyedRequest<AttentionStatsResult>(s.el, 'grad:point', t);
  let state = store.state;
  const qName = () => t(state.gq === 'jac' ? 'grad.q.jac' : 'grad.q.grad');
  // false while the chart shows a first estimate (worker/plan.ts) of the sweep or of the point
  let sweepFinal = true;
  let pointFinal = true;

  const drawSweep = () => {
    if (!sweep) return;
    sweepChart.setTitle(t('grad.chart.sweep', { q: qName() }));
    sweepChart.set(buildGradientSweep(sweep, sweepDks, ALL_SCALES, point, state, t), !sweepFinal || !pointFinal);
    const last = sweepDks[sweepDks.length - 1];
    sweepChart.setNote(last < 4096 ? t('common.sweepSkipped', { dk: last }) : '');
    if (!sweepFinal) return;  // the comparison quotes full results only
    const field = state.gq === 'jac' ? 'jacFro' : 'gradQuery';
    const none = sweepAt(sweep, sweepDks, ALL_SCALES, 'none', state.dk);
    const sq = sweepAt(sweep, sweepDks, ALL_SCALES, 'inv_sqrt_dk', state.dk);
    if (none && sq) {
      const rm = none[field].median / sq[field].median;
      const rmean = none[field].mean / sq[field].mean;
      const verdict = rm < 0.1 && rmean < 0.1 ? 'grad.verdict.both' : rm < 0.1 ? 'grad.verdict.typical'
        : state.embed && !state.show.includes('controls') ? 'grad.verdict.noneStatic' : 'grad.verdict.none';
      setText(compare, t('grad.compare', {
        dk: state.dk, noneMed: fmt(none[field].median), noneMean: fmt(none[field].mean), sqrtMed: fmt(sq[field].median), sqrtMean: fmt(sq[field].mean),
        ratioMed: pct(rm), ratioMean: pct(rmean), verdict: t(verdict),
      }));
    } else setText(compare, '');
  };
  const drawPoint = () => {
    if (!point) return;
    s.readouts.classList.toggle('refining', !pointFinal);
    if (!pointFinal) return;  // readouts show full results only
    const sm = point.summary[state.gq === 'jac' ? 'jacFro' : 'gradQuery'];
    figures = gradientFigures(point, state.gq, t);
    showFigures(s.readouts, figures);
    setText(s.text, t('grad.text', { scale: t(`scale.${state.scale}`), dk: state.dk, q: qName(), median: fmt(sm.median), p10: fmt(sm.p10), p90: fmt(sm.p90), mean: fmt(sm.mean) }));
  };
  const drawExplorer = () => {
    if (!curveR || !here) return;
    curve.set(buildJacobianCurve(curveR, state.gap, here, t));
    probs.setTitle(t('grad.chart.probs', { g: state.gap.toFixed(1) }));
    probs.set(buildProbs(here, state.gap, t));
    setText(xro.p, `[${fmt(here.probs[0])}, ${fmt(here.probs[1])}]`);
    const j = here.jacobian;
    setText(xro.J, `[[${fmt(j[0], 3)}, ${fmt(j[1], 3)}], [${fmt(j[2], 3)}, ${fmt(j[3], 3)}]]`);
    setText(xro.fro, fmt(here.frobenius));
    setText(xro.spec, fmt(here.spectral));
  };
  const claim = () => {
    const get = (logits: number[]) => compute.get('live', 'softmaxJacobian', { logits });
    Promise.all([get([10, 0]), get([3, -3]), get([0, 0])]).then((rs) => {
      const l = CLAIMS.C5.extract(rs, state);  // the rule of web/src/claims.ts
      c5.set(t('grad.live5', { p1: fmt(l.p1, 5), p2: fmt(l.p2, 3), j10: fmt(l.j10, 3), j6: fmt(l.j6, 3), jmax: fmt(l.jmax, 3) }),
        CLAIMS.C5.verdict(l),
        [near(l.j10, CLAIMED.c5Jac10, 0.25) ? t('grad.verdict5a') : '',
          near(l.j6, CLAIMED.c5JacScaled, 0.25) ? '' : t('grad.verdict5b', { jmax: fmt(l.jmax, 3), pct: pct(l.j6 / l.jmax) })].join(' ').trim(), l);
    }, () => {});
  };

  return {
    id: 'gradient',
    keyFigures: () => figures,
    el: s.el,
    update(next: State, changed: Set<StateKey> | null, source?: StateKey) {
      state = next;
      for (const c of controls) c.sync(next);
      const sp = sweepParams(next);
      sweepReq.ask(JSON.stringify(sp) + next.gq, (step) => compute.get('sweep', 'saturationSweep', sp, 'sat:sweep', undefined, step), source, (r, final) => {
        sweep = r;
        sweepDks = sp.dks;
        sweepFinal = final;
        drawSweep();
      });
      if (changed === null) {
        track(s.el, 'grad:curve', compute.get('live', 'jacobianCurve', { gaps: GAPS }), source, t, (r) => { curveR = r; drawExplorer(); });
        claim();
      }
      const gk = String(next.gap);
      if (gk !== gapKey) {
        gapKey = gk;
        track(s.el, 'grad:gap', compute.get('live', 'softmaxJacobian', { logits: [next.gap, 0] }, 'grad:gap'), source, t, (r) => {
          if (gk !== gapKey) return;
          here = r;
          drawExplorer();
        });
      } else if (changed === null || changed.has('lang')) drawExplorer();
      const big = pointTooBig(next);
      if (big) {
        // beside the control of a driver of the cost (the one just moved, if it is one)
        refuse(s.el, 'grad:point', ['seqLen', 'heads', 'dk'], source, t('common.tooMuch', { seconds: big, limit: POINT_LIMIT_SECONDS }));
        // after a refusal even the last good state asks again (a cache hit), so its success clears it
        pointReq.forget();
        return;
      }
      const pp = pointParams(next);
      pointReq.ask(JSON.stringify(pp) + next.gq, (step) => compute.get('live', 'attentionStats', pp, 'grad:point', undefined, step), source, (r, final) => {
        point = r;
        pointFinal = final;
        drawSweep();
        drawPoint();
      });
    },
    destroy() { sweepChart.destroy(); curve.destroy(); probs.destroy(); },
  };
}
