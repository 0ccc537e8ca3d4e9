// The drill's questions (interview mode, part 4): pure data and rules, no DOM. Each question draws
// its parameters from a seed (so "another one" gives new numbers and a link with the same seed
// gives the same question), names the core request that answers it — built by the same functions
// the panels use, so the "show me" panel shows the same number — and reads the answer from the
// result. A numeric answer is scored by how close the prediction is, as a factor; a choice by
// whether it is the option the live numbers pick.
import type {
  ScoreVarianceResult, AttentionStatsResult, SaturationSweepResult, SoftmaxJacobianResult, PrecisionLabResult, LongContextResult,
} from '../../../wasm/js/core.js';
import type { GroupedLogitsResult } from '../worker/protocol.ts';
import type { NormalisersResult, QkClipResult } from '../../../wasm/js/core.js';
import type { SplitKvResult } from '../worker/split-kv.ts';
import type { DvCheckResult } from '../worker/dv-check.ts';
import type { AlibiResult } from '../worker/alibi.ts';
import type { State } from '../state/state.ts';
import { withPatch } from '../state/state.ts';
import { DRILL_QUESTIONS } from '../state/schema.js';
import { variancePointParams, varianceSweepParams, pointParams, sweepParams, logitRuleParams, saturationPointParams } from '../requests/attention.ts';
import { precisionParams } from '../requests/precision.ts';
import { longParams, splitKvParams, alibiParams } from '../requests/longctx.ts';
import { GQA_SEQ_LEN, dvCheckParams } from '../requests/gqa.ts';
import { normalisersRowParams, qkClipParams } from '../requests/normalisers.ts';
import { ln } from '../portable-math.ts';
import { sweepAt, ALL_SCALES } from '../requests/results.ts';
import { cellOf } from '../requests/results.ts';
import type { ClaimRequest } from '../claims.ts';
import { mupDrift, c3AtRho } from '../claims.ts';
import { mupVarianceParams, mupSweepParams } from '../requests/mup.ts';

/** mulberry32: a small, well-mixed 32-bit generator; the drill's parameters only (never the core's numbers). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

/** Scoring of a numeric prediction: within a factor `full` of the live number, 1 point; within `half`, ½; else 0. */
export interface FactorRule { full: number; half: number }
export function closeness(pred: number, live: number): number {
  if (!(pred > 0) || !(live > 0) || !Number.isFinite(pred) || !Number.isFinite(live)) return Infinity;
  return Math.max(pred / live, live / pred);
}
export function scoreNumber(pred: number, live: number, rule: FactorRule): 0 | 0.5 | 1 {
  const f = closeness(pred, live);
  return f <= rule.full ? 1 : f <= rule.half ? 0.5 : 0;
}
export function scoreChoice(chosen: number, correct: number): 0 | 1 {
  return chosen === correct ? 1 : 0;
}

/** The index of the value whose log is nearest to ln x (a choice among orders of magnitude). */
export function nearestInLog(x: number, targets: readonly number[]): number {
  let best = 0;
  targets.forEach((v, i) => { if (Math.abs(ln(x / v)) < Math.abs(ln(x / targets[best]))) best = i; });  // portable ln: the same choice in every engine
  return best;
}

export type Params = Record<string, number>;
interface Base {
  id: QuestionId;
  /** the parameters drawn from the seed */
  params(seed: number): Params;
  /** the state the "show me" link opens (the panel proving the answer) */
  patch(p: Params, seed: number): Partial<State>;
  /** the core request, built from the state of the link */
  request(s: State, p: Params): ClaimRequest;
  /** numbers for the explanation */
  facts(result: unknown, p: Params): Record<string, number>;
}
export interface NumberQuestion extends Base {
  kind: 'number';
  rule: FactorRule;
  /** the range of the log slider */
  range: [number, number];
  answer(result: unknown, p: Params): number;
}
export interface ChoiceQuestion extends Base {
  kind: 'choice';
  options: number;
  correct(result: unknown, p: Params): number;
}
export type Question = NumberQuestion | ChoiceQuestion;

