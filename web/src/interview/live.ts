// The live numbers of the interview view, with no DOM: each number is one field of one core request,
// and each request is exactly the one the proving panel sends for the state its "show me" link sets
// (built with that panel's own parameter builder), so the number here, the panel's readout and a
// test's own call of the core agree. Every state carries the interview seed (iseed) in the panels'
// seed keys; the long-context and GQA panels have a fixed seed 0 of their own.
import type { State } from '../state/state.ts';
import { withPatch, defaultState, panelKeys, formatValue } from '../state/state.ts';
import { SCHEMA, VERSION } from '../state/schema.js';
import type { KeySpec } from '../state/schema.js';
import type { Kind, Calls } from '../worker/protocol.ts';
import type { WorkerName } from '../compute.ts';
import { LONG_SEQ_STEPS, DK_STEPS } from '../state/schema.js';
import { pointParams, logitRuleParams, saturationPointParams, variancePointParams, articleParams } from '../requests/attention.ts';
import { precisionParams } from '../requests/precision.ts';
import { longParams, WORKER_OF, QUOTE_L, alibiParams, ALIBI_LENS, splitKvParams } from '../requests/longctx.ts';
import { gqaStatsParams } from '../requests/gqa.ts';
import { trainingConfigs } from '../training/config.ts';
import { mupSweepParams, mupVarianceParams } from '../requests/mup.ts';
import { normalisersParams, qkClipParams } from '../requests/normalisers.ts';
import type { TrainingConfig } from '../../../wasm/js/core.js';

/** σ² of the “components with variance σ² ≠ 1” follow-up (σ = 2, so σ⁴ = 16). */
export const SIGMA2 = 4;
/** The soft-cap of the follow-up: Gemma 2's attention-logit cap (Gemma Team 2024, §2). */
export const SOFTCAP = 50;

