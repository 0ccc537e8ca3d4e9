// The training lab's Transformer: parameters in one flat buffer (as llm.c's ParameterTensors),
// forward over a batch with the activations kept for the backward pass, and the backward pass.
// Notation: config.hpp.
//
//   x₀ = wte[tokens] + wpe                                                   [B, T, C]
//   pre-LN block:  r₁ = x + Wₒ·attn(LN₁(x) W_qkv),  x' = r₁ + W₂·gelu(LN₂(r₁) W₁)
//   post-LN block: a₁ = LN₁(x + Wₒ·attn(x W_qkv)),  x' = LN₂(a₁ + W₂·gelu(a₁ W₁))
//   logits = LN_f(x_L) W_head + b_head (pre-LN; post-LN has no LN_f)          [B, T, V]
//   loss = mean over the task's target positions of −ln softmax(logits)[target]
// (every linear map has a bias; W·x above is x W with W stored [in, out]).
//
// Initialisation (seeded, the project's Rng, Marsaglia normals): every weight matrix and both
// embeddings N(0, init_std²), each tensor from its own stream Rng::stream(seed, id) with an id
// fixed by the tensor's name and layer (kInitStream…), so every variant and both LayerNorm
// placements start from the same shared weights; biases 0, LayerNorm gains 1 and biases 0;
// τ_h = 1/√d_k; g_h = log₂(T² − T). The variant-specific tensors draw no random numbers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "config.hpp"
#include "layers.hpp"

namespace sqrtdk::train {

inline constexpr uint64_t kInitStreamWte = 0x1001;
inline constexpr uint64_t kInitStreamWpe = 0x1002;
inline constexpr uint64_t kInitStreamHead = 0x1003;
// Layer l, matrix m (0 W_qkv, 1 W_o, 2 W_1, 3 W_2): 0x2000 + 16 l + m.
inline constexpr uint64_t kInitStreamLayer = 0x2000;

// One parameter tensor of the flat buffer.
struct ParamTensor {
  std::string name;       // e.g. "layer1.w_qkv"
  size_t offset = 0;      // into the flat buffer
  size_t size = 0;
  int rows = 1, cols = 1; // shape [rows, cols] (a vector has rows = 1)
  bool decay = false;     // AdamW weight decay applies (matrices and embeddings)
};

// Offsets of one layer's tensors (kNone when absent).
inline constexpr size_t kNone = static_cast<size_t>(-1);
struct LayerOffsets {
  size_t ln1_g = kNone, ln1_b = kNone, w_qkv = kNone, b_qkv = kNone, w_o = kNone, b_o = kNone;
  size_t ln2_g = kNone, ln2_b = kNone, w_fc = kNone, b_fc = kNone, w_proj = kNone, b_proj = kNone;
  size_t head_scale = kNone;                            // [H] τ_h or g_h
  size_t qln_g = kNone, qln_b = kNone, kln_g = kNone, kln_b = kNone;  // [D] each
};
struct ModelLayout {
  std::vector<ParamTensor> tensors;
  size_t wte = kNone, wpe = kNone, lnf_g = kNone, lnf_b = kNone, w_head = kNone, b_head = kNone;
  std::vector<LayerOffsets> layers;
  size_t total = 0;
};
ModelLayout make_layout(const TrainConfig& c);

// Per-layer diagnostics of a forward pass.
struct ForwardStats {
  std::vector<double> entropy;        // [layers] mean attention entropy, nats
  std::vector<double> max_abs_logit;  // [layers] max |S| (scaled, unmasked)
  std::vector<double> head_scale;     // [layers] mean over heads of τ_h or g_h (NaN when absent)
};

template <typename T>
class Model {
 public:
  explicit Model(const TrainConfig& c);  // c must have been validated
  const TrainConfig& config() const { return cfg_; }
  const ModelLayout& layout() const { return layout_; }
  std::vector<T>& params() { return params_; }
  const std::vector<T>& params() const { return params_; }
  std::vector<T>& grads() { return grads_; }

  // Draws the initial parameters (see the header comment).
  void init(uint32_t seed);
  // Forward over tokens, targets [B, T] (targets −1 where there is none) with B ≤ the batch the
  // buffers were sized for (grown on demand). Keeps the activations. With want_grad, also
  // the gradient of the loss at the logits, ready for backward().
  CrossEntropyResult forward(const int* tokens, const int* targets, int B, bool want_grad,
                             ForwardStats* stats = nullptr);
  // Zeroes grads() and writes ∂loss/∂params of the last forward(…, want_grad = true) into it.
  void backward();

  // The attention cache of layer l after the last forward (for the analysis).
  const AttentionCache<T>& attention_cache(int l) const { return acts_[l].att; }
  int last_batch() const { return B_; }
  // [B, T, V] logits of the last forward.
  const std::vector<T>& logits() const { return logits_; }

 private:
  struct LayerActs {
    std::vector<T> ln1, ln1_mean, ln1_rstd;  // pre: LN₁(x); post: a₁ = LN₁(r₁)
    std::vector<T> qkv, y, r1;
    std::vector<T> ln2, ln2_mean, ln2_rstd;  // pre: LN₂(r₁); post: LN₂(r₂) = x'
    std::vector<T> h, g, th, r2;             // th: tanh inside the GELU; pre: r₂ = x'; post: r₂ = a₁ + MLP
    AttentionCache<T> att;
  };
  AttentionShape shape(int B) const;
  AttentionParams<T> att_params(int l) const;
  AttentionGrads<T> att_grads(int l);
  const T* P(size_t off) const { return off == kNone ? nullptr : params_.data() + off; }
  T* G(size_t off) { return off == kNone ? nullptr : grads_.data() + off; }
  void resize(int B);

  TrainConfig cfg_;
  ModelLayout layout_;
  Ops<T> ops_;
  std::vector<T> params_, grads_;
  int B_ = 0, capacity_ = 0;
  std::vector<int> tokens_, targets_;
  std::vector<T> x0_, lnf_, lnf_mean_, lnf_rstd_, logits_, dlogits_;
  std::vector<LayerActs> acts_;
  // backward buffers
  std::vector<T> dres_, dtmp_, dtmp2_, dy_, dqkv_, dh_, dg_, att_work_;
  std::vector<double> prob_;
  Scratch<T> scratch_;
};

extern template class Model<float>;
extern template class Model<double>;

}  // namespace sqrtdk::train
