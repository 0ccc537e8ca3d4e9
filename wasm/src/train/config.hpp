// The training lab's configuration: a small decoder-only Transformer trained on a synthetic task.
//
// Notation of every header under train/ (shapes.hpp's, extended):
//   B  batch (sequences per step)          T  seq_len, the model's context (positions 0..T−1)
//   C  d_model                             H  heads            D  d_k = C / H
//   F  MLP width                           V  token count = vocab + 1 (the content symbols
//   N  B·T rows                                          and one separator token, id vocab)
//   [a, b, c]  row-major; weights of a linear map are stored [in, out] (out = in · W + bias),
//   so every product is a matmul_ab of the kernel table (see layers.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels.hpp"

namespace sqrtdk::train {

// The attention logits s_ij = c_h · q̂_i·k̂_j of head h (q̂, k̂: q, k or their normalised forms).
enum class AttentionVariant {
  None,                  // c = 1: the unscaled dot product
  InvSqrtDk,             // c = 1/√d_k (Vaswani et al. 2017, "Attention Is All You Need", §3.2.1)
  InvDk,                 // c = 1/d_k
  LearnableTemperature,  // c = τ_h, one trained scalar per head, initialised at 1/√d_k: the
                         // learnable temperature of Lee, Lee & Song 2021, "Vision Transformer for
                         // Small-Size Datasets" §3.3 (Locality Self-Attention; there one per layer,
                         // dividing the logits), here one per head and multiplying them
  QkLayerNorm,           // q̂ = LN(q), k̂ = LN(k) over each head's d_k components, with learnable gain
                         // and bias [D] shared by the heads of a layer (timm's q_norm/k_norm), then
                         // c = 1/√d_k (Dehghani et al. 2023, "Scaling Vision Transformers to 22
                         // Billion Parameters" §2.1; Wortsman et al. 2023, "Small-scale proxies for
                         // large-scale Transformer training instabilities" §3.1). The key's bias
                         // only shifts each logit row by q̂·b_k, which the softmax ignores: its
                         // gradient is exactly zero and it never moves (kept for the standard form;
                         // under a soft-cap the shift passes through tanh and the bias does train)
  QkL2,                  // q̂ = q/‖q‖, k̂ = k/‖k‖ (cosine similarity) and c = g_h, one learnable
                         // scalar per head initialised at g₀ = log₂(T² − T) (Henry et al. 2020,
                         // "Query-Key Normalization for Transformers", §3, with L = T)
};
// Attention softmax: Safe subtracts the row max first ("only for numerical stability": exp never
// overflows); Naive computes exp(s) / Σ exp(s) as written, so exp(s) overflows to +∞ above
// s ≈ 88.7 in float32 and the row becomes ∞/∞ = NaN. The output head's softmax is always safe.
enum class SoftmaxKind { Safe, Naive };
// Pre-LN: x + f(LN(x)) and a final LayerNorm before the head (GPT-2; Xiong et al. 2020).
// Post-LN: LN(x + f(x)) as in Vaswani et al. 2017; no final LayerNorm.
enum class NormPlacement { Pre, Post };

// Tasks (data: the content symbols 0..vocab−1; SEP = vocab). With n = ⌊T/2⌋ and o = T − 2n (0 or 1):
//   copy / reverse / sort: the context is [SEP]·o, x₁..xₙ, SEP, y₁..y_{n−1}; the targets are
//     y₁..yₙ at positions o+n .. T−1 (position o+n, the separator, predicts y₁; teacher forcing).
//     y = x (copy), x reversed (reverse), x sorted ascending (sort); x iid uniform symbols.
//     A causal mask is applied (otherwise position o+n+i would see its own target).
//   assoc_recall: p = ⌊(T−1)/2⌋ pairs k₁ v₁ .. k_p v_p (distinct keys, values iid uniform), then
//     SEP when T is even, then a query key k_q (one of the pairs' keys, uniform); one target, the
//     value v_q, at position T−1. No causal mask (the target is not in the context).
enum class Task { Copy, Reverse, Sort, AssocRecall };

}  // namespace sqrtdk::train

