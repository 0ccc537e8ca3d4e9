// Types of the public JS API of √dk Lab's core: `import { loadCore } from 'sqrtdk-lab/core'`.
// Hand-written (Emscripten 3.1.6 emits no types); tests/node/dts.test.mjs holds it to what the
// module really exports. Shapes are [heads, seq_len, dk] row-major float32 unless stated;
// entropy is in nats. Every function throws a RangeError (a value out of range, with the
// parameter and value named) or a TypeError (a value of the wrong type); the core keeps working.

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

export interface Moments { mean: number; variance: number; std: number }
/** The distribution of a per-row quantity: mean, median, 10 % and 90 % quantiles (type 7). */
export interface Summary { mean: number; median: number; p10: number; p90: number }
export interface Histogram {
  /** [bins + 1] ascending bin edges */
  edges: Float64Array;
  /** [bins] counts */
  counts: Float64Array;
  /** counts below the first / above the last edge */
  below: number;
  above: number;
}

export interface ScoreVarianceParams {
  /** head dimensions, each 1..16384, 1..64 of them */
  dks: number[];
  /** pairs (q, k) per d_k, 2..1000000 (default 20000) */
  samples?: number;
  /** integer 0..4294967295 (default 0) */
  seed?: number;
  /** σ², variance of each component of q and k, in (0, 1e6] (default 1) */
  variance?: number;
  /** the d_k whose scores are histogrammed (default dks[0]) */
  histDk?: number;
  /** histogram bins, 4..400 (default 60) */
  bins?: number;
  /**
   * correlation of each drawn pair (default 0); the theory rows become N(ρ d_k σ², d_k σ⁴ (1 + ρ²)) and its
   * rescalings, and the histograms are centred on the theoretical mean
   */
  correlation?: Correlation;
}
export interface ScoreVarianceRow {
  dk: number;
  /** of q·k */ raw: Moments;
  /** of q·k/√d_k */ invSqrtDk: Moments;
  /** of q·k/d_k */ invDk: Moments;
  /** N(0, d_k σ⁴), N(0, σ⁴), N(0, σ⁴/d_k) */
  theory: { raw: Moments; invSqrtDk: Moments; invDk: Moments };
}
export interface ScoreVarianceResult {
  rows: ScoreVarianceRow[];
  histDk: number;
  /** q·k at histDk, edges ±5 theoretical std */ histRaw: Histogram;
  /** q·k/√d_k at histDk */ histInvSqrtDk: Histogram;
}

/**
 * Logit soft-capping, s ↦ cap · tanh(s / cap) on the scaled logits before any mask (Gemma 2, Gemma Team 2024 §2
 * uses cap 50 on attention logits; Grok-1 30; the order of flash_attn's `softcap`). A number in (0, 1e6]; absent = off
 * (0 is refused: leave the key out). Gradients and Jacobian norms then are with respect to the raw logits and include
 * the factor 1 − tanh²(s / cap).
 */
export type Softcap = number;

