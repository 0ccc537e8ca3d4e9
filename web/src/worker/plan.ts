// How one request is computed by the worker pool: a plan of steps, each step a set of core calls
// that run in parallel on the pool's workers and merge into one result of the request's shape.
//
// - Splitting (every step): a sweep is split by point — saturationSweep by (d_k, scale),
//   scoreVariance and longContext by d_k / length — and merged by index, so the merged result is
//   bit for bit the result of one call whatever the pool size: each point's inputs come from its
//   own random stream (wasm/src/attention_stats.cpp, score_variance.cpp: draw_inputs per d_k; draw_scores per (seed, d_k);
//   longContext's K for length L is the first L rows of K for the longest length).
// - Progressive refinement (a first step before the last): a prefix of the work — one head (or one
//   K/V group) instead of all, a few hundred samples or queries instead of all. The core draws Q, K,
//   V and dO head-major as one sequence and the samples of a d_k one after another, so the slice is
//   exactly a prefix of the full draw: the preview estimates the same quantity from part of the same
//   numbers, and the last step is always the full request (tests/web/pool.test.ts).
//
// Every decision about work — a preview or not, the points of each call — reads the core's own
// estimate (core.cost through worker/cost.ts): a final call is split further wherever its
// estimate would not fit the core's budget of one call, so no call the page sends is refused for
// its size while the request's points would fit one by one.
//
// Which rule plans an experiment is its declaration's `plan` (wasm/js/experiments/<family>.js): the
// rules of PLAN_RULES are named by the shape of what they split, not by an experiment, so a new
// experiment of an existing shape (or one computed in one call, 'single') needs no line here.
import type { Calls, Kind } from './protocol.ts';
import { EXPERIMENTS, defaultsOf } from '../../../wasm/js/experiments.js';
import type { ExperimentName } from '../../../wasm/js/experiments.js';
import { estimateSeconds, callBudgetSeconds } from './cost.ts';
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
 * A request the core estimates at less than this many seconds is done in one step: its full result
 * comes about as fast as a preview would.
 */
export const PREVIEW_MIN_SECONDS = 0.004;
/**
 * A longContext preview is planned only when the core estimates that it comes at least this many
 * seconds before the full call would. Its few queries save only the rows and products of the
 * queries it leaves out, not the draw of the keys nor anything else both calls pay (the core's
 * estimate of the panel's request, 34 ms at d_k 64 for three methods, is 26 ms for its preview),
 * and each step redraws the panel's three charts (60–90 ms of the main thread on the 4× throttled
 * phone, bench:ui): a first estimate that is not a point control's 50 ms earlier only delays the
 * final one. Of the panel's requests only the largest ones with the scalar kernel get a preview
 * (six methods at d_k 64 with a sink: 52 ms saved); a script's request with more queries does.
 */
export const LONG_PREVIEW_MIN_SAVED_SECONDS = 0.05;

/** The core's estimate of a call in seconds (core.cost); tests may pass another. */
export type CostOf = (kind: Kind, params: unknown) => number;
// A request the core would refuse for its parameters costs nothing to plan: it goes as it is, and
// the core's refusal, naming the bad value, is its answer.
const coreCost: CostOf = (kind, params) => {
  try {
    return estimateSeconds(kind as never, params as never);
  } catch (e) {
    if (e instanceof RangeError || e instanceof TypeError) return 0;
    throw e;
  }
};

const one = (results: unknown[]) => results[0];
/** What the core fills in for a parameter a request of experiment `kind` leaves out (its one declaration). */
const defaultsFor = (kind: Kind) => defaultsOf(kind as ExperimentName);

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

