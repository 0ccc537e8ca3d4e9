// The one source of the article's claims (ARTICLE.md, C1–C11): for each claim box of the panels and
// each row of the interview's claim checker, the number the article gives, the core requests that
// give the live numbers (built by the same functions the panels use, so the table and the panel
// boxes read the same cache entries), how the live numbers are read from the results, and the
// stated tolerance rule that turns them into a verdict. Pure: no DOM, no worker.
import type {
  ScoreVarianceResult, SaturationSweepResult, SoftmaxJacobianResult, PrecisionLabResult, LongContextResult,
  AttentionStatsResult, AttentionSummary,
} from '../../wasm/js/core.js';
import type { Calls, Kind, GroupedLogitsResult } from './worker/protocol.ts';
import type { WorkerName } from './compute.ts';
import type { Panel, State } from './state/state.ts';
import { varianceSweepParams, sweepParams, logitRuleParams, articleParams } from './requests/attention.ts';
import { C11_SHAPE } from './requests/precision.ts';
import { longRequest, longResultOf, longWorker, QUOTE_L } from './requests/longctx.ts';
import { gqaStatsParams, headsKvOf, GQA_SEQ_LEN } from './requests/gqa.ts';
import { sweepAt, ALL_SCALES } from './requests/results.ts';
import { mupSweepParams, MUP_SCALE } from './requests/mup.ts';
import { cellOf, FORMATS, LAYOUTS } from './requests/results.ts';

/** agree = the claim holds; partly = part of it holds; disagree = it does not hold. */
export type Verdict = 'agree' | 'partly' | 'disagree';

/** The numbers the article gives (ARTICLE.md), compared with the live numbers by the rules below. */
export const CLAIMED = {
  c1Std512: 22.6,
  c3Var512: 0.002,
  c4EntropySqrt: 4.85,
  c5Jac10: 0.0001,
  c5JacScaled: 0.5,
  c6VarRatio: 2,
} as const;

/** |live − claimed| ≤ rel · |claimed| */
export function near(live: number, claimed: number, rel: number): boolean {
  return Math.abs(live - claimed) <= rel * Math.abs(claimed);
}

/** All conditions true → agree; none → disagree; some → partly. */
export function byParts(...parts: boolean[]): Verdict {
  const n = parts.filter(Boolean).length;
  return n === parts.length ? 'agree' : n === 0 ? 'disagree' : 'partly';
}

/** One request to the core, exactly as the panel sends it. */
export interface ClaimRequest<K extends Kind = Kind> { worker: WorkerName; kind: K; params: Calls[K]['params'] }
/** The methods C8 compares at L = 8192: the published log-n and YaRN against the article's temperature (PANEL_METHODS order). */
const C8_METHODS = ['logn', 'yarn', 'article'] as const;
const req = <K extends Kind>(worker: WorkerName, kind: K, params: Calls[K]['params']): ClaimRequest => ({ worker, kind, params } as ClaimRequest);

export type Live = Record<string, number>;
export interface ClaimDef {
  /** the claim box id on its panel (data-claim) and the checker row id */
  id: ClaimId;
  /** the article's claim number (C1..C11) */
  claim: string;
  /** the panel whose claim box shows it */
  panel: Panel;
  /** the state the "show me" link sets (and the live numbers are computed at), for a checker seed */
  patch(seed: number): Partial<State>;
  /** the core requests, built from the state the link opens */
  requests(s: State): ClaimRequest[];
  /** the live numbers from the results, in the order of requests() */
  extract(results: unknown[], s: State): Live;
  /** the live number the table shows first */
  main: string;
  /** the stated rule; null = not decided on this page (a training run the reader starts) */
  verdict(live: Live): Verdict | null;
}

export const CLAIM_IDS = ['C1', 'C2', 'C3a', 'C3b', 'C3c', 'C4', 'C5', 'C6', 'C7', 'C8', 'C8-online', 'C9', 'C10', 'C11'] as const;
export type ClaimId = (typeof CLAIM_IDS)[number];

