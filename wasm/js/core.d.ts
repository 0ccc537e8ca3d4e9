// Types of the public JS API of √dk Lab's core: `import { loadCore } from 'sqrtdk-lab/core'`.
// Hand-written (Emscripten 3.1.6 emits no types), but for the experiments' parameters, results and
// methods, which are generated from their declaration (wasm/js/experiments.js) into
// experiment-types.d.ts and re-exported here. tests/node/dts.test.mjs holds both to what the
// module really exports. Shapes are [heads, seq_len, dk] row-major float32 unless stated;
// entropy is in nats. Every function throws a RangeError (a value out of range, with the
// parameter and value named) or a TypeError (a value of the wrong type); the core keeps working.

import type {
  CostedCall, CostedParams, ExperimentMethods, Histogram, ModelScale, Moments, SoftmaxJacobianResult,
} from './experiment-types.js';
export type * from './experiment-types.js';

/** A kernel family: 'simd' (WebAssembly SIMD128) or 'scalar'; 'auto' = simd where the engine validates SIMD128. */
export type KernelChoice = 'auto' | 'simd' | 'scalar';
export type Kernel = 'simd' | 'scalar';

/**
 * The scale factor c in scores = c · q·k: 'none' (1), 'inv_sqrt_dk' (1/√d_k, Vaswani et al. 2017 §3.2.1),
 * 'inv_dk' (1/d_k), 'inv_sqrt_d_model' (1/√(heads·d_k), a common bug), an explicit number in (0, 10000], or
 * `{ power: p }`: c = d_k^−p with p in [0, 2] (p = ½ is 1/√d_k, p = 1 is μP's 1/d_k — Yang et al. 2021, Tensor
 * Programs V; microsoft/mup README). p = 0, ½ and 1 give exactly the numbers of 'none', 'inv_sqrt_dk' and 'inv_dk'.
 * Any other key, or p outside [0, 2], is refused (TypeError / RangeError naming scale.power).
 */
export type ScaleName = 'none' | 'inv_sqrt_dk' | 'inv_dk' | 'inv_sqrt_d_model';
/** c = d_k^−power, power in [0, 2] */
export interface ScalePower { power: number }
export type Scale = ScaleName | number | ScalePower;

/**
 * ρ in [−1, 1] (default 0): the key paired with a query is drawn coordinate by coordinate as
 * k_i = ρ q_i + √(1 − ρ²) z_i (z iid N(0, σ²), the draw the independent key would have had), so a matched pair has
 * E[q·k] = ρ d_k σ² and Var(q·k) = d_k σ⁴ (1 + ρ²) — at d_k 128, ρ 0.1: mean 12.8, variance 129.28. This is μP's case:
 * with 1/√d_k the matched logit grows like ρ√d_k, with 1/d_k it stays ρ. ρ = 0 gives the independent draws bit for bit.
 */
export type Correlation = number;

/**
 * Attention sinks, one logit S_h per head (length heads; a Float32Array, Float64Array or number[]), with gpt-oss's
 * semantics (openai/gpt-oss, gpt_oss/torch/model.py `sdpa`: the sink is concatenated to each row of scaled, masked
 * logits and dropped after the softmax; StreamingLLM, Xiao et al. 2023): w_j = e^{s_j} / (e^{S_h} + Σ_i e^{s_i}), so a
 * row's weights sum to 1 − p_sink. Logits [2, 1, 0] with S = 1 give [0.5344, 0.1966, 0.0723], sink 0.1966. A row whose
 * keys are all masked gives zeros (the sink takes all) under either masked-row rule. Each value finite with |S| ≤ 1e6,
 * or −Infinity = no sink for that head (every number then equals the sink-free one, bit for bit); absent or null =
 * no sinks. A wrong length or a NaN/+∞ value is refused (RangeError naming sinks or sinks[i]); any other typed array
 * (Int32Array, Uint8Array, …) is refused (TypeError naming sinks and the array's kind).
 */
export type Sinks = Float32Array | Float64Array | readonly number[];

/**
 * Logit soft-capping, s ↦ cap · tanh(s / cap) on the scaled logits before any mask (Gemma 2, Gemma Team 2024 §2
 * uses cap 50 on attention logits; Grok-1 30; the order of flash_attn's `softcap`). A number in (0, 1e6]; absent = off
 * (0 is refused: leave the key out). Gradients and Jacobian norms then are with respect to the raw logits and include
 * the factor 1 − tanh²(s / cap).
 */