/** The states the view's links open, by id: each a panel with its keys set and the interview seed. */
export const LINKS = {
  var512: { exp: 'variance', dk: 512, samples: 2000 },
  var1024: { exp: 'variance', dk: 1024, samples: 2000 },
  var64: { exp: 'variance', dk: 64, samples: 2000 },
  satNone512: { exp: 'saturation', dk: 512, heads: 4, seqLen: 128, scale: 'none', causal: false, softcap: 0 },
  satSqrt512: { exp: 'saturation', dk: 512, heads: 4, seqLen: 128, scale: 'inv_sqrt_dk', causal: false, softcap: 0 },
  satInv512: { exp: 'saturation', dk: 512, heads: 4, seqLen: 128, scale: 'inv_dk', causal: false, softcap: 0 },
  satModel64: { exp: 'saturation', dk: 64, heads: 8, seqLen: 128, scale: 'inv_sqrt_d_model', causal: false, softcap: 0 },
  satSqrt64h8: { exp: 'saturation', dk: 64, heads: 8, seqLen: 128, scale: 'inv_sqrt_dk', causal: false, softcap: 0 },
  satSqrt64: { exp: 'saturation', dk: 64, heads: 4, seqLen: 128, scale: 'inv_sqrt_dk', causal: false, softcap: 0 },
  satCausal64: { exp: 'saturation', dk: 64, heads: 4, seqLen: 128, scale: 'inv_sqrt_dk', causal: true, softcap: 0 },
  satCap512: { exp: 'saturation', dk: 512, heads: 4, seqLen: 128, scale: 'none', causal: false, softcap: SOFTCAP },
  gradNone512: { exp: 'gradient', dk: 512, heads: 4, seqLen: 128, scale: 'none', gq: 'jac' },
  gradSqrt512: { exp: 'gradient', dk: 512, heads: 4, seqLen: 128, scale: 'inv_sqrt_dk', gq: 'jac' },
  gradqNone512: { exp: 'gradient', dk: 512, heads: 4, seqLen: 128, scale: 'none', gq: 'grad' },
  gradqSqrt512: { exp: 'gradient', dk: 512, heads: 4, seqLen: 128, scale: 'inv_sqrt_dk', gq: 'grad' },
  jac10: { exp: 'gradient', gap: 10 },
  jac0: { exp: 'gradient', gap: 0 },
  article: { exp: 'article' },
  precNone: { exp: 'precision', pmode: 'random', pdk: 512, pseqLen: 128, pscale: 'none', pacc: 'same', pmasked: 'nan', pblock: 32 },
  precSqrt: { exp: 'precision', pmode: 'random', pdk: 512, pseqLen: 128, pscale: 'inv_sqrt_dk', pacc: 'same', pmasked: 'nan', pblock: 32 },
  longctx: { exp: 'longctx', ldk: 64, ltrain: 512 },
  gqa: { exp: 'gqa', hq: 32, hkv: 8, gdk: 128 },
  training: { exp: 'training', trvar: ['inv_sqrt_dk', 'learnable_temperature', 'qk_layernorm', 'qk_l2'] },
  /** the small run this view trains when it opens (about a second): 1 layer, d_model 32, 2 heads, copy task, 150 steps */
  trainSmall: { exp: 'training', trtask: 'copy', trlayers: 1, trdm: 32, trheads: 2, trmlp: 64, trlen: 16, trsteps: 150, trvar: ['inv_sqrt_dk'] },
  tensors: { exp: 'tensors' },
  followups: { exp: 'followups' },
  /** the μP view: iid q, k with the third scale d_k^−0.33 (“why not ∛d_k?”) */
  mupCbrt: { exp: 'mup', rho: 0, mpow: 0.33 },
  /** the μP view at ρ = 1: the matched key is the query itself, q·q (W_q = W_k) */
  mupSelf: { exp: 'mup', rho: 1, mpow: 0.75 },
  /** the μP view at its default ρ = 0.2 (“why does μP divide by d?”) */
  mup02: { exp: 'mup', rho: 0.2, mpow: 0.75 },
  wild: { exp: 'wild' },
  /** the saturation panel at d_k 64 with a sink of logit 2 in every head (gpt-oss semantics) */
  satSink64: { exp: 'saturation', dk: 64, heads: 4, seqLen: 128, scale: 'inv_sqrt_dk', causal: false, softcap: 0, sink: [2] },
  /** “Does attention have to sum to one?” at its defaults: 4 heads, L 128, d_k 64, 1/√d_k, sink 1, λ 0.8 */
  sumone: { exp: 'sumone' },
  interview: { exp: 'interview' },
  /** long context's ALiBi section at d_k 64: 8 heads, Press's slopes, L 16 … 1024 */
  longAlibi: { exp: 'longctx', ldk: 64, lalibi: true },
} as const satisfies Record<string, Partial<State>>;
export type LinkId = keyof typeof LINKS;

/**
 * The state a link opens: the defaults, the reader's language and kernel, the interview seed in
 * every seed key, and the link's keys — nothing else of the page, so the short link below
 * reproduces exactly the state the numbers were computed for.
 */
export function linkState(base: State, id: LinkId): State {
  const seed = base.iseed;
  const start: State = { ...defaultState(base.lang), kernel: base.kernel, cv: base.cv, iseed: seed };
  return withPatch(start, { seed, aseed: seed, pseed: seed, trseed: seed, ...(LINKS[id] as Partial<State>) });
}

/**
 * The shortest hash that opens `state`: the version, exp, and the keys the panel reads that differ
 * from their defaults, plus kernel when not auto and lang when asked (printed links leave it out;
 * the reader's browser language then decides).
 */
export function shortHash(state: State, withLang = true): string {
  const parts = [`v=${VERSION}`, `exp=${state.exp}`];
  if (withLang) parts.push(`lang=${state.lang}`);
  if (state.kernel !== 'auto') parts.push(`kernel=${state.kernel}`);
  for (const k of panelKeys(state.exp)) {
    const v = formatValue(k, state[k]);
    if (v !== formatValue(k, (SCHEMA[k] as KeySpec).default as never)) parts.push(`${k}=${encodeURIComponent(v).replace(/%2C/g, ',')}`);
  }
  return '#' + parts.join('&');
}

