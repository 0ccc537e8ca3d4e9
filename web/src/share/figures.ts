// The key figure of each view at a state (the default state, for the share pages' cards and first
// paint): which core requests it needs — built by the very request functions the panels send
// (web/src/requests/*.ts, web/src/claims.ts) — and how their results become one chart (the panels'
// own pure builders) and one or two live numbers with their labels. Pure apart from the core it is
// handed: the build runs it under Node with the real wasm core (scripts/share-pages.ts).
//
// A view not listed here (a view added to the schema's `exp` later) still gets a page and a card:
// its title and lede, without a chart, until it has a figure here.
import type { Core, SaturationSweepResult, ScoreVarianceResult, PrecisionLabResult, LongContextResult, LongContextMethod, TensorStatsResult, AttentionStatsResult, AttentionVariant } from '../../../wasm/js/core.js';
import type { Panel, State } from '../state/state.ts';
import type { T } from '../i18n/messages.ts';
import type { ChartSpec, Dataset } from '../charts/kit.ts';
import type { Kind } from '../worker/protocol.ts';
import { run } from '../worker/handler.ts';
import { sweepParams, varianceSweepParams, articleParams } from '../requests/attention.ts';
import { precisionParams } from '../requests/precision.ts';
import { longParams, METHODS, QUOTE_L } from '../requests/longctx.ts';
import { gqaStatsParams, headsKvOf } from '../requests/gqa.ts';
import { CLAIMS } from '../claims.ts';
import { buildSaturationLine } from '../charts/saturation.ts';
import { buildVarianceLaw } from '../charts/variance.ts';
import { buildGradientSweep } from '../charts/gradient.ts';
import { buildArticle } from '../charts/article.ts';
import { SCALE_COLOURS, axis, baseOptions, alpha } from '../charts/kit.ts';
import { sweepAt, ALL_SCALES, ARTICLE_SCALES } from '../requests/results.ts';
import { buildPrecisionProbs } from '../charts/precision.ts';
import { buildLongContext } from '../charts/longctx.ts';
import { buildKvCache } from '../charts/gqa.ts';
import { buildRowHistogram } from '../charts/tensors.ts';
import { cellOf, LAYOUTS } from '../requests/results.ts';
import type { Layout } from '../requests/results.ts';
import { kvCacheBytes } from '../kvcache.ts';
import { KV_DTYPE_BYTES } from '../state/schema.js';
import { DEVICE_SHAPE, attentionFlops } from '../device/bench.ts';
import { trainingConfigs } from '../training/config.ts';
import { buildTrainLoss } from '../charts/training.ts';
import type { RunSeries } from '../training/series.ts';
import { emptySeries, appendStep, finalLoss } from '../training/series.ts';
import { fmt, pct } from '../format.ts';
import type { ModelScale } from '../../../wasm/js/core.js';
import { mupSweepParams } from '../requests/mup.ts';
import { buildMupEntropy, rhoLabel } from '../charts/mup.ts';
import { panelTitleKey } from '../i18n/titles.ts';

/** One live number of a card: its label (in the page's language) and its value as the page prints it. */
export interface FigureNumber { label: string; value: string }
export interface Figure { chart: ChartSpec | null; numbers: FigureNumber[] }

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
const at = (t: T, what: string, scale: string, dk: number) => t('share.num.at', { what, scale: t(`scale.${scale}` as never), dk });

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
    const none = sweepAt(sw, dks, ALL_SCALES, 'none', LANDING_DK), sqrt = sweepAt(sw, dks, ALL_SCALES, 'inv_sqrt_dk', LANDING_DK);
    return {
      chart: threeScales(buildSaturationLine(sw, dks, ALL_SCALES, 'entropy', null, s, t), t),
      numbers: [
        { label: at(t, t('sat.ro.entropy'), 'inv_sqrt_dk', LANDING_DK), value: `${fmt(sqrt!.entropy.mean)} (ln L = ${fmt(sw.logSeqLen)})` },
        { label: at(t, t('sat.ro.entropy'), 'none', LANDING_DK), value: fmt(none!.entropy.mean) },
      ],
    };
  },
};