export type Softcap = number;

export interface SoftmaxJacobianOptions {
  /** soft-cap the logits first; J is then ∂p/∂s with respect to the raw logits (default: off) */ softcap?: Softcap;
}
/** A partial attention: the output over one chunk of keys and its log-sum-exp (attention with lse: true). */
export interface AttentionState {
  /** [heads, seqLen, dv], finite */ output: Float32Array;
  /** [heads, seqLen], nats; finite, or −∞ for a row that saw no key (an empty chunk) */ lse: Float32Array;
}

export type FloatFormat = 'float64' | 'float32' | 'bfloat16' | 'float16';
export type SoftmaxAlgorithm = 'naive' | 'safe' | 'online';
/** A row with a zero normaliser: 'nan' = what its formula gives (0/0, −∞ − (−∞)); 'zero' = all zeros (fused kernels). */
export type MaskedRowRule = 'nan' | 'zero';
/**
 * 'same': every operation rounded to the storage format (a softmax on a float16 unit); 'float32': inputs and outputs
 * in the storage format, the max, the exps, the sum and the quotient in float32 (in the storage format when it is
 * wider), as PyTorch's half-precision softmax kernels and FlashAttention do.
 */
export type AccumulateMode = 'same' | 'float32';
/** Where the precision lab with q and k applies the scale: 'scores' (c · (q·k)), 'query' ((c · q)·k) or 'both' ((√c · q)·(√c · k)). */
export type ScaleAt = 'scores' | 'query' | 'both';
/** How the precision lab's float16/bfloat16 cells hold the scale with q and k: a float32 constant or rounded to the cell's format. */
export type ScaleRounding = 'float32' | 'cell';

/**
 * Logit multipliers on q·k/√d_k at length L (s = L / trainLen; each query is the newest token, position L − 1,
 * seeing all L keys):
 * 'fixed' 1; 'logn' max(1, ln L / ln L_train) (Chiang & Cholak 2022 §5; Su 2021; Qwen);
 * 'yarn' for s > 1: a² · yarn_get_mscale(s, mscaleAllDim)², a = yarn_get_mscale(s, mscale) / yarn_get_mscale(s, mscaleAllDim),
 *   yarn_get_mscale(s, m) = 0.1 · m · ln s + 1 (HF modeling_deepseek.py; DeepSeek-V3 inference/model.py): with
 *   mscaleAllDim absent (0) a = yarn_get_mscale(s, mscale) alone, so the defaults give Peng et al. 2023's (0.1 ln s + 1)²;
 *   with mscaleAllDim = mscale it is (0.1 · mscale · ln s + 1)² (DeepSeek-V3: factor 40 → 1.873854);
 * 'article' √(L / L_train), the article's T = √d_k · (L_train / L)^0.5 (C8), not a published method;
 * 'llama4' t = 1 + attnScale · ln(⌊L / floorScale⌋ + 1), Llama 4's query temperature at pos + 1 = L
 *   (meta-llama/llama-models models/llama4/model.py; HF modeling_llama4.py: floor_scale, attn_scale; 1.28332 at 131072);
 * 'ssmax' s · ln L, Scalable-Softmax (Nakanishi 2025, arXiv 2501.19399): all logits −2 but one +3, s = 0.43, n = 1000 keys:
 *   max weight 0.12935 with softmax, 0.99965 with SSMax.
 */
export type LongContextScheme = LongContextMethod | 'llama4' | 'ssmax';
/** The four schemes of the first long-context panel (kept as a type of its own so that records keyed by it stay valid). */
export type LongContextMethod = 'fixed' | 'logn' | 'yarn' | 'article';

// ---- does attention have to sum to one? ------------------------------------------------------
/**
 * The normalisers of `normalisers()`, in the order of its rows. For a row of scaled logits s over the n keys it
 * sees: 'softmax' e^s / Σe^s; 'offByOne' e^s / (1 + Σe^s) (a sink of 0); 'sink' e^s / (e^S + Σe^s), S = `sink`
 * (gpt-oss); 'sigmoid' σ(s + b), b = −ln n by default (Ramapuram et al. 2024, Apple, arXiv 2409.04431);
 * 'gated' softmax's weights with the output × σ(g) per head and channel, g ~ N(gateMean, 1) from the seed
 * (Qwen3-Next's output gate); 'differential' p_{2h} − λ p_{2h+1} on heads paired (2h, 2h + 1) (Ye et al. 2024,
 * Differential Transformer, microsoft/unilm). All-zero logits over n keys: sigmoid and off-by-one sum to n/(n + 1).
 */