/**
 * σ² of q and k in the T5 follow-up: T5 draws W_q with std (d_model·d_kv)^−½ (Raffel et al. 2020; the
 * Mesh TensorFlow initialisation), so q carries the 1/√d_kv itself; split evenly between q and k that is
 * σ² = d_k^−½ each, here at d_k = 64: 1/8.
 */
export const T5_SIGMA2 = 0.125;

/**
 * A request of the view; `lazy`: its numbers sit only in sections the reader opens (a follow-up, a
 * wrong answer), and it is costly — asked once the load's numbers are in, or at once when such a
 * section opens or the page prints, so the load's last number does not wait for it.
 */
export interface LiveRequest<K extends Kind = Kind> { id: string; link: LinkId; worker: WorkerName; kind: K; params: Calls[K]['params']; lazy?: true }

/** The training run of the view: the training lab's configs for the trainSmall link (one variant, 1/√d_k). */
export function trainingRequest(base: State): { link: LinkId; configs: TrainingConfig[] } {
  return { link: 'trainSmall', configs: trainingConfigs(linkState(base, 'trainSmall')) };
}

/** Every request of the view (the same list the browser test replays in Node). */
export function liveRequests(base: State): LiveRequest[] {
  const s = (id: LinkId) => linkState(base, id);
  const sat = (id: LinkId): LiveRequest => ({ id, link: id, worker: 'live', kind: 'attentionStats', params: saturationPointParams(s(id)) });
  const out: LiveRequest[] = [
    { id: 'var512', link: 'var512', worker: 'live', kind: 'scoreVariance', params: variancePointParams(s('var512')) },
    { id: 'var1024', link: 'var1024', worker: 'live', kind: 'scoreVariance', params: variancePointParams(s('var1024')) },
    { id: 'var64', link: 'var64', worker: 'live', kind: 'scoreVariance', params: variancePointParams(s('var64')) },
    { id: 'varSigma', link: 'var64', worker: 'live', kind: 'scoreVariance', params: { ...variancePointParams(s('var64')), variance: SIGMA2 } },
    sat('satSink64'),
    { id: 'wildCat', link: 'wild', worker: 'live', kind: 'modelScales', params: {} },
    { id: 'sumone', link: 'sumone', worker: 'live', kind: 'normalisers', params: normalisersParams(s('sumone')) },
    { id: 'qkclip', link: 'sumone', worker: 'live', kind: 'qkClip', params: qkClipParams(s('sumone')) },
    // the follow-ups "what is the log-sum-exp for?" and "does ALiBi need the 1/√d_k?" (and the wrong
    // answer beside it): ~500 ms of the cold load's last number when asked with the rest
    { id: 'splitkv', link: 'longctx', worker: 'live', kind: 'splitKv', params: splitKvParams(s('longctx')), lazy: true },
    { id: 'alibi', link: 'longAlibi', worker: 'sweep', kind: 'alibiEntropy', params: alibiParams(s('longAlibi'))!, lazy: true },
    sat('satNone512'), sat('satSqrt512'), sat('satInv512'), sat('satModel64'), sat('satSqrt64h8'), sat('satSqrt64'), sat('satCausal64'), sat('satCap512'),
    { id: 'gradNone512', link: 'gradNone512', worker: 'sweep', kind: 'attentionStats', params: pointParams(s('gradNone512')) },
    { id: 'gradSqrt512', link: 'gradSqrt512', worker: 'sweep', kind: 'attentionStats', params: pointParams(s('gradSqrt512')) },
    { id: 'jac10', link: 'jac10', worker: 'live', kind: 'softmaxJacobian', params: { logits: [10, 0] } },
    { id: 'jac0', link: 'jac0', worker: 'live', kind: 'softmaxJacobian', params: { logits: [0, 0] } },
    { id: 'article', link: 'article', worker: 'sweep', kind: 'saturationSweep', params: articleParams(s('article')) },
    { id: 'precNone', link: 'precNone', worker: 'live', kind: 'precisionLab', params: precisionParams(s('precNone')) },
    { id: 'precSqrt', link: 'precSqrt', worker: 'live', kind: 'precisionLab', params: precisionParams(s('precSqrt')) },
    ...(['fixed', 'logn', 'yarn'] as const).map((m): LiveRequest => ({ id: `lc-${m}`, link: 'longctx', worker: WORKER_OF[m], kind: 'longContext', params: longParams(s('longctx'), m) })),
    { id: 'mupCbrt', link: 'mupCbrt', worker: 'sweep', kind: 'saturationSweep', params: mupSweepParams(s('mupCbrt')) },
    { id: 'mupSelf', link: 'mupSelf', worker: 'sweep', kind: 'saturationSweep', params: mupSweepParams(s('mupSelf')) },
    { id: 'mupSelfVar', link: 'mupSelf', worker: 'sweep', kind: 'scoreVariance', params: mupVarianceParams(s('mupSelf'), 1) },
    { id: 'mup02', link: 'mup02', worker: 'sweep', kind: 'saturationSweep', params: mupSweepParams(s('mup02')) },
    { id: 't5', link: 'wild', worker: 'live', kind: 'scoreVariance', params: { ...variancePointParams(s('var64')), variance: T5_SIGMA2 } },
    ...(['mha', 'gqa', 'mqa'] as const).map((l): LiveRequest => ({ id: `gqa-${l}`, link: 'gqa', worker: 'live', kind: 'attentionStats', params: gqaStatsParams(s('gqa'), l, s('gqa').gdk) })),
  ];
  return out;
}