/**
 * The saturation panel's settings of a claim's own check: the iid case at the default shape, with no
 * explicit scale and no attention sink (the reader's panel settings do not leak into a verdict).
 */
const SAT_PATCH: Partial<State> = { heads: 4, seqLen: 128, causal: false, softcap: 0, scale: 'inv_sqrt_dk', sscale: 0, sink: [-Infinity] };

function satAt(r: SaturationSweepResult, s: State, dk: number) {
  const dks = sweepParams(s).dks;
  const get = (sc: (typeof ALL_SCALES)[number]): AttentionSummary => {
    const x = sweepAt(r, dks, ALL_SCALES, sc, dk);
    if (!x) throw new RangeError(`the saturation sweep has no d_k = ${dk}`);
    return x;
  };
  return { none: get('none'), sqrt: get('inv_sqrt_dk'), inv: get('inv_dk'), lnL: r.logSeqLen };
}
function varRow(r: ScoreVarianceResult, dk: number) {
  const row = r.rows.find((x) => x.dk === dk);
  if (!row) throw new RangeError(`the variance sweep has no d_k = ${dk}`);
  return row;
}
/**
 * How far the mean row entropy of one scale of the μP sweep moves from d_k = 64 to d_k = 1024, as a
 * share of ln L (0 = flat across d_k: the scale keeps the softmax where it is as the head grows).
 */
export function mupDrift(r: SaturationSweepResult, s: State, scale: keyof typeof MUP_SCALE): number {
  const dks = mupSweepParams(s).dks;
  const i64 = dks.indexOf(64), i1024 = dks.indexOf(1024);
  if (i64 < 0 || i1024 < 0) throw new RangeError('the μP sweep has no d_k = 64 or 1024');
  const row = r.points[MUP_SCALE[scale]];
  return Math.abs(row[i1024].entropy.mean - row[i64].entropy.mean) / r.logSeqLen;
}
/**
 * C3's conclusion (÷√d_k is the right scale; ÷d_k over-corrects) at one correlation ρ: holds while the
 * ÷√d_k entropy moves less than 5 % of ln L from d_k 64 to 1024; partly below 15 %; otherwise ÷√d_k lets
 * the rows saturate as d_k grows, and 1/d_k (μP) is the scale that keeps them put.
 */
export function c3AtRho(sqrtDrift: number): Verdict {
  return sqrtDrift < 0.05 ? 'agree' : sqrtDrift < 0.15 ? 'partly' : 'disagree';
}
/** The live numbers of C3 at the state's ρ from its μP sweep. */
export function mupLive(r: SaturationSweepResult, s: State): Live {
  return { rho: s.rho, sqrt: mupDrift(r, s, 'sqrt'), inv: mupDrift(r, s, 'inv') };
}
/** The ρ of the checker's correlated case (the μP view's default). */
export const C3_RHO = 0.2;

const satRequest = (s: State) => req('sweep', 'saturationSweep', { ...sweepParams(s), ...logitRuleParams(s) });