export interface AttentionStatsParams {
  /** 1..64 (default 8) */ heads?: number;
  /** K/V heads for grouped-query attention: divides heads; 0 = heads (default 0) */ headsKv?: number;
  /** L, 1..8192 (default 128) */ seqLen?: number;
  /** 1..16384 (default 64) */ dk: number;
  /** default 'inv_sqrt_dk' */ scale?: Scale;
  seed?: number;
  variance?: number;
  /** share of rows whose max weight exceeds this, in (0, 1) (default 0.99) */ threshold?: number;
  /** default: the core's kernel */ kernel?: Kernel;
  /** the heatmap holds rows and keys 0..min(L, heatmapSize)−1 of head 0; 1..512 (default 128) */
  heatmapSize?: number;
  /** return the per-row arrays (default true) */ perRow?: boolean;
  /**
   * run the backward pass for gradLogits/gradQuery (default true); false skips V, dO and two of
   * the three products (a third of the work) and gives NaN gradient summaries and empty gradient rows
   */
  gradients?: boolean;
  /**
   * causal mask: row i sees keys 0..i, as PyTorch's scaled_dot_product_attention(is_causal=True) (default false).
   * Each row's entropy is then bounded by ln(i + 1), not ln L: see summary.entropyRatio.
   */
  causal?: boolean;
  /**
   * compute ‖J‖₂ per row (default true): the secular (or, soft-capped, Lanczos) solve is most of the
   * per-row work; false leaves jacSpec NaN (and rows.jacSpec empty) and every other number bit for
   * bit the same
   */
  spectral?: boolean;
  /** soft-cap the scaled logits before the mask (default: off) */ softcap?: Softcap;
  /**
   * key j correlated with query j, its match (default 0); the other keys of a row stay independent of its query.
   * With headsKv < heads a K/V head is correlated with the first query head of its group.
   */
  correlation?: Correlation;
  /**
   * one sink logit per head (default: none). With a finite sink the row is L + 1 outcomes, the keys and the sink:
   * entropy, effSupport, jacFro and jacSpec are those of that full softmax (the sink logit is a trained parameter),
   * entropyRatio divides by ln(keys seen + 1); maxWeight and shareAbove are over the keys; gradLogits and gradQuery
   * flow through the key weights only (dS_j = w_j (g_j − Σ_k w_k g_k)). The result then carries summary.sinkMass and
   * rows.sinkMass.
   */
  sinks?: Sinks | null;
}
export interface AttentionSummary {
  /** the resolved scale factor c */ scale: number;
  /** nats */ entropy: Summary;
  /**
   * H_i / ln(keys row i sees): the entropy against the row's own ceiling, ln L without a mask and ln(i + 1) under the
   * causal mask; rows that see one key are left out (NaN summary if none is left)
   */
  entropyRatio: Summary;
  maxWeight: Summary;
  /** exp(entropy), in keys */ effSupport: Summary;
  /** ‖diag(p) − p pᵀ‖_F; under softcap ‖(diag(p) − p pᵀ) diag(1 − tanh²(s/cap))‖_F */ jacFro: Summary;
  /** ‖diag(p) − p pᵀ‖₂ (under softcap with the same factor) */ jacSpec: Summary;
  /** ‖dS_i‖₂, the gradient reaching the logits of a row for a random upstream dO */ gradLogits: Summary;
  /** ‖dQ_i‖₂, the gradient reaching the query (scale factor included) */ gradQuery: Summary;
  /** fraction of rows whose max weight exceeds the threshold */ shareAbove: number;
  /** max |logit| over all heads and unmasked pairs, after soft-capping */ maxAbsLogit: number;
  /** only when sinks were given: the sink's weight p_sink of every row (0 for a −∞ sink) */ sinkMass?: Summary;
}
export interface AttentionStatsResult {
  summary: AttentionSummary;
  /** ln L, the entropy of a uniform row over all L keys (under the causal mask row i's ceiling is ln(i + 1)) */ logSeqLen: number;
  /** per-row quantities, each [heads, seq_len] (length 0 when perRow is false) */
  rows: {
    entropy: Float64Array; maxWeight: Float64Array; effSupport: Float64Array;
    jacFro: Float64Array; jacSpec: Float64Array; gradLogits: Float64Array; gradQuery: Float64Array;
    /** only when sinks were given: p_sink per row [heads, seq_len] */ sinkMass?: Float64Array;
  };
  /** n: heatmap is [n, n] float32, attention weights of head 0 */
  heatmapSize: number;
  heatmap: Float32Array;
}

export interface SaturationSweepParams {
  dks: number[];
  /** default ['none', 'inv_sqrt_dk', 'inv_dk'], at most 8 */ scales?: Scale[];
  /** default 4 */ heads?: number;
  /** default 128 */ seqLen?: number;
  seed?: number;
  variance?: number;
  threshold?: number;
  kernel?: Kernel;
  /** as in AttentionStatsParams (default true) */ gradients?: boolean;
  /** as in AttentionStatsParams (default false) */ causal?: boolean;
  /** as in AttentionStatsParams (default true) */ spectral?: boolean;
  /** as in AttentionStatsParams (default: off) */ softcap?: Softcap;
  /** as in AttentionStatsParams (default 0); the same draws serve every scale */ correlation?: Correlation;
  /** as in AttentionStatsParams (default: none), [heads]; every point then carries sinkMass */ sinks?: Sinks | null;
}
export interface SaturationSweepResult {
  logSeqLen: number;
  /** points[s][d]: scales[s] at dks[d] */
  points: AttentionSummary[][];
}

export interface SoftmaxJacobianOptions {
  /** soft-cap the logits first; J is then ∂p/∂s with respect to the raw logits (default: off) */ softcap?: Softcap;
}
export interface SoftmaxJacobianResult {
  /** [n] softmax in double (of the capped logits under softcap); all −∞ gives all zeros */ probs: Float64Array;
  /**
   * [n, n] row-major J = ∂p/∂s = diag(p) − p pᵀ; under softcap (diag(p) − p pᵀ) diag(1 − tanh²(s/cap)), and its
   * spectral norm comes from the Lanczos method
   */
  jacobian: Float64Array;
  frobenius: number;
  spectral: number;
  /** nats */ entropy: number;
}