/** The question ids, in order: the schema's `dq` values. */
export const QUESTION_IDS = DRILL_QUESTIONS;
export type QuestionId = (typeof DRILL_QUESTIONS)[number];

const coreSeed = (seed: number) => seed >>> 0;
const req = (worker: ClaimRequest['worker'], kind: ClaimRequest['kind'], params: unknown): ClaimRequest => ({ worker, kind, params } as ClaimRequest);
const SAT = { heads: 4, seqLen: 128, causal: false, softcap: 0 } as const;
const VAR_ROW = (r: unknown) => (r as ScoreVarianceResult).rows[0];

const QUESTIONS: Question[] = [
  {
    id: 'std', kind: 'number', rule: { full: 1.2, half: 1.5 }, range: [0.1, 10000],
    params: (seed) => { const r = rng(seed); return { dk: pick(r, [64, 128, 256, 512, 1024, 2048, 4096]) }; },
    patch: (p, seed) => ({ exp: 'variance', dk: p.dk, seed: coreSeed(seed), samples: 2000 }),
    request: (s) => req('live', 'scoreVariance', variancePointParams(s)),
    answer: (r) => VAR_ROW(r).raw.std,
    facts: (r, p) => ({ dk: p.dk, sqrt: Math.sqrt(p.dk), v: VAR_ROW(r).raw.variance }),
  },
  {
    id: 'sigma', kind: 'number', rule: { full: 1.25, half: 2 }, range: [0.001, 1000],
    params: (seed) => { const r = rng(seed); return { dk: pick(r, [64, 256, 1024]), s2: pick(r, [0.25, 0.5, 2, 3, 4]) }; },
    patch: (p, seed) => ({ exp: 'variance', dk: p.dk, seed: coreSeed(seed), samples: 2000 }),
    request: (s, p) => req('live', 'scoreVariance', { dks: [p.dk], samples: 2000, seed: s.seed, variance: p.s2, bins: 4 }),
    answer: (r) => VAR_ROW(r).invSqrtDk.variance,
    facts: (r, p) => ({ dk: p.dk, s2: p.s2, s4: p.s2 * p.s2, raw: VAR_ROW(r).raw.variance }),
  },
  {
    id: 'invdk', kind: 'number', rule: { full: 1.25, half: 2 }, range: [0.0001, 10],
    params: (seed) => { const r = rng(seed); return { dk: pick(r, [64, 128, 256, 512, 1024]) }; },
    patch: (p, seed) => ({ exp: 'variance', dk: p.dk, seed: coreSeed(seed), samples: 2000 }),
    request: (s) => req('live', 'scoreVariance', variancePointParams(s)),
    answer: (r) => VAR_ROW(r).invDk.variance,
    facts: (r, p) => ({ dk: p.dk, inv: 1 / p.dk, sqrtVar: VAR_ROW(r).invSqrtDk.variance }),
  },
  {
    id: 'entropy', kind: 'number', rule: { full: 1.05, half: 1.15 }, range: [0.1, 10],
    params: (seed) => { const r = rng(seed); return { L: pick(r, [32, 64, 128, 256, 512]) }; },
    patch: (p, seed) => ({ exp: 'saturation', ...SAT, seqLen: p.L, dk: 64, scale: 'inv_sqrt_dk', seed: coreSeed(seed) }),
    request: (s) => req('live', 'attentionStats', saturationPointParams(s)),
    answer: (r) => (r as AttentionStatsResult).summary.entropy.mean,
    facts: (r, p) => ({ L: p.L, lnL: (r as AttentionStatsResult).logSeqLen, pred: (r as AttentionStatsResult).logSeqLen - 0.5 }),
  },
  {
    id: 'jac', kind: 'number', rule: { full: 2, half: 4 }, range: [1e-7, 1],
    params: (seed) => { const r = rng(seed); return { g: pick(r, [2, 4, 6, 8, 10, 12]) }; },
    patch: (p) => ({ exp: 'gradient', gap: p.g }),
    request: (_s, p) => req('live', 'softmaxJacobian', { logits: [p.g, 0] }),
    answer: (r) => (r as SoftmaxJacobianResult).frobenius,
    facts: (r, p) => ({ g: p.g, p1: (r as SoftmaxJacobianResult).probs[0], p2: (r as SoftmaxJacobianResult).probs[1] }),
  },
  {
    id: 'double', kind: 'number', rule: { full: 1.2, half: 1.5 }, range: [0.1, 10],
    params: (seed) => { const r = rng(seed); const dk = pick(r, [32, 64, 128, 256, 512, 1024]); return { dk, dk2: 2 * dk }; },
    patch: (p, seed) => ({ exp: 'variance', dk: 2 * p.dk, seed: coreSeed(seed), samples: 2000 }),
    request: (s) => req('sweep', 'scoreVariance', varianceSweepParams(s)),
    answer: (r, p) => rowOf(r, 2 * p.dk).raw.variance / rowOf(r, p.dk).raw.variance,
    facts: (r, p) => ({ dk: p.dk, dk2: 2 * p.dk, v1: rowOf(r, p.dk).raw.variance, v2: rowOf(r, 2 * p.dk).raw.variance }),
  },
  {
    id: 'yarn', kind: 'number', rule: { full: 1.1, half: 1.3 }, range: [0.5, 10],
    params: (seed) => { const r = rng(seed); const s = pick(r, [2, 4, 8, 16, 32]); return { s, train: 512, L: s * 512 }; },
    patch: (p) => ({ exp: 'longctx', ldk: 64, ltrain: p.train }),
    request: (s) => req('sweep', 'longContext', longParams(s, 'yarn')),
    answer: (r, p) => yarnAt(r, p).multiplier,
    facts: (r, p) => ({ s: p.s, train: p.train, L: p.s * p.train, once: Math.sqrt(yarnAt(r, p).multiplier) }),
  },
  {
    id: 'gradmean', kind: 'choice', options: 3,
    params: (seed) => { const r = rng(seed); return { dk: pick(r, [256, 512, 1024]) }; },
    patch: (p, seed) => ({ exp: 'gradient', ...SAT, dk: p.dk, scale: 'none', gq: 'grad', seed: coreSeed(seed) }),
    request: (s) => req('sweep', 'saturationSweep', sweepParams(s)),
    correct: (r, p) => { const f = gradRatios(r, p); return f.mean < 0.5 ? 0 : f.mean <= 2 ? 1 : 2; },
    facts: (r, p) => ({ dk: p.dk, ...gradRatios(r, p) }),
  },
  {
    id: 'scale', kind: 'choice', options: 4,
    params: (seed) => { const r = rng(seed); return { dk: pick(r, [16, 64, 256, 1024]), h: pick(r, [4, 8, 16]) }; },
    patch: (p, seed) => ({ exp: 'variance', dk: p.dk, seed: coreSeed(seed), samples: 2000 }),
    request: (s) => req('live', 'scoreVariance', variancePointParams(s)),
    correct: (r, p) => nearestInLog(1, scaleVariances(r, p)),
    facts: (r, p) => { const [none, sqrt, inv, dm] = scaleVariances(r, p); return { dk: p.dk, h: p.h, none, sqrt, inv, dm }; },
  },
  {
    id: 'uniform', kind: 'choice', options: 3,
    params: (seed) => { const r = rng(seed); return { dk: pick(r, [64, 256, 512, 1024]), L: pick(r, [64, 128, 256]) }; },
    patch: (p, seed) => ({ exp: 'saturation', ...SAT, dk: p.dk, seqLen: p.L, scale: 'inv_dk', seed: coreSeed(seed) }),
    request: (s) => req('live', 'attentionStats', saturationPointParams(s)),
    correct: (r) => { const x = entropyShare(r); return x < 0.25 ? 0 : x < 0.95 ? 1 : 2; },
    facts: (r, p) => ({ dk: p.dk, L: p.L, H: (r as AttentionStatsResult).summary.entropy.mean, lnL: (r as AttentionStatsResult).logSeqLen, share: entropyShare(r) }),
  },
  {
    id: 'fp64', kind: 'choice', options: 3,
    params: (seed) => { const r = rng(seed); return { dk: pick(r, [256, 512, 1024, 2048]) }; },
    patch: (p, seed) => ({ exp: 'precision', pmode: 'random', pdk: p.dk, pseqLen: 128, pscale: 'none', pseed: coreSeed(seed), pblock: 32, pacc: 'same', pmasked: 'nan' }),
    request: (s) => req('live', 'precisionLab', precisionParams(s)),
    correct: (r) => { const x = fpRatio(r); return x >= 10 ? 0 : Math.abs(x - 1) <= 0.1 ? 1 : 2; },
    facts: (r, p) => ({ dk: p.dk, j64: (r as PrecisionLabResult).jacFroMedianF64, j32: cellOf(r as PrecisionLabResult, 'float32', 'safe').jacFroMedian, ratio: fpRatio(r) }),
  },
  {
    id: 'mqa', kind: 'choice', options: 3,
    params: (seed) => { const r = rng(seed); return { hq: pick(r, [8, 16, 32, 64]), d: pick(r, [64, 128, 256]) }; },
    patch: (p) => ({ exp: 'gqa', hq: p.hq, hkv: 1, gdk: p.d }),
    request: (s) => req('live', 'groupedLogits', { heads: s.hq, headsKv: 1, seqLen: GQA_SEQ_LEN, dk: s.gdk, seed: 0 }),
    correct: (r, p) => nearestInLog((r as GroupedLogitsResult).scaledVariance, [1 / p.hq, 1, p.hq]),
    facts: (r, p) => ({ hq: p.hq, d: p.d, v: (r as GroupedLogitsResult).scaledVariance }),
  },
  {
    // correlated q and k (μP): the mean of q·k over matched pairs is ρ·d_k
    id: 'corr', kind: 'number', rule: { full: 1.2, half: 1.5 }, range: [0.1, 10000],
    params: (seed) => { const r = rng(seed); return { dk: pick(r, [64, 256, 1024]), rho: pick(r, [0.1, 0.2, 0.3, 0.5]) }; },
    patch: (p, seed) => ({ exp: 'mup', rho: p.rho, seed: coreSeed(seed) }),
    request: (s) => req('sweep', 'scoreVariance', mupVarianceParams(s, s.rho)),
    answer: (r, p) => rowOf(r, p.dk).raw.mean,
    facts: (r, p) => ({ dk: p.dk, rho: p.rho, v: rowOf(r, p.dk).raw.variance, sd: rowOf(r, p.dk).raw.std }),
  },
  {
    // which scale keeps the rows put from d_k 64 to 1024 at a correlation ρ (the rule of claims.ts)
    id: 'mupflat', kind: 'choice', options: 3,
    params: (seed) => { const r = rng(seed); return { rho: pick(r, [0, 0.2, 0.3, 0.5]) }; },
    patch: (p, seed) => ({ exp: 'mup', rho: p.rho, mpow: 0.75, seed: coreSeed(seed) }),
    request: (s) => req('sweep', 'saturationSweep', mupSweepParams(s)),
    correct: (r, p) => { const f = mupFlat(r, p); return f.sqrtFlat && f.invFlat ? 2 : f.invFlat ? 1 : 0; },
    facts: (r, p) => { const f = mupFlat(r, p); return { rho: p.rho, sqrtDrift: f.sqrt, invDrift: f.inv }; },
  },
  // ---- attention as 2026 models compute it (issue 27): each answered by the section or view that shows it ----
  {
    // a base-2 LSE read as nats by a split-KV merge (the long-context view's LSE merge, worker/split-kv.ts)
    id: 'lse2', kind: 'choice', options: 3,
    params: (seed) => { const r = rng(seed); return { L: pick(r, [128, 256, 512]), dk: pick(r, [32, 64, 128]) }; },
    patch: (p) => ({ exp: 'longctx', ldk: p.dk, lmlen: p.L, lmsplit: 0.5 }),
    request: (s) => req('live', 'splitKv', splitKvParams(s)),
    correct: (r) => { const e = (r as SplitKvResult).base2MaxDiff; return e === 0 ? 0 : e < 1e-4 ? 1 : 2; },
    facts: (r, p) => ({ L: p.L, dk: p.dk, base2: (r as SplitKvResult).base2MaxDiff, nats: (r as SplitKvResult).maxDiff }),
  },
  {
    // MLA: q/k heads of d_k, v heads of d_v; the scale the core applies (the GQA view's d_v section, worker/dv-check.ts)
    id: 'dvscale', kind: 'number', rule: { full: 1.05, half: 1.15 }, range: [0.001, 1],
    params: (seed) => { const r = rng(seed); const [dk, dv] = pick(r, [[192, 128], [128, 64], [256, 128], [96, 64]] as const); return { dk, dv }; },
    patch: (p) => ({ exp: 'gqa', hq: 8, hkv: 8, gdk: p.dk, gdv: p.dv }),
    request: (s) => req('live', 'dvCheck', dvCheckParams(s)),
    answer: (r) => (r as DvCheckResult).scale,
    facts: (r, p) => ({ dk: p.dk, dv: p.dv, wrong: 1 / Math.sqrt(p.dv), ent: (r as DvCheckResult).entropy, entWrong: (r as DvCheckResult).entropyDv }),
  },
  {
    // QK-Clip (Kimi K2's MuonClip): where the largest logit of the head that holds it lands (the sum-to-one view's QK-Clip section)
    id: 'qkclip', kind: 'choice', options: 3,
    params: (seed) => { const r = rng(seed); return { gain: pick(r, [5, 30, 50]), tau: pick(r, [50, 100]) }; },
    patch: (p, seed) => ({ exp: 'sumone', qcgain: p.gain, qctau: p.tau, qchkv: 2, seed: coreSeed(seed) }),
    request: (s) => req('live', 'qkClip', qkClipParams(s)),
    // η = 1: not clipped, the logit is where it was; else the nearer of τ and S_max·√η to the largest logit after the clip
    correct: (r, p) => { const f = clipTop(r); return f.eta === 1 ? 2 : nearestIndex(f.after, [p.tau, f.before * Math.sqrt(f.eta)]); },
    facts: (r, p) => { const f = clipTop(r); return { gain: p.gain, tau: p.tau, before: f.before, eta: f.eta, after: f.after, clipped: (r as QkClipResult).clippedHeads }; },
  },
  {
    // sigmoid attention with bias −ln n on all-zero logits (Apple 2024): the row sum (the sum-to-one view's checks)
    id: 'sigsum', kind: 'choice', options: 3,
    params: (seed) => { const r = rng(seed); return { n: pick(r, [4, 8, 32, 128]) }; },
    patch: () => ({ exp: 'sumone' }),
    request: (s, p) => req('live', 'normalisers', normalisersRowParams(s, Array.from({ length: p.n }, () => 0))),
    correct: (r, p) => nearestIndex(sigmoidSum(r), [1, p.n / (p.n + 1), p.n / 2]),
    facts: (r, p) => ({ n: p.n, sum: sigmoidSum(r), ratio: p.n / (p.n + 1) }),
  },
  {
    // ALiBi on top of 1/√d_k: does head h's entropy keep growing with L (the long-context view's ALiBi section, worker/alibi.ts)
    id: 'alibi', kind: 'choice', options: 2,
    params: (seed) => { const r = rng(seed); return { head: pick(r, [1, 2, 8]), dk: pick(r, [32, 64, 128]) }; },
    patch: (p) => ({ exp: 'longctx', ldk: p.dk, lalibi: true }),
    request: (s) => req('sweep', 'alibiEntropy', alibiParams(s)!),
    correct: (r, p) => (alibiGrowth(r, p).share > ALIBI_FLAT ? 0 : 1),
    facts: (r, p) => { const g = alibiGrowth(r, p); return { head: p.head, dk: p.dk, m: g.m, e64: g.e64, e1024: g.e1024, plain64: g.plain64, plain1024: g.plain1024, share: g.share }; },
  },
];