export type NormaliserName = 'softmax' | 'offByOne' | 'sink' | 'sigmoid' | 'gated' | 'differential';

// ---- reading a model's config.json (modelConfig, no wasm) -----------------------------------
/** One thing a config changes about a head's logits or weights, with the field it came from. */
export interface ModelConfigModifier {
  /** 'query_pre_attn_scalar' | 'attention_multiplier' | 'yarn_mscale' | 'yarn_attention_factor' | 'yarn_rotary' | 'softcap' | 'llama4_temperature' | 'qk_norm' | 'sinks' | 'output_gate' | 'sparse_topk' | 'gqa' | 'sliding_window' | 'partial_rotary' | 'rope_scaling' | 'yarn_factor_note' */
  kind: string;
  /** the config field(s) it was read from ("rope_scaling.factor, rope_scaling.mscale_all_dim", "text_config.query_pre_attn_scalar", "model_type") */ field: string;
  /** the field's value */ value: number | string | boolean;
  /** what it multiplies the scale by (1 when it is not in the scale) */ factor: number;
  /** whether it is part of `scale` (a factor on every logit of every row), or reported beside it */ inScale: boolean;
  note: string;
  /** the code it follows: "owner/repo: path (function)" */ source: string;
}
/**
 * What modelConfig read from a config.json: the effective softmax scale c (logits = c · q·k of one head, at the
 * model's reference context), its ratio to 1/√d_head, the modifiers with their fields, and the fields used,
 * ignored (known not to touch the logits) and not understood.
 */
export interface ModelConfigResult {
  /** model_type ('' when the config has none) */ modelType: string;
  /** whether model_type is one of MODEL_CONFIG_TYPES, whose attention code this reader follows */ known: boolean;
  /** whether the fields were read from a multimodal config's language model: text_config, else llm_config (InternVL), else language_config (DeepSeek-VL); its key prefixes every field name */ textConfig: boolean;
  /** the q·k size of a head: qk_nope_head_dim + qk_rope_head_dim (MLA), head_dim, or hidden_size / num_attention_heads */ dHead: number;
  /** the fields dHead came from */ dHeadFrom: string;
  /** the size of a head of v (MLA's v_head_dim) */ dV: number;
  /** query heads (0 when the config does not say) */ heads: number;
  /** key/value heads (num_key_value_heads, else heads) */ headsKv: number;
  /** c, the effective scale */ scale: number;
  /** 1/√dHead */ invSqrtDHead: number;
  /** scale · √dHead */ ratio: number;
  /** how c was computed, in the config's names */ formula: string;
  /** attn_logit_softcapping (0: none) */ softcap: number;
  /** a learned sink logit per head (gpt-oss) */ sinks: boolean;
  /** q and k normalised per head before the product */ qkNorm: boolean;
  /** sliding_window where it is in use (0: none) */ slidingWindow: number;
  /** Llama 4's temperature tuning on NoPE layers, or null */ llama4: { floorScale: number; attnScale: number } | null;
  modifiers: ModelConfigModifier[];
  /** the fields read, sorted ("rope_scaling.factor", "text_config.head_dim") */ used: string[];
  /** fields known not to touch the logits (vocab_size, intermediate_size, …) */ ignored: string[];
  /** fields this reader does not know: they may change the logits in the model's own code */ unknown: string[];
}
/**
 * Reads a Hugging Face config.json (its text, or the parsed object) and returns the scale the model applies to
 * q·k with every modifier and the field it came from. No wasm: it needs no loaded core.
 * Sources: transformers' modeling_llama (head_dim), modeling_deepseek_v3 (MLA's qk_head_dim, yarn_get_mscale²),
 * modeling_rope_utils (_compute_yarn_parameters), modeling_gemma2/3 (query_pre_attn_scalar, soft-cap, QK-norm),
 * modeling_granite (attention_multiplier), modeling_llama4 (temperature tuning), modeling_gpt_oss (sinks),
 * modeling_qwen3 / qwen3_next (QK-norm, output gate). A leading byte-order mark is skipped. Fields beside a text
 * config that the language model does not read (a top-level rope_scaling, say) are listed as not understood.
 * @throws RangeError text over MODEL_CONFIG_LIMITS.chars (before parsing), a head count, head size or scalar out of
 *   range (zero, negative, huge, not an integer; query_pre_attn_scalar < 1, attention_multiplier < 1e-6, a head size
 *   over 65536 however derived), a model_type over 64 characters, no head size at all; SyntaxError text that is not
 *   JSON; TypeError a field of the wrong type (a boolean field other than true, false, 0, 1; layer_types not an
 *   array of strings) or a top level that is not an object — each naming the field and value
 */