const L_AT = LONG_SEQ_STEPS.indexOf(QUOTE_L);
/** L = 64 and 1024 in the ALiBi section's lengths */
const A64 = ALIBI_LENS.indexOf(64), A1024 = ALIBI_LENS.indexOf(1024);
/** DeepSeek-V3's place in modelScales() */
export const MLA_ENTRY = 7;
/**
 * Where d_k 64 and 1024 sit in the μP sweeps and the μP variance sweep: their d_k are a prefix of
 * DK_STEPS sized by the core's cost model (worker/cost.ts), which holds both (a test of the
 * interview's numbers reads them); known without the core, so this table can be built at load.
 */
const M64 = DK_STEPS.indexOf(64), M1024 = DK_STEPS.indexOf(1024);
const V64 = DK_STEPS.indexOf(64);
/** precision cells are format-major (float64, float32, bfloat16, float16) × (naive, safe, online) */
const F32_SAFE = 1 * 3 + 1;

/**
 * Every live number: its request and the path of the field in the result (dots; numbers index
 * arrays). The path is what the browser test reads from its own call of the core.
 */
export const NUMBERS = {
  std512: ['var512', 'rows.0.raw.std'],
  var512: ['var512', 'rows.0.raw.variance'],
  sqrtVar512: ['var512', 'rows.0.invSqrtDk.variance'],
  invVar512: ['var512', 'rows.0.invDk.variance'],
  var1024: ['var1024', 'rows.0.raw.variance'],
  sqrtVar1024: ['var1024', 'rows.0.invSqrtDk.variance'],
  var64: ['var64', 'rows.0.raw.variance'],
  varSigma: ['varSigma', 'rows.0.raw.variance'],
  varSigmaTheory: ['varSigma', 'rows.0.theory.raw.variance'],
  sqrtVarSigma: ['varSigma', 'rows.0.invSqrtDk.variance'],
  entNone512: ['satNone512', 'summary.entropy.mean'],
  maxwNone512: ['satNone512', 'summary.maxWeight.mean'],
  maxLogitNone512: ['satNone512', 'summary.maxAbsLogit'],
  lnL128: ['satNone512', 'logSeqLen'],
  entSqrt512: ['satSqrt512', 'summary.entropy.mean'],
  maxLogitSqrt512: ['satSqrt512', 'summary.maxAbsLogit'],
  entInv512: ['satInv512', 'summary.entropy.mean'],
  maxwInv512: ['satInv512', 'summary.maxWeight.mean'],
  entModel64: ['satModel64', 'summary.entropy.mean'],
  cModel64: ['satModel64', 'summary.scale'],
  entSqrt64h8: ['satSqrt64h8', 'summary.entropy.mean'],
  entSqrt64: ['satSqrt64', 'summary.entropy.mean'],
  ratioSqrt64: ['satSqrt64', 'summary.entropyRatio.mean'],
  entCausal64: ['satCausal64', 'summary.entropy.mean'],
  ratioCausal64: ['satCausal64', 'summary.entropyRatio.mean'],
  maxLogitCap512: ['satCap512', 'summary.maxAbsLogit'],
  entCap512: ['satCap512', 'summary.entropy.mean'],
  maxwCap512: ['satCap512', 'summary.maxWeight.mean'],
  jacMedNone512: ['gradNone512', 'summary.jacFro.median'],
  jacP10None512: ['gradNone512', 'summary.jacFro.p10'],
  jacP90None512: ['gradNone512', 'summary.jacFro.p90'],
  jacMedSqrt512: ['gradSqrt512', 'summary.jacFro.median'],
  gqMedNone512: ['gradNone512', 'summary.gradQuery.median'],
  gqMeanNone512: ['gradNone512', 'summary.gradQuery.mean'],
  gqP90None512: ['gradNone512', 'summary.gradQuery.p90'],
  gqMedSqrt512: ['gradSqrt512', 'summary.gradQuery.median'],
  gqMeanSqrt512: ['gradSqrt512', 'summary.gradQuery.mean'],
  jac10: ['jac10', 'frobenius'],
  p10: ['jac10', 'probs.0'],
  jac0: ['jac0', 'frobenius'],
  artNone: ['article', 'points.0.0.entropy.mean'],
  artSqrt: ['article', 'points.1.0.entropy.mean'],
  artInv: ['article', 'points.2.0.entropy.mean'],
  artLnL: ['article', 'logSeqLen'],
  precJac64None: ['precNone', 'jacFroMedianF64'],
  precJac32None: ['precNone', `cells.${F32_SAFE}.jacFroMedian`],
  precBad32None: ['precNone', `cells.${F32_SAFE}.shareNonfinite`],
  precJac64Sqrt: ['precSqrt', 'jacFroMedianF64'],
  lcFixed: ['lc-fixed', `points.0.${L_AT}.entropy`],
  lcLogn: ['lc-logn', `points.0.${L_AT}.entropy`],
  lcLognM: ['lc-logn', `points.0.${L_AT}.multiplier`],
  lcYarn: ['lc-yarn', `points.0.${L_AT}.entropy`],
  lcYarnM: ['lc-yarn', `points.0.${L_AT}.multiplier`],
  gqaMha: ['gqa-mha', 'summary.entropy.mean'],
  gqaGqa: ['gqa-gqa', 'summary.entropy.mean'],
  gqaMqa: ['gqa-mqa', 'summary.entropy.mean'],
  cbrtPow64: ['mupCbrt', `points.2.${M64}.entropy.mean`],
  cbrtPow1024: ['mupCbrt', `points.2.${M1024}.entropy.mean`],
  cbrtSqrt64: ['mupCbrt', `points.0.${M64}.entropy.mean`],
  cbrtSqrt1024: ['mupCbrt', `points.0.${M1024}.entropy.mean`],
  cbrtLnL: ['mupCbrt', 'logSeqLen'],
  cbrtInv64: ['mupCbrt', `points.1.${M64}.entropy.mean`],
  cbrtInv1024: ['mupCbrt', `points.1.${M1024}.entropy.mean`],
  selfMaxw64: ['mupSelf', `points.0.${M64}.maxWeight.mean`],
  selfInvMaxw64: ['mupSelf', `points.1.${M64}.maxWeight.mean`],
  selfMean64: ['mupSelfVar', `rows.${V64}.raw.mean`],
  mupSqrt64: ['mup02', `points.0.${M64}.entropy.mean`],
  mupSqrt1024: ['mup02', `points.0.${M1024}.entropy.mean`],
  mupInv64: ['mup02', `points.1.${M64}.entropy.mean`],
  mupInv1024: ['mup02', `points.1.${M1024}.entropy.mean`],
  mupMaxw1024: ['mup02', `points.0.${M1024}.maxWeight.mean`],
  t5Var: ['t5', 'rows.0.raw.variance'],
  sinkMass64: ['satSink64', 'summary.sinkMass.mean'],
  sinkMaxw64: ['satSink64', 'summary.maxWeight.mean'],
  sinkEnt64: ['satSink64', 'summary.entropy.mean'],
  // the normalisers in their order: softmax, offByOne, sink, sigmoid, gated, differential
  sumSoftmax: ['sumone', 'rows.0.rowSum'],
  sumOffByOne: ['sumone', 'rows.1.rowSum'],
  sumSigmoid: ['sumone', 'rows.3.rowSum'],
  sumSigmoidMax: ['sumone', 'rows.3.rowSumMax'],
  sumGated: ['sumone', 'rows.4.rowSum'],
  sumDiff: ['sumone', 'rows.5.rowSum'],
  sumDiffNeg: ['sumone', 'rows.5.negativeShare'],
  maxwSqrt64: ['satSqrt64', 'summary.maxWeight.mean'],
  // QK-Clip at the sum-to-one view's defaults (q × 30, τ 100, 8 heads in 2 K/V groups): head 0, its η its group's
  qcMax0: ['qkclip', 'maxLogit.0'],
  qcGamma0: ['qkclip', 'gamma.0'],
  qcAfter0: ['qkclip', 'clippedMax.0'],
  // the split-KV merge on long context (worker/split-kv.ts) at its defaults: 4 heads, L 256, d_k 64, keys cut in half
  lmDiff: ['splitkv', 'maxDiff'],
  lmLse: ['splitkv', 'lseMaxDiff'],
  lmBase2: ['splitkv', 'base2MaxDiff'],
  lmEmpty: ['splitkv', 'emptyMaxDiff'],
  // ALiBi on long context (worker/alibi.ts): 1/√d_k alone, the steepest and the gentlest head, at L 64 and 1024
  alPlain64: ['alibi', `plainMean.${A64}`],
  alPlain1024: ['alibi', `plainMean.${A1024}`],
  alSteep64: ['alibi', `alibi.0.${A64}`],
  alSteep1024: ['alibi', `alibi.0.${A1024}`],
  alGentle1024: ['alibi', `alibi.7.${A1024}`],
  // DeepSeek-V3, entry 7 of the core's catalogue (a unit test holds the index to the name)
  mlaScale: ['wildCat', `${MLA_ENTRY}.scale`],
  mlaInv: ['wildCat', `${MLA_ENTRY}.invSqrtDHead`],
  sqrtVar64: ['var64', 'rows.0.invSqrtDk.variance'],
  // the training run (web/src/training: the training lab's own worker and controller)
  trainVar: ['train', 'analysis.layers.0.logitMoments.variance'],
  trainIid: ['train', 'analysis.layers.0.iidQkVariance'],
  trainQk: ['train', 'analysis.layers.0.qk.variance'],
  trainAcc: ['train', 'evaluation.tokenAccuracy'],
} as const satisfies Record<string, readonly [string, string]>;
export type NumberId = keyof typeof NUMBERS;

