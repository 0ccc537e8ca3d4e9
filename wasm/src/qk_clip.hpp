// qkClip: Kimi K2's QK-Clip (MuonClip) on drawn q and k — each head's signed maximum logit, γ = min(1, τ / S_max), the MHA, GQA and MLA rules, and the logits after clipping.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels.hpp"
#include "logit_options.hpp"
#include "experiment_defaults.hpp"  // generated from wasm/js/experiments.js (scripts/gen-experiments.mjs)

namespace sqrtdk {

// QK-Clip (Kimi Team 2025, "Kimi K2: Open Agentic Intelligence", arXiv 2507.20534, §2.1, MuonClip): after an
// optimiser step, each head whose largest logit S_max,h exceeded the threshold τ has its query and key
// projections rescaled so that this logit becomes τ. As Megatron-Core implements it (NVIDIA/Megatron-LM,
// megatron/core/transformer/transformer_config.py: qk_clip_threshold = 100, qk_clip_alpha = 0.5;
// megatron/core/transformer/attention.py SelfAttention.clip_qk and multi_latent_attention.py
// MLASelfAttention.clip_qk):
//   η = min(1, τ / S_max)           (Megatron: torch.clamp(threshold / max_logits, max=1.0))
//   W_q ← η^α W_q,   W_k ← η^(1−α) W_k    (α = ½: √η on each; the logits of the head become η · s)
//   GQA: S_max is the maximum over the query heads of each KV group (k is shared), and every query
//        head of the group gets the group's η (SelfAttention.clip_qk, "experimental on GQA")
//   MLA: q_nope ← η^α q_nope, k_nope ← η^(1−α) k_nope, q_rope ← η q_rope, the rotary key k_rope (one per
//        token, shared by every head) left alone (MLASelfAttention._clip_q_proj_weight / _clip_kv_proj_weight)
// Here the projections are not modelled: the rescaling is applied to q and k themselves (q = x W_q is
// linear in W_q, so it is the same thing). S_max,h is signed (the largest logit, not the largest |logit|),
// of the scaled and soft-capped logits over unmasked pairs. A head whose S_max ≤ τ keeps η = 1 (a head with
// S_max ≤ 0 too: Megatron's τ / S_max would be negative there, and η^α NaN). Without a soft-cap the clipped
// head's new maximum is τ (up to float32 rounding); with one it is cap · tanh(η · r / cap), r the raw
// maximum, since the cap is applied after the products.
//
// Draws: q [heads, L, dk] (stream 1, multiplied by qGain so that logits past τ are reachable), k [headsKv, L,
// dk] (stream 2), as attentionStats draws them. MLA (ropeDim > 0, headsKv = heads): the last ropeDim
// components of each q row are its rotary part, and the rotary part of every head's key is head 0's
// (the shared k_rope).
inline constexpr int kQkClipMaxHeads = ranges::qk_clip::heads.hi;  // 64 (experiments.js)
inline constexpr int kQkClipMaxSeqLen = ranges::qk_clip::seq_len.hi;  // 512
inline constexpr int kQkClipMaxDk = ranges::qk_clip::dk.hi;  // 512

struct QkClipParams {
  int heads = defaults::qk_clip::heads;          // 1..64
  int heads_kv = defaults::qk_clip::heads_kv;    // 0: heads; else divides heads
  int seq_len = defaults::qk_clip::seq_len;      // 1..512
  int dk = defaults::qk_clip::dk;                // 1..512
  Scale scale = defaults::qk_clip::scale;
  uint32_t seed = defaults::qk_clip::seed;
  Kernel kernel = Kernel::Scalar;
  double q_gain = defaults::qk_clip::q_gain;     // the multiplier of q, in (0, 1000]
  double tau = defaults::qk_clip::tau;           // τ, in (0, 1e6]
  double alpha = defaults::qk_clip::alpha;       // α, in [0, 1]
  double softcap = defaults::qk_clip::softcap;   // 0: off
  bool causal = defaults::qk_clip::causal;
  int rope_dim = defaults::qk_clip::rope_dim;    // MLA's rotary dimensions, 0 (no MLA) .. dk − 1
};

struct QkClipResult {
  double scale = 0.0;                   // c
  int groups = 0;                       // KV heads
  std::vector<double> max_logit;        // [heads] S_max,h before clipping
  std::vector<double> group_max_logit;  // [groups] the maximum over each group's heads (MHA, MLA: = max_logit)
  std::vector<double> gamma;            // [heads] η of the head (its group's under GQA)
  std::vector<double> clipped_max;      // [heads] the largest logit after clipping
  std::vector<double> entropy_before;   // [heads] mean row entropy of softmax, nats
  std::vector<double> entropy_after;    // [heads]
  int clipped_heads = 0;                // heads with η < 1
  int row_head = 0, row_query = 0;      // where the largest logit of all is
  std::vector<double> row_before;       // [L] that query's logits before clipping (−∞: masked)
  std::vector<double> row_after;        // [L] and after
};

// The float32 path (products by the kernel family); throws std::invalid_argument naming a bad value.
QkClipResult qk_clip(const QkClipParams& p);
// The double reference on the same draws (products, η and the clipped logits in double). For tests.
QkClipResult qk_clip_reference(const QkClipParams& p);

}  // namespace sqrtdk