export function modelConfig(json: string | object): ModelConfigResult;
/** modelConfig's limits: the text's length in characters, and the ranges of head counts, head sizes and hidden sizes. */
export const MODEL_CONFIG_LIMITS: {
  readonly chars: number;
  readonly heads: readonly [number, number];
  readonly headDim: readonly [number, number];
  readonly hiddenSize: readonly [number, number];
};
/** The model types whose attention code modelConfig follows (others are read field by field, nothing assumed). */
export const MODEL_CONFIG_TYPES: readonly string[];

// ---- the training lab ----------------------------------------------------------------------
/**
 * How the attention logits s = c_h · q̂·k̂ of head h are formed:
 * 'none' c = 1; 'inv_sqrt_dk' c = 1/√d_k (Vaswani et al. 2017 §3.2.1); 'inv_dk' c = 1/d_k;
 * 'learnable_temperature' c = τ_h, trained, initialised at 1/√d_k (Lee, Lee & Song 2021);
 * 'qk_layernorm' LayerNorm on q and k over d_k (learnable gain and bias), then 1/√d_k (Dehghani et al. 2023;
 * Wortsman et al. 2023); 'qk_l2' cosine similarity times a trained g_h initialised at log₂(T² − T) (Henry et al. 2020).
 */
export type AttentionVariant = 'none' | 'inv_sqrt_dk' | 'inv_dk' | 'learnable_temperature' | 'qk_layernorm' | 'qk_l2';
/**
 * Synthetic tasks, n = ⌊T/2⌋: copy / reverse / sort read x₁..xₙ, a separator, then predict y₁..yₙ under a causal
 * mask (teacher forcing; odd T starts with one separator); assoc_recall reads ⌊(T−1)/2⌋ key–value pairs (distinct
 * keys), a separator when T is even, and a query key, and predicts its value at the last position (no mask).
 */
export type TrainingTask = 'copy' | 'reverse' | 'sort' | 'assoc_recall';

