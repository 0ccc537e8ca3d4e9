// Finite-difference checks (double) of every layer type of the training lab: embedding,
// LayerNorm, linear, GELU, attention for every variant with and without the causal mask and
// with both softmaxes, and the head's cross-entropy. Each layer's scalar test loss is
// ℓ = Σ w ⊙ out for a fixed random w, whose gradient at `out` is w. Method and tolerance: train_fd.hpp.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "rng.hpp"
#include "train/layers.hpp"
#include "train_fd.hpp"

namespace sqrtdk::train {
namespace {

std::vector<double> randn(size_t n, uint64_t stream, double sd = 1.0) {
  Rng r = Rng::stream(99, stream);
  std::vector<double> v(n);
  for (auto& x : v) x = sd * r.normal();
  return v;
}
double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0.0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}
void expect_close(const std::string& what, const std::vector<double>& analytic, double* x, size_t n,
                  const std::function<double()>& f) {
  const fd::FdError e = fd::compare(analytic.data(), fd::numeric_gradient(x, n, f));
  fd::report(what, e);
  EXPECT_LE(e.max_rel, fd::kTolerance) << what << " worst entry " << e.worst;
  EXPECT_GT(e.max_abs_grad, 0.0) << what << ": a zero gradient checks nothing";
}

TEST(TrainLayers, EmbeddingGradientMatchesFiniteDifferences) {
  const int B = 2, Tn = 4, C = 3, V = 5;
  const std::vector<int> tokens = {0, 4, 4, 2, 1, 1, 3, 0};
  auto wte = randn(V * C, 1), wpe = randn(Tn * C, 2), w = randn(B * Tn * C, 3);
  std::vector<double> out(B * Tn * C);
  auto loss = [&] {
    embedding_forward(out.data(), tokens.data(), wte.data(), wpe.data(), B, Tn, C);
    return dot(out, w);
  };
  std::vector<double> dwte(V * C, 0.0), dwpe(Tn * C, 0.0);
  embedding_backward(dwte.data(), dwpe.data(), w.data(), tokens.data(), B, Tn, C);
  expect_close("embedding wte", dwte, wte.data(), wte.size(), loss);
  expect_close("embedding wpe", dwpe, wpe.data(), wpe.size(), loss);
}

TEST(TrainLayers, LayerNormGradientMatchesFiniteDifferences) {
  const int N = 5, C = 7;
  auto x = randn(N * C, 4, 2.0), g = randn(C, 5), b = randn(C, 6), w = randn(N * C, 7);
  std::vector<double> out(N * C), mean(N), rstd(N);
  auto loss = [&] {
    layernorm_forward(out.data(), mean.data(), rstd.data(), x.data(), g.data(), b.data(), N, C);
    return dot(out, w);
  };
  loss();
  std::vector<double> dx(N * C, 0.0), dg(C, 0.0), db(C, 0.0);
  layernorm_backward(dx.data(), dg.data(), db.data(), w.data(), x.data(), g.data(), mean.data(), rstd.data(), N, C);
  expect_close("layernorm x", dx, x.data(), x.size(), loss);
  expect_close("layernorm gain", dg, g.data(), g.size(), loss);
  expect_close("layernorm bias", db, b.data(), b.size(), loss);
}

TEST(TrainLayers, LinearGradientMatchesFiniteDifferences) {
  const int N = 6, IN = 5, OUT = 4;
  auto x = randn(N * IN, 8), W = randn(IN * OUT, 9), bias = randn(OUT, 10), w = randn(N * OUT, 11);
  std::vector<double> out(N * OUT);
  Ops<double> ops;
  Scratch<double> s;
  auto loss = [&] {
    linear_forward(out.data(), x.data(), W.data(), bias.data(), N, IN, OUT, ops);
    return dot(out, w);
  };
  std::vector<double> dx(N * IN, 0.0), dW(IN * OUT, 0.0), db(OUT, 0.0);
  linear_backward(dx.data(), dW.data(), db.data(), w.data(), x.data(), W.data(), N, IN, OUT, ops, s);
  expect_close("linear x", dx, x.data(), x.size(), loss);
  expect_close("linear W", dW, W.data(), W.size(), loss);
  expect_close("linear bias", db, bias.data(), bias.size(), loss);
}

TEST(TrainLayers, GeluGradientMatchesFiniteDifferences) {
  auto x = randn(40, 12, 2.0), w = randn(40, 13);
  std::vector<double> out(40), th(40);
  auto loss = [&] {
    gelu_forward(out.data(), th.data(), x.data(), x.size());
    return dot(out, w);
  };
  loss();
  std::vector<double> dx(40, 0.0);
  gelu_backward(dx.data(), x.data(), th.data(), w.data(), x.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(th[i], std::tanh(0.7978845608028654 * (x[i] + 0.044715 * x[i] * x[i] * x[i])), 1e-15);
  expect_close("gelu x", dx, x.data(), x.size(), loss);
}

struct AttentionCase {
  AttentionVariant variant;
  bool causal;
  SoftmaxKind softmax;
  double softcap = 0.0;
};

class TrainAttentionGrad : public ::testing::TestWithParam<AttentionCase> {};

TEST_P(TrainAttentionGrad, MatchesFiniteDifferences) {
  const AttentionCase pc = GetParam();
  AttentionShape sh;
  sh.B = 2, sh.Tn = 5, sh.C = 8, sh.H = 2;
  sh.variant = pc.variant;
  sh.causal = pc.causal;
  sh.softmax = pc.softmax;
  sh.softcap = pc.softcap;
  const int D = sh.D();
  // With a soft-cap, larger inputs push the logits into tanh's bend (cap 1.5 against logits of several units).
  auto qkv = randn(sh.B * sh.Tn * 3 * sh.C, 20, pc.softcap > 0 ? 2.0 : 1.0), w = randn(sh.B * sh.Tn * sh.C, 21);
  // Variant parameters away from their initial values, so every gradient path is exercised.
  auto head_scale = randn(sh.H, 22, 0.3);
  for (auto& t : head_scale) t += 0.8;
  auto qg = randn(D, 23, 0.3), qb = randn(D, 24, 0.3), kg = randn(D, 25, 0.3), kb = randn(D, 26, 0.3);
  for (auto* gain : {&qg, &kg})
    for (auto& t : *gain) t += 1.0;
  const bool scaled = pc.variant == AttentionVariant::LearnableTemperature || pc.variant == AttentionVariant::QkL2;
  const bool qkln = pc.variant == AttentionVariant::QkLayerNorm;
  AttentionParams<double> par;
  if (scaled) par.head_scale = head_scale.data();
  if (qkln) par.qg = qg.data(), par.qb = qb.data(), par.kg = kg.data(), par.kb = kb.data();
  AttentionCache<double> cache;
  Ops<double> ops;
  Scratch<double> s;
  std::vector<double> y(sh.B * sh.Tn * sh.C), work;
  auto loss = [&] {
    attention_forward(y.data(), qkv.data(), sh, par, cache, ops, s, nullptr);
    return dot(y, w);
  };
  loss();
  std::vector<double> dqkv(qkv.size(), 0.0), dhs(sh.H, 0.0), dqg(D, 0.0), dqb(D, 0.0), dkg(D, 0.0), dkb(D, 0.0);
  AttentionGrads<double> g;
  if (scaled) g.head_scale = dhs.data();
  if (qkln) g.qg = dqg.data(), g.qb = dqb.data(), g.kg = dkg.data(), g.kb = dkb.data();
  attention_backward(dqkv.data(), g, w.data(), sh, par, cache, ops, s, work);
  const std::string name = std::string("attention ") + attention_variant_name(pc.variant) +
                           (pc.causal ? " causal" : "") + (pc.softmax == SoftmaxKind::Naive ? " naive" : "") +
                           (pc.softcap > 0 ? " softcap" : "");
  expect_close(name + " qkv", dqkv, qkv.data(), qkv.size(), loss);
  if (scaled) expect_close(name + " scale", dhs, head_scale.data(), head_scale.size(), loss);
  if (qkln) {
    expect_close(name + " q gain", dqg, qg.data(), D, loss);
    expect_close(name + " q bias", dqb, qb.data(), D, loss);
    expect_close(name + " k gain", dkg, kg.data(), D, loss);
    // Under a soft-cap the shift q̂_i·b_k passes through tanh, which the softmax does not ignore:
    // then the key bias has a real gradient.
    if (pc.softcap > 0) {
      expect_close(name + " k bias", dkb, kb.data(), D, loss);
      return;
    }
    // The key bias adds q̂_i·b_k to every logit of row i, a shift the softmax ignores: its
    // gradient is exactly zero, so both gradients must vanish (no relative error exists).
    const std::vector<double> nkb = fd::numeric_gradient(kb.data(), D, loss);
    for (int i = 0; i < D; ++i) {
      EXPECT_LE(std::fabs(dkb[i]), 1e-12) << name << " k bias " << i;
      EXPECT_LE(std::fabs(nkb[i]), 1e-9) << name << " k bias (numeric) " << i;
    }
  }
}

std::vector<AttentionCase> attention_cases() {
  std::vector<AttentionCase> v;
  for (auto var : {AttentionVariant::None, AttentionVariant::InvSqrtDk, AttentionVariant::InvDk,
                   AttentionVariant::LearnableTemperature, AttentionVariant::QkLayerNorm, AttentionVariant::QkL2})
    for (bool causal : {false, true}) v.push_back({var, causal, SoftmaxKind::Safe});
  v.push_back({AttentionVariant::InvSqrtDk, true, SoftmaxKind::Naive});  // same function, other formula
  // logit soft-capping beside each variant (issue #11): the factor 1 − tanh² in every gradient
  for (auto var : {AttentionVariant::None, AttentionVariant::InvSqrtDk, AttentionVariant::InvDk,
                   AttentionVariant::LearnableTemperature, AttentionVariant::QkLayerNorm, AttentionVariant::QkL2})
    v.push_back({var, true, SoftmaxKind::Safe, 1.5});
  return v;
}
INSTANTIATE_TEST_SUITE_P(Variants, TrainAttentionGrad, ::testing::ValuesIn(attention_cases()),
                         [](const ::testing::TestParamInfo<AttentionCase>& i) {
                           return std::string(attention_variant_name(i.param.variant)) +
                                  (i.param.causal ? "_causal" : "_full") +
                                  (i.param.softmax == SoftmaxKind::Naive ? "_naive" : "") +
                                  (i.param.softcap > 0 ? "_softcap" : "");
                         });

TEST(TrainLayers, HeadCrossEntropyGradientMatchesFiniteDifferences) {
  const int N = 6, C = 5, V = 7;
  auto x = randn(N * C, 30), W = randn(C * V, 31), bias = randn(V, 32);
  const std::vector<int> targets = {-1, 3, 0, -1, 6, 2};
  std::vector<double> logits(N * V), dlogits(N * V);
  std::vector<double> prob;
  Ops<double> ops;
  Scratch<double> s;
  auto loss = [&] {
    linear_forward(logits.data(), x.data(), W.data(), bias.data(), N, C, V, ops);
    return crossentropy_forward_backward<double>(nullptr, logits.data(), targets.data(), N, V, prob).loss;
  };
  loss();
  const CrossEntropyResult r = crossentropy_forward_backward(dlogits.data(), logits.data(), targets.data(), N, V, prob);
  EXPECT_EQ(r.targets, 4);
  std::vector<double> dx(N * C, 0.0), dW(C * V, 0.0), db(V, 0.0);
  linear_backward(dx.data(), dW.data(), db.data(), dlogits.data(), x.data(), W.data(), N, C, V, ops, s);
  expect_close("head+cross-entropy x", dx, x.data(), x.size(), loss);
  expect_close("head+cross-entropy W", dW, W.data(), W.size(), loss);
  expect_close("head+cross-entropy bias", db, bias.data(), bias.size(), loss);
}

TEST(TrainLayers, FloatAttentionMatchesDoubleWithTheKernelTable) {
  // The float32 path (kernel table products and softmax) against the double one.
  AttentionShape sh;
  sh.B = 2, sh.Tn = 9, sh.C = 16, sh.H = 2, sh.causal = true;
  auto qkv = randn(sh.B * sh.Tn * 3 * sh.C, 40);
  std::vector<float> qkvf(qkv.begin(), qkv.end());
  AttentionCache<double> cd;
  AttentionCache<float> cf;
  Scratch<double> sd;
  Scratch<float> sf;
  std::vector<double> yd(sh.B * sh.Tn * sh.C);
  std::vector<float> yf(yd.size());
  attention_forward(yd.data(), qkv.data(), sh, AttentionParams<double>{}, cd, Ops<double>{}, sd, nullptr);
  for (Kernel k : {Kernel::Scalar, Kernel::Simd}) {
    if (k == Kernel::Simd && !simd_available()) continue;
    attention_forward(yf.data(), qkvf.data(), sh, AttentionParams<float>{}, cf, Ops<float>{k}, sf, nullptr);
    for (size_t i = 0; i < yd.size(); ++i) EXPECT_NEAR(yf[i], yd[i], 1e-5 * (1.0 + std::fabs(yd[i]))) << i;  // float32 rounding
  }
}

}  // namespace
}  // namespace sqrtdk::train