/** Whether ÷√d_k and ÷d_k keep the entropy within 5 % of ln L from d_k 64 to 1024 at ρ (c3AtRho's rule). */
function mupFlat(r: unknown, p: Params) {
  const s = { rho: p.rho, mpow: 0.75, seed: 0 } as State;
  const sqrt = mupDrift(r as SaturationSweepResult, s, 'sqrt'), inv = mupDrift(r as SaturationSweepResult, s, 'inv');
  return { sqrt, inv, sqrtFlat: c3AtRho(sqrt) === 'agree', invFlat: c3AtRho(inv) === 'agree' };
}

/** The index of the value nearest to x (absolute difference). */
function nearestIndex(x: number, targets: readonly number[]): number {
  let best = 0;
  targets.forEach((v, i) => { if (Math.abs(x - v) < Math.abs(x - targets[best])) best = i; });
  return best;
}
/** QK-Clip's head with the largest logit of all: S_max before, its η and its largest logit after. */
function clipTop(r: unknown) {
  const c = r as QkClipResult;
  let h = 0;
  for (let i = 1; i < c.maxLogit.length; i++) if (c.maxLogit[i] > c.maxLogit[h]) h = i;
  return { before: c.maxLogit[h], eta: c.gamma[h], after: c.clippedMax[h] };
}
/** The row sum of sigmoid attention (bias −ln n) on the explicit row. */
function sigmoidSum(r: unknown): number {
  const row = (r as NormalisersResult).rows.find((x) => x.name === 'sigmoid');
  if (!row || row.rowSum === null) throw new RangeError('no sigmoid row in the normalisers result');
  return row.rowSum;
}
/** ALiBi's head is "still growing" when its entropy gains more than this share of ln 1024 − ln 64 from L = 64 to 1024. */
export const ALIBI_FLAT = 0.25;
/** Head `head` (1-based) with ALiBi from L = 64 to 1024: its entropies, 1/√d_k alone's, and the gain as a share of ln 16. */
function alibiGrowth(r: unknown, p: Params) {
  const a = r as AlibiResult;
  const i64 = a.seqLens.indexOf(64), i1024 = a.seqLens.indexOf(1024);
  if (i64 < 0 || i1024 < 0) throw new RangeError('the ALiBi result lacks L = 64 or 1024');
  const e = a.alibi[p.head - 1];
  return {
    m: a.slopes[p.head - 1], e64: e[i64], e1024: e[i1024], plain64: a.plainMean[i64], plain1024: a.plainMean[i1024],
    share: (e[i1024] - e[i64]) / ln(16),
  };
}
function rowOf(r: unknown, dk: number) {
  const row = (r as ScoreVarianceResult).rows.find((x) => x.dk === dk);
  if (!row) throw new RangeError(`no d_k = ${dk} in the variance sweep`);
  return row;
}
function yarnAt(r: unknown, p: Params) {
  const pt = (r as LongContextResult).points[0].find((x) => x.seqLen === p.s * p.train);
  if (!pt) throw new RangeError(`no L = ${p.s * p.train} in the long-context sweep`);
  return pt;
}
function gradRatios(r: unknown, p: Params) {
  const dks = sweepParams({ heads: SAT.heads, seqLen: SAT.seqLen } as State).dks;
  const none = sweepAt(r as SaturationSweepResult, dks, ALL_SCALES, 'none', p.dk);
  const sq = sweepAt(r as SaturationSweepResult, dks, ALL_SCALES, 'inv_sqrt_dk', p.dk);
  if (!none || !sq) throw new RangeError(`no d_k = ${p.dk} in the sweep`);
  return {
    jac: none.jacFro.median / sq.jacFro.median, c: sq.scale,
    medNone: none.gradQuery.median, medSqrt: sq.gradQuery.median, meanNone: none.gradQuery.mean, meanSqrt: sq.gradQuery.mean,
    median: none.gradQuery.median / sq.gradQuery.median, mean: none.gradQuery.mean / sq.gradQuery.mean,
  };
}
/** Var of the logits under none, 1/√d_k, 1/d_k and 1/√d_model (d_model = h·d_k), from the raw q·k of the same draw. */
function scaleVariances(r: unknown, p: Params): number[] {
  const row = VAR_ROW(r);
  return [row.raw.variance, row.invSqrtDk.variance, row.invDk.variance, row.raw.variance / (p.h * p.dk)];
}
const entropyShare = (r: unknown) => (r as AttentionStatsResult).summary.entropy.mean / (r as AttentionStatsResult).logSeqLen;
const fpRatio = (r: unknown) => (r as PrecisionLabResult).jacFroMedianF64 / cellOf(r as PrecisionLabResult, 'float32', 'safe').jacFroMedian;

