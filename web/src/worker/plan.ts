// How one request is computed by the worker pool: a plan of steps, each step a set of core calls
// that run in parallel on the pool's workers and merge into one result of the request's shape.
//
// - Splitting (every step): a sweep is split by point — saturationSweep by (d_k, scale),
//   scoreVariance and longContext by d_k / length — and merged by index, so the merged result is
//   bit for bit the result of one call whatever the pool size: each point's inputs come from its
//   own random stream (wasm/src/experiments.cpp: draw_inputs per d_k; draw_scores per (seed, d_k);
//   longContext's K for length L is the first L rows of K for the longest length).
// - Progressive refinement (a first step before the last): a prefix of the work — one head (or one
//   K/V group) instead of all, a few hundred samples or queries instead of all. The core draws Q, K,
//   V and dO head-major as one sequence and the samples of a d_k one after another, so the slice is
//   exactly a prefix of the full draw: the preview estimates the same quantity from part of the same
//   numbers, and the last step is always the full request (tests/web/pool.test.ts).
import type { Calls, Kind } from './protocol.ts';
import type {
  SaturationSweepParams, SaturationSweepResult, ScoreVarianceParams, ScoreVarianceResult,
  AttentionStatsParams, LongContextParams, LongContextResult, Scale,
} from '../../../wasm/js/core.js';

export interface SubCall { kind: Kind; params: unknown }
export interface Step {
  calls: SubCall[];
  merge(results: unknown[]): unknown;
  /** the last step: its result is the request's result */
  final: boolean;
}

/** Samples of the scoreVariance preview. */
export const PREVIEW_SAMPLES = 256;
/** Queries per length of the longContext preview. */
export const PREVIEW_QUERIES = 2;
/**
 * A request with less work than this (multiply–add equivalents, compute.ts's cost model) is done in
 * one step: its full result comes about as fast as a preview would.
 */
export const PREVIEW_MIN_MACS = 2e7;

const one = (results: unknown[]) => results[0];

/** The work of attention for h heads, L keys, d_k (as compute.ts's attentionMacs; kept here so plan.ts has no page imports). */
function macs(heads: number, seqLen: number, dk: number): number {
  return heads * seqLen * seqLen * (4 * dk + 400);
}

/**
 * A scale with a head count in it ('inv_sqrt_d_model' = 1/√(heads·d_k)) does not survive a slice
 * with fewer heads: the preview passes the full request's factor as a number instead.
 */
function sliceScale(scale: Scale | undefined, heads: number, dk: number): Scale | undefined {
  return scale === 'inv_sqrt_d_model' ? 1 / Math.sqrt(heads * dk) : scale;
}

/**
 * Splits items (with their costs) into at most `parts` groups of about equal cost (largest first,
 * each to the lightest group); the groups come out heaviest first, so the pool starts the longest
 * call first. Returns the item indices of each group, ascending within a group.
 */
export function groups(costs: number[], parts: number): number[][] {
  const n = Math.max(1, Math.min(parts, costs.length));
  const bins = Array.from({ length: n }, () => ({ load: 0, items: [] as number[] }));
  costs.map((c, i) => ({ c, i })).sort((a, b) => b.c - a.c || a.i - b.i).forEach(({ c, i }) => {
    const b = bins.reduce((m, x) => (x.load < m.load ? x : m), bins[0]);
    b.load += c;
    b.items.push(i);
  });
  return bins.filter((b) => b.items.length > 0).sort((a, b) => b.load - a.load).map((b) => b.items.sort((x, y) => x - y));
}

