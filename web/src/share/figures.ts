// The key figure of each view at a state (the default state, for the share pages' cards and first
// paint): which core requests it needs — built by the very request functions the panels send
// (web/src/requests/*.ts, web/src/claims.ts) — and how their results become one chart (the panels'
// own pure builders) and one or two of its key figures (requests/key-figures.ts, the definitions the
// panels write their readouts from and the poster draws). Pure apart from the core it is
// handed: the build runs it under Node with the real wasm core (scripts/share-pages.ts).
//
// A view not listed here (a view added to the schema's `exp` later) still gets a page and a card:
// its title and lede, without a chart, until it has a figure here.
import type { Core, SaturationSweepResult, ScoreVarianceResult, PrecisionLabResult, LongContextResult, LongContextMethod, TensorStatsResult, AttentionStatsResult, AttentionVariant } from '../../../wasm/js/core.js';
import type { Panel, State } from '../state/state.ts';
import type { T } from '../i18n/messages.ts';
import type { ChartSpec, Dataset } from '../charts/kit.ts';
import type { Kind } from '../worker/protocol.ts';
import type { KeyFigure } from '../requests/key-figures.ts';
import { figure, qualified, relabelled, withLnL, sweepEntropyFigures, sweepGradientFigures, varianceFigures, articleFigures, followupRatioFigure, precisionF16Figures, longContextFigures, gqaLayoutFigures, kvCacheOf, tensorFigures, trainingLossFigure, deviceWorkFigure, mupSweepFigures, modelScaleFigure, normaliserFigures } from '../requests/key-figures.ts';
import { run } from '../worker/handler.ts';
import { sweepParams, varianceSweepParams, articleParams } from '../requests/attention.ts';
import { precisionParams } from '../requests/precision.ts';
import { longParams, METHODS, QUOTE_L } from '../requests/longctx.ts';
import { gqaStatsParams, headsKvOf } from '../requests/gqa.ts';
import { ln } from '../portable-math.ts';
import { buildSaturationLine } from '../charts/saturation.ts';
import { buildVarianceLaw } from '../charts/variance.ts';
import { buildGradientSweep } from '../charts/gradient.ts';
import { buildArticle } from '../charts/article.ts';
import { SCALE_COLOURS, axis, baseOptions, alpha } from '../charts/kit.ts';
import { ALL_SCALES } from '../requests/results.ts';
import { buildPrecisionProbs } from '../charts/precision.ts';
import { buildLongContext } from '../charts/longctx.ts';
import { buildKvCache } from '../charts/gqa.ts';
import { buildRowHistogram } from '../charts/tensors.ts';
import { LAYOUTS } from '../requests/results.ts';
import type { Layout } from '../requests/results.ts';
import { DEVICE_SHAPE, attentionFlops } from '../device/bench.ts';
import { trainingConfigs } from '../training/config.ts';
import { buildTrainLoss } from '../charts/training.ts';
import type { RunSeries } from '../training/series.ts';
import { emptySeries, appendStep } from '../training/series.ts';
import type { ModelScale } from '../../../wasm/js/core.js';
import { mupSweepParams } from '../requests/mup.ts';
import { normalisersParams } from '../requests/normalisers.ts';
import { buildNormalisers } from '../charts/normalisers.ts';
import type { NormalisersResult } from '../../../wasm/js/core.js';
import { buildMupEntropy, rhoLabel } from '../charts/mup.ts';
import { panelTitleKey } from '../i18n/titles.ts';

/** One live number of a card: one of the view's key figures (requests/key-figures.ts), its label and value. */
export type FigureNumber = Pick<KeyFigure, 'label' | 'value'>;
export interface Figure { chart: ChartSpec | null; numbers: FigureNumber[] }

/**
 * The results of callCore, a cache keyed by core (weakly: gone with it) and by `kind:JSON(params)`;
 * bounded by the requests the cards of the build ask for (every view's once), never evicted.
 */