export const QUESTIONS_BY_ID: Readonly<Record<QuestionId, Question>> = Object.freeze(Object.fromEntries(QUESTIONS.map((q) => [q.id, q])) as Record<QuestionId, Question>);
export { QUESTIONS };

/** The state of a question's "show me" link and of its request: the page's state with the question's patch. */
export function questionState(base: State, q: Question, seed: number): { params: Params; state: State; request: ClaimRequest } {
  const params = q.params(seed);
  const state = withPatch({ ...base, embed: false }, q.patch(params, seed));
  return { params, state, request: q.request(state, params) };
}

// ---- progress, kept in localStorage only ----
export const PROGRESS_KEY = 'sqrtdk-drill-v1';
export interface Progress { answered: Record<string, number> }
export interface StorageLike { getItem(k: string): string | null; setItem(k: string, v: string): void; removeItem(k: string): void }

/** A progress key: a drill question id and a seed in the URL's range, `std:42`. */
export function isProgressKey(k: string): boolean {
  const m = /^([a-z0-9]+):(0|[1-9]\d{0,9})$/.exec(k);
  return m !== null && (DRILL_QUESTIONS as readonly string[]).includes(m[1]) && Number(m[2]) <= 4294967295;
}
/**
 * What the drill reads of its store at most: PROGRESS_KEY is writable by any page of a shared
 * origin (user.github.io), and a 2 MiB store of 150,000 keys made each answer a 6.8 s task. A
 * store longer than `chars` is not parsed at all, and only the first `answers` answers of one
 * that is count; the rest is ignored (with a notice). The drill itself writes at most `answers`
 * answers, about 25 characters each: its own store never comes near `chars`.
 */