const saturation: FigureDef<SaturationSweepResult> = {
  compute: interview.compute,
  render(sw, s, t) {
    const dks = satDks(s);
    const none = sweepAt(sw, dks, ALL_SCALES, 'none', s.dk), sqrt = sweepAt(sw, dks, ALL_SCALES, 'inv_sqrt_dk', s.dk);
    return {
      chart: buildSaturationLine(sw, dks, ALL_SCALES, 'entropy', null, s, t),
      numbers: [
        { label: at(t, t('sat.ro.entropy'), 'inv_sqrt_dk', s.dk), value: `${fmt(sqrt!.entropy.mean)} (ln L = ${fmt(sw.logSeqLen)})` },
        { label: at(t, t('sat.ro.entropy'), 'none', s.dk), value: fmt(none!.entropy.mean) },
      ],
    };
  },
};

const gradient: FigureDef<SaturationSweepResult> = {
  compute: interview.compute,
  render(sw, s, t) {
    const dks = satDks(s);
    const field = s.gq === 'jac' ? 'jacFro' : 'gradQuery';
    const what = `${t(s.gq === 'jac' ? 'grad.q.jac' : 'grad.q.grad')} (${t('grad.ro.median')})`;
    // read where the lines part (the article's d_k = 512), from the sweep of the default state
    const v = (scale: 'none' | 'inv_sqrt_dk') => fmt(sweepAt(sw, dks, ALL_SCALES, scale, LANDING_DK)![field].median);
    return {
      chart: buildGradientSweep(sw, dks, ALL_SCALES, null, s, t),
      numbers: [{ label: at(t, what, 'none', LANDING_DK), value: v('none') }, { label: at(t, what, 'inv_sqrt_dk', LANDING_DK), value: v('inv_sqrt_dk') }],
    };
  },
};

const variance: FigureDef<ScoreVarianceResult> = {
  compute: (core, s) => callCore(core, 'scoreVariance', varianceSweepParams(s)) as ScoreVarianceResult,
  render(r, s, t) {
    const row = r.rows.find((x) => x.dk === 512) ?? r.rows[r.rows.length - 1];
    return {
      chart: buildVarianceLaw(r, null, s, t),
      numbers: [
        { label: t('share.pair', { a: t('var.ro.var'), b: `d_k = ${row.dk}` }), value: fmt(row.raw.variance) },
        { label: t('share.pair', { a: t('var.ro.sqrt'), b: `d_k = ${row.dk}` }), value: fmt(row.invSqrtDk.variance) },
      ],
    };
  },
};

