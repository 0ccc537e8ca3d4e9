// The page's record of one training run: every step's metrics as they arrive in chunks, then the
// held-out evaluation and the logit analysis. Pure (no DOM), shared by the controller, the chart
// builders and the panel text.
import type { TrainingStepResult, TrainingEvalResult, TrainingAnalysis, TrainingRunInfo, AttentionVariant } from '../../../wasm/js/core.js';

export interface RunSeries {
  variant: AttentionVariant;
  layers: number;
  /** the run's configured steps */
  steps: number;
  /** [stepsDone] loss per step (NaN/∞ where non-finite) */
  loss: number[];
  gradNorm: number[];
  lr: number[];
  /** [layer][step] */
  entropy: number[][];
  maxAbsLogit: number[][];
  /** [layer][step], NaN for variants without τ or g */
  headScale: number[][];
  stepsDone: number;
  finished: boolean;
  diverged: boolean;
  firstNonfinite: number | null;
  info: TrainingRunInfo | null;
  evaluation: TrainingEvalResult | null;
  analysis: TrainingAnalysis | null;
}

export function emptySeries(variant: AttentionVariant, layers: number, steps: number): RunSeries {
  const per = () => Array.from({ length: layers }, () => [] as number[]);
  return {
    variant, layers, steps, loss: [], gradNorm: [], lr: [], entropy: per(), maxAbsLogit: per(), headScale: per(),
    stepsDone: 0, finished: false, diverged: false, firstNonfinite: null, info: null, evaluation: null, analysis: null,
  };
}

/** Appends the metrics of one step(n) call. */
export function appendStep(s: RunSeries, r: TrainingStepResult): void {
  for (let i = 0; i < r.count; i++) {
    s.loss.push(r.loss[i]);
    s.gradNorm.push(r.gradNorm[i]);
    s.lr.push(r.lr[i]);
    for (let l = 0; l < s.layers; l++) {
      s.entropy[l].push(r.entropy[i * s.layers + l]);
      s.maxAbsLogit[l].push(r.maxAbsLogit[i * s.layers + l]);
      s.headScale[l].push(r.headScale[i * s.layers + l]);
    }
  }
  s.stepsDone = r.stepsDone;
  s.finished = r.finished;
  s.diverged = r.diverged;
  s.firstNonfinite = r.firstNonfiniteStep;
}

/** The first step (0-based, as the core counts) whose loss is at or below thr, or null. */
export function stepsToReach(s: RunSeries, thr: number): number | null {
  const i = s.loss.findIndex((x) => x <= thr);
  return i < 0 ? null : i;
}

/** The loss of the last step run (NaN/∞ when the run diverged there), or NaN before any step. */
export function finalLoss(s: RunSeries): number {
  return s.loss.length ? s.loss[s.loss.length - 1] : NaN;
}

/** The last finite loss (for the divergence marker and the text). */
export function lastFiniteLoss(s: RunSeries): number {
  for (let i = s.loss.length - 1; i >= 0; i--) if (Number.isFinite(s.loss[i])) return s.loss[i];
  return NaN;
}

/** Whether a variant trains a per-head factor (τ or g) the charts can show. */
export function hasHeadScale(v: AttentionVariant): boolean {
  return v === 'learnable_temperature' || v === 'qk_l2';
}
