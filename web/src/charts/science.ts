// Pure chart builders of the views past the iid argument (μP and the scales real models use):
// results + translator → a Chart.js config and the CSV of exactly the series drawn. No DOM.
import type { ScoreVarianceResult, SaturationSweepResult } from '../../../wasm/js/core.js';
import type { T } from '../i18n/messages.ts';
import type { ChartSpec, Dataset } from './builders.ts';
import { axis, baseOptions, countPoints, dots, line, longCsv, alpha, pow2Ticks, logTick, SCALE_COLOURS, GREY, EXPLICIT_COLOUR } from './builders.ts';
import { MUP_SCALE } from '../requests/science.ts';
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

/** One catalogue row of the wild chart: the model and its two entropies (NaN while not computed). */
export interface WildBar { model: string; own: number; ref: number }

/**
 * Mean row entropy at L = 4096 on iid inputs per model (horizontal bars): under the model's effective
 * scale and under 1/√d_head at the same d_head, beside the ln L ceiling.
 */
export function buildWildEntropy(rows: readonly WildBar[], lnL: number, t: T): ChartSpec {
  const labels = rows.map((r) => r.model);
  const datasets: Dataset[] = [
    { label: t('wild.series.own'), data: rows.map((r) => r.own), backgroundColor: EXPLICIT_COLOUR, borderColor: EXPLICIT_COLOUR },
    { label: t('wild.series.ref'), data: rows.map((r) => r.ref), backgroundColor: SCALE_COLOURS.inv_sqrt_dk, borderColor: SCALE_COLOURS.inv_sqrt_dk },
  ];
  const x = axis(t('sat.axis.entropy'), 'linear', { min: 0, suggestedMax: lnL * 1.02 });
  // long model names are cut on the axis (the tooltip, the data table and the CSV keep them whole)
  const short = (i: number) => { const l = labels[i] ?? ''; return l.length > 18 ? `${l.slice(0, 17)}…` : l; };
  const y = axis('', 'category', { ticks: { autoSkip: false, font: { size: 11 }, callback: (_v: unknown, i: number) => short(i) }, grid: { display: false } });
  return {
    config: { type: 'bar', data: { labels, datasets }, options: baseOptions(x, y, { indexAxis: 'y', plugins: { vline: { x: lnL } } }) },
    csv: { header: ['model', 'entropy_own_scale_nats', 'entropy_inv_sqrt_d_head_nats'], rows: rows.map((r) => [r.model, r.own, r.ref]) },
    points: rows.filter((r) => Number.isFinite(r.own) && Number.isFinite(r.ref)).length * 2,
  };
}