export const PROGRESS_LIMITS = Object.freeze({ answers: 5000, chars: 256 * 1024 });

/** The progress in a store's text, read in bounded time: `ignored` when part of it (or all of it) was past PROGRESS_LIMITS. */
export function parseProgress(raw: string | null | undefined): { progress: Progress; ignored: boolean } {
  const answered: Record<string, number> = {};
  if (!raw) return { progress: { answered }, ignored: false };
  if (raw.length > PROGRESS_LIMITS.chars) return { progress: { answered }, ignored: true };
  let n = 0;
  try {
    const p = JSON.parse(raw) as Progress;
    if (p && typeof p.answered === 'object' && p.answered !== null) {
      // only `question:seed` keys of this drill count (a store filled by anything else reads as empty)
      for (const [k, v] of Object.entries(p.answered)) {
        if (!((v === 0 || v === 0.5 || v === 1) && isProgressKey(k))) continue;
        if (n === PROGRESS_LIMITS.answers) return { progress: { answered }, ignored: true };
        answered[k] = v;
        n++;
      }
    }
  } catch { /* a broken store reads as empty */ }
  return { progress: { answered }, ignored: false };
}

export function readProgress(store: StorageLike | null): Progress {
  try {
    return parseProgress(store?.getItem(PROGRESS_KEY)).progress;
  } catch { /* a blocked store reads as empty */ }
  return { answered: {} };
}