/** A training run's configuration; every field optional (defaults: TRAINING_DEFAULTS). */
export interface TrainingConfig {
  /** default 'copy' */ task?: TrainingTask;
  /** content symbols, 2..256; the model has vocab + 1 tokens (one separator) (default 16) */ vocab?: number;
  /** T, the model's context, 8..64 (default 16) */ seqLen?: number;
  /** 1..6 (default 2) */ layers?: number;
  /** d_model, 8..512, divisible by heads (default 64) */ dModel?: number;
  /** 1..16; d_k = dModel / heads (default 4) */ heads?: number;
  /** MLP width, 4..2048 (default 128) */ mlp?: number;
  /** LayerNorm placement: 'pre' (x + f(LN(x)), final LN) or 'post' (LN(x + f(x))) (default 'pre') */ norm?: 'pre' | 'post';
  /** default 'inv_sqrt_dk' */ attention?: AttentionVariant;
  /** attention softmax: 'safe' (max subtracted) or 'naive' (exp(s)/Σexp(s), overflows above s ≈ 88.7) (default 'safe') */ softmax?: 'safe' | 'naive';
  /**
   * logit soft-cap beside the variant: s ↦ cap · tanh(s / cap) before the mask, gradients through 1 − tanh² (Gemma 2);
   * 0 = off, else (0, 1e6] (default 0)
   */
  softcap?: number;
  /** std of every weight matrix and embedding at step 0, (0, 10] (default 0.125 = 1/√64) */ initStd?: number;
  /** sequences per step, 1..256 (default 16) */ batch?: number;
  /** the run's length, 1..20000 (default 200) */ steps?: number;
  /** AdamW peak learning rate, (0, 1] (default 0.003) */ lr?: number;
  /** linear warm-up steps, 0..steps (default 0) */ warmup?: number;
  /** global-norm gradient clipping threshold, 0 = off, 0..1e6 (default 1) */ clip?: number;
  /** decoupled weight decay on matrices and embeddings, 0..1 (default 0.01) */ weightDecay?: number;
  /** [0, 1) (default 0.9) */ beta1?: number;
  /** [0, 1) (default 0.99) */ beta2?: number;
  /** (0, 1] (default 1e-8) */ adamEps?: number;
  /** held-out sequences, 1..4096 (default 256) */ evalSize?: number;
  /** integer 0..4294967295: weights, batches and held-out set (default 0) */ seed?: number;
  /** default: the core's kernel */ kernel?: Kernel;
}
/** The config a run was created with, defaults filled in. */
export interface ResolvedTrainingConfig {
  task: TrainingTask; vocab: number; seqLen: number; layers: number; dModel: number; heads: number; mlp: number;
  norm: 'pre' | 'post'; attention: AttentionVariant; softmax: 'safe' | 'naive'; softcap: number; initStd: number; batch: number;
  steps: number; lr: number; warmup: number; clip: number; weightDecay: number; beta1: number; beta2: number;
  adamEps: number; evalSize: number; seed: number; kernel: Kernel;
}
/** Metrics of the steps one step(n) call ran: steps firstStep .. firstStep + count − 1. */
export interface TrainingStepResult {
  firstStep: number;
  /** steps run by this call (0 once the run is finished or diverged) */ count: number;
  /** [count] training loss of each step's batch before its update, nats (NaN/∞ when non-finite) */ loss: Float64Array;
  /** [count] global L2 norm of the gradient before clipping (NaN when the loss was non-finite) */ gradNorm: Float64Array;
  /** [count] learning rate applied */ lr: Float64Array;
  /** [count, layers] mean attention entropy per layer, nats */ entropy: Float64Array;
  /** [count, layers] max |scaled logit| per layer (unmasked) */ maxAbsLogit: Float64Array;
  /** [count, layers] mean over heads of τ_h or g_h (NaN for the variants without one) */ headScale: Float64Array;
  /** steps done by the run so far */ stepsDone: number;
  /** true when the run reached its steps or diverged */ finished: boolean;
  /** true once a loss or gradient norm was non-finite: the run stops there (a result, not an error) */ diverged: boolean;
  /** the step whose loss or gradient was first non-finite, or null */ firstNonfiniteStep: number | null;
}
export interface TrainingEvalResult {
  /** mean cross-entropy over the held-out targets, nats */ loss: number;
  /** share of targets predicted right (argmax, teacher forcing) */ tokenAccuracy: number;
  /** share of sequences with every target right */ sequenceAccuracy: number;
  sequences: number;
  targets: number;
}
/** One layer of the trained model on held-out data, against the iid argument. */
export interface TrainingLayerAnalysis {
  /** scaled logits c_h q̂·k̂ (unmasked pairs), edges ±max(4, ⌈99.5 % quantile of |s|⌉) */ logits: Histogram;
  /** [bins] counts N(0, 1) predicts in the same bins */ normal: Float64Array;
  /** of the scaled logits */ logitMoments: Moments;
  /** of the raw q̂·k̂ */ qk: Moments;
  /** mean squared component of q̂ and of k̂ */ qSecondMoment: number;
  kSecondMoment: number;
  /** d_k · E[q̂²] · E[k̂²]: Var(q̂·k̂) if the components were iid */ iidQkVariance: number;
  /** mean over heads of the factor c_h */ scale: number;
  /** mean attention entropy, nats */ entropy: number;
  maxAbsLogit: number;
}
export interface TrainingAnalysis {
  /** held-out sequences used: at most 256 and 2¹⁸ query–key pairs per layer */ sequences: number;
  layers: TrainingLayerAnalysis[];
}
export interface TrainingRunInfo {
  parameters: number;
  /** the run's estimated memory, within TRAINING_LIMITS.memoryBytes */ memoryBytes: number;
  dk: number;
  /** vocab + 1 */ tokens: number;
  /** whether the task uses the causal mask */ causal: boolean;
  targetsPerSequence: number;
  steps: number;
  /**
   * seconds of work one step takes by the core's cost model (3 × the forward pass's multiply-adds at
   * the kernel's calibrated cost, on the calibration machine: 2 cores, Node 20; a faster engine takes
   * less): the figure step() checks its work budget against; steps × stepSeconds estimates a run
   */
  stepSeconds: number;
  stepsDone: number;
  finished: boolean;
  diverged: boolean;
  firstNonfiniteStep: number | null;
}
/**
 * A training run: state in the wasm heap; call dispose() when done, or create it with
 * `using run = core.createTrainingRun(…)` where the language has explicit resource management
 * (a FinalizationRegistry is only a fallback). The live runs of one wasm instance may hold
 * TRAINING_LIMITS.liveBytes together — per process and build: loadCore() memoises the instance,
 * so every Core of the same build and source in a process (or worker) shares the one heap and
 * this one budget. createTrainingRun throws a RangeError naming dispose() and
 * the live total beyond it. Every method of a disposed run throws a TypeError
 * ("trainingRun.step: this run was disposed …").
 */
