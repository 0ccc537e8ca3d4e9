// ALiBi against 1/√d_k alone: the entropy of each head's last query rows against the context length L, from the core's causal attention with and without alibi: 'press' (Press, Smith & Lewis 2022, slopes 2^(−8h/H)) on the same draws.
import type { Core, ScaleName } from '../../../wasm/js/core.js';
import { coreNormals } from './draws.ts';
import { ln } from '../portable-math.ts';

/** q, k, v [heads, L, dk] (the core's draws, streams 1–3) for each L; causal; the entropy is read on the last `tail` rows; `scale` the core's (default 1/√d_k). */
export interface AlibiParams { heads: number; dk: number; seqLens: number[]; tail: number; seed: number; scale?: ScaleName }
export interface AlibiResult {
  /** the slopes the core applied [heads] (float32): Press's 2^(−8(h+1)/H) for H a power of two */ slopes: number[];
  seqLens: number[];
  /** alibi[h][l]: head h's mean entropy (nats) over the last `tail` rows at seqLens[l], with ALiBi on top of 1/√d_k */ alibi: number[][];
  /** plain[h][l]: the same with 1/√d_k alone (no bias) */ plain: number[][];
  /** mean over heads of plain[·][l]: the heads are alike without a bias */ plainMean: number[];
  /** the scale the core applied (1/√d_k unless params.scale says otherwise) */ scale: number;
  tail: number;
}

/** The mean entropy −Σ p ln p (double, portable ln) of rows L − tail .. L − 1 of each head of weights [heads, L, L]. */
export function tailEntropy(w: Float32Array, heads: number, L: number, tail: number): number[] {
  const out: number[] = [];
  for (let h = 0; h < heads; h++) {
    let sum = 0;
    for (let i = L - tail; i < L; i++) {
      let e = 0;
      const row = (h * L + i) * L;
      for (let j = 0; j <= i; j++) { const p = w[row + j]; if (p > 0) e -= p * ln(p); }
      sum += e;
    }
    out.push(sum / tail);
  }
  return out;
}

export function alibiEntropy(core: Core, p: AlibiParams): AlibiResult {
  const { heads, dk, seqLens, tail, seed } = p;
  if (!Number.isInteger(tail) || tail < 1) throw new RangeError(`alibiEntropy: tail = ${tail} must be a positive integer`);
  if (seqLens.length === 0) throw new RangeError('alibiEntropy: seqLens is empty; give at least one length');
  for (const L of seqLens) if (!Number.isInteger(L) || L < tail) throw new RangeError(`alibiEntropy: seqLen = ${L} must be an integer ≥ tail = ${tail}`);
  const alibi: number[][] = Array.from({ length: heads }, () => []);
  const plain: number[][] = Array.from({ length: heads }, () => []);
  const plainMean: number[] = [];
  let slopes: number[] = [];
  let scale = NaN;
  for (const L of seqLens) {
    const n = heads * L * dk;
    const base = { q: coreNormals(core, n, seed, 1), k: coreNormals(core, n, seed, 2), v: coreNormals(core, n, seed, 3), heads, seqLen: L, dk, causal: true, ...(p.scale ? { scale: p.scale } : {}) } as const;
    const a = core.attention({ ...base, alibi: 'press' });
    const b = core.attention(base);
    slopes = Array.from(a.alibiSlopes!);
    scale = b.scale;
    const ea = tailEntropy(a.weights!, heads, L, tail), eb = tailEntropy(b.weights!, heads, L, tail);
    for (let h = 0; h < heads; h++) { alibi[h].push(ea[h]); plain[h].push(eb[h]); }
    plainMean.push(eb.reduce((s, x) => s + x, 0) / heads);
  }
  return { slopes, seqLens: [...seqLens], alibi, plain, plainMean, scale, tail };
}

/** ALiBi at one length under several scales (the saturation view's "does ALiBi need the 1/√d_k?"): the same draws, alibiEntropy per scale. */
export interface AlibiScalesParams { heads: number; dk: number; seqLen: number; tail: number; seed: number; scales: ScaleName[] }
export interface AlibiScalesResult {
  slopes: number[]; seqLen: number; tail: number;
  /** per scale, in params.scales's order: its name, the factor c the core applied, each head's mean entropy with ALiBi, and the heads' mean without a bias */
  rows: { scale: ScaleName; c: number; alibi: number[]; plainMean: number }[];
}

export function alibiScales(core: Core, p: AlibiScalesParams): AlibiScalesResult {
  const { scales, seqLen, ...rest } = p;
  if (scales.length === 0) throw new RangeError('alibiScales: scales is empty; give at least one scale');
  const runs = scales.map((scale) => ({ scale, r: alibiEntropy(core, { ...rest, seqLens: [seqLen], scale }) }));
  return {
    slopes: runs[0].r.slopes, seqLen, tail: p.tail,
    rows: runs.map(({ scale, r }) => ({ scale, c: r.scale, alibi: r.alibi.map((e) => e[0]), plainMean: r.plainMean[0] })),
  };
}
