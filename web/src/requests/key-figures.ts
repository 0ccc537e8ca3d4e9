// The key figures of each view, defined once as data from its requests' results: one function per
// view and result, giving each number its id (the data-readout the panel writes it into), its label
// in the page's language and its digits as the page prints them. The panel writes its readouts from
// these, the share-as-image poster draws the first three of them (share/poster.ts, never reading the
// page back) and the build's link card and first paint quote them at the default state
// (share/figures.ts). No DOM.
import type { AttentionStatsResult, ScoreVarianceResult, SaturationSweepResult, PrecisionLabResult, LongContextResult, LongContextScheme, ModelScale, TensorStatsResult, NormalisersResult, NormaliserName, QkClipResult } from '../../../wasm/js/core.js';
import type { State, ScaleName } from '../state/state.ts';
import type { T, MessageKey } from '../i18n/messages.ts';
import { fmt, pct } from '../format.ts';
import { sweepAt, ALL_SCALES, ARTICLE_SCALES, cellOf } from './results.ts';
import { QUOTE_L } from './longctx.ts';
import { headsKvOf } from './gqa.ts';
import { MUP_SCALE } from './mup.ts';
import type { Layout } from './results.ts';
import type { GroupedLogitsResult } from '../worker/protocol.ts';
import type { AlibiScalesResult } from '../worker/alibi.ts';
import { kvCacheBytes, formatBytes } from '../kvcache.ts';
import type { RunSeries } from '../training/series.ts';
import { finalLoss } from '../training/series.ts';
import { KV_DTYPE_BYTES } from '../state/schema.js';

/** One key figure: the id of its readout, its label and its value as the page prints it. */
export interface KeyFigure { id: string; label: string; value: string }

/** The figure `id` of a list (throws when the list has none: a figure a surface quotes must exist). */
export function figure(figs: readonly KeyFigure[], id: string): KeyFigure {
  const f = figs.find((x) => x.id === id);
  if (!f) throw new Error(`no key figure ${id} among ${figs.map((x) => x.id).join(', ')}`);
  return f;
}

/** A figure's label with what it was read at ("…, d_k = 512"), for a surface without the view's controls. */
export function qualified(f: KeyFigure, at: string, t: T): KeyFigure {
  return { ...f, label: t('share.pair', { a: f.label, b: at }) };
}

/** A figure relabelled, for a surface that says more (or less) than the view's own label. */
export function relabelled(f: KeyFigure, label: string): KeyFigure {
  return { ...f, label };
}

/** A mean entropy with the ceiling it is read against: "4.362 (ln L = 4.852)" ("ln 128" with `name`). */
export function withLnL(f: KeyFigure, lnL: number, name = 'ln L'): KeyFigure {
  return { ...f, value: `${f.value} (${name} = ${fmt(lnL)})` };
}

/** The variance law at one d_k (a row of scoreVariance): Var(q·k), its std, and both scaled variances. */
export function varianceFigures(row: ScoreVarianceResult['rows'][number], t: T): KeyFigure[] {
  return [
    { id: 'var-var', label: t('var.ro.var'), value: fmt(row.raw.variance) },
    { id: 'var-std', label: t('var.ro.std'), value: fmt(row.raw.std) },
    { id: 'var-sqrt', label: t('var.ro.sqrt'), value: fmt(row.invSqrtDk.variance) },
    { id: 'var-dk', label: t('var.ro.dk'), value: fmt(row.invDk.variance) },
  ];
}

/** The saturation view's readouts at the chosen setting (an attentionStats point). */
export function saturationFigures(point: AttentionStatsResult, t: T): KeyFigure[] {
  const sm = point.summary;
  return [
    { id: 'sat-entropy', label: t('sat.ro.entropy'), value: fmt(sm.entropy.mean) },
    { id: 'sat-lnL', label: t('sat.ro.lnL'), value: fmt(point.logSeqLen) },
    { id: 'sat-ratio', label: t('sat.ro.ratio'), value: fmt(sm.entropyRatio.mean) },
    { id: 'sat-maxw', label: t('sat.ro.maxw'), value: fmt(sm.maxWeight.mean) },
    { id: 'sat-share', label: t('sat.ro.share'), value: pct(sm.shareAbove) },
    { id: 'sat-c', label: t('sat.ro.c'), value: fmt(sm.scale) },
    { id: 'sat-maxlogit', label: t('sat.ro.maxLogit'), value: fmt(sm.maxAbsLogit) },
    // without a sink no mass goes anywhere but the keys: 0, a number like the other readouts
    { id: 'sat-sink', label: t('sat.ro.sink'), value: sm.sinkMass ? fmt(sm.sinkMass.mean) : '0' },
  ];
}

