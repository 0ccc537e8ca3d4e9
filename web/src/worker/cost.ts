// The page's budgets, read from the core's own cost model: every decision the page takes about how
// much work a request is (which d_k a sweep holds, whether a point is too big for one step, whether
// a request gets a preview, how a sweep is split across workers) asks core.cost — the estimate the
// core itself checks each call against (wasm/src/cost.hpp) — so the page accepts exactly what the
// core accepts and there is no second formula. The page instantiates the module it compiles for
// its workers once more here, on the main thread (worker/boot.ts), only to evaluate estimates: a
// call to core.cost computes nothing and takes about a microsecond.
import type { Core, CostedCall, CostedParams, SaturationSweepParams, ScoreVarianceParams, AttentionStatsParams } from '../../../wasm/js/core.js';
import { DK_STEPS } from '../state/schema.js';
import { LIMITS, FIRST_PART_CALLS, COSTED_CALLS } from '../../../wasm/js/core.js';

let core: Core | null = null;

/**
 * The views whose every request the core's first part answers (FIRST_PART_CALLS: the variance
 * view's): a page that opens on one starts with that part (worker/boot.ts), the others with the full core.
 */
export const FIRST_PART_VIEWS: readonly string[] = ['variance'];

/** Gives the cost helper its core (the page's main-thread instance; tests pass a Node-loaded one). */
export function useCostCore(c: Core): void {
  core = c;
  memo.clear();
}


// Estimates already asked for (a panel sizes the same requests on every change): by name and params.
const memo = new Map<string, number>();
const MEMO_ENTRIES = 1024;

/**
 * The memo key's view of a parameter: a typed array (own tensors, a mask, slopes) by its type and
 * length, which is all a cost depends on — stringified whole, the 512 × 1024 floats of a dropped
 * CSV made each estimate a task of about a second on the page's thread.
 */
function sizeOnly(_key: string, v: unknown): unknown {
  return ArrayBuffer.isView(v) ? `${Object.prototype.toString.call(v)}[${v.byteLength}]` : v;
}

/** Seconds of work the core estimates for core[name](params) (its cost model; throws on bad params). */
export function estimateSeconds<N extends CostedCall>(name: N, params: CostedParams[N]): number {
  // Where the core could not be loaded on the page (the lab's code is unavailable: the workers
  // cannot load it either), requests are not sized: nothing can compute them, and the pool answers
  // each as unavailable, which the panels say beside their controls. Once the core loads, the page
  // mounts again with every request sized (app/mount.ts recovered()). No second formula stands in.
  // The core's first part (the variance view's start, worker/boot.ts) estimates only its own calls;
  // a view beyond it mounts once the page has the full core (app/views.ts viewReady), so a call it lacks
  // is sized here only if the full core could not load: not sized, as above.
  const c = core;
  if (c === null || (c.part === 'first' && !(FIRST_PART_CALLS as readonly string[]).includes(name))) return 0;
  const key = `${name}:${JSON.stringify(params, sizeOnly)}`;
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const s = c.cost(name, params).seconds;
  if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string);
  memo.set(key, s);
  return s;
}

/** Seconds of work one call may take in a worker: the core's budget (LIMITS.workSeconds, 8 s). */
export function callBudgetSeconds(): number {
  return core === null ? LIMITS.workSeconds : core.limits.workSeconds;
}

/** ms any call may take in a worker before it counts as hung: a slow start on a busy machine. */
export const CALL_TIMEOUT_FLOOR_MS = 15000;
/**
 * How many times slower than the core's estimate a call may run before its worker counts as hung:
 * the estimate is calibrated on 2 cores with Node 20, and WebKit's wasm SIMD code ran about 10×
 * slower than Chromium's on one x86-64 machine (issue 29), on a machine other tabs also load.
 */
export const CALL_TIMEOUT_SLOWDOWN = 30;

