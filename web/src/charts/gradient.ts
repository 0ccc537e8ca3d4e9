// Chart builders of the gradient view: ‖J‖_F and ‖∂ℓ/∂q‖ against d_k per scale, and softmax([g, 0])
// with its Jacobian against the gap g (result + translator → ChartSpec, no DOM).
import type { SaturationSweepResult, AttentionStatsResult, SoftmaxJacobianResult } from '../../../wasm/js/core.js';
import type { JacobianCurveResult } from '../worker/protocol.ts';
import type { State, ScaleName } from '../state/state.ts';
import type { T } from '../i18n/messages.ts';
import type { Dataset, ChartSpec } from './kit.ts';
import { SCALE_COLOURS, alpha, axis, baseOptions, countPoints, longCsv, line, dots, logTick, pow2Ticks, sig3 } from './kit.ts';
import type { SummaryField } from './saturation.ts';

/** Median line, 10–90 % band and mean (dashed) of ‖J‖_F or ‖∂ℓ/∂q‖ per row, against d_k, per scale. */
export function buildGradientSweep(
  sweep: SaturationSweepResult, dks: number[], scales: readonly ScaleName[], point: AttentionStatsResult | null, state: State, t: T,
): ChartSpec {
  const field: SummaryField = state.gq === 'jac' ? 'jacFro' : 'gradQuery';
  const datasets: Dataset[] = [];
  scales.forEach((s, si) => {
    const c = SCALE_COLOURS[s];
    const name = t(`scale.${s}`);
    const pts = (k: 'median' | 'p10' | 'p90' | 'mean') => dks.map((dk, di) => ({ x: dk, y: Math.max(sweep.points[si][di][field][k], 1e-12) }));
    const lowIdx = datasets.length;
    datasets.push(line(t('grad.series.band', { scale: name }) + ' (10 %)', alpha(c, 0), pts('p10'), { borderWidth: 0, pointRadius: 0, hiddenLegend: true }));
    datasets.push(line(t('grad.series.band', { scale: name }), alpha(c, 0.0), pts('p90'), { borderWidth: 0, pointRadius: 0, fill: lowIdx, backgroundColor: alpha(c, 0.16) }));
    datasets.push(line(t('grad.series.median', { scale: name }), c, pts('median'), { pointRadius: 2 }));
    datasets.push(line(t('grad.series.mean', { scale: name }), c, pts('mean'), { borderDash: [5, 4], borderWidth: 1.5 }));
  });
  if (point) {
    const s = point.summary[field];
    datasets.push(dots(`${t(`scale.${state.scale}`)}, d_k = ${state.dk}`, '#111827',
      [{ x: state.dk, y: Math.max(s.median, 1e-12) }], { pointRadius: 6, pointStyle: 'rectRot', backgroundColor: '#ffffff', borderWidth: 2 }));
  }
  const x = axis(t('var.axis.dk'), 'logarithmic', pow2Ticks(1, 4096));
  const y = axis(t(state.gq === 'jac' ? 'grad.q.jac' : 'grad.q.grad'), 'logarithmic', { ticks: { callback: logTick } });
  return {
    config: {
      type: 'line', data: { datasets },
      options: baseOptions(x, y, {
        plugins: {
          vline: { x: state.dk },
          legend: { position: 'bottom', labels: { boxWidth: 12, boxHeight: 12, font: { size: 11 }, filter: (item: { text: string }) => !item.text.endsWith('(10 %)') && !item.text.includes('10–90') } },
        },
      }),
    },
    csv: longCsv('d_k', field, datasets),
    points: countPoints(datasets),
  };
}

/** ‖J‖_F of softmax([g, 0]) against g, with the current g marked. */
export function buildJacobianCurve(curve: JacobianCurveResult, gap: number, here: SoftmaxJacobianResult | null, t: T): ChartSpec {
  const pts = Array.from(curve.gaps, (g, i) => ({ x: g, y: curve.frobenius[i] }));
  const datasets: Dataset[] = [line(t('grad.series.curve'), SCALE_COLOURS.inv_sqrt_dk, pts)];
  if (here) datasets.push(dots(t('grad.series.here'), '#111827', [{ x: gap, y: here.frobenius }], { pointRadius: 6, pointStyle: 'rectRot', backgroundColor: '#ffffff', borderWidth: 2 }));
  const x = axis(t('grad.axis.gap'), 'linear', { min: curve.gaps[0], max: curve.gaps[curve.gaps.length - 1] });
  const y = axis(t('grad.axis.norm'), 'linear', { min: 0, max: 0.55 });
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(x, y, { plugins: { vline: { x: gap } } }) },
    csv: longCsv('gap', 'jacobian_frobenius', datasets),
    points: countPoints(datasets),
  };
}

/** The two probabilities of softmax([g, 0]). */
export function buildProbs(r: SoftmaxJacobianResult, gap: number, t: T): ChartSpec {
  const labels = ['p₁ (logit g)', 'p₂ (logit 0)'];
  const datasets: Dataset[] = [{ label: t('grad.chart.probs', { g: sig3(gap) }), data: [r.probs[0], r.probs[1]], backgroundColor: [SCALE_COLOURS.none, SCALE_COLOURS.inv_sqrt_dk] }];
  const x = axis('', 'category', { title: { display: false } });
  const y = axis(t('grad.axis.prob'), 'linear', { min: 0, max: 1 });
  return {
    config: { type: 'bar', data: { labels, datasets }, options: baseOptions(x, y, { plugins: { legend: { display: false } } }) },
    csv: { header: ['logit', 'probability'], rows: [[gap, r.probs[0]], [0, r.probs[1]]] },
    points: 2,
  };
}