/**
 * The saturation sweep at one d_k: the mean entropy under 1/√d_k (beside ln L) and unscaled, as the
 * card of the saturation and interview views quotes it (ids sweep-entropy-<scale>).
 */
export function sweepEntropyFigures(sw: SaturationSweepResult, dks: number[], dk: number, t: T): KeyFigure[] {
  const at = (scale: ScaleName) => sweepAt(sw, dks, ALL_SCALES, scale, dk);
  const label = (scale: ScaleName) => t('share.num.at', { what: t('sat.ro.entropy'), scale: t(`scale.${scale}` as never), dk });
  return [
    { id: 'sweep-entropy-inv_sqrt_dk', label: label('inv_sqrt_dk'), value: `${fmt(at('inv_sqrt_dk')!.entropy.mean)} (ln L = ${fmt(sw.logSeqLen)})` },
    { id: 'sweep-entropy-none', label: label('none'), value: fmt(at('none')!.entropy.mean) },
  ];
}

/** The gradient sweep at one d_k: the median of the chosen quantity (‖J‖_F or ‖∂L/∂q‖) unscaled and under 1/√d_k. */
export function sweepGradientFigures(sw: SaturationSweepResult, dks: number[], dk: number, gq: State['gq'], t: T): KeyFigure[] {
  const field = gq === 'jac' ? 'jacFro' : 'gradQuery';
  const what = `${t(gq === 'jac' ? 'grad.q.jac' : 'grad.q.grad')} (${t('grad.ro.median')})`;
  return (['none', 'inv_sqrt_dk'] as const).map((scale) => ({
    id: `sweep-${field}-${scale}`,
    label: t('share.num.at', { what, scale: t(`scale.${scale}`), dk }),
    value: fmt(sweepAt(sw, dks, ALL_SCALES, scale, dk)![field].median),
  }));
}

/** The gradient view's readouts: the quantiles of ‖J‖_F or ‖∂L/∂q‖ at the chosen setting. */
export function gradientFigures(point: AttentionStatsResult, gq: State['gq'], t: T): KeyFigure[] {
  const sm = point.summary[gq === 'jac' ? 'jacFro' : 'gradQuery'];
  return [
    { id: 'grad-median', label: t('grad.ro.median'), value: fmt(sm.median) },
    { id: 'grad-p10', label: t('grad.ro.p10'), value: fmt(sm.p10) },
    { id: 'grad-p90', label: t('grad.ro.p90'), value: fmt(sm.p90) },
    { id: 'grad-mean', label: t('grad.ro.mean'), value: fmt(sm.mean) },
  ];
}

/**
 * The article's table (its sweep at d_k = 512, one point per scale): the mean entropy of each scale
 * first, then the mean max weight and the share of rows above 0.5; labels are "scale · column".
 */
export function articleFigures(sw: SaturationSweepResult, t: T): KeyFigure[] {
  const row = (i: number) => sw.points[i][0];
  const label = (sc: ScaleName, th: 'art.th.entropy' | 'art.th.maxw' | 'art.th.share') => `${t(`scale.${sc}` as never)} · ${t(th)}`;
  return [
    ...ARTICLE_SCALES.map((sc, i) => ({ id: `art-entropy-${sc}`, label: label(sc, 'art.th.entropy'), value: fmt(row(i).entropy.mean) })),
    ...ARTICLE_SCALES.map((sc, i) => ({ id: `art-maxw-${sc}`, label: label(sc, 'art.th.maxw'), value: fmt(row(i).maxWeight.mean) })),
    ...ARTICLE_SCALES.map((sc, i) => ({ id: `art-share-${sc}`, label: label(sc, 'art.th.share'), value: pct(row(i).shareAbove) })),
  ];
}

/** The precision lab's readouts: the largest |logit|, the scale, the rows and the float64 Jacobian's median. */
export function precisionFigures(r: PrecisionLabResult, t: T): KeyFigure[] {
  return [
    { id: 'prec-maxlogit', label: t('sat.ro.maxLogit'), value: fmt(r.maxAbsLogit) },
    { id: 'prec-c', label: t('sat.ro.c'), value: fmt(r.scale) },
    { id: 'prec-rows', label: t('prec.ro.rows'), value: String(r.rows) },
    { id: 'prec-jac64', label: t('prec.ro.jac64'), value: fmt(r.jacFroMedianF64) },
  ];
}

