// softmaxJacobian, attention and mergeAttention: softmax and attention on the caller's own logits and tensors (C++: wasm/src/attention.*).
import { dk, seqLen, heads, kernel, scale, softcap, sinks, causal } from './common.js';
import { MASKED_ROW_RULES } from './choices.js';

/** Its experiments, by the name of their method on the core, in declaration order. */
export const EXPERIMENTS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').ExperimentSpec>} */ ({
  softmaxJacobian: {
    doc: 'the softmax of explicit logits, its Jacobian J = diag(p) − p pᵀ, ‖J‖_F, ‖J‖₂ and entropy: softmaxJacobian(logits, { softcap })',
    cpp: 'softmax_jacobian', call: 'positional', part: 'full', costed: false,
    params: {
      logits: { type: 'numberList', range: [1, 4096], doc: 'the logits (1..4096 of them; −∞: a masked key)' },
      softcap,
    },
    result: {
      probs: { type: 'f64', doc: '[n] softmax in double (of the capped logits under softcap); all −∞ gives all zeros' },
      jacobian: { type: 'f64', doc: '[n, n] row-major J = ∂p/∂s = diag(p) − p pᵀ; under softcap (diag(p) − p pᵀ) diag(1 − tanh²(s/cap)), and its spectral norm comes from the Lanczos method' },
      frobenius: { type: 'number', doc: '‖J‖_F' },
      spectral: { type: 'number', doc: '‖J‖₂' },
      entropy: { type: 'number', doc: 'nats' },
    },
    example: [[2, 1, 0]],
  },
  attention: {
    doc: 'the forward pass softmax(c · Q Kᵀ + mask) V on given q, k, v, with grouped K/V heads, masks (one per head or for all), ALiBi, soft-capping and sinks',
    cpp: 'attention', call: 'params', part: 'full', costed: true, pack: true, plan: 'single',
    params: {
      q: { type: 'float32', field: null, doc: 'q [heads, seqLen, dk]; k [headsKv, seqLen, dk]; v [headsKv, seqLen, dv]; finite' },
      k: { type: 'float32', field: null, doc: 'K [headsKv, seqLen, dk]' },
      v: { type: 'float32', field: null, doc: 'V [headsKv, seqLen, dv]' },
      heads: { type: 'int', range: heads, doc: 'query heads (required)' },
      headsKv: { type: 'int', default: 0, range: [0, 64], doc: 'K/V heads: 0 or absent = heads (MHA), 1 = MQA, a divisor of heads = GQA; query head h reads K/V head ⌊h / (heads/headsKv)⌋' },
      seqLen: { type: 'int', range: seqLen, doc: 'L (required)' },
      dk: { type: 'int', range: dk, doc: 'd_k (required)' },
      dv: { type: 'int', default: 0, range: [0, 16384], doc: 'd_v, the head size of v and of the output [heads, seqLen, dv], 0..16384; 0 or absent: dk (every number the same as without it, bit for bit). DeepSeek\'s MLA: q/k heads of 192 (128 + 64 rotary), v heads of 128.' },
      scale, kernel,
      weights: { type: 'bool', default: true, field: 'want_weights', doc: 'also return the weights [heads, seqLen, seqLen]' },
      causal: { ...causal, doc: 'causal mask, row i sees keys 0..i: PyTorch SDPA\'s is_causal; bit for bit the additive mask of −∞ above the diagonal (default false)' },
      mask: { type: 'float32', default: null, field: null, doc: 'additive mask [seqLen, seqLen] float32, added to every head\'s scores after scaling and soft-capping: 0 (keep), −∞ (mask) or any finite value (a bias); NaN and +∞ refused. PyTorch SDPA\'s float attn_mask, broadcast over heads. Or [heads, seqLen, seqLen], one per head (a bias per head: T5\'s relative position bias, ALiBi written out): head h adds mask[h]; the same numbers, bit for bit, as one call per head with its own [seqLen, seqLen].' },
      softcap,
      maskedRow: { type: 'choice', default: 'zero', values: MASKED_ROW_RULES, ts: 'MaskedRowRule', doc: 'a fully masked row (every score −∞) has no softmax: \'zero\' gives zero weights and output, the convention of FlashAttention and of PyTorch\'s SDPA (the default here); \'nan\' gives what the formula gives, NaN' },
      sinks: { ...sinks, field: null, doc: 'one sink logit per head, appended to every row after the scale, the soft-cap and the masks (default: none); a head with a finite sink never gives a NaN row' },
      alibi: { type: 'alibi', default: null, field: null, ts: '\'press\' | Float32Array | null', doc: 'ALiBi (Press, Smith & Lewis 2022, "Train Short, Test Long"): head h adds −m_h · (i − j) to logit (i, j) where the mask is added (after the scale and the soft-cap; with a mask, float32(mask + float32(−m_h · (i − j))) is added). \'press\': the paper\'s slopes for this many heads, 2^(−8(h+1)/H) for H a power of two, else the first c = 2^⌊log₂ H⌋ of those followed by every other slope of 2c heads (ofirpress/attention_with_linear_biases, `get_slopes`): 8 heads 1/2 … 1/256; 12 heads 1/2 … 1/256, 0.7071068, 0.3535534, 0.1767767, 0.0883883. Or a Float32Array [heads] of slopes (finite, |m| ≤ 1e4). Defined for causal attention; without causal, keys after i get +m_h · (j − i). Default: none. The result then carries alibiSlopes.' },
      queryScale: { type: 'float32', default: null, field: null, doc: 'a multiplier t_i per query row [seqLen] (the same for every head), in 0..1e4: s_ij = t_i · c · q_i·k_j, applied to the scaled float32 logits before the soft-cap, the masks and ALiBi. For temperatures that depend on the position in a causal call: Scalable-Softmax with n = i + 1 keys seen, t_i = s · ln(i + 1) (Nakanishi 2025, arXiv 2501.19399; allenai/OLMo-core#808), Llama 4\'s 1 + attn_scale · ln(⌊(i + 1) / floor_scale⌋ + 1), log-n scaling max(1, ln(i + 1) / ln L_train). Default: none (every number as without it, bit for bit).' },
      lse: { type: 'bool', default: false, field: 'want_lse', doc: 'also return lse [heads, seqLen]: each row\'s log-sum-exp ln Σ_j e^{s_j} in nats over its logits (scaled, soft-capped, masked, with ALiBi; with a sink, e^{sink} is in the sum), computed in double from the float32 logits and rounded to float32, so that the weights are e^{s_j − lse}: FlashAttention\'s softmax_lse. A fully masked row (no sink) gives −∞ (its output 0, or NaN under maskedRow \'nan\'). For mergeAttention. Default false.' },
    },
    convert: 'own',
    result: {
      scale: { type: 'number', doc: 'the resolved scale factor c' },
      output: { type: 'f32', doc: '[heads, seqLen, dv] (dv = dk unless given)' },
      weights: { type: 'f32', ts: 'Float32Array | null', doc: '[heads, seqLen, seqLen], or null when weights: false; with sinks each row sums to 1 − its sink weight' },
      sinkWeights: { type: 'f32', when: 'sinks', doc: 'only when sinks were given: p_sink of every row [heads, seqLen]' },
      sinkMass: { type: 'number', when: 'sinks', doc: 'only when sinks were given: the mean of sinkWeights' },
      alibiSlopes: { type: 'f32', when: 'alibi', doc: 'only with alibi: the slopes applied [heads], as float32' },
      lse: { type: 'f32', when: 'lse', doc: 'only with lse: true: [heads, seqLen], ln Σ_j e^{s_j} in nats; −∞ for a fully masked row' },
    },
    example: [{ q: new Float32Array(8), k: new Float32Array(8), v: new Float32Array(8), heads: 1, seqLen: 2, dk: 4 }],
  },
  mergeAttention: {
    doc: 'Two partial attentions of the same queries over disjoint keys (split-KV decoding, ring attention: FlashDecoding, flashinfer\'s merge_state, vLLM\'s merge_attn_states), merged per row, in double then float32: m = max(l_a, l_b), w = e^{l − m}, output = (w_a o_a + w_b o_b) / (w_a + w_b), lse = m + ln(w_a + w_b). An empty chunk (0, −∞) is neutral; two empty chunks give (0, −∞), never NaN. An lse of NaN or +∞ is refused. A log-sum-exp in base 2 (lse · log₂e, as kernels that use exp2 keep it) must be converted first: read as natural, it sharpens the mixing weights by log₂e.',
    cpp: 'merge_attention', call: 'params', part: 'full', costed: false, plan: 'single',
    params: {
      a: { type: 'state', field: null, doc: '{ output [heads, seqLen, dv], lse [heads, seqLen] in nats } of one chunk of keys (attention with lse: true)' },
      b: { type: 'state', field: null, doc: '{ output, lse } of the other chunk' },
      heads: { type: 'int', range: heads, doc: 'query heads (required)' },
      seqLen: { type: 'int', range: seqLen, doc: 'queries per head (required)' },
      dv: { type: 'int', range: dk, doc: 'the head size of the outputs (required)' },
    },
    result: {
      output: { type: 'f32', doc: '[heads, seqLen, dv]' },
      lse: { type: 'f32', doc: '[heads, seqLen], nats' },
    },
    example: [{ a: { output: new Float32Array([1, 2]), lse: new Float32Array([0]) }, b: { output: new Float32Array([3, 4]), lse: new Float32Array([-Infinity]) }, heads: 1, seqLen: 1, dv: 2 }],
  },
}));