export interface TrainingRun {
  readonly config: ResolvedTrainingConfig;
  /**
   * Runs up to n more steps (1..20000, default 1); never throws for a diverging run. The steps of
   * one call are capped by the work budget (LIMITS.workSeconds, the core's cost model: 3 × the
   * forward pass's multiply-adds per step): a RangeError naming n and how many steps of this config
   * fit when more would be run. One step always fits.
   */
  step(n?: number): TrainingStepResult;
  /** Held-out loss and accuracy of the current weights. */
  evaluate(): TrainingEvalResult;
  /** Per-layer logit histograms and Var(q·k) on held-out data; bins 8..200 (default 64). */
  analysis(bins?: number): TrainingAnalysis;
  info(): TrainingRunInfo;
  readonly disposed: boolean;
  /**
   * Frees the run; idempotent. Any later call throws a TypeError. Where the engine defines
   * `Symbol.dispose`, the run's `[Symbol.dispose]()` does the same, so `using` disposes it (not
   * declared here: the declarations keep to the ES2022 library).
   */
  dispose(): void;
}

export interface CoreInfo {
  version: string;
  /** the default kernel family of this core */ kernel: Kernel;
  /** true when the loaded artifact is the SIMD128 build */ simd: boolean;
  /** the artifact in use */ build: 'simd128' | 'baseline';
  /** 'full', or 'first': the SIMD128 build's first part, with FIRST_PART_CALLS only (loadCore's `part`) */ part: CorePart;
  /** the wasm heap's current size in bytes: it grows with the largest call so far and never shrinks (at most 1 GiB) */ heapBytes: number;
}
/** One term of a cost estimate: what it is, the parameters that drive it (with their values) and its share. */
export interface CostDriver {
  /** e.g. "the per-row statistics of 65536 attention weights" */
  readonly label: string;
  /** e.g. "heads = 4, seqLen = 128" */
  readonly params: string;
  /** seconds of this term */
  readonly seconds: number;
}
/**
 * The core's own estimate of a call (wasm/src/cost.hpp: the very terms the call checks against its
 * budget before it computes anything): seconds of work on the calibration machine (2 cores,
 * Node 20; a faster engine takes less), bytes of working memory, the terms with what drives each,
 * and whether the call fits this core's limits (`seconds ≤ limits.workSeconds` and
 * `bytes ≤ limits.workBytes`; a call that does not fit throws a RangeError naming its drivers).
 */
export interface CostEstimate {
  readonly seconds: number;
  readonly bytes: number;
  readonly drivers: readonly CostDriver[];
  readonly fits: boolean;
}
/** A core's budget of one call: seconds of estimated work and bytes of memory. */
export interface WorkLimits {
  /** seconds of work by the cost model (default LIMITS.workSeconds = 8; WORK_LIMIT_BOUNDS.workSeconds) */
  readonly workSeconds: number;
  /** bytes of memory (default LIMITS.workBytes = 512 MiB; WORK_LIMIT_BOUNDS.workBytes) */
  readonly workBytes: number;
}

