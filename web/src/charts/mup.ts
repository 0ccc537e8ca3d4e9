// Chart builders of "When is 1/d_k right?" (μP): the moments of q·k at a correlation ρ against d_k,
// and the mean entropy under 1/√d_k, 1/d_k and d_k^−p (results + translator → ChartSpec, no DOM).
import type { ScoreVarianceResult, SaturationSweepResult } from '../../../wasm/js/core.js';
import type { T } from '../i18n/messages.ts';
import type { ChartSpec, Dataset } from './kit.ts';
import { axis, baseOptions, countPoints, dots, line, longCsv, alpha, pow2Ticks, logTick, SCALE_COLOURS, GREY, EXPLICIT_COLOUR } from './kit.ts';
import { MUP_SCALE } from '../requests/mup.ts';
import { fmt } from '../format.ts';

/** The colour of d_k^−p (neither of the named scales). */
export const POWER_COLOUR = EXPLICIT_COLOUR;
/** ρ = 0 is drawn in grey, the chosen ρ in the colour of the raw scores. */
const IID_COLOUR = GREY;
const RHO_COLOUR = SCALE_COLOURS.none;

/** "ρ = 0.2" in the page's number format. */
export function rhoLabel(rho: number): string {
  return `ρ = ${fmt(rho, 2)}`;
}
/** "d_k^−0.75" */
export function powerLabel(p: number): string {
  return `d_k^−${fmt(p, 2)}`;
}

/**
 * Var(q·k) (log–log) or mean(q·k) (log d_k, linear mean) of matched pairs against d_k, measured for
 * ρ = 0 and the chosen ρ, each with its theory line from the core's result (d_k(1 + ρ²) and ρ·d_k).
 * `corr` is null while the chosen ρ is 0 (then one pair of series is drawn).
 */
export function buildMupMoments(iid: ScoreVarianceResult, corr: ScoreVarianceResult | null, rho: number, field: 'variance' | 'mean', t: T): ChartSpec {
  // ρ = 0 as open rings, the chosen ρ as filled dots inside them: where the two agree (the variance) both stay visible
  const series = (r: ScoreVarianceResult, label: string, colour: string, ring = false): Dataset[] => [
    dots(`${t(field === 'variance' ? 'mup.series.var' : 'mup.series.mean')}, ${label}`, colour, r.rows.map((row) => ({ x: row.dk, y: row.raw[field] })),
      // clip 8: a ring at the axis' end (d_k 4096, the top of the log axis) is drawn whole, not cut at the plot's edge
      ring ? { pointRadius: 6, pointHoverRadius: 7, backgroundColor: 'rgba(0, 0, 0, 0)', borderWidth: 1.5, clip: 8 } : { pointRadius: 3, clip: 8 }),
    line(`${t(field === 'variance' ? 'mup.series.varTheory' : 'mup.series.meanTheory')}, ${label}`, alpha(colour, 0.6), r.rows.map((row) => ({ x: row.dk, y: row.theory.raw[field] })), { borderDash: [6, 4], borderWidth: 1.5 }),
  ];
  const datasets: Dataset[] = [...series(iid, rhoLabel(0), IID_COLOUR, true), ...(corr ? series(corr, rhoLabel(rho), RHO_COLOUR) : [])];
  const x = axis(t('var.axis.dk'), 'logarithmic', pow2Ticks(1, 4096));
  const y = field === 'variance'
    ? axis(t('var.axis.var'), 'logarithmic', { ticks: { callback: logTick } })
    : axis(t('mup.axis.mean'), 'linear');
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(x, y) },
    csv: longCsv('d_k', field === 'variance' ? 'var_qk' : 'mean_qk', datasets),
    points: countPoints(datasets),
  };
}

/** Mean row entropy against d_k at the chosen ρ for 1/√d_k, 1/d_k and d_k^−p, with the ln L ceiling. */
export function buildMupEntropy(sweep: SaturationSweepResult, dks: number[], p: number, t: T): ChartSpec {
  const at = (si: number) => dks.map((dk, di) => ({ x: dk, y: sweep.points[si][di].entropy.mean }));
  const datasets: Dataset[] = [
    line(t('scale.inv_sqrt_dk'), SCALE_COLOURS.inv_sqrt_dk, at(MUP_SCALE.sqrt), { pointRadius: 2.5 }),
    line(t('scale.inv_dk'), SCALE_COLOURS.inv_dk, at(MUP_SCALE.inv), { pointRadius: 2.5 }),
    line(`× ${powerLabel(p)}`, POWER_COLOUR, at(MUP_SCALE.power), { pointRadius: 2.5, borderDash: [2, 2] }),
    line(t('sat.series.lnL'), GREY, [{ x: 1, y: sweep.logSeqLen }, { x: 4096, y: sweep.logSeqLen }], { borderDash: [4, 4], borderWidth: 1.5 }),
  ];
  const x = axis(t('var.axis.dk'), 'logarithmic', pow2Ticks(1, 4096));
  const y = axis(t('sat.axis.entropy'), 'linear', { min: 0, suggestedMax: sweep.logSeqLen * 1.05 });
  return {
    config: { type: 'line', data: { datasets }, options: baseOptions(x, y) },
    csv: longCsv('d_k', 'mean_entropy_nats', datasets),
    points: countPoints(datasets),
  };
}
