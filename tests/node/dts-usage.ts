// Type-checked (never run) by dts.test.mjs: how a TypeScript caller uses the core's API.
import { loadCore, LIMITS, SCALE_NAMES, simdSupported } from '../../wasm/js/core.js';
import { ACCUMULATE_MODES, ATTENTION_VARIANTS, MASKED_ROW_RULES, SCALE_AT, TRAINING_DEFAULTS, TRAINING_LIMITS } from '../../wasm/js/core.js';
import { modelConfig, MODEL_CONFIG_LIMITS } from '../../wasm/js/core.js';
import type { ModelConfigModifier, ModelConfigResult } from '../../wasm/js/core.js';
import type { AttentionSummary, Core, ModelScale, PrecisionCauses, Scale, ScaleAt, TrainingConfig, TrainingRun, TrainingStepResult } from '../../wasm/js/core.js';

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

// Issue 19: correlation, the d_k^−p scale, sinks, modelScales, Llama 4 / SSMax / YaRN m-scales, q·kᵀ in a format.
export function science(core: Core): number {
  const power: Scale = { power: 1 };
  const sw = core.saturationSweep({ dks: [64], scales: [power, 'inv_sqrt_dk'], correlation: 0.2, sinks: new Float32Array([1, 1, 1, 1]) });
  const mass: number = sw.points[0][0].sinkMass?.mean ?? 0;
  const att = core.attention({ q: new Float32Array(4), k: new Float32Array(4), v: new Float32Array(4), heads: 1, seqLen: 2, dk: 2, sinks: [0.5] });
  const sinkW: number = att.sinkWeights === undefined ? 0 : att.sinkWeights[0];
  const models: ModelScale[] = core.modelScales();
  const c: number = models[0].scale / models[0].invSqrtDHead + (models[0].softcap ?? 0);
  const lc = core.longContext({ seqLens: [1024], methods: ['llama4', 'ssmax', 'yarn'], floorScale: 256, attnScale: 0.1, s: 0.43, mscale: 1, mscaleAllDim: 1 });
  const at: ScaleAt = SCALE_AT[1];
  const pl = core.precisionLab({ q: new Float32Array(4), k: new Float32Array(8), dk: 4, scale: 'inv_sqrt_dk', scaleAt: at, rowSums: true });
  const stall: number = (pl.cells[9].causes.sumStall ?? 0) + (pl.cells[9].rowSum?.max ?? 0);
  const sv = core.scoreVariance({ dks: [128], correlation: 0.1 });
  return mass + sinkW + c + lc.points[0][0].multiplier + stall + sv.rows[0].theory.raw.mean;
}

// Issue 27: a Hugging Face config.json read into the scale it applies (no wasm).
export function yourModel(text: string): number {
  if (text.length > MODEL_CONFIG_LIMITS.chars) return 0;
  const r: ModelConfigResult = modelConfig(text);
  const inScale: ModelConfigModifier[] = r.modifiers.filter((m) => m.inScale);
  const t: number = r.llama4 === null ? 1 : r.llama4.attnScale;
  return r.scale * r.ratio + inScale.length + t + r.softcap + r.dV + r.used.length + r.unknown.length;
}