/** Reads a field by its dotted path (numbers index arrays and typed arrays). */
export function readPath(obj: unknown, path: string): number {
  let v: unknown = obj;
  for (const part of path.split('.')) v = (v as Record<string, unknown>)?.[part];
  return typeof v === 'number' ? v : NaN;
}

/** The live numbers from the results by request id (NaN where a request has not answered). */
export function liveNumbers(results: Record<string, unknown>): Record<NumberId, number> {
  const out = {} as Record<NumberId, number>;
  for (const [id, [req, path]] of Object.entries(NUMBERS) as [NumberId, readonly [string, string]][]) out[id] = req in results ? readPath(results[req], path) : NaN;
  return out;
}

/** The panel readouts a link's panel shows for a number (data-readout id → number id), checked by the browser test. */
export const READOUTS: Partial<Record<LinkId, Record<string, NumberId>>> = {
  var512: { 'var-std': 'std512', 'var-var': 'var512', 'var-sqrt': 'sqrtVar512', 'var-dk': 'invVar512' },
  var1024: { 'var-var': 'var1024', 'var-sqrt': 'sqrtVar1024' },
  var64: { 'var-var': 'var64' },
  satNone512: { 'sat-entropy': 'entNone512', 'sat-maxw': 'maxwNone512', 'sat-lnL': 'lnL128', 'sat-maxlogit': 'maxLogitNone512' },
  satSqrt512: { 'sat-entropy': 'entSqrt512', 'sat-maxlogit': 'maxLogitSqrt512' },
  satInv512: { 'sat-entropy': 'entInv512', 'sat-maxw': 'maxwInv512' },
  satModel64: { 'sat-entropy': 'entModel64', 'sat-c': 'cModel64' },
  satSqrt64h8: { 'sat-entropy': 'entSqrt64h8' },
  satSqrt64: { 'sat-entropy': 'entSqrt64', 'sat-ratio': 'ratioSqrt64' },
  satCausal64: { 'sat-entropy': 'entCausal64', 'sat-ratio': 'ratioCausal64' },
  satCap512: { 'sat-maxlogit': 'maxLogitCap512', 'sat-entropy': 'entCap512' },
  gradNone512: { 'grad-median': 'jacMedNone512', 'grad-p10': 'jacP10None512', 'grad-p90': 'jacP90None512' },
  gradSqrt512: { 'grad-median': 'jacMedSqrt512' },
  gradqNone512: { 'grad-median': 'gqMedNone512', 'grad-mean': 'gqMeanNone512', 'grad-p90': 'gqP90None512' },
  gradqSqrt512: { 'grad-median': 'gqMedSqrt512', 'grad-mean': 'gqMeanSqrt512' },
  jac10: { 'jac-fro': 'jac10' },
  jac0: { 'jac-fro': 'jac0' },
  article: { 'art-entropy-none': 'artNone', 'art-entropy-inv_sqrt_dk': 'artSqrt', 'art-entropy-inv_dk': 'artInv' },
  precNone: { 'prec-jac64': 'precJac64None' },
  precSqrt: { 'prec-jac64': 'precJac64Sqrt' },
  longctx: { 'lc-fixed': 'lcFixed', 'lc-logn': 'lcLogn', 'lc-yarn': 'lcYarn' },
  satSink64: { 'sat-sink': 'sinkMass64', 'sat-maxw': 'sinkMaxw64', 'sat-entropy': 'sinkEnt64' },
  wild: { [`wild-scale-${MLA_ENTRY}`]: 'mlaScale' },
  sumone: { 'sum-softmax-rowSum': 'sumSoftmax', 'sum-offByOne-rowSum': 'sumOffByOne', 'sum-sigmoid-rowSum': 'sumSigmoid', 'sum-gated-rowSum': 'sumGated', 'sum-differential-rowSum': 'sumDiff' },
  mupCbrt: { 'mup-power-64': 'cbrtPow64', 'mup-power-1024': 'cbrtPow1024', 'mup-sqrt-64': 'cbrtSqrt64', 'mup-sqrt-1024': 'cbrtSqrt1024' },
  mupSelf: { 'mup-maxw-64': 'selfMaxw64', 'mup-mean-64': 'selfMean64' },
  mup02: { 'mup-sqrt-64': 'mupSqrt64', 'mup-sqrt-1024': 'mupSqrt1024', 'mup-inv-64': 'mupInv64', 'mup-inv-1024': 'mupInv1024', 'mup-maxw-1024': 'mupMaxw1024' },
  gqa: { 'gqa-mha-entropy': 'gqaMha', 'gqa-gqa-entropy': 'gqaGqa', 'gqa-mqa-entropy': 'gqaMqa' },
};
