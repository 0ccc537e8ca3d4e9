// The training lab's Transformer (model.hpp): the layout of its parameters, their initialisation, the forward pass over a batch and the backward pass.
#include "model.hpp"

#include <cmath>
#include <limits>

#include "rng.hpp"

namespace sqrtdk::train {

ModelLayout make_layout(const TrainConfig& c) {
  ModelLayout m;
  const int C = c.d_model, H = c.heads, D = head_dim(c), F = c.mlp, V = token_count(c), Tn = c.seq_len;
  auto add = [&](const std::string& name, int rows, int cols, bool decay) {
    ParamTensor t{name, m.total, static_cast<size_t>(rows) * cols, rows, cols, decay};
    m.total += t.size;
    m.tensors.push_back(t);
    return t.offset;
  };
  m.wte = add("wte", V, C, true);
  m.wpe = add("wpe", Tn, C, true);
  for (int l = 0; l < c.layers; ++l) {
    const std::string p = "layer" + std::to_string(l) + ".";
    LayerOffsets o;
    o.ln1_g = add(p + "ln1_g", 1, C, false);
    o.ln1_b = add(p + "ln1_b", 1, C, false);
    o.w_qkv = add(p + "w_qkv", C, 3 * C, true);
    o.b_qkv = add(p + "b_qkv", 1, 3 * C, false);
    switch (c.attention) {
      case AttentionVariant::LearnableTemperature: o.head_scale = add(p + "temperature", 1, H, false); break;
      case AttentionVariant::QkL2: o.head_scale = add(p + "g", 1, H, false); break;
      case AttentionVariant::QkLayerNorm:
        o.qln_g = add(p + "q_ln_g", 1, D, false);
        o.qln_b = add(p + "q_ln_b", 1, D, false);
        o.kln_g = add(p + "k_ln_g", 1, D, false);
        o.kln_b = add(p + "k_ln_b", 1, D, false);
        break;
      default: break;
    }
    o.w_o = add(p + "w_o", C, C, true);
    o.b_o = add(p + "b_o", 1, C, false);
    o.ln2_g = add(p + "ln2_g", 1, C, false);
    o.ln2_b = add(p + "ln2_b", 1, C, false);
    o.w_fc = add(p + "w_fc", C, F, true);
    o.b_fc = add(p + "b_fc", 1, F, false);
    o.w_proj = add(p + "w_proj", F, C, true);
    o.b_proj = add(p + "b_proj", 1, C, false);
    m.layers.push_back(o);
  }
  if (c.norm == NormPlacement::Pre) {
    m.lnf_g = add("lnf_g", 1, C, false);
    m.lnf_b = add("lnf_b", 1, C, false);
  }
  m.w_head = add("w_head", C, V, true);
  m.b_head = add("b_head", 1, V, false);
  return m;
}

template <typename T>
Model<T>::Model(const TrainConfig& c) : cfg_(c), layout_(make_layout(c)) {
  ops_.kernel = c.kernel;
  params_.assign(layout_.total, T(0));
  grads_.assign(layout_.total, T(0));
  acts_.resize(c.layers);
}

template <typename T>
void Model<T>::init(uint32_t seed) {
  const double sd = cfg_.init_std;
  auto normal_fill = [&](size_t off, size_t n, uint64_t stream) {
    Rng r = Rng::stream(seed, stream);
    for (size_t i = 0; i < n; ++i) params_[off + i] = static_cast<T>(sd * r.normal());
  };
  auto fill = [&](size_t off, size_t n, double v) {
    if (off != kNone) std::fill_n(params_.data() + off, n, static_cast<T>(v));
  };
  std::fill(params_.begin(), params_.end(), T(0));
  const int C = cfg_.d_model, H = cfg_.heads, D = head_dim(cfg_), F = cfg_.mlp, V = token_count(cfg_);
  normal_fill(layout_.wte, static_cast<size_t>(V) * C, kInitStreamWte);
  normal_fill(layout_.wpe, static_cast<size_t>(cfg_.seq_len) * C, kInitStreamWpe);
  normal_fill(layout_.w_head, static_cast<size_t>(C) * V, kInitStreamHead);
  fill(layout_.lnf_g, C, 1.0);
  for (int l = 0; l < cfg_.layers; ++l) {
    const LayerOffsets& o = layout_.layers[l];
    const uint64_t base = kInitStreamLayer + 16 * static_cast<uint64_t>(l);
    normal_fill(o.w_qkv, static_cast<size_t>(C) * 3 * C, base + 0);
    normal_fill(o.w_o, static_cast<size_t>(C) * C, base + 1);
    normal_fill(o.w_fc, static_cast<size_t>(C) * F, base + 2);
    normal_fill(o.w_proj, static_cast<size_t>(F) * C, base + 3);
    fill(o.ln1_g, C, 1.0);
    fill(o.ln2_g, C, 1.0);
    fill(o.qln_g, D, 1.0);
    fill(o.kln_g, D, 1.0);
    if (cfg_.attention == AttentionVariant::LearnableTemperature) fill(o.head_scale, H, 1.0 / std::sqrt(double(D)));
    if (cfg_.attention == AttentionVariant::QkL2) {
      const double Tn = cfg_.seq_len;
      fill(o.head_scale, H, std::log2(Tn * Tn - Tn));  // Henry et al. 2020: g₀ = log₂(L² − L)
    }
  }
}

template <typename T>
AttentionShape Model<T>::shape(int B) const {
  AttentionShape s;
  s.B = B;
  s.Tn = cfg_.seq_len;
  s.C = cfg_.d_model;
  s.H = cfg_.heads;
  s.variant = cfg_.attention;
  s.softmax = cfg_.softmax;
  s.causal = task_is_causal(cfg_.task);
  s.softcap = cfg_.softcap;
  return s;
}

template <typename T>
AttentionParams<T> Model<T>::att_params(int l) const {
  const LayerOffsets& o = layout_.layers[l];
  return AttentionParams<T>{P(o.head_scale), P(o.qln_g), P(o.qln_b), P(o.kln_g), P(o.kln_b)};
}

template <typename T>
AttentionGrads<T> Model<T>::att_grads(int l) {
  const LayerOffsets& o = layout_.layers[l];
  return AttentionGrads<T>{G(o.head_scale), G(o.qln_g), G(o.qln_b), G(o.kln_g), G(o.kln_b)};
}

template <typename T>
void Model<T>::resize(int B) {
  if (B <= capacity_) return;
  capacity_ = B;
  const size_t N = static_cast<size_t>(B) * cfg_.seq_len;
  const size_t C = cfg_.d_model, F = cfg_.mlp, V = token_count(cfg_);
  tokens_.resize(N);
  targets_.resize(N);
  x0_.resize(N * C);
  lnf_.resize(N * C);
  lnf_mean_.resize(N);
  lnf_rstd_.resize(N);
  logits_.resize(N * V);
  dlogits_.resize(N * V);
  for (auto& a : acts_) {
    a.ln1.resize(N * C), a.ln1_mean.resize(N), a.ln1_rstd.resize(N);
    a.qkv.resize(N * 3 * C), a.y.resize(N * C), a.r1.resize(N * C);
    a.ln2.resize(N * C), a.ln2_mean.resize(N), a.ln2_rstd.resize(N);
    a.h.resize(N * F), a.g.resize(N * F), a.th.resize(N * F), a.r2.resize(N * C);
  }
  dres_.resize(N * C), dtmp_.resize(N * C), dtmp2_.resize(N * C), dy_.resize(N * C);
  dqkv_.resize(N * 3 * C), dh_.resize(N * F), dg_.resize(N * F);
}

template <typename T>
CrossEntropyResult Model<T>::forward(const int* tokens, const int* targets, int B, bool want_grad,
                                     ForwardStats* stats) {
  resize(B);
  B_ = B;
  const int Tn = cfg_.seq_len, C = cfg_.d_model, F = cfg_.mlp, V = token_count(cfg_);
  const int N = B * Tn;
  std::copy_n(tokens, N, tokens_.data());
  std::copy_n(targets, N, targets_.data());
  const AttentionShape sh = shape(B);
  const bool pre = cfg_.norm == NormPlacement::Pre;
  if (stats != nullptr) {
    stats->entropy.assign(cfg_.layers, 0.0);
    stats->max_abs_logit.assign(cfg_.layers, 0.0);
    stats->head_scale.assign(cfg_.layers, std::numeric_limits<double>::quiet_NaN());
  }

  embedding_forward(x0_.data(), tokens, P(layout_.wte), P(layout_.wpe), B, Tn, C);
  const T* x = x0_.data();
  for (int l = 0; l < cfg_.layers; ++l) {
    const LayerOffsets& o = layout_.layers[l];
    LayerActs& a = acts_[l];
    const size_t NC = static_cast<size_t>(N) * C;
    const T* att_in = x;
    if (pre) {
      layernorm_forward(a.ln1.data(), a.ln1_mean.data(), a.ln1_rstd.data(), x, P(o.ln1_g), P(o.ln1_b), N, C);
      att_in = a.ln1.data();
    }
    linear_forward(a.qkv.data(), att_in, P(o.w_qkv), P(o.b_qkv), N, C, 3 * C, ops_);
    AttentionStats as;
    attention_forward(a.y.data(), a.qkv.data(), sh, att_params(l), a.att, ops_, scratch_,
                      stats != nullptr ? &as : nullptr);
    if (stats != nullptr) {
      stats->entropy[l] = as.entropy_mean;
      stats->max_abs_logit[l] = as.max_abs_logit;
      if (o.head_scale != kNone) {
        double m = 0.0;
        for (int h = 0; h < cfg_.heads; ++h) m += params_[o.head_scale + h];
        stats->head_scale[l] = m / cfg_.heads;
      }
    }
    linear_forward(a.r1.data(), a.y.data(), P(o.w_o), P(o.b_o), N, C, C, ops_);
    add_into(a.r1.data(), x, NC);  // r₁ = x + attention output
    const T* mlp_in;
    if (pre) {
      layernorm_forward(a.ln2.data(), a.ln2_mean.data(), a.ln2_rstd.data(), a.r1.data(), P(o.ln2_g), P(o.ln2_b), N, C);
      mlp_in = a.ln2.data();
    } else {
      layernorm_forward(a.ln1.data(), a.ln1_mean.data(), a.ln1_rstd.data(), a.r1.data(), P(o.ln1_g), P(o.ln1_b), N, C);
      mlp_in = a.ln1.data();
    }
    linear_forward(a.h.data(), mlp_in, P(o.w_fc), P(o.b_fc), N, C, F, ops_);
    gelu_forward(a.g.data(), a.th.data(), a.h.data(), static_cast<size_t>(N) * F);
    linear_forward(a.r2.data(), a.g.data(), P(o.w_proj), P(o.b_proj), N, F, C, ops_);
    add_into(a.r2.data(), mlp_in == a.ln2.data() ? a.r1.data() : a.ln1.data(), NC);
    if (pre) {
      x = a.r2.data();
    } else {
      layernorm_forward(a.ln2.data(), a.ln2_mean.data(), a.ln2_rstd.data(), a.r2.data(), P(o.ln2_g), P(o.ln2_b), N, C);
      x = a.ln2.data();
    }
  }
  const T* head_in = x;
  if (pre) {
    layernorm_forward(lnf_.data(), lnf_mean_.data(), lnf_rstd_.data(), x, P(layout_.lnf_g), P(layout_.lnf_b), N, C);
    head_in = lnf_.data();
  }
  linear_forward(logits_.data(), head_in, P(layout_.w_head), P(layout_.b_head), N, C, V, ops_);
  return crossentropy_forward_backward(want_grad ? dlogits_.data() : static_cast<T*>(nullptr), logits_.data(),
                                       targets, N, V, prob_);
}

template <typename T>
void Model<T>::backward() {
  std::fill(grads_.begin(), grads_.end(), T(0));
  const int B = B_, Tn = cfg_.seq_len, C = cfg_.d_model, F = cfg_.mlp, V = token_count(cfg_);
  const int N = B * Tn;
  const size_t NC = static_cast<size_t>(N) * C;
  const AttentionShape sh = shape(B);
  const bool pre = cfg_.norm == NormPlacement::Pre;
  auto zero = [](std::vector<T>& v, size_t n) { std::fill_n(v.data(), n, T(0)); };

  // The block output of layer l (its input is that of layer l − 1, or x₀).
  auto block_out = [&](int l) -> const T* { return pre ? acts_[l].r2.data() : acts_[l].ln2.data(); };
  const T* xL = cfg_.layers > 0 ? block_out(cfg_.layers - 1) : x0_.data();

  // head (and final LayerNorm)
  zero(dres_, NC);
  if (pre) {
    zero(dtmp_, NC);
    linear_backward(dtmp_.data(), G(layout_.w_head), G(layout_.b_head), dlogits_.data(), lnf_.data(),
                    P(layout_.w_head), N, C, V, ops_, scratch_);
    layernorm_backward(dres_.data(), G(layout_.lnf_g), G(layout_.lnf_b), dtmp_.data(), xL, P(layout_.lnf_g),
                       lnf_mean_.data(), lnf_rstd_.data(), N, C);
  } else {
    linear_backward(dres_.data(), G(layout_.w_head), G(layout_.b_head), dlogits_.data(), xL, P(layout_.w_head), N,
                    C, V, ops_, scratch_);
  }

  for (int l = cfg_.layers - 1; l >= 0; --l) {
    const LayerOffsets& o = layout_.layers[l];
    LayerActs& a = acts_[l];
    const T* x = l > 0 ? block_out(l - 1) : x0_.data();
    if (pre) {
      // x' = r₁ + W₂·gelu(LN₂(r₁) W₁): dres holds ∂/∂x'
      zero(dg_, static_cast<size_t>(N) * F);
      linear_backward(dg_.data(), G(o.w_proj), G(o.b_proj), dres_.data(), a.g.data(), P(o.w_proj), N, F, C, ops_,
                      scratch_);
      zero(dh_, static_cast<size_t>(N) * F);
      gelu_backward(dh_.data(), a.h.data(), a.th.data(), dg_.data(), static_cast<size_t>(N) * F);
      zero(dtmp_, NC);
      linear_backward(dtmp_.data(), G(o.w_fc), G(o.b_fc), dh_.data(), a.ln2.data(), P(o.w_fc), N, C, F, ops_,
                      scratch_);
      layernorm_backward(dres_.data(), G(o.ln2_g), G(o.ln2_b), dtmp_.data(), a.r1.data(), P(o.ln2_g),
                         a.ln2_mean.data(), a.ln2_rstd.data(), N, C);  // dres = ∂/∂r₁
      // r₁ = x + W_o·attn(LN₁(x) W_qkv)
      zero(dy_, NC);
      linear_backward(dy_.data(), G(o.w_o), G(o.b_o), dres_.data(), a.y.data(), P(o.w_o), N, C, C, ops_, scratch_);
      zero(dqkv_, NC * 3);
      attention_backward(dqkv_.data(), att_grads(l), dy_.data(), sh, att_params(l), a.att, ops_, scratch_,
                         att_work_);
      zero(dtmp_, NC);
      linear_backward(dtmp_.data(), G(o.w_qkv), G(o.b_qkv), dqkv_.data(), a.ln1.data(), P(o.w_qkv), N, C, 3 * C,
                      ops_, scratch_);
      layernorm_backward(dres_.data(), G(o.ln1_g), G(o.ln1_b), dtmp_.data(), x, P(o.ln1_g), a.ln1_mean.data(),
                         a.ln1_rstd.data(), N, C);  // dres = ∂/∂x
    } else {
      // x' = LN₂(r₂), r₂ = a₁ + W₂·gelu(a₁ W₁)
      zero(dtmp_, NC);
      layernorm_backward(dtmp_.data(), G(o.ln2_g), G(o.ln2_b), dres_.data(), a.r2.data(), P(o.ln2_g),
                         a.ln2_mean.data(), a.ln2_rstd.data(), N, C);  // dtmp = ∂/∂r₂
      zero(dg_, static_cast<size_t>(N) * F);
      linear_backward(dg_.data(), G(o.w_proj), G(o.b_proj), dtmp_.data(), a.g.data(), P(o.w_proj), N, F, C, ops_,
                      scratch_);
      zero(dh_, static_cast<size_t>(N) * F);
      gelu_backward(dh_.data(), a.h.data(), a.th.data(), dg_.data(), static_cast<size_t>(N) * F);
      linear_backward(dtmp_.data(), G(o.w_fc), G(o.b_fc), dh_.data(), a.ln1.data(), P(o.w_fc), N, C, F, ops_,
                      scratch_);  // dtmp = ∂/∂a₁
      // a₁ = LN₁(r₁), r₁ = x + W_o·attn(x W_qkv)
      zero(dtmp2_, NC);
      layernorm_backward(dtmp2_.data(), G(o.ln1_g), G(o.ln1_b), dtmp_.data(), a.r1.data(), P(o.ln1_g),
                         a.ln1_mean.data(), a.ln1_rstd.data(), N, C);  // dtmp2 = ∂/∂r₁
      zero(dy_, NC);
      linear_backward(dy_.data(), G(o.w_o), G(o.b_o), dtmp2_.data(), a.y.data(), P(o.w_o), N, C, C, ops_, scratch_);
      zero(dqkv_, NC * 3);
      attention_backward(dqkv_.data(), att_grads(l), dy_.data(), sh, att_params(l), a.att, ops_, scratch_,
                         att_work_);
      std::copy_n(dtmp2_.data(), NC, dres_.data());
      linear_backward(dres_.data(), G(o.w_qkv), G(o.b_qkv), dqkv_.data(), x, P(o.w_qkv), N, C, 3 * C, ops_,
                      scratch_);  // dres = ∂/∂x
    }
  }
  embedding_backward(G(layout_.wte), G(layout_.wpe), dres_.data(), tokens_.data(), B, Tn, C);
}

template class Model<float>;
template class Model<double>;

}  // namespace sqrtdk::train