const memo = new WeakMap<Core, Map<string, unknown>>();
/**
 * Calls the core as the page's worker does (web/src/worker/handler.ts), throwing its error. Equal
 * requests (the saturation sweep of the interview, saturation and gradient views) are computed
 * once per core, as the page's cache does; requests with tensors are not memoised.
 */
export function callCore(core: Core, kind: Kind, params: unknown): unknown {
  const key = kind === 'tensorStats' ? null : `${kind}:${JSON.stringify(params)}`;
  let m = memo.get(core);
  if (!m) memo.set(core, (m = new Map()));
  if (key !== null && m.has(key)) return m.get(key);
  const r = run(core, { id: 0, kind, params });
  if (!r.ok) throw new Error(`${kind}: ${r.error.message}`);
  if (key !== null) m.set(key, r.result);
  return r.result;
}

/** Files the build can read (the example tensors of web/public/examples/). */
export type ReadFile = (name: string) => ArrayBuffer;

interface FigureDef<D> {
  /** the language-free data, computed once per view */
  compute(core: Core, s: State, read: ReadFile): D | Promise<D>;
  /** the chart and numbers in the language of `t` */
  render(d: D, s: State, t: T): Figure;
}

const satDks = (s: State) => sweepParams(s).dks;

/** A sweep result restricted to the three scales of the interview's landing chart. */
function threeScales(sp: ChartSpec, t: T): ChartSpec {
  const drop = t('scale.inv_sqrt_d_model');
  return { ...sp, config: { ...sp.config, data: { datasets: sp.config.data.datasets.filter((d) => d.label !== drop) } } };
}

const LANDING_DK = 512;

const interview: FigureDef<SaturationSweepResult> = {
  compute: (core, s) => callCore(core, 'saturationSweep', sweepParams(s)) as SaturationSweepResult,
  render(sw, s, t) {
    const dks = satDks(s);
    return { chart: threeScales(buildSaturationLine(sw, dks, ALL_SCALES, 'entropy', null, s, t), t), numbers: sweepEntropyFigures(sw, dks, LANDING_DK, t) };
  },
};

const saturation: FigureDef<SaturationSweepResult> = {
  compute: interview.compute,
  render(sw, s, t) {
    const dks = satDks(s);
    return { chart: buildSaturationLine(sw, dks, ALL_SCALES, 'entropy', null, s, t), numbers: sweepEntropyFigures(sw, dks, s.dk, t) };
  },
};

const gradient: FigureDef<SaturationSweepResult> = {
  compute: interview.compute,
  render(sw, s, t) {
    const dks = satDks(s);
    // read where the lines part (the article's d_k = 512), from the sweep of the default state
    return { chart: buildGradientSweep(sw, dks, ALL_SCALES, null, s, t), numbers: sweepGradientFigures(sw, dks, LANDING_DK, s.gq, t) };
  },
};

const variance: FigureDef<ScoreVarianceResult> = {
  compute: (core, s) => callCore(core, 'scoreVariance', varianceSweepParams(s)) as ScoreVarianceResult,
  render(r, s, t) {
    const row = r.rows.find((x) => x.dk === 512) ?? r.rows[r.rows.length - 1];
    const figs = varianceFigures(row, t);
    return { chart: buildVarianceLaw(r, null, s, t), numbers: ['var-var', 'var-sqrt'].map((id) => qualified(figure(figs, id), `d_k = ${row.dk}`, t)) };
  },
};

const article: FigureDef<SaturationSweepResult> = {
  compute: (core, s) => callCore(core, 'saturationSweep', articleParams(s)) as SaturationSweepResult,
  render(sw, s, t) {
    const figs = articleFigures(sw, t);
    const entropy = (scale: 'inv_sqrt_dk' | 'none') => relabelled(figure(figs, `art-entropy-${scale}`), t('share.pair', { a: t('art.series.entropy'), b: t(`scale.${scale}`) }));
    return {
      chart: buildArticle(sw.points.map((pts) => ({ summary: pts[0], logSeqLen: sw.logSeqLen })), t),
      numbers: [withLnL(entropy('inv_sqrt_dk'), sw.logSeqLen, 'ln 128'), entropy('none')],
    };
  },
};