// ---- saturationSweep: points (scale, d_k) ----
function sweepStep(p: SaturationSweepParams, parts: number, final: boolean): Step {
  const scales = p.scales ?? ['none', 'inv_sqrt_dk', 'inv_dk'];
  const heads = p.heads ?? 4;
  const sliceHeads = final ? heads : 1;
  const L = p.seqLen ?? 128;
  const scaleOf = (sc: Scale, dk: number) => (final ? sc : sliceScale(sc, heads, dk)!);
  /** each call: its d_k indices and scale indices (a product), and where its points go */
  const parts2: { d: number[]; s: number[] }[] = [];
  // a preview resolves a scale with the head count in it per d_k (sliceScale): one call per d_k for it
  const perDk = final ? [] : scales.map((sc, i) => (sc === 'inv_sqrt_d_model' ? i : -1)).filter((i) => i >= 0);
  const shared = scales.map((_, i) => i).filter((i) => !perDk.includes(i));
  if (shared.length > 0) {
    if (p.dks.length >= parts || shared.length === 1) {
      for (const g of groups(p.dks.map((dk) => macs(heads, L, dk)), parts)) parts2.push({ d: g, s: shared });
    } else {
      // fewer d_k than workers (the article's check: one d_k, three scales): one call per (d_k, scale)
      p.dks.forEach((_, d) => shared.forEach((si) => parts2.push({ d: [d], s: [si] })));
    }
  }
  for (const si of perDk) p.dks.forEach((_, d) => parts2.push({ d: [d], s: [si] }));
  const calls: SubCall[] = parts2.map(({ d, s }) => ({
    kind: 'saturationSweep' as const,
    params: { ...p, dks: d.map((i) => p.dks[i]), scales: s.map((si) => scaleOf(scales[si], p.dks[d[0]])), heads: sliceHeads },
  }));
  return {
    calls, final,
    merge(results) {
      const rs = results as SaturationSweepResult[];
      const points = scales.map(() => new Array(p.dks.length));
      parts2.forEach(({ d, s }, c) => { s.forEach((si, a) => { d.forEach((di, b) => { points[si][di] = rs[c].points[a][b]; }); }); });
      return { logSeqLen: rs[0].logSeqLen, points } satisfies SaturationSweepResult;
    },
  };
}

// ---- scoreVariance: groups of d_k; the histogram comes from the call holding histDk ----
function varianceStep(p: ScoreVarianceParams, samples: number, parts: number, final: boolean): Step {
  const histDk = p.histDk ?? p.dks[0];
  const histAt = Math.max(0, p.dks.indexOf(histDk));
  const gs = groups(p.dks, parts);
  const histCall = gs.findIndex((g) => g.includes(histAt));
  const calls: SubCall[] = gs.map((g, c) => ({
    kind: 'scoreVariance' as const,
    params: { ...p, samples, dks: g.map((i) => p.dks[i]), histDk: c === histCall ? histDk : p.dks[g[0]] },
  }));
  return {
    calls, final,
    merge(results) {
      const rs = results as ScoreVarianceResult[];
      const rows = new Array(p.dks.length);
      gs.forEach((g, c) => g.forEach((i, k) => { rows[i] = rs[c].rows[k]; }));
      const h = rs[histCall];
      return { rows, histDk: h.histDk, histRaw: h.histRaw, histInvSqrtDk: h.histInvSqrtDk } satisfies ScoreVarianceResult;
    },
  };
}

// ---- longContext: groups of lengths ----
function longStep(p: LongContextParams, queries: number, parts: number, final: boolean): Step {
  const gs = groups([...p.seqLens], parts);
  const calls: SubCall[] = gs.map((g) => ({ kind: 'longContext' as const, params: { ...p, queries, seqLens: g.map((i) => p.seqLens[i]) } }));
  return {
    calls, final,
    merge(results) {
      const rs = results as LongContextResult[];
      const methods = rs[0].points.length;
      const points = Array.from({ length: methods }, () => new Array(p.seqLens.length));
      gs.forEach((g, c) => g.forEach((i, k) => { for (let m = 0; m < methods; m++) points[m][i] = rs[c].points[m][k]; }));
      return { points } satisfies LongContextResult;
    },
  };
}