/**
 * The core's estimate of a pool call in seconds: 0 for a call the cost model does not cover, or
 * whose params it refuses (the core refuses them at once too).
 */
export function callSeconds(kind: string, params: unknown): number {
  let s = 0;
  if ((COSTED_CALLS as readonly string[]).includes(kind)) {
    try { s = estimateSeconds(kind as CostedCall, params as CostedParams[CostedCall]); } catch { s = 0; }
  }
  return Number.isFinite(s) ? Math.max(0, s) : 0;
}

/**
 * ms the pool lets a call run before its worker counts as hung: the floor plus the core's estimate
 * of the call (callSeconds) times CALL_TIMEOUT_SLOWDOWN.
 */
export function callTimeoutMs(kind: string, params: unknown): number {
  return Math.round(CALL_TIMEOUT_FLOOR_MS + CALL_TIMEOUT_SLOWDOWN * 1000 * callSeconds(kind, params));
}

/** A point larger than this (seconds by the core's estimate) is refused before it reaches the core. */
export const POINT_SECONDS_LIMIT = 1;

/** The request with the default sweep's size: h 4, L 128, every d_k, the four scales. */
const DEFAULT_SWEEP = { dks: [...DK_STEPS], scales: ['none', 'inv_sqrt_dk', 'inv_dk', 'inv_sqrt_d_model'], heads: 4, seqLen: 128 } as const;
/** The default variance sweep: 2000 samples at every d_k (4 bins: its histograms come from the point). */
const DEFAULT_VARIANCE = { dks: [...DK_STEPS], samples: 2000, bins: 4 } as const;

/**
 * The longest prefix of DK_STEPS (at least its first) whose request, built by `at(dks)`, the core
 * estimates within `budget` seconds.
 */
function dksWithin(budget: number, at: (dks: number[]) => number): number[] {
  let n = 1;
  while (n < DK_STEPS.length && at(DK_STEPS.slice(0, n + 1)) <= budget) n++;
  return DK_STEPS.slice(0, n);
}

/**
 * The d_k of the saturation / gradient sweep: as many as fit the budget of the default sweep
 * (h 4, L 128, every d_k, the four scales: it fits exactly) with the same kernel.
 */
export function sweepDks(heads: number, seqLen: number, scales: SaturationSweepParams['scales'], kernel: { kernel?: 'simd' | 'scalar' } = {}): number[] {
  const budget = 1.001 * estimateSeconds('saturationSweep', { ...DEFAULT_SWEEP, dks: [...DEFAULT_SWEEP.dks], scales: [...DEFAULT_SWEEP.scales], ...kernel });
  return dksWithin(budget, (dks) => estimateSeconds('saturationSweep', { dks, scales, heads, seqLen, ...kernel }));
}

/** The d_k of the variance sweep: as many as fit the budget of the default one (2000 samples, every d_k). */
export function varianceDks(samples: number): number[] {
  const budget = 1.001 * estimateSeconds('scoreVariance', { ...DEFAULT_VARIANCE, dks: [...DEFAULT_VARIANCE.dks] });
  return dksWithin(budget, (dks) => estimateSeconds('scoreVariance', { dks, samples, bins: DEFAULT_VARIANCE.bins } satisfies ScoreVarianceParams));
}

/** The core's estimate of a point in seconds when it is over POINT_SECONDS_LIMIT, else null. */
export function pointOverLimit(params: AttentionStatsParams): number | null {
  const s = estimateSeconds('attentionStats', params);
  return s > POINT_SECONDS_LIMIT ? s : null;
}

/**
 * Sizes the default variance sweep once (its estimates stay in the memo): the page calls it in a
 * task of its own as soon as its core is in, because the cost model's first calls (the core's code
 * run for the first time) took 20–25 ms of the task that builds the first view.
 */
export function warmCost(): void {
  if (core === null) return;
  varianceDks(DEFAULT_VARIANCE.samples);
}