/** The precision grid in float16: NaN share or max error of naive and safe softmax (the card's pair). */
export function precisionF16Figures(r: PrecisionLabResult, t: T): KeyFigure[] {
  return (['naive', 'safe'] as const).map((a) => {
    const c = cellOf(r, 'float16', a);
    return { id: `prec-f16-${a}`, label: t('share.pair', { a: 'float16', b: t(`prec.alg.${a}`) }), value: c.shareNan > 0 ? `NaN ${pct(c.shareNan)}` : `✓ Δ ${fmt(c.maxAbsError, 2)}` };
  });
}

/** The long-context view: each method's mean entropy at L = QUOTE_L (only the methods answered). */
export function longContextFigures(rs: Partial<Record<LongContextScheme, LongContextResult>>, methods: readonly LongContextScheme[], t: T): KeyFigure[] {
  return methods.flatMap((m) => {
    const p = rs[m]?.points[0].find((x) => x.seqLen === QUOTE_L);
    return p ? [{ id: `lc-${m}`, label: t('lc.ro.at', { method: t(`lc.method.${m}`), L: QUOTE_L }), value: fmt(p.entropy) }] : [];
  });
}

/** The model catalogue: a model's scale and its ratio to 1/√d_head (the card's numbers). */
export function modelScaleFigure(m: ModelScale, t: T): KeyFigure {
  return { id: `wild-model-${m.model}`, label: t('share.wild.model', { model: m.model }), value: `${fmt(m.scale, 6)} (${fmt(m.scale / m.invSqrtDHead, 4)}×)` };
}

/**
 * Row `i` of the scales-in-the-wild table: the model's effective scale, and the mean entropy at
 * L under it (`own`) and under 1/√d_head (`ref`) once answered (NaN before); labels "model · column".
 */
export function wildModelFigures(i: number, m: ModelScale, own: number, ref: number, L: number, t: T): KeyFigure[] {
  return [
    { id: `wild-scale-${i}`, label: `${m.model} · ${t('wild.th.scale')}`, value: fmt(m.scale, 6) },
    ...(Number.isFinite(own) ? [{ id: `wild-entropy-${i}`, label: `${m.model} · ${t('wild.th.entropy', { L })}`, value: fmt(own) }] : []),
    ...(Number.isFinite(ref) ? [{ id: `wild-ref-${i}`, label: `${m.model} · ${t('wild.th.refEntropy')}`, value: fmt(ref) }] : []),
  ];
}

/**
 * Your own tensors at one scale: the shape, Var(q·k) beside the iid prediction from the tensors' own
 * second moments and N(0, 1)'s d_k, and the mean entropy and max weight beside iid N(0, 1) at the
 * same shape (an attentionStats result).
 */
export function tensorFigures(shape: { heads: number; seqLen: number; dk: number }, own: TensorStatsResult, iid: AttentionStatsResult, t: T): KeyFigure[] {
  const q2 = own.qComponent.variance + own.qComponent.mean * own.qComponent.mean;  // x · x, not x ** 2: plain IEEE arithmetic
  const k2 = own.kComponent.variance + own.kComponent.mean * own.kComponent.mean;
  const { heads, seqLen, dk } = shape;
  return [
    { id: 'tens-shape', label: t('tens.ro.shape'), value: heads === 1 ? `[${seqLen}, ${dk}]` : `[${heads}, ${seqLen}, ${dk}]` },
    { id: 'tens-var', label: t('tens.ro.var'), value: fmt(own.qk.variance) },
    { id: 'tens-var-iid', label: t('tens.ro.varIid'), value: fmt(dk * q2 * k2) },
    { id: 'tens-var-n01', label: t('tens.ro.varN01'), value: String(dk) },
    { id: 'tens-entropy', label: t('tens.ro.entropy'), value: fmt(own.summary.entropy.mean) },
    { id: 'tens-entropy-iid', label: t('tens.ro.entropyIid'), value: fmt(iid.summary.entropy.mean) },
    { id: 'tens-maxw', label: t('tens.ro.maxw'), value: fmt(own.summary.maxWeight.mean) },
    { id: 'tens-maxw-iid', label: t('tens.ro.maxwIid'), value: fmt(iid.summary.maxWeight.mean) },
  ];
}

/** The KV cache of a head layout at the state (bytes per token and at the context length). */
export function kvCacheOf(l: Layout, s: State): { perToken: number; total: number } {
  const r = kvCacheBytes({ layers: s.kvl, headsKv: headsKvOf(l, s), dHead: s.gdk, bytesPerElement: KV_DTYPE_BYTES[s.kvdt], tokens: s.kvctx, ...(s.gdv > 0 ? { dV: s.gdv } : {}) });
  return { perToken: r.bytesPerToken, total: r.totalBytes };
}

