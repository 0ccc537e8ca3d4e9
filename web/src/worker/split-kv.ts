// Split-KV attention merged by the log-sum-exp (FlashDecoding, ring attention): one causal call's keys cut in two chunks by masks, each chunk's (output, lse) from the core's attention(lse: true), merged with the core's mergeAttention and held to the full call; the same merge with the lse read in base 2 (the pitfall), and a merge with an empty chunk (0, −∞).
import type { Core } from '../../../wasm/js/core.js';
import { coreNormals } from './draws.ts';

/** q, k, v [heads, seqLen, dk] (d_v = d_k), causal; chunk A holds keys 0..split−1, chunk B keys split..seqLen−1. */
export interface SplitKvParams { heads: number; seqLen: number; dk: number; split: number; seed: number }
export interface SplitKvResult {
  split: number;
  /** max |merged − full| over every output entry (merge of the two chunks by their lse in nats) */ maxDiff: number;
  /** max |lse_merged − lse_full| over the rows that see a key, nats */ lseMaxDiff: number;
  /** the same merge with each lse given in base 2 (lse · log₂e) and read as nats: max |merged − full| */ base2MaxDiff: number;
  /** merge(full, (0, −∞)): max |merged − full| (0: the empty chunk is neutral) and whether every lse came back equal */
  emptyMaxDiff: number; emptyLseEqual: boolean;
  /** rows (over every head) whose chunk A or chunk B is empty: their lse is −∞ and their output 0 */ emptyRowsA: number; emptyRowsB: number;
  /** heads · seqLen */ rows: number;
}

/** The additive mask [L, L] of one chunk: 0 on keys lo..hi−1, −∞ elsewhere (the causal mask is the call's). */
function chunkMask(L: number, lo: number, hi: number): Float32Array {
  const m = new Float32Array(L * L).fill(-Infinity);
  for (let i = 0; i < L; i++) m.fill(0, i * L + lo, i * L + hi);
  return m;
}

const maxAbsDiff = (a: Float32Array, b: Float32Array): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

export function splitKv(core: Core, p: SplitKvParams): SplitKvResult {
  const { heads, seqLen: L, dk, split, seed } = p;
  if (!Number.isInteger(split) || split < 0 || split > L) throw new RangeError(`splitKv: split = ${split} must be an integer in 0..seqLen = ${L}`);
  const n = heads * L * dk;
  const q = coreNormals(core, n, seed, 1), k = coreNormals(core, n, seed, 2), v = coreNormals(core, n, seed, 3);
  const base = { q, k, v, heads, seqLen: L, dk, causal: true, weights: false, lse: true } as const;
  const full = core.attention(base);
  const a = core.attention({ ...base, mask: chunkMask(L, 0, split) });
  const b = core.attention({ ...base, mask: chunkMask(L, split, L) });
  const dims = { heads, seqLen: L, dv: dk };
  const merged = core.mergeAttention({ a: { output: a.output, lse: a.lse! }, b: { output: b.output, lse: b.lse! }, ...dims });
  const base2 = (x: Float32Array) => Float32Array.from(x, (l) => l * Math.LOG2E);
  const misread = core.mergeAttention({ a: { output: a.output, lse: base2(a.lse!) }, b: { output: b.output, lse: base2(b.lse!) }, ...dims });
  const empty = core.mergeAttention({ a: { output: full.output, lse: full.lse! }, b: { output: new Float32Array(n), lse: new Float32Array(heads * L).fill(-Infinity) }, ...dims });
  let lseMaxDiff = 0;
  for (let i = 0; i < heads * L; i++) if (Number.isFinite(full.lse![i])) lseMaxDiff = Math.max(lseMaxDiff, Math.abs(merged.lse[i] - full.lse![i]));
  const count = (x: Float32Array) => x.reduce((c, l) => c + (l === -Infinity ? 1 : 0), 0);
  return {
    split, maxDiff: maxAbsDiff(merged.output, full.output), lseMaxDiff, base2MaxDiff: maxAbsDiff(misread.output, full.output),
    emptyMaxDiff: maxAbsDiff(empty.output, full.output), emptyLseEqual: empty.lse.every((l, i) => Object.is(l, full.lse![i])),
    emptyRowsA: count(a.lse!), emptyRowsB: count(b.lse!), rows: heads * L,
  };
}