/**
 * The drill's store for one page: its text parsed only when it changed since the last read or
 * write (an answer reads the store several times; parsing it each time was the cost), and what
 * is written kept to PROGRESS_LIMITS.answers answers.
 */
export class ProgressStore {
  private raw: string | null | undefined = undefined;
  private progress: Progress = { answered: {} };
  /** the last read ignored part of the store (past PROGRESS_LIMITS) */
  ignored = false;

  constructor(private readonly store: () => StorageLike | null) {}

  read(): Progress {
    let raw: string | null = null;
    try { raw = this.store()?.getItem(PROGRESS_KEY) ?? null; } catch { raw = null; }
    if (raw !== this.raw) {
      const r = parseProgress(raw);
      this.raw = raw;
      this.progress = r.progress;
      this.ignored = r.ignored;
    }
    return this.progress;
  }

  /** Writes `p` (its first PROGRESS_LIMITS.answers answers); false when the store is missing, blocked or full. */
  write(p: Progress): boolean {
    const store = this.store();
    if (!store) return false;
    const keys = Object.keys(p.answered);
    const kept: Progress = keys.length <= PROGRESS_LIMITS.answers ? p
      : { answered: Object.fromEntries(keys.slice(0, PROGRESS_LIMITS.answers).map((k) => [k, p.answered[k]])) };
    const raw = JSON.stringify(kept);
    try { store.setItem(PROGRESS_KEY, raw); } catch { return false; }
    this.raw = raw;
    this.progress = kept;
    return true;
  }
}