/**
 * One row of the GQA table (a head layout): its K/V heads and KV cache from the state, and from the
 * core the entropy, max weight and ‖J‖_F of its attentionStats point and the scaled Var(q·k) of its
 * grouped-logit check, each when answered; labels are "layout · column".
 */
export function gqaLayoutFigures(l: Layout, s: State, point: AttentionStatsResult | undefined, check: GroupedLogitsResult | undefined, t: T): KeyFigure[] {
  const row = t(`gqa.layout.${l}`, { kv: headsKvOf(l, s) });
  const f = (col: 'kv' | 'entropy' | 'maxw' | 'var' | 'jac' | 'perToken' | 'total', value: string): KeyFigure => ({ id: `gqa-${l}-${col}`, label: `${row} · ${t(`gqa.th.${col}`)}`, value });
  const kv = kvCacheOf(l, s);
  return [
    f('kv', String(headsKvOf(l, s))),
    ...(point ? [f('entropy', fmt(point.summary.entropy.mean)), f('maxw', fmt(point.summary.maxWeight.mean))] : []),
    ...(check ? [f('var', fmt(check.scaledVariance))] : []),
    ...(point ? [f('jac', fmt(point.summary.jacFro.median))] : []),
    f('perToken', formatBytes(kv.perToken)),
    f('total', formatBytes(kv.total)),
  ];
}

/** The μP table's columns at each quoted d_k, each a readout id prefix (mup-<column>-<d_k>). */
export const MUP_COLUMNS = ['var0', 'var', 'mean', 'sqrt', 'inv', 'power', 'maxw'] as const;
export type MupColumn = (typeof MUP_COLUMNS)[number];

/**
 * The μP table's moments at the quoted d_k: Var(q·k) of iid q, k (ρ = 0), and Var and mean of q·k at
 * the state's ρ (`cor`, the iid result again at ρ = 0); labels are "d_k · column title".
 */
export function mupMomentFigures(dks: readonly number[], iid: ScoreVarianceResult, cor: ScoreVarianceResult, title: (c: MupColumn) => string): KeyFigure[] {
  return dks.flatMap((dk) => {
    const r0 = iid.rows.find((r) => r.dk === dk), r = cor.rows.find((x) => x.dk === dk);
    const f = (c: MupColumn, v: number | undefined) => ({ id: `mup-${c}-${dk}`, label: `${dk} · ${title(c)}`, value: v === undefined ? '–' : fmt(v) });
    return [f('var0', r0?.raw.variance), f('var', r?.raw.variance), f('mean', r?.raw.mean)];
  });
}

/**
 * The μP table's entropies at the quoted d_k from the μP sweep: the mean entropy under 1/√d_k,
 * 1/d_k and d_k^−p, and the mean max weight under 1/√d_k.
 */
export function mupSweepFigures(dks: readonly number[], sw: SaturationSweepResult, sweepDks: readonly number[], title: (c: MupColumn) => string): KeyFigure[] {
  return dks.flatMap((dk) => {
    const i = sweepDks.indexOf(dk);
    const f = (c: MupColumn, si: number, field: 'entropy' | 'maxWeight') => ({ id: `mup-${c}-${dk}`, label: `${dk} · ${title(c)}`, value: i < 0 ? '–' : fmt(sw.points[si][i][field].mean) });
    return [f('sqrt', MUP_SCALE.sqrt, 'entropy'), f('inv', MUP_SCALE.inv, 'entropy'), f('power', MUP_SCALE.power, 'entropy'), f('maxw', MUP_SCALE.sqrt, 'maxWeight')];
  });
}

/** The follow-up "d_k 512 → 1024?": how many times Var(q·k) grows, from the variance law's rows at both. */
export function followupRatioFigure(r: ScoreVarianceResult, t: T): KeyFigure {
  const at = (dk: number) => r.rows.find((x) => x.dk === dk)!.raw.variance;
  return { id: 'fu-var-ratio', label: t('share.fu.ratio'), value: `${fmt(at(1024) / at(512))}×` };
}

/** A training run's loss after the steps it has taken (the run table's final loss). */
export function trainingLossFigure(r: RunSeries, t: T): KeyFigure {
  return { id: `train-final-${r.variant}`, label: t('share.train.steps', { steps: r.stepsDone, variant: t(`train.v.${r.variant}` as never) }), value: fmt(finalLoss(r)) };
}

