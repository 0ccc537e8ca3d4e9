// Type-checked (never run) by dts.test.mjs: how a TypeScript caller uses the core's API.
import { loadCore, LIMITS, SCALE_NAMES, simdSupported } from '../../wasm/js/core.js';
import type { AttentionSummary, Core, Scale } from '../../wasm/js/core.js';

export async function usage(): Promise<number> {
  const simd: boolean = await simdSupported();
  const core: Core = await loadCore({ kernel: simd ? 'auto' : 'scalar', build: 'auto' });
  const scale: Scale = SCALE_NAMES[1];
  const sv = core.scoreVariance({ dks: [1, 64], samples: 1000, seed: 1, histDk: 64 });
  const st = core.attentionStats({ dk: 64, seqLen: LIMITS.seqLen[0], scale, kernel: core.info().kernel });
  const sw = core.saturationSweep({ dks: [8, 16], scales: ['none', 0.5] });
  const first: AttentionSummary = sw.points[0][0];
  const jac = core.softmaxJacobian([10, 0]);
  const att = core.attention({ q: new Float32Array(4), k: new Float32Array(4), v: new Float32Array(4), heads: 1, seqLen: 2, dk: 2 });
  const w: number = att.weights === null ? 0 : att.weights[0];
  return sv.rows[0].raw.variance + st.summary.entropy.median + first.gradQuery.p90 + jac.spectral + w + st.heatmap[0] + sv.histRaw.counts[0];
}