/** The follow-up "d_k 512 → 1024?": Var(q·k) at both, unscaled, from the variance law's own sweep. */
const followups: FigureDef<ScoreVarianceResult> = {
  compute: variance.compute,
  render(r, _s, t) {
    const rows = [512, 1024].map((dk) => r.rows.find((x) => x.dk === dk)!);
    const labels = rows.map((x) => `d_k = ${x.dk}`);
    const datasets: Dataset[] = [{ label: t('share.fu.bars'), data: rows.map((x) => x.raw.variance), backgroundColor: [alpha(SCALE_COLOURS.none, 0.6), SCALE_COLOURS.none] }];
    const chart: ChartSpec = {
      config: { type: 'bar', data: { labels, datasets }, options: baseOptions(axis('', 'category', { title: { display: false } }), axis(t('var.ro.var'), 'linear', { min: 0 }), { plugins: { legend: { display: false } } }) },
      csv: { header: ['d_k', 'variance'], rows: rows.map((x) => [x.dk, x.raw.variance]) },
      points: 2,
    };
    return { chart, numbers: [followupRatioFigure(r, t)] };
  },
};

const precision: FigureDef<PrecisionLabResult> = {
  compute: (core, s) => callCore(core, 'precisionLab', precisionParams(s)) as PrecisionLabResult,
  render(r, _s, t) {
    return { chart: buildPrecisionProbs(r, t), numbers: precisionF16Figures(r, t) };
  },
};

type LongResults = Partial<Record<LongContextMethod, LongContextResult>>;
const longctx: FigureDef<LongResults> = {
  compute: (core, s) => Object.fromEntries(METHODS.map((m) => [m, callCore(core, 'longContext', longParams(s, m))])) as LongResults,
  render(rs, s, t) {
    const [fixed, art] = longContextFigures(rs, ['fixed', 'article'], t);
    return { chart: buildLongContext(rs, METHODS, 'entropyRatio', s.ltrain, t), numbers: [withLnL(fixed, ln(QUOTE_L)), art] };
  },
};

/** The KV cache of each layout (the panel's chart) and the entropy at the panel's d_head for MHA and MQA from the core. */
const gqa: FigureDef<Record<Layout, AttentionStatsResult>> = {
  compute: (core, s) => Object.fromEntries(LAYOUTS.map((l) => [l, callCore(core, 'attentionStats', gqaStatsParams(s, l, s.gdk))])) as Record<Layout, AttentionStatsResult>,
  render(rs, s, t) {
    const totals = Object.fromEntries(LAYOUTS.map((l) => [l, kvCacheOf(l, s).total])) as Record<Layout, number>;
    const labels = Object.fromEntries(LAYOUTS.map((l) => [l, t(`gqa.layout.${l}`, { kv: headsKvOf(l, s) })])) as Record<Layout, string>;
    const entropy = (l: Layout) => relabelled(figure(gqaLayoutFigures(l, s, rs[l], undefined, t), `gqa-${l}-entropy`),
      t('share.labelled', { a: labels[l], b: t('share.pair', { a: t('sat.ro.entropy'), b: `d_head = ${s.gdk}` }) }));
    return { chart: buildKvCache(totals, labels, t), numbers: [entropy('mha'), entropy('mqa')] };
  },
};