export interface AttentionParams {
  /** q [heads, seqLen, dk]; k [headsKv, seqLen, dk]; v [headsKv, seqLen, dv]; finite */
  q: Float32Array; k: Float32Array; v: Float32Array;
  heads: number; seqLen: number; dk: number;
  /**
   * d_v, the head size of v and of the output [heads, seqLen, dv], 0..16384; 0 or absent: dk (every number the same as
   * without it, bit for bit). DeepSeek's MLA: q/k heads of 192 (128 + 64 rotary), v heads of 128.
   */
  dv?: number;
  /** K/V heads: 0 or absent = heads (MHA), 1 = MQA, a divisor of heads = GQA; query head h reads K/V head ⌊h / (heads/headsKv)⌋ */
  headsKv?: number;
  /** default 'inv_sqrt_dk' */ scale?: Scale;
  kernel?: Kernel;
  /** also return the attention weights [heads, seqLen, seqLen] (default true) */ weights?: boolean;
  /** causal mask, row i sees keys 0..i: PyTorch SDPA's is_causal; bit for bit the additive mask of −∞ above the diagonal (default false) */
  causal?: boolean;
  /**
   * additive mask [seqLen, seqLen] float32, added to every head's scores after scaling and soft-capping: 0 (keep),
   * −∞ (mask) or any finite value (a bias); NaN and +∞ refused. PyTorch SDPA's float attn_mask, broadcast over heads.
   * Or [heads, seqLen, seqLen], one per head (a bias per head: T5's relative position bias, ALiBi written out):
   * head h adds mask[h]; the same numbers, bit for bit, as one call per head with its own [seqLen, seqLen].
   */
  mask?: Float32Array | null;
  /** soft-cap the scaled logits before the masks (default: off) */ softcap?: Softcap;
  /**
   * a fully masked row (every score −∞) has no softmax: 'zero' gives zero weights and output, the convention of
   * FlashAttention and of PyTorch's SDPA (the default here); 'nan' gives what the formula gives, NaN
   */
  maskedRow?: MaskedRowRule;
  /**
   * one sink logit per head, appended to every row after the scale, the soft-cap and the masks (default: none);
   * a head with a finite sink never gives a NaN row
   */
  sinks?: Sinks | null;
  /**
   * ALiBi (Press, Smith & Lewis 2022, "Train Short, Test Long"): head h adds −m_h · (i − j) to logit (i, j) where the
   * mask is added (after the scale and the soft-cap; with a mask, float32(mask + float32(−m_h · (i − j))) is added).
   * 'press': the paper's slopes for this many heads, 2^(−8(h+1)/H) for H a power of two, else the first c = 2^⌊log₂ H⌋
   * of those followed by every other slope of 2c heads (ofirpress/attention_with_linear_biases, `get_slopes`):
   * 8 heads 1/2 … 1/256; 12 heads 1/2 … 1/256, 0.7071068, 0.3535534, 0.1767767, 0.0883883. Or a Float32Array [heads]
   * of slopes (finite, |m| ≤ 1e4). Defined for causal attention; without causal, keys after i get +m_h · (j − i).
   * Default: none. The result then carries alibiSlopes.
   */
  alibi?: 'press' | Float32Array | null;
  /**
   * also return lse [heads, seqLen]: each row's log-sum-exp ln Σ_j e^{s_j} in nats over its logits (scaled,
   * soft-capped, masked, with ALiBi; with a sink, e^{sink} is in the sum), computed in double from the float32 logits
   * and rounded to float32, so that the weights are e^{s_j − lse}: FlashAttention's softmax_lse. A fully masked row
   * (no sink) gives −∞ (its output 0, or NaN under maskedRow 'nan'). For mergeAttention. Default false.
   */
  lse?: boolean;
  /**
   * a multiplier t_i per query row [seqLen] (the same for every head), in 0..1e4: s_ij = t_i · c · q_i·k_j,
   * applied to the scaled float32 logits before the soft-cap, the masks and ALiBi. For temperatures that depend on the
   * position in a causal call: Scalable-Softmax with n = i + 1 keys seen, t_i = s · ln(i + 1) (Nakanishi 2025,
   * arXiv 2501.19399; allenai/OLMo-core#808), Llama 4's 1 + attn_scale · ln(⌊(i + 1) / floor_scale⌋ + 1), log-n scaling
   * max(1, ln(i + 1) / ln L_train). Default: none (every number as without it, bit for bit).
   */
  queryScale?: Float32Array | null;
}
export interface AttentionResult {
  scale: number;
  /** [heads, seqLen, dv] (dv = dk unless given) */ output: Float32Array;
  /** [heads, seqLen, seqLen], or null when weights: false; with sinks each row sums to 1 − its sink weight */ weights: Float32Array | null;
  /** only when sinks were given: p_sink of every row [heads, seqLen] */ sinkWeights?: Float32Array;
  /** only when sinks were given: the mean of sinkWeights */ sinkMass?: number;
  /** only with alibi: the slopes applied [heads], as float32 */ alibiSlopes?: Float32Array;
  /** only with lse: true: [heads, seqLen], ln Σ_j e^{s_j} in nats; −∞ for a fully masked row */ lse?: Float32Array;
}
/** A partial attention: the output over one chunk of keys and its log-sum-exp (attention with lse: true). */
export interface AttentionState {
  /** [heads, seqLen, dv], finite */ output: Float32Array;
  /** [heads, seqLen], nats; finite, or −∞ for a row that saw no key (an empty chunk) */ lse: Float32Array;
}
/**
 * Two partial attentions of the same queries over disjoint keys (split-KV decoding, ring attention: FlashDecoding,
 * flashinfer's merge_state, vLLM's merge_attn_states), merged per row, in double then float32:
 * m = max(l_a, l_b), w = e^{l − m}, output = (w_a o_a + w_b o_b) / (w_a + w_b), lse = m + ln(w_a + w_b).
 * An empty chunk (0, −∞) is neutral; two empty chunks give (0, −∞), never NaN. An lse of NaN or +∞ is refused.
 * A log-sum-exp in base 2 (lse · log₂e, as kernels that use exp2 keep it) must be converted first: read as natural,
 * it sharpens the mixing weights by log₂e.
 */
