// Type-checked (never run) by dts.test.mjs: how a TypeScript caller uses the core's API.
import { loadCore, LIMITS, SCALE_NAMES, simdSupported } from '../../wasm/js/core.js';
import { ACCUMULATE_MODES, ATTENTION_VARIANTS, MASKED_ROW_RULES, TRAINING_DEFAULTS, TRAINING_LIMITS } from '../../wasm/js/core.js';
import type { AttentionSummary, Core, PrecisionCauses, Scale, TrainingConfig, TrainingRun, TrainingStepResult } from '../../wasm/js/core.js';

export function train(core: Core): number {
  const config: TrainingConfig = { ...TRAINING_DEFAULTS, attention: ATTENTION_VARIANTS[5], seqLen: TRAINING_LIMITS.seqLen[1], kernel: 'scalar' };
  const run: TrainingRun = core.createTrainingRun(config);
  const r: TrainingStepResult = run.step(10);
  const nonfinite: number = r.firstNonfiniteStep ?? -1;
  const hist = run.analysis(32).layers[0].logits.counts[0];
  const acc = run.evaluate().tokenAccuracy;
  const params = run.info().parameters + (run.config.norm === 'pre' ? 1 : 0);
  run.dispose();
  return r.loss[0] + r.entropy[0] + nonfinite + hist + acc + params + (run.disposed ? 1 : 0);
}

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
  const masked = core.attention({ q: new Float32Array(4), k: new Float32Array(4), v: new Float32Array(4), heads: 1, seqLen: 2, dk: 2,
    causal: true, mask: new Float32Array([0, -Infinity, 0, 0]), softcap: 50, maskedRow: MASKED_ROW_RULES[1] });
  const capped = core.softmaxJacobian([10, 0], { softcap: 5 }).frobenius;
  const pl = core.precisionLab({ logits: [11, 11], accumulate: ACCUMULATE_MODES[1], maskedRow: 'nan', softcap: 30 });
  const causes: PrecisionCauses = pl.cells[9].causes;
  const ratio = core.attentionStats({ dk: 8, causal: true, softcap: 20 }).summary.entropyRatio.mean;
  const wm: number = masked.weights === null ? 0 : masked.weights[0];
  return wm + capped + causes.sumOverflow + ratio + sv.rows[0].raw.variance + st.summary.entropy.median + first.gradQuery.p90 + jac.spectral + w + st.heatmap[0] + sv.histRaw.counts[0];
}
