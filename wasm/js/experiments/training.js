// The training lab's declaration: its attention variants, its tasks and its default config (core.createTrainingRun).

/** The training lab's attention variants, in display order. */
export const ATTENTION_VARIANTS = Object.freeze(/** @type {const} */ (['none', 'inv_sqrt_dk', 'inv_dk', 'learnable_temperature', 'qk_layernorm', 'qk_l2']));
/** The training lab's tasks. */
export const TRAINING_TASKS = Object.freeze(/** @type {const} */ (['copy', 'reverse', 'sort', 'assoc_recall']));

/**
 * The training lab's default config (core.createTrainingRun; kernel: the core's). The C++
 * TrainConfig starts from it: scripts/gen-experiments.mjs writes training_defaults.hpp
 * (sqrtdk::train::defaults::<field in snake_case>).
 */
export const TRAINING_DEFAULTS = Object.freeze({
  task: 'copy', vocab: 16, seqLen: 16, layers: 2, dModel: 64, heads: 4, mlp: 128, norm: 'pre',
  attention: 'inv_sqrt_dk', softmax: 'safe', softcap: 0, initStd: 0.125, batch: 16, steps: 200, lr: 3e-3, warmup: 0,
  clip: 1, weightDecay: 0.01, beta1: 0.9, beta2: 0.99, adamEps: 1e-8, evalSize: 256, seed: 0,
});