interface TensorData { own: TensorStatsResult; iid: AttentionStatsResult; shape: { heads: number; seqLen: number; dk: number } }
/** The structured example pair the panel loads by default, under the panel's scale, beside iid N(0, 1) at its shape. */
const tensors: FigureDef<TensorData> = {
  async compute(core, s, read) {
    const { readTensorFile, pairTensors } = await import('../tensors/read.ts');
    const { EXAMPLE_PAIRS } = await import('../tensors/examples.js');
    const names = EXAMPLE_PAIRS[s.tex === 'iid' ? 'iid' : 'structured'];
    const p = pairTensors(readTensorFile(names.q, read(names.q)), readTensorFile(names.k, read(names.k)));
    const own = callCore(core, 'tensorStats', { q: p.q, k: p.k, heads: p.heads, seqLen: p.seqLen, dk: p.dk, scale: s.tscale, seed: 0 }) as TensorStatsResult;
    const iid = callCore(core, 'attentionStats', { heads: p.heads, seqLen: p.seqLen, dk: p.dk, scale: s.tscale, seed: 0, perRow: true, heatmapSize: 1 }) as AttentionStatsResult;
    return { own, iid, shape: p };
  },
  render({ own, iid, shape }, s, t) {
    const lnL = own.logSeqLen;
    const scale = t(`scale.${s.tscale}` as never);
    const figs = tensorFigures(shape, own, iid, t);
    return {
      chart: buildRowHistogram(own.rows.entropy, iid.rows!.entropy, 0, Math.max(lnL, 0.01) * 1.02, t('sat.axis.entropy'), lnL, t),
      numbers: [
        withLnL(relabelled(figure(figs, 'tens-entropy'), t('share.labelled', { a: t('sat.ro.entropy'), b: t('share.tens.note', { scale }) })), lnL),
        relabelled(figure(figs, 'tens-entropy-iid'), t('share.labelled', { a: t('sat.ro.entropy'), b: t('share.pair', { a: 'iid N(0, 1)', b: scale }) })),
      ],
    };
  },
};

/** Steps of the build's training runs: the start of the default runs (the full runs take the reader's browser seconds). */
export const CARD_TRAIN_STEPS = 40;
const TRAIN_SHOWN: readonly AttentionVariant[] = ['none', 'inv_sqrt_dk'];
const training: FigureDef<RunSeries[]> = {
  compute(core, s) {
    return trainingConfigs(s).filter((c) => TRAIN_SHOWN.includes(c.attention!)).map((c) => {
      const cfg = { ...c, steps: Math.min(c.steps ?? CARD_TRAIN_STEPS, CARD_TRAIN_STEPS) };
      const r = core.createTrainingRun(cfg);
      try {
        const series = emptySeries(cfg.attention!, cfg.layers!, cfg.steps);
        appendStep(series, r.step(cfg.steps));
        return series;
      } finally { r.dispose(); }
    });
  },
  render(runs, _s, t) {
    return {
      chart: buildTrainLoss(runs, t),
      numbers: runs.map((r) => trainingLossFigure(r, t)),
    };
  },
};

/** No measurement at build time (it is the reader's device): the work the panel times, a number of the page's own definition. */
const device: FigureDef<number> = {
  compute: () => attentionFlops(DEVICE_SHAPE),
  render(flops, _s, t) {
    return { chart: null, numbers: [deviceWorkFigure(flops, t)] };
  },
};

/** The μP view: entropy against d_k at the state's ρ for 1/√d_k, 1/d_k and d_k^−p (its own request and builder). */
const MUP_QUOTE_DK = 1024;
const mup: FigureDef<SaturationSweepResult> = {
  compute: (core, s) => callCore(core, 'saturationSweep', mupSweepParams(s)) as SaturationSweepResult,
  render(sw, s, t) {
    const dks = mupSweepParams(s).dks;
    const dk = dks.includes(MUP_QUOTE_DK) ? MUP_QUOTE_DK : dks[dks.length - 1];
    const label = (scale: 'inv_sqrt_dk' | 'inv_dk') => t('share.mup.at', { what: t('sat.ro.entropy'), scale: t(`scale.${scale}`), dk, rho: rhoLabel(s.rho) });
    const figs = mupSweepFigures([dk], sw, dks, () => '');
    return {
      chart: buildMupEntropy(sw, dks, s.mpow, t),
      numbers: [withLnL(relabelled(figure(figs, `mup-sqrt-${dk}`), label('inv_sqrt_dk')), sw.logSeqLen), relabelled(figure(figs, `mup-inv-${dk}`), label('inv_dk'))],
    };
  },
};