/** The work the device view times: its attention's floating-point operations, in millions. */
export function deviceWorkFigure(flops: number, t: T): KeyFigure {
  return { id: 'dev-flops', label: t('share.dev.flops'), value: `${fmt(flops / 1e6, 3)} M` };
}

// ---- Does attention have to sum to one? ----
/** The normalisers' table columns, each a readout id part (sum-<normaliser>-<column>). */
export const SUM_COLUMNS = ['rowSum', 'range', 'firstMass', 'entropy', 'outputNorm'] as const;
export type SumColumn = (typeof SUM_COLUMNS)[number];
/** The normalisers in the order the poster quotes them: the ones that do not sum to one first. */
const SUM_ORDER: readonly NormaliserName[] = ['sigmoid', 'offByOne', 'differential', 'sink', 'gated', 'softmax'];

/** Every cell of the normalisers' table: row sum (mean, then min–max), mass on the first key, entropy (or "n/a"), output norm. */
export function normaliserFigures(r: NormalisersResult, t: T): KeyFigure[] {
  const byName = new Map(r.rows.map((x) => [x.name, x]));
  const v = (x: number | null) => (x === null ? '–' : fmt(x));
  return SUM_ORDER.flatMap((name) => {
    const x = byName.get(name);
    if (!x) return [];
    const label = (c: SumColumn) => `${t(`sum.n.${name}`)} · ${t(`sum.th.${c}`)}`;
    return [
      { id: `sum-${name}-rowSum`, label: label('rowSum'), value: v(x.rowSum) },
      { id: `sum-${name}-range`, label: label('range'), value: x.rowSumMin === null || x.rowSumMax === null ? '–' : `${fmt(x.rowSumMin)} … ${fmt(x.rowSumMax)}` },
      { id: `sum-${name}-firstMass`, label: label('firstMass'), value: v(x.firstMass) },
      { id: `sum-${name}-entropy`, label: label('entropy'), value: x.entropy === null ? t('sum.na') : fmt(x.entropy) },
      { id: `sum-${name}-outputNorm`, label: label('outputNorm'), value: v(x.outputNorm) },
    ];
  });
}

/** One closed-form row's check: sigmoid's and off-by-one's row sums on it (sum-check-<id>-<normaliser>). */
export function normaliserCheckFigures(id: string, r: NormalisersResult, t: T): KeyFigure[] {
  const sum = (name: NormaliserName) => r.rows.find((x) => x.name === name)?.rowSum ?? null;
  return (['sigmoid', 'offByOne', 'softmax'] as const).map((name) => {
    const x = sum(name);
    return { id: `sum-check-${id}-${name}`, label: `${t(`sum.check.${id}` as MessageKey)} · ${t(`sum.n.${name}`)}`, value: x === null ? '–' : x.toFixed(6) };
  });
}

/** QK-Clip per head: S_max before, η, and the maximum after (qc-<column>-<head>). */
export function qkClipFigures(r: QkClipResult, t: T): KeyFigure[] {
  const out: KeyFigure[] = [{ id: 'qc-clipped', label: t('sum.qc.clippedHeads'), value: `${r.clippedHeads} / ${r.gamma.length}` }];
  for (let h = 0; h < r.gamma.length; h++) {
    out.push(
      { id: `qc-max-${h}`, label: t('sum.qc.th.max', { h }), value: fmt(r.maxLogit[h]) },
      { id: `qc-gamma-${h}`, label: t('sum.qc.th.gamma', { h }), value: fmt(r.gamma[h], 5) },
      { id: `qc-after-${h}`, label: t('sum.qc.th.after', { h }), value: fmt(r.clippedMax[h]) },
    );
  }
  return out;
}

/** The saturation view's ALiBi section: per scale, the steepest head's (m = 1/2) and the gentlest head's mean entropy. */
export function alibiScaleFigures(r: AlibiScalesResult, t: T): KeyFigure[] {
  const H = r.slopes.length;
  return r.rows.flatMap((row) => [
    { id: `sal-${row.scale}-steep`, label: t('sal.ro.head', { scale: t(`scale.${row.scale}`), h: 1, m: fmt(r.slopes[0], 3) }), value: fmt(row.alibi[0]) },
    { id: `sal-${row.scale}-gentle`, label: t('sal.ro.head', { scale: t(`scale.${row.scale}`), h: H, m: fmt(r.slopes[H - 1], 3) }), value: fmt(row.alibi[H - 1]) },
  ]);
}
