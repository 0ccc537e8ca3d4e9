// The "your device" benchmark, pure parts (no DOM, no worker): the shape and FLOP count, the inputs,
// the plain JavaScript attention it compares with, the measurement plan and the summary of timings.
// The worker (host.ts) runs slices of it; the panel (panels/device.ts) drives and draws it.
import type { Core } from '../../../wasm/js/core.js';

export interface Shape { heads: number; seqLen: number; dk: number }
/** The attention shape every contender runs: 8 heads × 128 positions × d_k 64 (a shape of `npm run bench`). */
export const DEVICE_SHAPE: Readonly<Shape> = Object.freeze({ heads: 8, seqLen: 128, dk: 64 });

/**
 * FLOPs of one attention forward pass O = softmax(QKᵀ/√d_k)·V on [heads, seq_len, d_k]: the two
 * products only, 2·L²·d_k each per head (one multiply and one add per term), so 4·h·L²·d_k —
 * the definition of `npm run bench`. The softmax is inside the time but not counted.
 */
export function attentionFlops(s: Shape): number { return 4 * s.heads * s.seqLen * s.seqLen * s.dk; }

/** What is measured: our SIMD128 kernel, our scalar kernel, a plain JS loop, the mul+add peak. */
export const MEASURES = ['simd', 'scalar', 'js', 'peak'] as const;
export type Measure = (typeof MEASURES)[number];

/** Steps of the core's simdPeak per call (16 384 FLOPs each: about 1–2 ms on a laptop core). */
export const PEAK_ITERS = 4000;
/** Time given to each measure (ms, warm-up excluded), the length of one worker slice, and the fewest calls kept. */
export const BUDGET_MS = 600;
export const SLICE_MS = 50;
export const MIN_CALLS = 3;

/** q, k, v [heads, seq_len, d_k], iid N(0, 1): the core's draws of stream 0 of `seed` (the timing does not depend on them). */
export function deviceInputs(core: Pick<Core, 'normalDraws'>, s: Shape, seed = 1): { q: Float32Array; k: Float32Array; v: Float32Array } {
  const n = s.heads * s.seqLen * s.dk;
  const all = core.normalDraws({ n: 3 * n, seed }).values;
  return { q: Float32Array.from(all.subarray(0, n)), k: Float32Array.from(all.subarray(n, 2 * n)), v: Float32Array.from(all.subarray(2 * n)) };
}

/**
 * Attention in plain JavaScript, the way one would write it without a library: per head,
 * S = scale · Q Kᵀ, a row softmax (max subtracted, Math.exp), O = P V; float32 storage, the
 * arithmetic in JS numbers (double). q, k, v, out: [heads, seq_len, d_k], row-major.
 */
export function attentionJs(q: Float32Array, k: Float32Array, v: Float32Array, s: Shape, scale: number, out = new Float32Array(q.length)): Float32Array {
  const { heads, seqLen: L, dk } = s;
  const row = new Float32Array(L);
  for (let h = 0; h < heads; ++h) {
    const base = h * L * dk;
    for (let i = 0; i < L; ++i) {
      const qi = base + i * dk;
      let mx = -Infinity;
      for (let j = 0; j < L; ++j) {
        const kj = base + j * dk;
        let acc = 0;
        for (let p = 0; p < dk; ++p) acc += q[qi + p] * k[kj + p];
        const x = acc * scale;
        row[j] = x;
        if (x > mx) mx = x;
      }
      let sum = 0;
      for (let j = 0; j < L; ++j) {
        const e = Math.exp(row[j] - mx);
        row[j] = e;
        sum += e;
      }
      const inv = 1 / sum;
      const oi = base + i * dk;
      for (let p = 0; p < dk; ++p) out[oi + p] = 0;
      for (let j = 0; j < L; ++j) {
        const w = row[j] * inv;
        const vj = base + j * dk;
        for (let p = 0; p < dk; ++p) out[oi + p] += w * v[vj + p];
      }
    }
  }
  return out;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
}

/** One measure's outcome: the calls timed (after warm-up), the median time, and GFLOP/s = FLOPs per call / median time. */
export interface Timing {
  measure: Measure;
  calls: number;
  medianMs: number;
  flopPerCall: number;
  gflops: number;
}

/** Summarises the per-call times of a measure (ms > 0). Throws RangeError on no or bad times. */
export function summarise(measure: Measure, flopPerCall: number, times: readonly number[]): Timing {
  if (times.length === 0) throw new RangeError(`${measure}: no call was timed`);
  // a timer coarser than a call (some browsers round performance.now() to 0.1 ms or more) can
  // read 0 for one call: the median of many calls is then still positive, or the slice was too short
  const medianMs = median(times);
  if (!(medianMs > 0)) throw new RangeError(`${measure}: the median call time is ${medianMs} ms (timer too coarse)`);
  return { measure, calls: times.length, medianMs, flopPerCall, gflops: flopPerCall / (medianMs * 1e6) };
}

/** What the device reports beside the timings. */
export interface DeviceFacts {
  /** the engine validates WebAssembly SIMD128 (wasm-feature-detect) */
  simd: boolean;
  /** the core build the worker runs ('simd128' or 'baseline') and its version */
  build: 'simd128' | 'baseline';
  version: string;
  /** navigator.hardwareConcurrency (0 where the browser does not say) and the compute worker pool size */
  hardwareConcurrency: number;
  poolSize: number;
}

export interface DeviceResult {
  shape: Shape;
  flops: number;
  facts: DeviceFacts;
  timings: Timing[];
}

/** The measures a device can run: SIMD128 kernel and peak only where the engine validates SIMD128. */
export function plan(simd: boolean): Measure[] {
  return MEASURES.filter((m) => simd || (m !== 'simd' && m !== 'peak'));
}

/**
 * How long a run of `measures` measures takes, in ms, by its plan (run.ts): each measure's warm-up
 * slice and its time budget (the worker's start and the core's load come on top, once).
 */
export function plannedMs(measures: number, budgetMs = BUDGET_MS, sliceMs = SLICE_MS): number {
  return measures * (budgetMs + sliceMs);
}

/** The share of the peak, for the measures other than the peak itself (null without a peak). */
export function ofPeak(timings: readonly Timing[], m: Measure): number | null {
  const peak = timings.find((x) => x.measure === 'peak');
  const t = timings.find((x) => x.measure === m);
  return peak && t && m !== 'peak' ? t.gflops / peak.gflops : null;
}