/** Scales in the wild: each model's effective scale over 1/√d_head, as the core's catalogue computes it. */
const WILD_QUOTED = ['DeepSeek-V3', 'Gemma 3 27B'];
const wild: FigureDef<ModelScale[]> = {
  compute: (core) => callCore(core, 'modelScales', {}) as ModelScale[],
  render(models, _s, t) {
    const ratio = (m: ModelScale) => m.scale / m.invSqrtDHead;
    const labels = models.map((m) => (m.model.length > 18 ? `${m.model.slice(0, 17)}…` : m.model));
    const datasets: Dataset[] = [{ label: t('share.wild.bars'), data: models.map(ratio), backgroundColor: models.map((m) => (Math.abs(ratio(m) - 1) < 1e-9 ? alpha(SCALE_COLOURS.inv_sqrt_dk, 0.6) : SCALE_COLOURS.none)) }];
    const chart: ChartSpec = {
      config: { type: 'bar', data: { labels, datasets }, options: baseOptions(axis('', 'category', { title: { display: false } }), axis(t('share.wild.bars'), 'linear', { min: 0 }), { plugins: { legend: { display: false } } }) },
      csv: { header: ['model', 'scale_over_inv_sqrt_d_head'], rows: models.map((m) => [m.model, ratio(m)]) },
      points: models.length,
    };
    const quoted = WILD_QUOTED.map((name) => models.find((m) => m.model.startsWith(name))).filter((m): m is ModelScale => m !== undefined);
    return { chart, numbers: quoted.map((m) => modelScaleFigure(m, t)) };
  },
};

/** Does attention have to sum to one?: the six normalisers' row sums and first-key mass on the saturation view's draws; the poster's first numbers are the rows that need not sum to one. */
const sumone: FigureDef<NormalisersResult> = {
  compute: (core, s) => callCore(core, 'normalisers', normalisersParams(s)) as NormalisersResult,
  render(r, _s, t) {
    const figs = normaliserFigures(r, t);
    return { chart: buildNormalisers(r, t), numbers: ['sum-sigmoid-rowSum', 'sum-offByOne-rowSum'].map((id) => figure(figs, id)) };
  },
};

const FIGURES: Partial<Record<Panel, FigureDef<unknown>>> = {
  interview, variance, saturation, gradient, article, followups, precision, longctx, gqa, tensors, training, device, mup, wild, sumone,
} as Partial<Record<Panel, FigureDef<unknown>>>;

/** The language-free data of a view's figure at state `s` (null for a view without a figure). */
export async function figureData(p: Panel, core: Core, s: State, read: ReadFile): Promise<unknown> {
  const def = FIGURES[p];
  return def ? await def.compute(core, { ...s, exp: p }, read) : null;
}

/** A view's figure in the language of `t`, from figureData. */
export function renderFigure(p: Panel, data: unknown, s: State, t: T): Figure {
  const def = FIGURES[p];
  if (!def || data === null) return { chart: null, numbers: [] };
  const f = def.render(data, { ...s, exp: p }, t);
  return { chart: f.chart, numbers: f.numbers.map(({ label, value }) => ({ label, value })) };
}

/** The view's title and lede, from the catalogue (the app's own words). */
export function viewWords(p: Panel, t: T): { title: string; lede: string } {
  const k = panelTitleKey(p);
  return { title: t(`${k}.title` as never), lede: t(`${k}.lede` as never) };
}