/** A loaded core: its experiments (ExperimentMethods, generated from their declaration) and the rest. */
export interface Core extends ExperimentMethods {
  /** This core's budget of one call (loadCore's `limits`, else LIMITS' defaults). */
  readonly limits: WorkLimits;
  /**
   * 'full', or 'first' (loadCore's `part`): a core of the first part has only FIRST_PART_CALLS (and
   * info, limits, cost of those); every other method throws a TypeError naming the full core.
   */
  readonly part: CorePart;
  /**
   * The core's estimate of `core[name](params)` without making the call: the same checks of the
   * parameters (a TypeError/RangeError naming a bad one), then the cost model's terms. Nothing is
   * computed or allocated; about a microsecond. Throws a RangeError for a name not in COSTED_CALLS.
   */
  cost<N extends CostedCall>(name: N, params: CostedParams[N]): CostEstimate;
  /** logits: 1..4096 numbers; −∞ allowed (a masked key), NaN and +∞ refused */
  softmaxJacobian(logits: ArrayLike<number>, options?: SoftmaxJacobianOptions): SoftmaxJacobianResult;
  /**
   * The catalogue of scales real models compute (GPT-2, Llama 3, Qwen2.5, Qwen3, Gemma 2 9B/27B, Gemma 3 27B,
   * DeepSeek-V3, gpt-oss, Grok-1, Granite 3.0, T5, Llama 4 Scout, μP), each scale computed from its parameters.
   * Takes no arguments: any argument is refused (TypeError), as options it would ignore.
   */
  modelScales(): ModelScale[];
  /** A Transformer training run of the training lab (RangeError naming the value when a size does not fit). */
  createTrainingRun(config?: TrainingConfig): TrainingRun;
  info(): CoreInfo;
}

/**
 * Which part of the core to load: 'full' (every call), or 'first' — the SIMD128 build's objects
 * linked with only FIRST_PART_CALLS (sqrtdk-simd-first.wasm, about a fifth of the full core's
 * download), for a page whose first view needs no more. Its numbers are the full core's, bit for bit.
 */
export type CorePart = 'full' | 'first';
/** The parts loadCore's `part` accepts. */
export const CORE_PARTS: readonly CorePart[];
/** The calls of the core's first part: every other call of a 'first' core throws a TypeError. */
export const FIRST_PART_CALLS: readonly ['scoreVariance'];

/** Which artifact to load: the SIMD128 build (both kernel families) or the baseline build (scalar only). */
export type BuildChoice = 'auto' | 'simd128' | 'baseline';

export interface LoadOptions {
  /** default 'auto' */ kernel?: KernelChoice;
  /** default 'auto': simd128 where the engine validates SIMD128, else baseline */ build?: BuildChoice;
  /**
   * the .wasm bytes (Node: read from disk); browsers fetch them next to the module. Memoised by
   * content: the same bytes load once. Bytes that are not WebAssembly reject with a TypeError
   * naming wasmBinary, before anything runs (nothing is printed).
   */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * URL of the .wasm file instead of the default location. Browsers fetch it; Node reads file: URLs
   * and paths and fetches http:, https: and data: URLs (other protocols and unreadable or non-wasm
   * files reject with a TypeError naming wasmUrl).
   */
  wasmUrl?: string | URL;
  /**
   * the build's module, already compiled (WebAssembly.compileStreaming), instantiated here instead of
   * fetching; memoised per Module object
   */
  wasmModule?: WebAssembly.Module;
  /**
   * The budget of each call of this core, instead of LIMITS' 8 s and 512 MiB: `workSeconds` in
   * 0.01..3600 (seconds of work as the cost model estimates it) and `workBytes` in 1 MiB..768 MiB
   * (WORK_LIMIT_BOUNDS; the heap is at most 1 GiB). A value outside them is a RangeError, a key
   * other than these two a TypeError. The module is shared: cores with other limits load it once.
   */
  limits?: Partial<WorkLimits>;
  /**
   * default 'full'. 'first': the SIMD128 build's first part (FIRST_PART_CALLS only); with build
   * 'auto' on an engine without SIMD128 the whole baseline core comes instead (core.part says which);
   * with build 'baseline' a RangeError. A wasmBinary, wasmUrl or wasmModule must be of that part.
   */
  part?: CorePart;
}

/**
 * True when the SIMD128 build runs on this engine: it validates WebAssembly SIMD128 and exception
 * handling (wasm-feature-detect); elsewhere the baseline build (scalar kernels) is used.
 */
export function simdSupported(): Promise<boolean>;
/**
 * Loads the core once per build and source (the promise is memoised). The instantiated core is
 * checked: its `info().version` must equal CORE_VERSION and its build the one asked for, else the
 * promise rejects with a TypeError naming the source (`wasmBinary`, `wasmUrl`, `wasmModule` or
 * the build) and the version it reports; so does a module that exports no memory (an empty or
 * foreign module) and a wasmBinary over a detached buffer. Options are read as own properties only. An option not
 * in LoadOptions (e.g. `kernal`) is refused with a TypeError naming it.
 */