/**
 * The steps of a request for a pool of `parts` workers: a sweep's points in at most `parts` calls
 * (one call, the request itself, on one worker). `progressive` asks for a preview step before the
 * full one where the request is big enough to need one (PREVIEW_MIN_MACS).
 */
export function plan<K extends Kind>(kind: K, params: Calls[K]['params'], progressive: boolean, parts = 1): Step[] {
  const single: Step[] = [{ calls: [{ kind, params }], merge: one, final: true }];
  switch (kind) {
    case 'saturationSweep': {
      const p = params as SaturationSweepParams;
      if (!Array.isArray(p.dks) || !Array.isArray(p.scales ?? []) || p.dks.length === 0) return single;
      const heads = p.heads ?? 4;
      const L = p.seqLen ?? 128;
      const scales = (p.scales ?? [0, 0, 0]).length;
      const work = p.dks.reduce((w, dk) => w + scales * macs(heads, L, dk), 0);
      const steps: Step[] = [];
      if (progressive && heads > 1 && work > PREVIEW_MIN_MACS) steps.push(sweepStep(p, parts, false));
      // A soft-capped sweep is dominated by the Lanczos solve of every row's ‖J‖₂ (about 20× the
      // plain per-row statistics in the core's cost model), so it goes one d_k per call: each call
      // stays inside the core's work budget (LIMITS.workSeconds) and the merged result is the same.
      const callParts = p.softcap !== undefined && p.softcap > 0 ? Math.max(parts, p.dks.length) : parts;
      steps.push(callParts > 1 ? sweepStep(p, callParts, true) : { ...single[0] });
      return steps;
    }
    case 'scoreVariance': {
      const p = params as ScoreVarianceParams;
      if (!Array.isArray(p.dks) || p.dks.length === 0) return single;
      const samples = p.samples ?? 20000;
      const work = 4 * samples * p.dks.reduce((a, b) => a + b, 0);
      const steps: Step[] = [];
      if (progressive && samples > 2 * PREVIEW_SAMPLES && work > PREVIEW_MIN_MACS) steps.push(varianceStep(p, PREVIEW_SAMPLES, parts, false));
      steps.push(p.dks.length > 1 && parts > 1 ? varianceStep(p, samples, parts, true) : { ...single[0] });
      return steps;
    }
    case 'attentionStats': {
      const p = params as AttentionStatsParams;
      const heads = p.heads ?? 8;
      const headsKv = p.headsKv ?? 0;
      const kv = headsKv === 0 ? heads : headsKv;
      if (!progressive || !Number.isInteger(heads) || !Number.isInteger(kv) || kv < 1 || heads % kv !== 0) return single;
      const group = heads / kv;  // query heads per K/V head: the slice is one K/V head and its group
      if (group >= heads || macs(heads, p.seqLen ?? 128, p.dk) <= PREVIEW_MIN_MACS) return single;
      const preview = { ...p, heads: group, headsKv: group === 1 ? 0 : 1, scale: sliceScale(p.scale, heads, p.dk) };
      return [{ calls: [{ kind, params: preview }], merge: one, final: false }, single[0]];
    }
    case 'longContext': {
      const p = params as LongContextParams;
      if (!Array.isArray(p.seqLens) || p.seqLens.length === 0) return single;
      const queries = p.queries ?? 64;
      const steps: Step[] = [];
      const work = queries * (p.dk ?? 64) * p.seqLens.reduce((a, b) => a + b, 0) * (p.methods?.length ?? 4);
      if (progressive && queries > 2 * PREVIEW_QUERIES && work > PREVIEW_MIN_MACS / 20) steps.push(longStep(p, PREVIEW_QUERIES, parts, false));
      steps.push(p.seqLens.length > 1 && parts > 1 ? longStep(p, queries, parts, true) : { ...single[0] });
      return steps;
    }
    default:
      return single;
  }
}