/** Records the first answer of a question at a seed; a second answer of the same one does not count again. */
export function recordAnswer(p: Progress, key: string, score: number): { progress: Progress; counted: boolean } {
  if (key in p.answered) return { progress: p, counted: false };
  return { progress: { answered: { ...p.answered, [key]: score } }, counted: true };
}
export function summarise(p: Progress): { answered: number; score: number } {
  const v = Object.values(p.answered);
  return { answered: v.length, score: v.reduce((a, b) => a + b, 0) };
}
/** Writes the progress; false when the store is missing, blocked or full (progress then lives for the page only). */
export function writeProgress(store: StorageLike | null, p: Progress): boolean {
  if (!store) return false;
  try { store.setItem(PROGRESS_KEY, JSON.stringify(p)); return true; } catch { return false; }
}
/**
 * The progress `stored` with the answers of this page's session added where it lacks them: what a
 * tab writes, so that an answer another tab stored meanwhile is not overwritten (merge on write),
 * and what it shows. An answer's first score stays (the stored one wins).
 */
export function mergeProgress(stored: Progress, session: Readonly<Record<string, number>>): Progress {
  return { answered: { ...session, ...stored.answered } };
}
/** Whether `stored` lacks any answer of the session (then the tab writes the merge again). */
export function missesAnswers(stored: Progress, session: Readonly<Record<string, number>>): boolean {
  return Object.keys(session).some((k) => !(k in stored.answered));
}
/** Whether progress can be kept in `store`: a probe written and removed (false when storage is blocked or full). */
export function storageWorks(store: StorageLike | null): boolean {
  if (!store) return false;
  try {
    store.setItem(`${PROGRESS_KEY}:probe`, '1');
    store.removeItem(`${PROGRESS_KEY}:probe`);
    return true;
  } catch { return false; }
}
export function clearProgress(store: StorageLike | null): void {
  try { store?.removeItem(PROGRESS_KEY); } catch { /* nothing to clear */ }
}