// ---- scalesByDks (saturationSweep): points (scale, d_k) ----
function sweepStep(kind: Kind, p: SaturationSweepParams, parts: number, final: boolean, cost: CostOf): Step {
  const SWEEP = defaultsFor(kind);
  const scales: Scale[] = p.scales ?? SWEEP.scales;
  const heads: number = p.heads ?? SWEEP.heads;
  const sliceHeads = final ? heads : 1;
  const L: number = p.seqLen ?? SWEEP.seqLen;
  const scaleOf = (sc: Scale, dk: number) => (final ? sc : sliceScale(sc, heads, dk)!);
  /** each call: its d_k indices and scale indices (a product), and where its points go */
  const parts2: { d: number[]; s: number[] }[] = [];
  // a preview resolves a scale with the head count in it per d_k (sliceScale): one call per d_k for it
  const perDk = final ? [] : scales.map((sc, i) => (sc === 'inv_sqrt_d_model' ? i : -1)).filter((i) => i >= 0);
  const shared = scales.map((_, i) => i).filter((i) => !perDk.includes(i));
  if (shared.length > 0) {
    if (p.dks.length >= parts || shared.length === 1) {
      const scalesOf = shared.map((si) => scales[si]);
      const costs = p.dks.map((dk) => cost(kind, { ...p, dks: [dk], scales: scalesOf, heads: sliceHeads }));
      for (const g of groups(costs, parts)) parts2.push({ d: g, s: shared });
    } else {
      // fewer d_k than workers (the article's check: one d_k, three scales): one call per (d_k, scale)
      p.dks.forEach((_, d) => shared.forEach((si) => parts2.push({ d: [d], s: [si] })));
    }
  }
  for (const si of perDk) p.dks.forEach((_, d) => parts2.push({ d: [d], s: [si] }));
  const calls: SubCall[] = parts2.map(({ d, s }) => ({
    kind,
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

// ---- rowsByDks (scoreVariance): groups of d_k; the histogram comes from the call holding histDk ----
function varianceStep(kind: Kind, p: ScoreVarianceParams, samples: number, parts: number, final: boolean, cost: CostOf): Step {
  const histDk = p.histDk ?? p.dks[0];
  const histAt = Math.max(0, p.dks.indexOf(histDk));
  const gs = groups(p.dks.map((dk) => cost(kind, { ...p, samples, dks: [dk], histDk: dk })), parts);
  const histCall = gs.findIndex((g) => g.includes(histAt));
  const calls: SubCall[] = gs.map((g, c) => ({
    kind,
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

// ---- pointsByLengths (longContext): groups of lengths ----
function longStep(kind: Kind, p: LongContextParams, queries: number, parts: number, final: boolean, cost: CostOf): Step {
  const gs = groups(p.seqLens.map((L) => cost(kind, { ...p, queries, seqLens: [L] })), parts);
  const calls: SubCall[] = gs.map((g) => ({ kind, params: { ...p, queries, seqLens: g.map((i) => p.seqLens[i]) } }));
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
 * The final step of a sweep: split in `parts` calls (one call, the request itself, for one part),
 * or in more where a call's estimate is over the core's budget of one call — the general rule, so
 * a soft-capped sweep (its Lanczos solves) goes in as many calls as its estimate needs. At most one
 * call per point.
 */
function finalStep(single: Step, parts: number, points: number, at: (parts: number) => Step, cost: CostOf): Step {
  const budget = callBudgetSeconds();
  const fits = (st: Step) => st.calls.every((c) => cost(c.kind, c.params) <= budget);
  let step = parts > 1 ? at(parts) : single;
  for (let n = Math.max(parts, 1) + 1; n <= points && step.calls.length < points && !fits(step); n++) step = at(n);
  return step;
}

/** A planning rule: the steps of a request of experiment `kind` (see plan). */
type Rule = (kind: Kind, params: unknown, progressive: boolean, parts: number, cost: CostOf) => Step[];
const singleStep = (kind: Kind, params: unknown): Step => ({ calls: [{ kind, params }], merge: one, final: true });

/**
 * The planning rules an experiment's declaration names (its `plan`), by the shape of the parameters
 * and result they split; tests/web/pool.test.ts holds every declared experiment to one of them.
 */
export const PLAN_RULES = {
  /** one call, the request as it is */
  single: (kind, params) => [singleStep(kind, params)],
  /** points[scale][d_k] of dks × scales, by (d_k, scale); a preview from one head (saturationSweep) */
  scalesByDks(kind, params, progressive, parts, cost) {
    const p = params as SaturationSweepParams;
    const single = singleStep(kind, params);
    if (!Array.isArray(p.dks) || !Array.isArray(p.scales ?? []) || p.dks.length === 0) return [single];
    const SWEEP = defaultsFor(kind);
    const heads: number = p.heads ?? SWEEP.heads;
    const work = cost(kind, p);
    const steps: Step[] = [];
    if (progressive && heads > 1 && work > PREVIEW_MIN_SECONDS) steps.push(sweepStep(kind, p, parts, false, cost));
    const points = p.dks.length * (p.scales ?? SWEEP.scales).length;
    steps.push(finalStep(single, parts, points, (n) => sweepStep(kind, p, n, true, cost), cost));
    return steps;
  },
  /** rows[d_k] by groups of d_k, the histograms from the call holding histDk; a preview of PREVIEW_SAMPLES (scoreVariance) */
  rowsByDks(kind, params, progressive, parts, cost) {
    const p = params as ScoreVarianceParams;
    const single = singleStep(kind, params);
    if (!Array.isArray(p.dks) || p.dks.length === 0) return [single];
    const samples: number = p.samples ?? defaultsFor(kind).samples;
    const steps: Step[] = [];
    if (progressive && samples > 2 * PREVIEW_SAMPLES && cost(kind, p) > PREVIEW_MIN_SECONDS) steps.push(varianceStep(kind, p, PREVIEW_SAMPLES, parts, false, cost));
    steps.push(finalStep(single, p.dks.length > 1 ? parts : 1, p.dks.length, (n) => varianceStep(kind, p, samples, n, true, cost), cost));
    return steps;
  },
  /** one call; a preview from one K/V head and its query group (attentionStats) */
  oneGroupPreview(kind, params, progressive, _parts, cost) {
    const p = params as AttentionStatsParams;
    const STATS = defaultsFor(kind);
    const single = singleStep(kind, params);
    const heads: number = p.heads ?? STATS.heads;
    const headsKv: number = p.headsKv ?? STATS.headsKv;
    const kv = headsKv === 0 ? heads : headsKv;
    if (!progressive || !Number.isInteger(heads) || !Number.isInteger(kv) || kv < 1 || heads % kv !== 0) return [single];
    const group = heads / kv;  // query heads per K/V head: the slice is one K/V head and its group
    if (group >= heads || cost(kind, p) <= PREVIEW_MIN_SECONDS) return [single];
    const preview = { ...p, heads: group, headsKv: group === 1 ? 0 : 1, scale: sliceScale(p.scale, heads, p.dk) };
    return [{ calls: [{ kind, params: preview }], merge: one, final: false }, single];
  },
  /** points[method][length] by groups of seqLens; a preview of PREVIEW_QUERIES queries (longContext) */
  pointsByLengths(kind, params, progressive, parts, cost) {
    const p = params as LongContextParams;
    const single = singleStep(kind, params);
    if (!Array.isArray(p.seqLens) || p.seqLens.length === 0) return [single];
    const queries: number = p.queries ?? defaultsFor(kind).queries;
    const steps: Step[] = [];
    const saved = () => cost(kind, p) - cost(kind, { ...p, queries: PREVIEW_QUERIES });
    if (progressive && queries > 2 * PREVIEW_QUERIES && saved() >= LONG_PREVIEW_MIN_SAVED_SECONDS) steps.push(longStep(kind, p, PREVIEW_QUERIES, parts, false, cost));
    steps.push(finalStep(single, p.seqLens.length > 1 ? parts : 1, p.seqLens.length, (n) => longStep(kind, p, queries, n, true, cost), cost));
    return steps;
  },
} satisfies Record<string, Rule>;
export type PlanRule = keyof typeof PLAN_RULES;

/** The rule of a request kind: its declaration's `plan`; 'single' for a kind that is not a declared experiment. */
export function ruleOf(kind: Kind): PlanRule {
  const declared: { plan?: string } | undefined = (EXPERIMENTS as Record<string, { plan?: string }>)[kind];
  const rule = declared?.plan ?? 'single';
  if (!Object.hasOwn(PLAN_RULES, rule)) throw new Error(`plan: ${kind} declares plan '${rule}', which is not a rule of PLAN_RULES (worker/plan.ts)`);
  return rule as PlanRule;
}

/**
 * The steps of a request for a pool of `parts` workers: a sweep's points in at most `parts` calls
 * (one call, the request itself, on one worker), more where the core's estimate of a call is over
 * its budget. `progressive` asks for a preview step before the full one where the core estimates
 * the request at PREVIEW_MIN_SECONDS or more. `cost` is the core's estimate (core.cost). The rule
 * is the experiment's declared `plan` (PLAN_RULES).
 */
export function plan<K extends Kind>(kind: K, params: Calls[K]['params'], progressive: boolean, parts = 1, cost: CostOf = coreCost): Step[] {
  return PLAN_RULES[ruleOf(kind)](kind, params, progressive, parts, cost);
}