export interface MergeAttentionParams {
  a: AttentionState; b: AttentionState;
  /** 1..64 */ heads: number;
  /** 1..8192 */ seqLen: number;
  /** 1..16384 */ dv: number;
}
export interface MergeAttentionResult {
  /** [heads, seqLen, dv] */ output: Float32Array;
  /** [heads, seqLen], nats */ lse: Float32Array;
}

export interface TensorStatsParams {
  /**
   * [heads, seqLen, dk] each, finite; v optional (random N(0, 1) when absent or null; a zero-length v
   * is refused). Each must be a genuine Float32Array whose element count (byteLength / 4) matches the
   * shape, checked before anything is copied (TypeError / RangeError naming the tensor).
   */
  q: Float32Array; k: Float32Array; v?: Float32Array | null;
  heads: number; seqLen: number; dk: number;
  /** default 'inv_sqrt_dk' */ scale?: Scale;
  /** seeds the random V (if absent) and upstream gradient dO */ seed?: number;
  threshold?: number;
  kernel?: Kernel;
  /** causal mask, as in AttentionStatsParams (default false) */ causal?: boolean;
}
export interface TensorStatsResult {
  /** of the raw q·k over every head, query and key */ qk: Moments;
  qComponent: Moments;
  kComponent: Moments;
  summary: AttentionSummary;
  logSeqLen: number;
  /** each [heads, seqLen] */
  rows: { entropy: Float64Array; maxWeight: Float64Array; jacFro: Float64Array };
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
export interface PrecisionLabParams {
  /**
   * one explicit logit row (1..8192 values, −∞ allowed): a plain array of numbers or a typed array;
   * when absent, random rows are used. With logits, rows, seqLen, dk, heads, scale and seed are
   * refused (TypeError): they describe random rows.
   */
  logits?: readonly number[] | Float64Array | Float32Array | null;
  /** random rows, 1..1024 (default 64) */ rows?: number;
  /** default 128 */ seqLen?: number;
  /** default 64 */ dk?: number;
  /** only to resolve 'inv_sqrt_d_model' (default 1) */ heads?: number;
  /** default 'inv_sqrt_dk' (with q and k: the scale of the products, resolved with dk and heads) */ scale?: Scale;
  seed?: number;
  /** key block of the online softmax, 1..8192 (default 32) */ blockSize?: number;
  /**
   * default 'same'. The online cell is "FlashAttention-style" (Dao et al. 2022, Alg. 1: running max and sum in
   * float32) only with 'float32'
   */
  accumulate?: AccumulateMode;
  /** default 'nan': each cell computes what its formula gives; 'zero': the fused-kernel convention. The float64 reference follows the same rule */
  maskedRow?: MaskedRowRule;
  /** soft-cap the logits in double before each format rounds them; −∞ stays −∞ (default: off) */ softcap?: Softcap;
  /**
   * q [queries, dk] (queries 1..1024) and k [keys, dk] (keys 1..8192), float32, finite with |x| ≤ 1e6, given together
   * with dk (required) and a scale (default 'inv_sqrt_dk'): one row per query, one logit per key. In each format q and
   * k are rounded to it, each product and partial sum to the accumulation format (the format, or float32 for
   * float16/bfloat16 under accumulate 'float32'), the dot product stored in the format, then the scale applied at
   * scaleAt; a product or logit that overflows counts as inputOverflow. The float64 reference and cells use the
   * products in double. Refused with logits, rows, seqLen or seed (TypeError). Every cell then carries rowSum and
   * causes.sumStall. d_k 128, q = 24·𝟏, keys 24·𝟏, 12·𝟏, 0 in float16: at the scores the products are
   * [∞, 36864, 0] and the row NaN; at the query the logits are [6516.6, 3258.3, 0] and the weights [1, 0, 0].
   */
  q?: Float32Array | null;
  k?: Float32Array | null;
  /**
   * with q and k: 'scores' (default) computes c · (q·k), what softmax(q kᵀ · c) does; 'query' scales q first,
   * (c · q)·k, as kernels that fold the scale into q do; 'both' puts √c on q and on k, (√c · q)·(√c · k), as
   * PyTorch's math backend of scaled_dot_product_attention did before pytorch/pytorch#163508. Refused without q and k.
   */
  scaleAt?: ScaleAt;
  /**
   * with q and k: how a float16/bfloat16 cell holds the constant it multiplies by (c, or √c under 'both').
   * 'float32' (default): a float32 constant, each product formed in float32 and then rounded to the cell's format,
   * as PyTorch multiplies a bf16/fp16 tensor by a Python float (pytorch/pytorch#147134) and FlashAttention keeps
   * softmax_scale in float32. 'cell': c rounded to the cell's format first (core 0.3.0's rule, for comparison).
   * float32 and float64 cells are the same either way; each cell reports the c it applied (scaleApplied).
   * d_k 128, bfloat16, safe, accumulate 'float32', q = e₀, keys 227·e₀ and 226·e₀, 'scores': 'float32' gives the
   * logits [20.125, 20] and p = [0.53125, 0.46875] (float64 [0.5220827, 0.4779173]); 'cell' holds c = 0.08837890625
   * and gives [20, 20], p = [0.5, 0.5]. Refused without q and k.
   */
  scaleRounding?: ScaleRounding;
  /**
   * check every row's sum Σ_j p_j (default true; always on with q and k): each cell carries rowSum and
   * causes.sumStall. false (an opt-out for the results of core 0.2, which had them off by default) leaves out those
   * two fields and nothing else: every other number is the same, bit for bit. The check costs a sum per row.
   */
  rowSums?: boolean;
}
/** Where the precision lab with q and k applies the scale: 'scores' (c · (q·k)), 'query' ((c · q)·k) or 'both' ((√c · q)·(√c · k)). */
export type ScaleAt = 'scores' | 'query' | 'both';
/** How the precision lab's float16/bfloat16 cells hold the scale with q and k: a float32 constant or rounded to the cell's format. */
export type ScaleRounding = 'float32' | 'cell';
/**
 * The cause of each broken row, as a share of the rows. A row counts under the first cause that happened in it, in
 * this order, so the shares partition the broken rows.
 */
export interface PrecisionCauses {
  /** a finite logit rounded to ±∞ in the format (whatever the algorithm does next) */ inputOverflow: number;
  /** a term exp(·) overflowed (naive softmax with a logit above ln(max finite)) */ expOverflow: number;
  /** every term fit but their sum overflowed (the weights come out e/∞ = 0) */ sumOverflow: number;
  /** NaN without an overflow: 0/0 of a fully masked or fully underflowed row, −∞ − (−∞) */ nan: number;
  /** a weight came out 0 where float64 has it positive, with no overflow or NaN */ underflow: number;
  /**
   * unless rowSums: false (always with q/k): every weight finite, but Σ_j p_j is off the float64 row's sum by more than the format's
   * rounding allows, u (2 + 2√n) + n · (smallest subnormal), u = 2^−(mantissa bits + 1) (2u for the outputs' own
   * rounding and twice the √n·u that independent roundings of n terms typically leave; Higham 2002 §4.2). A float16
   * row of 4096 zero logits summed in float16 stalls at 2048: every weight 1/2048, Σ = 2.0.
   */
  sumStall?: number;
}
export interface PrecisionCell {
  format: FloatFormat;
  algorithm: SoftmaxAlgorithm;
  /** rows whose result holds ±∞ or NaN */ shareNonfinite: number;
  /** rows whose result holds NaN */ shareNan: number;
  causes: PrecisionCauses;
  /** max |p − p_float64| over the rows where both are finite (NaN if none) */ maxAbsError: number;
  meanAbsError: number;
  /** median ‖J‖_F of the finite rows */ jacFroMedian: number;
  /** the first row's weights [seqLen] */ probs: Float64Array;
  /** unless rowSums: false (always with q/k): min and max of Σ_j p_j over the rows whose sum is not NaN (NaN if none) */
  rowSum?: { min: number; max: number };
  /**
   * with q and k only: the c this cell's logits carry, as held: c in double (float64 cells), float32(c) (float32 cells,
   * and float16/bfloat16 under scaleRounding 'float32'), or c rounded to the cell's format (scaleRounding 'cell');
   * under scaleAt 'both' the square of the √c so held. d_k 128, bfloat16: 0.0883883461356163 ('float32'),
   * 0.08837890625 ('cell'); the float64 cells 0.08838834764831843.
   */
  scaleApplied?: number;
}
export interface PrecisionLabResult {
  rows: number;
  seqLen: number;
  scale: number;
  maxAbsLogit: number;
  jacFroMedianF64: number;
  /** first row, float64 safe softmax */ reference: Float64Array;
  /** format-major: float64, float32, bfloat16, float16 × naive, safe, online */ cells: PrecisionCell[];
  /** max |online − safe| per format, in the order above */ onlineVsSafe: Float64Array;
}

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
export interface LongContextParams {
  /** default 64 */ dk?: number;
  /** each 1..16384, at most 16, each at most once (a repeat is refused, naming it) */ seqLens: number[];
  /** L_train, 2..16384 (default 512) */ trainLen?: number;
  /** queries per length, 1..1024 (default 64) */ queries?: number;
  /** default all six (LONG_CONTEXT_METHODS); each at most once (a repeat is refused, naming it) */ methods?: LongContextScheme[];
  seed?: number;
  kernel?: Kernel;
  /** 'llama4': floor_scale, in [1, 1e9] (default 8192, Meta's) */ floorScale?: number;
  /** 'llama4': attn_scale, in [0, 10] (default 0.1, Meta's) */ attnScale?: number;
  /** 'ssmax': the scaling parameter s, in (0, 10] (default 0.43, the paper's check) */ s?: number;
  /** 'yarn': mscale, in (0, 100] (default 1) */ mscale?: number;
  /** 'yarn': mscale_all_dim, 0 = absent (the default) or in (0, 100] */ mscaleAllDim?: number;
  /**
   * one sink logit appended to every row (gpt-oss semantics, see Sinks; default: none; −Infinity = none, bit for bit):
   * the entropy is then that of the L + 1 outcomes and entropyRatio divides by ln(L + 1); maxWeight is over the keys;
   * every point carries sinkMass
   */
  sink?: number | null;
}
export interface LongContextPoint {
  seqLen: number;
  /** on q·k/√d_k */ multiplier: number;
  /** mean over queries, nats */ entropy: number;
  /** entropy / ln L (ln(L + 1) with a finite sink) */ entropyRatio: number;
  maxWeight: number;
  /** only with a sink: the mean sink weight p_sink over the queries */ sinkMass?: number;
}
export interface LongContextResult {
  /** points[m][i]: methods[m] at seqLens[i] */ points: LongContextPoint[][];
}

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
export interface NormalisersParams {
  /** 1..16 (default 4); the differential pairs heads (2h, 2h + 1): ⌊heads / 2⌋ pairs, none with 1 head */ heads?: number;
  /** L, 1..512 (default 128) */ seqLen?: number;
  /** 1..256 (default 64) */ dk?: number;
  scale?: Scale;
  /** q, k, v drawn as attentionStats draws them (streams 1, 2, 3), the gate g from stream 5 */ seed?: number;
  kernel?: Kernel;
  causal?: boolean;
  /** the sink normaliser's logit S, in [−100, 100] (default 1) */ sink?: number;
  /** sigmoid's bias b, in [−100, 100], or null (default): −ln n, n the keys the row sees */ sigmoidBias?: number | null;
  /** the mean of g, in [−20, 20] (default 0) */ gateMean?: number;
  /** λ, in [0, 2] (default 0.8, the Differential Transformer's λ_init of deep layers) */ lambda?: number;
  /** one explicit row (1..4096 logits, −∞ a masked key) for every normaliser instead of the drawn q, k; not with seqLen, causal */ logits?: ArrayLike<number> | null;
}
export interface NormaliserRow {
  name: NormaliserName;
  /** Σ_j w_j, mean over rows (gated: the coefficients σ(g_c)·p_j averaged over channels c; null without rows) */ rowSum: number | null;
  rowSumMin: number | null;
  rowSumMax: number | null;
  /** w_0, the weight on the first key, mean over rows */ firstMass: number | null;
  /**
   * the entropy of the renormalised row w / Σw in nats, mean over the rows whose weights are all ≥ 0;
   * null = not applicable (every differential row has a negative weight, or no rows)
   */
  entropy: number | null;
  /** the rows whose entropy is defined */ entropyRows: number;
  /** rows measured (the differential's: its pairs' rows) */ rows: number;
  /** the share of weights < 0 (only the differential's) */ negativeShare: number | null;
  /** ‖o_i‖₂, mean over rows */ outputNorm: number | null;
  /** the first row of head 0 (of pair 0) [keys] */ weights: Float64Array;
}
export interface NormalisersResult {
  /** c */ scale: number;
  /** n of the first row */ keys: number;
  /** b of the first row */ sigmoidBias: number;
  /** one per NormaliserName, in its order */ rows: NormaliserRow[];
}
/**
 * QK-Clip (Kimi K2's MuonClip, Kimi Team 2025 §2.1; NVIDIA/Megatron-LM megatron/core/transformer/attention.py
 * clip_qk, qk_clip_threshold 100 and qk_clip_alpha 0.5 in transformer_config.py): η = min(1, τ / S_max) per head
 * (per KV group under GQA: the maximum over its query heads), q × η^α and k × η^(1−α); MLA (ropeDim > 0): the
 * rotary query part × η, the shared rotary key untouched. A clipped head's new maximum is τ (without a soft-cap).
 */
export interface QkClipParams {
  /** 1..64 (default 8) */ heads?: number;
  /** 0 (default) = heads; else divides heads */ headsKv?: number;
  /** 1..512 (default 128) */ seqLen?: number;
  /** 1..512 (default 64) */ dk?: number;
  scale?: Scale;
  seed?: number;
  kernel?: Kernel;
  causal?: boolean;
  softcap?: number;
  /** the multiplier of q, in (0, 1000] (default 1): logits past τ */ qGain?: number;
  /** τ, in (0, 1e6] (default 100) */ tau?: number;
  /** α, in [0, 1] (default 0.5) */ alpha?: number;
  /** MLA's rotary dimensions at the end of each head, 0 (default) .. dk − 1; needs headsKv = heads */ ropeDim?: number;
}
export interface QkClipResult {
  scale: number;
  /** KV heads */ groups: number;
  /** [heads] the signed maximum logit S_max of each head before clipping */ maxLogit: Float64Array;
  /** [groups] the maximum over each group's heads */ groupMaxLogit: Float64Array;
  /** [heads] η of each head (its group's) */ gamma: Float64Array;
  /** [heads] the maximum logit after clipping */ clippedMax: Float64Array;
  /** [heads] mean row entropy in nats before clipping */ entropyBefore: Float64Array;
  /** [heads] and after */ entropyAfter: Float64Array;
  /** heads with η < 1 */ clippedHeads: number;
  /** the query row holding the largest logit of all: its logits before and after (−∞ masked) */
  row: { head: number; query: number; before: Float64Array; after: Float64Array };
}

/**
 * normalDraws: n draws N(0, σ²) from the core's own generator and normal sampler — xoshiro256** seeded by
 * SplitMix64 at seed + stream · 0x9E3779B97F4A7C15 (Rng::stream), Marsaglia's polar method — in double. The
 * sampler runs inside the wasm core with its own logarithm, so the draws are the same bits in every engine
 * (a JavaScript Box–Muller on Math.log/cos is not: Firefox's are not correctly rounded). Converted to float32,
 * stream 1 of a seed is attentionStats' Q of that seed and stream 2 its K ([heads, seqLen, dk] row-major, K of
 * headsKv heads); web/public/python/sqrtdk_rng.py draws the same numbers (Stream(seed, stream).normals(n) · σ).
 * n outside 1..2^24, stream outside 0..2^31−1, σ not in (0, 1000] or 8·n bytes over the call's workBytes: RangeError.
 */
export interface NormalDrawsParams {
  /** how many draws, 1..16 777 216 (required) */ n: number;
  /** 0..2^32−1 (default 0) */ seed?: number;
  /** which stream of the seed, 0..2^31−1 (default 0) */ stream?: number;
  /** σ, the standard deviation, in (0, 1000] (default 1) */ sigma?: number;
}
export interface NormalDrawsResult {
  /** [n] σ · z_i, z_i the stream's successive N(0, 1) draws, in order (dimensionless, units of σ) */ values: Float64Array;
}

/** One configuration value a model's scale is computed from. */
export interface ModelParam { name: string; value: number }
/**
 * The attention scale factor a real model computes, computed by the core from the model's configuration values
 * (`params`) by `formula`, with the code and configuration it follows (`source`, "owner/repo: path (symbol)").
 */
export interface ModelScale {
  model: string;
  /** the q·k dimension of a head (DeepSeek-V3's MLA: 128 + 64 = 192) */ dHead: number;
  /** how the model computes c, in its parameters' names */ formula: string;
  /** c on q·k of one head, in (0, 1e4]: pass it as an explicit scale to reproduce the model */ scale: number;
  /** 1/√dHead, for the ratio scale / invSqrtDHead */ invSqrtDHead: number;
  /** the attention-logit soft-cap cap · tanh(s / cap) after the scale, or null */ softcap: number | null;
  /** a learned sink logit per head (gpt-oss) */ sinks: boolean;
  /** q and k normalised per head before the product */ qkNorm: boolean;
  params: ModelParam[];
  /** what the number leaves out, or why the model chose it */ note: string;
  source: string;
}

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

/** The calls whose work the core budgets, and so the names core.cost estimates. */
export type CostedCall = 'scoreVariance' | 'attentionStats' | 'saturationSweep' | 'attention' | 'tensorStats' | 'precisionLab' | 'longContext';
/** The parameters of each costed call (core.cost takes the same object the call would). */
export interface CostedParams {
  scoreVariance: ScoreVarianceParams;
  attentionStats: AttentionStatsParams;
  saturationSweep: SaturationSweepParams;
  attention: AttentionParams;
  tensorStats: TensorStatsParams;
  precisionLab: PrecisionLabParams;
  longContext: LongContextParams;
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

export interface Core {
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
  scoreVariance(params: ScoreVarianceParams): ScoreVarianceResult;
  attentionStats(params: AttentionStatsParams): AttentionStatsResult;
  saturationSweep(params: SaturationSweepParams): SaturationSweepResult;
  /** logits: 1..4096 numbers; −∞ allowed (a masked key), NaN and +∞ refused */
  softmaxJacobian(logits: ArrayLike<number>, options?: SoftmaxJacobianOptions): SoftmaxJacobianResult;
  attention(params: AttentionParams): AttentionResult;
  /** Merges two partial attentions by their log-sum-exp (see MergeAttentionParams). */
  mergeAttention(params: MergeAttentionParams): MergeAttentionResult;
  /**
   * The single-core WebAssembly SIMD128 multiply+add peak kernel (8 f32x4 chains fed from L1, as a
   * GEMM micro-kernel is): runs `iters` steps (1..1e6, default 10000) and returns the FLOPs done
   * (16 384 per step) and the accumulators' sum. Time the call to get GFLOP/s. SIMD128 build only
   * (RangeError in the baseline build).
   */
  simdPeak(params?: { iters?: number }): { flop: number; sum: number };
  /** the diagnostics of attentionStats on your own q, k (v) */
  tensorStats(params: TensorStatsParams): TensorStatsResult;
  /** softmax in float64/float32/bfloat16/float16 with the naive, safe and online algorithms */
  precisionLab(params: PrecisionLabParams): PrecisionLabResult;
  /** entropy against sequence length for fixed, log-n, YaRN, the article's temperature, Llama 4's and SSMax */
  longContext(params: LongContextParams): LongContextResult;
  /**
   * The catalogue of scales real models compute (GPT-2, Llama 3, Qwen2.5, Qwen3, Gemma 2 9B/27B, Gemma 3 27B,
   * DeepSeek-V3, gpt-oss, Grok-1, Granite 3.0, T5, Llama 4 Scout, μP), each scale computed from its parameters.
   * Takes no arguments: any argument is refused (TypeError), as options it would ignore.
   */
  modelScales(): ModelScale[];
  /** does attention have to sum to one? six normalisers on the same draws (or one explicit row of logits) */
  normalisers(params?: NormalisersParams): NormalisersResult;
  /** QK-Clip's per-head maximum logits, η and the logits after clipping (MHA, GQA, MLA) */
  qkClip(params?: QkClipParams): QkClipResult;
  /** n draws N(0, σ²) of one stream of the core's generator, in double, the same bits in every engine */
  normalDraws(params: NormalDrawsParams): NormalDrawsResult;
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
