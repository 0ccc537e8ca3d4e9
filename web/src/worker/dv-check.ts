// d_v ≠ d_k (DeepSeek's MLA, Kimi K2: q/k heads of 192, v heads of 128): one attention call with v [headsKv, L, d_v] against the same call with v of d_k, so the weights are shown unchanged, the scale taken from d_k, and the entropy a port scaling by 1/√d_v would give instead.
import type { Core } from '../../../wasm/js/core.js';
import { coreNormals } from './draws.ts';

/** q [heads, L, dk], k [headsKv, L, dk], v [headsKv, L, dv] */
export interface DvCheckParams { heads: number; headsKv: number; seqLen: number; dk: number; dv: number; seed: number }
export interface DvCheckResult {
  /** the scale the core applied (1/√d_k) */ scale: number;
  /** max |weights(v of d_v) − weights(v of d_k)|: 0, the weights do not see v */ weightsMaxDiff: number;
  /** entries of the output, heads · L · d_v */ outputLength: number;
  /** max |output − weights · v| (the weights times v in double): the output is a d_v-wide mix */ outputMaxDiff: number;
  /** mean row entropy, nats, with 1/√d_k (right) and with 1/√d_v (a port that took d_v) */ entropy: number; entropyDv: number;
  /** mean max weight, the same two scales */ maxWeight: number; maxWeightDv: number;
}

export function dvCheck(core: Core, p: DvCheckParams): DvCheckResult {
  const { heads, headsKv, seqLen: L, dk, dv, seed } = p;
  if (!Number.isInteger(headsKv) || headsKv < 1 || heads % headsKv !== 0) throw new RangeError(`dvCheck: headsKv = ${headsKv} must divide heads = ${heads}`);
  if (!Number.isInteger(dv) || dv < 1) throw new RangeError(`dvCheck: dv = ${dv} must be a positive integer`);
  const q = coreNormals(core, heads * L * dk, seed, 1), k = coreNormals(core, headsKv * L * dk, seed, 2);
  const v = coreNormals(core, headsKv * L * dv, seed, 3), vk = coreNormals(core, headsKv * L * dk, seed, 3);
  const base = { q, k, heads, headsKv, seqLen: L, dk } as const;
  const r = core.attention({ ...base, v, dv });
  const same = core.attention({ ...base, v: vk });
  const w = r.weights!, w0 = same.weights!;
  let weightsMaxDiff = 0;
  for (let i = 0; i < w.length; i++) weightsMaxDiff = Math.max(weightsMaxDiff, Math.abs(w[i] - w0[i]));
  let outputMaxDiff = 0;
  const group = heads / headsKv;
  for (let h = 0; h < heads; h++) {
    const hv = Math.floor(h / group);
    for (let i = 0; i < L; i++) {
      for (let c = 0; c < dv; c++) {
        let acc = 0;
        for (let j = 0; j < L; j++) acc += w[(h * L + i) * L + j] * v[(hv * L + j) * dv + c];
        outputMaxDiff = Math.max(outputMaxDiff, Math.abs(acc - r.output[(h * L + i) * dv + c]));
      }
    }
  }
  // the statistics of the weights under each scale: the core's tensorStats on q and k repeated over each group
  const kRep = new Float32Array(heads * L * dk);
  for (let h = 0; h < heads; h++) kRep.set(k.subarray(Math.floor(h / group) * L * dk, (Math.floor(h / group) + 1) * L * dk), h * L * dk);
  const stats = (scale: number) => core.tensorStats({ q, k: kRep, v: null, heads, seqLen: L, dk, scale, seed }).summary;
  const right = stats(1 / Math.sqrt(dk)), wrong = stats(1 / Math.sqrt(dv));
  return {
    scale: r.scale, weightsMaxDiff, outputLength: r.output.length, outputMaxDiff,
    entropy: right.entropy.mean, entropyDv: wrong.entropy.mean, maxWeight: right.maxWeight.mean, maxWeightDv: wrong.maxWeight.mean,
  };
}