// The defaults below (sqrtdk::train::defaults), generated from TRAINING_DEFAULTS in
// wasm/js/experiments.js (scripts/gen-experiments.mjs): declared once, for core.js and this struct.
#include "training_defaults.hpp"

namespace sqrtdk::train {

struct TrainConfig {
  // task
  Task task = defaults::task;
  int vocab = defaults::vocab;        // content symbols, 2..256 (the model has vocab + 1 tokens)
  int seq_len = defaults::seq_len;      // T, 8..64
  // model
  int layers = defaults::layers;        // 1..6
  int d_model = defaults::d_model;      // C, 8..512, divisible by heads
  int heads = defaults::heads;         // H, 1..16
  int mlp = defaults::mlp;         // F, the MLP width, 4..2048
  NormPlacement norm = defaults::norm;
  AttentionVariant attention = defaults::attention;
  SoftmaxKind softmax = defaults::softmax;
  double softcap = defaults::softcap;     // > 0: every variant's logits s ↦ cap · tanh(s / cap) before the mask
                            // (Gemma 2's attn_logit_softcapping; a switch beside each variant);
                            // 0 = off; otherwise (0, 1e6]
  double init_std = defaults::init_std;  // std of every weight matrix and embedding at step 0, (0, 10];
                            // 0.125 = 1/√64: after a LayerNorm, q and k have components of
                            // variance ≈ 1 at step 0, the iid premise of the √d_k argument
  // optimisation: AdamW (Loshchilov & Hutter 2019)
  int batch = defaults::batch;           // B, 1..256
  int steps = defaults::steps;          // the run's length, 1..kMaxSteps
  double lr = defaults::lr;         // peak learning rate, (0, 1]
  int warmup = defaults::warmup;           // linear warm-up steps, 0..steps (lr · (t+1)/warmup for t < warmup)
  double clip = defaults::clip;        // global-norm gradient clipping threshold; 0 = off; 0..1e6
  double weight_decay = defaults::weight_decay;  // decoupled, on weight matrices and embeddings only, 0..1
  double beta1 = defaults::beta1;       // [0, 1)
  double beta2 = defaults::beta2;      // [0, 1)
  double adam_eps = defaults::adam_eps;   // (0, 1]
  // evaluation, seeding, kernels
  int eval_size = defaults::eval_size;      // held-out sequences, 1..4096
  uint32_t seed = defaults::seed;
  Kernel kernel = Kernel::Scalar;
};

inline constexpr int kMaxSteps = 20000;
// A run's memory budget: parameters, gradients and both AdamW moments (4 × 4 bytes each) plus
// the activations and their gradients of one batch. Several runs live side by side in a page.
inline constexpr double kMaxTrainBytes = 64.0 * 1024.0 * 1024.0;

// "none" | "inv_sqrt_dk" | "inv_dk" | "learnable_temperature" | "qk_layernorm" | "qk_l2"
AttentionVariant parse_attention_variant(const std::string& name);
const char* attention_variant_name(AttentionVariant v);
Task parse_task(const std::string& name);  // "copy" | "reverse" | "sort" | "assoc_recall"
const char* task_name(Task t);
NormPlacement parse_norm(const std::string& name);  // "pre" | "post"
const char* norm_name(NormPlacement n);
SoftmaxKind parse_softmax(const std::string& name);  // "safe" | "naive"
const char* softmax_name(SoftmaxKind s);

// Range-checks every field; throws std::invalid_argument "trainingRun: <name> = <value> …" with
// the field's JS name (seqLen, dModel, initStd, weightDecay, adamEps, evalSize; the others as here).
void validate(const TrainConfig& c);

// Derived sizes.
inline int head_dim(const TrainConfig& c) { return c.d_model / c.heads; }
inline int token_count(const TrainConfig& c) { return c.vocab + 1; }
bool task_is_causal(Task t);
// Number of trained scalars of the model of c.
size_t parameter_count(const TrainConfig& c);
// Bytes a run needs (the budget check), see kMaxTrainBytes.
double training_bytes(const TrainConfig& c);

}  // namespace sqrtdk::train