const DEFS: ClaimDef[] = [
  {
    id: 'C1', claim: 'C1', panel: 'variance', main: 'std',
    patch: (seed) => ({ exp: 'variance', seed, samples: 2000, dk: 512 }),
    requests: (s) => [req('sweep', 'scoreVariance', varianceSweepParams(s))],
    extract: ([r]) => { const std = varRow(r as ScoreVarianceResult, 512).raw.std; return { std, three: 3 * std }; },
    // within 5 % of 22.6: holds; within 15 %: partly
    verdict: (l) => (near(l.std, CLAIMED.c1Std512, 0.05) ? 'agree' : near(l.std, CLAIMED.c1Std512, 0.15) ? 'partly' : 'disagree'),
  },
  {
    id: 'C2', claim: 'C2', panel: 'saturation', main: 'noneMaxW',
    patch: (seed) => ({ exp: 'saturation', seed, dk: 512, ...SAT_PATCH }),
    requests: (s) => [satRequest(s)],
    extract: ([r], s) => { const a = satAt(r as SaturationSweepResult, s, s.dk); return { dk: s.dk, noneMaxW: a.none.maxWeight.mean, noneShare: a.none.shareAbove, sqrtShare: a.sqrt.shareAbove }; },
    // unscaled mean max weight > 0.5 (near one-hot) and ≤ 1 % of ÷√d_k rows above 0.99 (smooth)
    verdict: (l) => byParts(l.noneMaxW > 0.5, l.sqrtShare <= 0.01),
  },
  {
    id: 'C3a', claim: 'C3', panel: 'variance', main: 'v',
    patch: (seed) => ({ exp: 'variance', seed, samples: 2000, dk: 512 }),
    requests: (s) => [req('sweep', 'scoreVariance', varianceSweepParams(s))],
    extract: ([r]) => ({ v: varRow(r as ScoreVarianceResult, 512).invDk.variance }),
    // within 15 % of 0.002: holds; within 50 %: partly
    verdict: (l) => (near(l.v, CLAIMED.c3Var512, 0.15) ? 'agree' : near(l.v, CLAIMED.c3Var512, 0.5) ? 'partly' : 'disagree'),
  },
  {
    id: 'C3b', claim: 'C3', panel: 'saturation', main: 'inv',
    patch: (seed) => ({ exp: 'saturation', seed, dk: 512, ...SAT_PATCH }),
    requests: (s) => [satRequest(s)],
    extract: ([r], s) => { const a = satAt(r as SaturationSweepResult, s, s.dk); return { dk: s.dk, inv: a.inv.entropy.mean, lnL: a.lnL, gap: a.lnL - a.inv.entropy.mean }; },
    // ÷d_k entropy within 5 % of ln L: holds; within 15 %: partly
    verdict: (l) => (l.gap < 0.05 * l.lnL ? 'agree' : l.gap < 0.15 * l.lnL ? 'partly' : 'disagree'),
  },
  {
    id: 'C3c', claim: 'C3', panel: 'mup', main: 'rhoSqrt',
    patch: (seed) => ({ exp: 'mup', seed, rho: C3_RHO, mpow: 0.75 }),
    requests: (s) => [req('sweep', 'saturationSweep', mupSweepParams({ ...s, rho: 0 })), req('sweep', 'saturationSweep', mupSweepParams(s))],
    extract: ([a, b], s) => {
      const iid = mupLive(a as SaturationSweepResult, { ...s, rho: 0 }), cor = mupLive(b as SaturationSweepResult, s);
      return { rho: s.rho, iidSqrt: iid.sqrt, iidInv: iid.inv, rhoSqrt: cor.sqrt, rhoInv: cor.inv };
    },
    // the ρ = 0 part and the ρ part each by c3AtRho: holds for iid, not for correlated q, k → partly
    verdict: (l) => byParts(c3AtRho(l.iidSqrt) === 'agree', c3AtRho(l.rhoSqrt) === 'agree'),
  },
  {
    id: 'C4', claim: 'C4', panel: 'article', main: 'sqrt',
    patch: (seed) => ({ exp: 'article', aseed: seed }),
    requests: (s) => [req('live', 'saturationSweep', articleParams(s))],
    extract: ([r]) => {
      const sw = r as SaturationSweepResult;
      const [none, sqrt, inv] = sw.points.map((p) => p[0].entropy.mean);
      return { none, sqrt, inv, lnL: sw.logSeqLen };
    },
    // unscaled entropy < 0.5 nats, and ÷√d_k within 2 % of 4.85
    verdict: (l) => byParts(l.none < 0.5, near(l.sqrt, CLAIMED.c4EntropySqrt, 0.02)),
  },
  {
    id: 'C5', claim: 'C5', panel: 'gradient', main: 'j6',
    patch: () => ({ exp: 'gradient', dk: 512, scale: 'none', gap: 10, gq: 'jac' }),
    requests: () => [[10, 0], [3, -3], [0, 0]].map((logits) => req('live', 'softmaxJacobian', { logits })),
    extract: (rs) => {
      const [a, b, c] = rs as SoftmaxJacobianResult[];
      return { p1: a.probs[0], p2: a.probs[1], j10: a.frobenius, j6: b.frobenius, jmax: c.frobenius };
    },
    // each half within 25 % of the article's number (0.0001 at [10, 0]; 0.5 at [3, −3])
    verdict: (l) => byParts(near(l.j10, CLAIMED.c5Jac10, 0.25), near(l.j6, CLAIMED.c5JacScaled, 0.25)),
  },
  {
    id: 'C6', claim: 'C6', panel: 'saturation', main: 'ratio',
    patch: (seed) => ({ exp: 'saturation', seed, dk: 1024, ...SAT_PATCH, samples: 2000 }),
    requests: (s) => [req('sweep', 'scoreVariance', varianceSweepParams(s)), satRequest(s)],
    extract: ([v, r], s) => {
      const a = satAt(r as SaturationSweepResult, s, 512), b = satAt(r as SaturationSweepResult, s, 1024);
      return {
        ratio: varRow(v as ScoreVarianceResult, 1024).raw.variance / varRow(v as ScoreVarianceResult, 512).raw.variance,
        none512: a.none.entropy.mean, none1024: b.none.entropy.mean, sqrt512: a.sqrt.entropy.mean, sqrt1024: b.sqrt.entropy.mean, lnL: a.lnL,
      };
    },
    // Var(q·k) ratio within 10 % of 2; unscaled entropy lower at 1024; ÷√d_k entropy moves < 2 % of ln L
    verdict: (l) => byParts(near(l.ratio, CLAIMED.c6VarRatio, 0.1), l.none1024 < l.none512, Math.abs(l.sqrt1024 - l.sqrt512) < 0.02 * l.lnL),
  },
  {
    id: 'C7', claim: 'C7', panel: 'gqa', main: 'vg',
    patch: () => ({ exp: 'gqa', hq: 32, hkv: 8, gdk: 128 }),
    requests: (s) => [
      ...LAYOUTS.map((l) => req('live', 'attentionStats', gqaStatsParams(s, l, s.gdk))),
      ...LAYOUTS.map((l) => req('live', 'groupedLogits', { heads: s.hq, headsKv: headsKvOf(l, s), seqLen: GQA_SEQ_LEN, dk: s.gdk, seed: 0 })),
    ],
    extract: (rs) => {
      const [m, g, q] = (rs.slice(0, 3) as AttentionStatsResult[]).map((r) => r.summary.entropy.mean);
      const [vm, vg, vq] = (rs.slice(3) as GroupedLogitsResult[]).map((r) => r.scaledVariance);
      return { em: m, eg: g, eq: q, vm, vg, vq, spread: Math.max(m, g, q) - Math.min(m, g, q) };
    },
    // the three layouts' mean entropies within 0.05 nats, and every Var(q·k/√d_head) within 0.2 of 1
    verdict: (l) => byParts(l.spread < 0.05, [l.vm, l.vg, l.vq].every((v) => Math.abs(v - 1) < 0.2)),
  },
  {
    id: 'C8', claim: 'C8', panel: 'longctx', main: 'ratio',
    patch: () => ({ exp: 'longctx', ldk: 64, ltrain: 512, sink: [-Infinity] }),
    // one request for the three methods, as the panel asks after an L_train change (each method's points are its own request's)
    requests: (s) => [req(longWorker(C8_METHODS), 'longContext', longRequest(s, C8_METHODS))],
    extract: (rs) => {
      const r = rs[0] as LongContextResult;
      const [l, y, a] = C8_METHODS.map((m) => longResultOf(r, C8_METHODS, m).points[0].find((p) => p.seqLen === QUOTE_L)!);
      return { logn: l.multiplier, yarn: y.multiplier, article: a.multiplier, articleMax: a.maxWeight, ratio: a.multiplier / Math.max(l.multiplier, y.multiplier) };
    },
    // the article's factor on the logits at L = 8192 within 1.5× of the larger published one (log-n, YaRN): holds; within 3×: partly
    verdict: (l) => (l.ratio <= 1.5 ? 'agree' : l.ratio <= 3 ? 'partly' : 'disagree'),
  },
  {
    id: 'C8-online', claim: 'C8', panel: 'precision', main: 'online',
    patch: () => ({ exp: 'precision', pmode: 'random', pdk: 512, pseqLen: 128, pscale: 'none' }),
    requests: () => (['none', 'inv_sqrt_dk'] as const).map((scale) => req('live', 'precisionLab', { ...C11_SHAPE, scale })),
    extract: ([r0, r1]) => {
      const raw = r0 as PrecisionLabResult, scaled = r1 as PrecisionLabResult;
      return {
        naive16: cellOf(raw, 'float16', 'naive').shareNonfinite,
        online: Math.max(...FORMATS.map((f) => cellOf(raw, f, 'online').shareNonfinite)),
        jOnline: cellOf(raw, 'float64', 'online').jacFroMedian,
        js: scaled.jacFroMedianF64,
      };
    },
    // no online row overflows in any format (the range); and its Jacobian ≥ 0.2× the scaled one (the gradient)
    verdict: (l) => byParts(l.online === 0, l.jOnline >= 0.2 * l.js),
  },
  {
    id: 'C9', claim: 'C9', panel: 'training', main: '',
    patch: () => ({ exp: 'training' }),
    requests: () => [],
    extract: () => ({}),
    verdict: () => null,
  },
  {
    id: 'C10', claim: 'C10', panel: 'training', main: '',
    patch: () => ({ exp: 'training', trvar: ['none', 'inv_sqrt_dk'], trsm: 'naive', trheads: 1, trdm: 64 }),
    requests: () => [],
    extract: () => ({}),
    verdict: () => null,
  },
  {
    id: 'C11', claim: 'C11', panel: 'precision', main: 'j64',
    patch: () => ({ exp: 'precision', pmode: 'random', pdk: 512, pseqLen: 128, pscale: 'none' }),
    requests: () => (['none', 'inv_sqrt_dk'] as const).map((scale) => req('live', 'precisionLab', { ...C11_SHAPE, scale })),
    extract: ([r0, r1]) => {
      const raw = r0 as PrecisionLabResult, scaled = r1 as PrecisionLabResult;
      const j = (f: (typeof FORMATS)[number]) => cellOf(raw, f, 'safe').jacFroMedian;
      return { j64: raw.jacFroMedianF64, j32: j('float32'), jb: j('bfloat16'), js: scaled.jacFroMedianF64, ratio: scaled.jacFroMedianF64 / raw.jacFroMedianF64 };
    },
    // float32 within 5 % of float64 (precision does not save it), and float64 < 0.2× the scaled one (saturation)
    verdict: (l) => byParts(Math.abs(l.j64 - l.j32) <= 0.05 * l.j64, l.j64 < 0.2 * l.js),
  },
];

/** C10, decided after a training run in the lab: holds if the unscaled run turns non-finite before step 10. */
export function c10Verdict(firstNonfinite: number | null): Verdict {
  return firstNonfinite !== null && firstNonfinite < 10 ? 'agree' : 'disagree';
}
/**
 * C9, decided after a training run: holds if every alternative stays finite and its held-out token accuracy is
 * within 2 points of 1/√d_k's (when 1/√d_k ran).
 */
export function c9Verdict(alternatives: { finite: boolean; accuracy: number | null }[], baseAccuracy: number | null): Verdict {
  return alternatives.every((a) => a.finite && a.accuracy !== null && (baseAccuracy === null || a.accuracy >= baseAccuracy - 0.02)) ? 'agree' : 'disagree';
}

export const CLAIMS: Readonly<Record<ClaimId, ClaimDef>> = Object.freeze(Object.fromEntries(DEFS.map((d) => [d.id, d])) as Record<ClaimId, ClaimDef>);