const article: FigureDef<SaturationSweepResult> = {
  compute: (core, s) => callCore(core, 'saturationSweep', articleParams(s)) as SaturationSweepResult,
  render(sw, s, t) {
    const l = CLAIMS.C4.extract([sw], s);  // the rule of web/src/claims.ts, as the panel reads it
    return {
      chart: buildArticle(sw.points.map((pts) => ({ summary: pts[0], logSeqLen: sw.logSeqLen })), t),
      numbers: [
        { label: t('share.pair', { a: t('art.series.entropy'), b: t('scale.inv_sqrt_dk') }), value: `${fmt(l.sqrt)} (ln 128 = ${fmt(l.lnL)})` },
        { label: t('share.pair', { a: t('art.series.entropy'), b: t('scale.none') }), value: fmt(l.none) },
      ],
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
    return { chart, numbers: [{ label: t('share.fu.ratio'), value: `${fmt(rows[1].raw.variance / rows[0].raw.variance)}×` }] };
  },
};

const precision: FigureDef<PrecisionLabResult> = {
  compute: (core, s) => callCore(core, 'precisionLab', precisionParams(s)) as PrecisionLabResult,
  render(r, _s, t) {
    const c = (f: 'float16' | 'float32', a: 'naive' | 'safe') => cellOf(r, f, a);
    const text = (x: ReturnType<typeof c>) => (x.shareNan > 0 ? `NaN ${pct(x.shareNan)}` : `✓ Δ ${fmt(x.maxAbsError, 2)}`);
    return {
      chart: buildPrecisionProbs(r, t),
      numbers: [
        { label: t('share.pair', { a: 'float16', b: t('prec.alg.naive') }), value: text(c('float16', 'naive')) },
        { label: t('share.pair', { a: 'float16', b: t('prec.alg.safe') }), value: text(c('float16', 'safe')) },
      ],
    };
  },
};

type LongResults = Partial<Record<LongContextMethod, LongContextResult>>;
const longctx: FigureDef<LongResults> = {
  compute: (core, s) => Object.fromEntries(METHODS.map((m) => [m, callCore(core, 'longContext', longParams(s, m))])) as LongResults,
  render(rs, s, t) {
    const ent = (m: LongContextMethod) => fmt(rs[m]!.points[0].find((p) => p.seqLen === QUOTE_L)!.entropy);
    return {
      chart: buildLongContext(rs, METHODS, 'entropyRatio', s.ltrain, t),
      numbers: [
        { label: t('lc.ro.at', { method: t('lc.method.fixed'), L: QUOTE_L }), value: `${ent('fixed')} (ln L = ${fmt(Math.log(QUOTE_L))})` },
        { label: t('lc.ro.at', { method: t('lc.method.article'), L: QUOTE_L }), value: ent('article') },
      ],
    };
  },
};

/** The KV cache of each layout (the panel's chart) and the entropy at the panel's d_head for MHA and MQA from the core. */
const gqa: FigureDef<Record<Layout, AttentionStatsResult>> = {
  compute: (core, s) => Object.fromEntries(LAYOUTS.map((l) => [l, callCore(core, 'attentionStats', gqaStatsParams(s, l, s.gdk))])) as Record<Layout, AttentionStatsResult>,
  render(rs, s, t) {
    const totals = Object.fromEntries(LAYOUTS.map((l) => [l, kvCacheBytes({ layers: s.kvl, headsKv: headsKvOf(l, s), dHead: s.gdk, bytesPerElement: KV_DTYPE_BYTES[s.kvdt], tokens: s.kvctx }).totalBytes])) as Record<Layout, number>;
    const labels = Object.fromEntries(LAYOUTS.map((l) => [l, t(`gqa.layout.${l}`, { kv: headsKvOf(l, s) })])) as Record<Layout, string>;
    return {
      chart: buildKvCache(totals, labels, t),
      numbers: (['mha', 'mqa'] as const).map((l) => ({ label: t('share.labelled', { a: labels[l], b: t('share.pair', { a: t('sat.ro.entropy'), b: `d_head = ${s.gdk}` }) }), value: fmt(rs[l].summary.entropy.mean) })),
    };
  },
};

interface TensorData { own: TensorStatsResult; iid: AttentionStatsResult }
/** The structured example pair the panel loads by default, under the panel's scale, beside iid N(0, 1) at its shape. */
const tensors: FigureDef<TensorData> = {
  async compute(core, s, read) {
    const { readTensorFile, pairTensors } = await import('../tensors/read.ts');
    const { EXAMPLE_PAIRS } = await import('../tensors/examples.js');
    const names = EXAMPLE_PAIRS[s.tex === 'iid' ? 'iid' : 'structured'];
    const p = pairTensors(readTensorFile(names.q, read(names.q)), readTensorFile(names.k, read(names.k)));
    const own = callCore(core, 'tensorStats', { q: p.q, k: p.k, heads: p.heads, seqLen: p.seqLen, dk: p.dk, scale: s.tscale, seed: 0 }) as TensorStatsResult;
    const iid = callCore(core, 'attentionStats', { heads: p.heads, seqLen: p.seqLen, dk: p.dk, scale: s.tscale, seed: 0, perRow: true, heatmapSize: 1 }) as AttentionStatsResult;
    return { own, iid };
  },
  render({ own, iid }, s, t) {
    const lnL = own.logSeqLen;
    const scale = t(`scale.${s.tscale}` as never);
    return {
      chart: buildRowHistogram(own.rows.entropy, iid.rows!.entropy, 0, Math.max(lnL, 0.01) * 1.02, t('sat.axis.entropy'), lnL, t),
      numbers: [
        { label: t('share.labelled', { a: t('sat.ro.entropy'), b: t('share.tens.note', { scale }) }), value: `${fmt(own.summary.entropy.mean)} (ln L = ${fmt(lnL)})` },
        { label: t('share.labelled', { a: t('sat.ro.entropy'), b: t('share.pair', { a: 'iid N(0, 1)', b: scale }) }), value: fmt(iid.summary.entropy.mean) },
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
      numbers: runs.map((r) => ({ label: t('share.train.steps', { steps: r.stepsDone, variant: t(`train.v.${r.variant}` as never) }), value: fmt(finalLoss(r)) })),
    };
  },
};

/** No measurement at build time (it is the reader's device): the work the panel times, a number of the page's own definition. */
const device: FigureDef<number> = {
  compute: () => attentionFlops(DEVICE_SHAPE),
  render(flops, _s, t) {
    return { chart: null, numbers: [{ label: t('share.dev.flops'), value: `${fmt(flops / 1e6, 3)} M` }] };
  },
};

/** The μP view: entropy against d_k at the state's ρ for 1/√d_k, 1/d_k and d_k^−p (its own request and builder). */
const MUP_QUOTE_DK = 1024;
const mup: FigureDef<SaturationSweepResult> = {
  compute: (core, s) => callCore(core, 'saturationSweep', mupSweepParams(s)) as SaturationSweepResult,
  render(sw, s, t) {
    const dks = mupSweepParams(s).dks;
    const di = dks.indexOf(MUP_QUOTE_DK) >= 0 ? dks.indexOf(MUP_QUOTE_DK) : dks.length - 1;
    const label = (scale: 'inv_sqrt_dk' | 'inv_dk') => t('share.mup.at', { what: t('sat.ro.entropy'), scale: t(`scale.${scale}`), dk: dks[di], rho: rhoLabel(s.rho) });
    return {
      chart: buildMupEntropy(sw, dks, s.mpow, t),
      numbers: [
        { label: label('inv_sqrt_dk'), value: `${fmt(sw.points[0][di].entropy.mean)} (ln L = ${fmt(sw.logSeqLen)})` },
        { label: label('inv_dk'), value: fmt(sw.points[1][di].entropy.mean) },
      ],
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
    return { chart, numbers: quoted.map((m) => ({ label: t('share.wild.model', { model: m.model }), value: `${fmt(m.scale, 6)} (${fmt(ratio(m), 4)}×)` })) };
  },
};

const FIGURES: Partial<Record<Panel, FigureDef<unknown>>> = {
  interview, variance, saturation, gradient, article, followups, precision, longctx, gqa, tensors, training, device, mup, wild,
} as Partial<Record<Panel, FigureDef<unknown>>>;

/** The language-free data of a view's figure at state `s` (null for a view without a figure). */
export async function figureData(p: Panel, core: Core, s: State, read: ReadFile): Promise<unknown> {
  const def = FIGURES[p];
  return def ? await def.compute(core, { ...s, exp: p }, read) : null;
}

/** A view's figure in the language of `t`, from figureData. */
export function renderFigure(p: Panel, data: unknown, s: State, t: T): Figure {
  const def = FIGURES[p];
  return def && data !== null ? def.render(data, { ...s, exp: p }, t) : { chart: null, numbers: [] };
}

/** The view's title and lede, from the catalogue (the app's own words). */
export function viewWords(p: Panel, t: T): { title: string; lede: string } {
  const k = panelTitleKey(p);
  return { title: t(`${k}.title` as never), lede: t(`${k}.lede` as never) };
}