export function loadCore(options?: LoadOptions): Promise<Core>;
/** The bounds of loadCore's `limits`, inclusive: [min, max] of each. */
export const WORK_LIMIT_BOUNDS: {
  readonly workSeconds: readonly [number, number];
  readonly workBytes: readonly [number, number];
};
/** The names core.cost estimates. */
export const COSTED_CALLS: readonly CostedCall[];
/** The package's scale names, in display order. */
/**
 * The version of the core (semver), known without loading the wasm module; equals `info().version`
 * and the npm package's version. It changes whenever a number the core returns for a fixed seed
 * changes, so a result can name the version that made it (the page's links carry it as `cv=`).
 */
export const CORE_VERSION: string;
export const SCALE_NAMES: readonly ScaleName[];
/** The long-context temperature schemes, in display order. */
export const LONG_CONTEXT_METHODS: readonly LongContextScheme[];
/** The rules for a row with a zero normaliser: 'nan', 'zero'. */
export const MASKED_ROW_RULES: readonly MaskedRowRule[];
/** The precision lab's accumulation modes: 'same', 'float32'. */
export const ACCUMULATE_MODES: readonly AccumulateMode[];
/** Where the precision lab with q and k applies the scale: 'scores', 'query', 'both'. */
export const SCALE_AT: readonly ScaleAt[];
/** How the precision lab's float16/bfloat16 cells hold the scale with q and k: 'float32', 'cell'. */
export const SCALE_ROUNDING: readonly ScaleRounding[];
/**
 * Parameter limits enforced by the core. Besides the ranges, every call has two budgets:
 * `workBytes` of memory and `workSeconds` of work. The work is estimated by the core's cost model
 * (wasm/src/cost.hpp, calibrated by `node scripts/calibrate-cost.mjs`): products (costed for the
 * call's kernel), softmax, per-row statistics (entropy, Jacobian norms with the secular or Lanczos
 * solve), normal draws, the precision lab's emulated softmaxes and training steps, in seconds on
 * the calibration machine (2 cores, Node 20). The budget, 8 s, accepts every request the page makes
 * within its own limits. A call above either budget throws a RangeError naming the parameters
 * that drive its cost and the estimate, e.g. "attentionStats: this call would take about 310 s of
 * work (cost model), more than the 8 s budget; most of it is the per-row statistics of
 * 4294967296 attention weights (heads = 64, seqLen = 8192): lower heads or seqLen".
 * `trainingRun.step(n)` is capped by the same model (one step always fits).
 */
export const LIMITS: {
  readonly dk: readonly [number, number];
  readonly seqLen: readonly [number, number];
  readonly heads: readonly [number, number];
  readonly samples: readonly [number, number];
  readonly seed: readonly [number, number];
  readonly bins: readonly [number, number];
  readonly heatmapSize: readonly [number, number];
  readonly logits: readonly [number, number];
  /** memory one call may need, bytes (512 MiB) */
  readonly workBytes: number;
  /** work one call may need, seconds as estimated by the core's cost model (8) */
  readonly workSeconds: number;
};
/** The attention variants of the training lab, in display order. */
export const ATTENTION_VARIANTS: readonly AttentionVariant[];
/** The training lab's tasks, in display order. */
export const TRAINING_TASKS: readonly TrainingTask[];
/** Ranges of a training config's integer fields, and a run's memory budget in bytes. */
export const TRAINING_LIMITS: {
  readonly vocab: readonly [number, number];
  readonly seqLen: readonly [number, number];
  readonly layers: readonly [number, number];
  readonly dModel: readonly [number, number];
  readonly heads: readonly [number, number];
  readonly mlp: readonly [number, number];
  readonly batch: readonly [number, number];
  readonly steps: readonly [number, number];
  readonly evalSize: readonly [number, number];
  /** bytes one run may need (64 MiB) */
  readonly memoryBytes: number;
  /** bytes all live (not disposed) runs of one wasm instance may hold together (384 MiB): per process and build, shared by every loadCore() of it */
  readonly liveBytes: number;
};
/** The defaults of a training config (kernel: the core's). */
export const TRAINING_DEFAULTS: Readonly<Omit<ResolvedTrainingConfig, 'kernel'>>;
