// Issue #11: the numerics real kernels do (2 of 2; numerics_test.cpp holds the first): fully masked rows, the cause
// of every broken row, float32 accumulation of half-precision softmax, logit soft-capping. Every small input carries
// its right value, computed independently in float64 (see the comments). The same file runs natively (scalar
// family) and as wasm under node (scalar and SIMD128).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "experiments.hpp"
#include "kernels.hpp"
#include "precision.hpp"
#include "rng.hpp"
#include "test_util.hpp"
#include "train/training.hpp"

namespace sqrtdk {
namespace {

const double inf = std::numeric_limits<double>::infinity();
const float finf = std::numeric_limits<float>::infinity();

using test::families;
using test::randn;

const PrecisionCell& cell(const PrecisionLabResult& r, const std::string& f, const std::string& a) {
  for (const auto& c : r.cells)
    if (c.format == f && c.algorithm == a) return c;
  throw std::runtime_error("no cell " + f + " " + a);
}

PrecisionLabResult lab(std::vector<double> logits, MaskedRow mr = MaskedRow::Nan, Accumulate acc = Accumulate::Same) {
  PrecisionLabParams p;
  p.logits = std::move(logits);
  p.masked_row = mr;
  p.accumulate = acc;
  return precision_lab(p);
}

// ---- 2. fully masked rows -------------------------------------------------------------------------

TEST(MaskedRow, FullyMaskedRowIsNanInTheFormulasAndZerosUnderTheKernelConvention) {
  // [−∞, −∞]: exp gives 0, 0/0 = NaN (naive); −∞ − (−∞) = NaN (safe); the online form ends with
  // d = 0 and NaN. Every format, every algorithm.
  const PrecisionLabResult r = lab({-inf, -inf});
  for (const auto& c : r.cells) {
    EXPECT_EQ(c.share_nan, 1.0) << c.format << " " << c.algorithm;
    EXPECT_EQ(c.causes.nan, 1.0) << c.format << " " << c.algorithm;
    EXPECT_TRUE(std::isnan(c.probs[0]) && std::isnan(c.probs[1]));
  }
  EXPECT_TRUE(std::isnan(r.reference[0]));
  const PrecisionLabResult z = lab({-inf, -inf}, MaskedRow::Zero);
  for (const auto& c : z.cells) {
    EXPECT_EQ(c.probs, (std::vector<double>{0.0, 0.0})) << c.format << " " << c.algorithm;
    EXPECT_EQ(c.share_nan, 0.0);
    EXPECT_EQ(c.causes.nan, 0.0);
    EXPECT_EQ(c.max_abs_error, 0.0);
  }
}

TEST(MaskedRow, AFullyUnderflowedRowIsNanToo) {
  // float64 naive on [−800, −800]: exp(−800) = 0 (below 4.9e−324), 0/0 = NaN; the safe form gives 1/2.
  const PrecisionLabResult r = lab({-800.0, -800.0});
  const PrecisionCell& naive = cell(r, "float64", "naive");
  EXPECT_TRUE(std::isnan(naive.probs[0]));
  EXPECT_EQ(naive.share_nan, 1.0);
  EXPECT_EQ(naive.causes.nan, 1.0);
  EXPECT_EQ(cell(r, "float64", "safe").probs, (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(r.reference, (std::vector<double>{0.5, 0.5}));
  // Under the kernel convention the zero normaliser gives zeros (FlashAttention: sum == 0 → 0).
  const PrecisionLabResult z = lab({-800.0, -800.0}, MaskedRow::Zero);
  EXPECT_EQ(cell(z, "float64", "naive").probs, (std::vector<double>{0.0, 0.0}));
  EXPECT_EQ(cell(z, "float64", "naive").causes.underflow, 1.0);
}

TEST(MaskedRow, PartlyMaskedRowsAreTheSameUnderBothRules) {
  for (MaskedRow mr : {MaskedRow::Nan, MaskedRow::Zero})
    for (auto a : {SoftmaxAlgorithm::Naive, SoftmaxAlgorithm::Safe, SoftmaxAlgorithm::Online}) {
      SoftmaxOptions o;
      o.block_size = 1;
      o.masked_row = mr;
      EXPECT_EQ(softmax_in_format({-inf, 0.0, -inf, 0.0}, Format::Float32, a, o),
                (std::vector<double>{0.0, 0.5, 0.0, 0.5}));
    }
}

TEST(MaskedRow, AttentionDefaultsToZerosAndCanGiveNan) {
  for (Kernel kf : families()) {
    const int L = 4, dk = 3;
    const auto q = randn(L * dk, 1), k = randn(L * dk, 2), v = randn(L * dk, 3);
    std::vector<float> mask(L * L, 0.0f);
    std::fill_n(mask.begin() + L, L, -finf);  // row 1 sees nothing
    AttentionParams p = test::attention_params(q, k, v, 1, L, dk, kf);
    p.mask = mask;
    const AttentionResult z = attention(p);
    for (int j = 0; j < L; ++j) EXPECT_EQ(z.weights[L + j], 0.0f);
    for (int d = 0; d < dk; ++d) EXPECT_EQ(z.output[dk + d], 0.0f);
    p.masked_row = MaskedRow::Nan;
    const AttentionResult nn = attention(p);
    for (int j = 0; j < L; ++j) EXPECT_TRUE(std::isnan(nn.weights[L + j]));
    for (int d = 0; d < dk; ++d) EXPECT_TRUE(std::isnan(nn.output[dk + d]));
    for (int j = 0; j < L; ++j) EXPECT_EQ(nn.weights[j], z.weights[j]);  // other rows untouched
    std::vector<double> w(L * L);
    f64_attention_masked__reference(q.data(), k.data(), v.data(), 1, L, dk, nn.scale, mask.data(), false, 0.0, true,
                                    nullptr, w.data());
    EXPECT_TRUE(std::isnan(w[L]));
  }
}

// ---- 3. causes ------------------------------------------------------------------------------------

struct CauseRow {
  const char* format;
  const char* algorithm;
  std::vector<double> logits;
  const char* cause;  // the one field that must be 1; "" = none
};

double cause_of(const PrecisionCell& c, const std::string& name) {
  if (name == "input_overflow") return c.causes.input_overflow;
  if (name == "exp_overflow") return c.causes.exp_overflow;
  if (name == "sum_overflow") return c.causes.sum_overflow;
  if (name == "nan") return c.causes.nan;
  if (name == "underflow") return c.causes.underflow;
  throw std::runtime_error(name);
}

TEST(Causes, EachRowOfTheTableHitsExactlyItsCause) {
  // float16: max finite 65504, ln 65504 = 11.09, smallest subnormal 2^-24 = 5.96e-8 (exp(−16.6)).
  // bfloat16: max finite 3.39e38 (ln = 88.72), smallest subnormal 2^-133 = 9.2e-41 (exp(−92.2)).
  const std::vector<CauseRow> table = {
      {"float16", "naive", {70000.0, 0.0}, "input_overflow"},   // 70000 rounds to +∞ in float16
      {"float16", "safe", {70000.0, 0.0}, "input_overflow"},    // whatever the algorithm does next
      {"float16", "naive", {12.0, 0.0}, "exp_overflow"},        // exp(12) = 162755 > 65504
      {"float16", "naive", {11.0, 11.0}, "sum_overflow"},       // 59874 fits, 2 · 59874 does not
      {"float16", "naive", {-20.0, -20.0}, "nan"},              // exp(−20) = 2.1e-9 → 0, 0/0
      {"float16", "safe", {-inf, -inf}, "nan"},                 // −∞ − (−∞)
      {"float16", "naive", {0.0, -20.0}, "underflow"},          // p₂ = 2.1e-9 in float64, 0 here
      {"float16", "safe", {0.0, -20.0}, "underflow"},
      {"float16", "naive", {1.0, 0.0}, ""},
      {"bfloat16", "naive", {1e39, 0.0}, "input_overflow"},
      {"bfloat16", "naive", {89.0, 0.0}, "exp_overflow"},       // exp(89) = 4.5e38
      {"bfloat16", "naive", {88.5, 88.5}, "sum_overflow"},      // exp(88.5) = 2.7e38 fits, twice it does not
      {"bfloat16", "naive", {-100.0, -100.0}, "nan"},           // exp(−100) = 3.7e-44 → 0
      {"bfloat16", "online", {0.0, -100.0}, "underflow"},
      {"bfloat16", "safe", {1.0, 0.0}, ""},
  };
  const char* names[] = {"input_overflow", "exp_overflow", "sum_overflow", "nan", "underflow"};
  for (const auto& row : table) {
    const PrecisionLabResult r = lab(row.logits);
    const PrecisionCell& c = cell(r, row.format, row.algorithm);
    for (const char* name : names)
      EXPECT_EQ(cause_of(c, name), std::string(name) == row.cause ? 1.0 : 0.0)
          << row.format << " " << row.algorithm << " [" << row.logits[0] << ", " << row.logits[1] << "] " << name;
  }
}

TEST(Causes, ElevenElevenInFloat16IsAnOverflowOfTheSumNotAnUnderflow) {
  const PrecisionLabResult r = lab({11.0, 11.0});
  const PrecisionCell& c = cell(r, "float16", "naive");
  EXPECT_EQ(c.probs, (std::vector<double>{0.0, 0.0}));
  EXPECT_EQ(c.causes.sum_overflow, 1.0);
  EXPECT_EQ(c.causes.underflow, 0.0);
  EXPECT_EQ(c.share_nan, 0.0);
  EXPECT_EQ(c.max_abs_error, 0.5);
  // Accumulated in float32 the sum fits: 0.5 each.
  const PrecisionLabResult a = lab({11.0, 11.0}, MaskedRow::Nan, Accumulate::Float32);
  EXPECT_EQ(cell(a, "float16", "naive").probs, (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(cell(a, "float16", "naive").causes.sum_overflow, 0.0);
}

TEST(Causes, RandomRowsPartitionTheBrokenRows) {
  PrecisionLabParams p;
  p.rows = 128;
  p.seq_len = 64;
  p.dk = 512;
  p.scale = parse_scale("none");
  const PrecisionLabResult r = precision_lab(p);
  for (const auto& c : r.cells) {
    const double sum = c.causes.input_overflow + c.causes.exp_overflow + c.causes.sum_overflow + c.causes.nan +
                       c.causes.underflow;
    EXPECT_LE(sum, 1.0 + 1e-12);
    EXPECT_GE(sum + 1e-12, c.share_nonfinite) << c.format << " " << c.algorithm;
  }
  // Logits up to |s| ≈ 75: the float16 naive softmax overflows in exp on almost every row.
  EXPECT_GT(cell(r, "float16", "naive").causes.exp_overflow, 0.9);
  EXPECT_EQ(cell(r, "float16", "safe").causes.exp_overflow, 0.0);
}

// ---- 4. float32 accumulation --------------------------------------------------------------------

TEST(Accumulate, Float32AccumulationOfHalfPrecisionSoftmax) {
  // x_j = 2 sin(0.7 j), j = 0..4095, safe softmax, max |p − p_float64|. The right values were
  // computed independently (a Node script rounding every operation, see the closing note):
  //   float32 accumulation: bfloat16 4.7472e-6, float16 5.7939e-7
  //   all in the low format: bfloat16 3.1183e-3, float16 5.3427e-5
  std::vector<double> x(4096);
  for (int j = 0; j < 4096; ++j) x[j] = 2.0 * std::sin(0.7 * j);
  const PrecisionLabResult same = lab(x);
  const PrecisionLabResult f32 = lab(x, MaskedRow::Nan, Accumulate::Float32);
  EXPECT_NEAR(cell(f32, "bfloat16", "safe").max_abs_error, 4.7472e-6, 1e-9);
  EXPECT_NEAR(cell(f32, "float16", "safe").max_abs_error, 5.7939e-7, 1e-10);
  EXPECT_NEAR(cell(same, "bfloat16", "safe").max_abs_error, 3.1183e-3, 1e-7);
  EXPECT_NEAR(cell(same, "float16", "safe").max_abs_error, 5.3427e-5, 1e-8);
  // float64 and float32 storage: accumulation already at least float32, nothing changes.
  for (const char* f : {"float64", "float32"})
    for (const char* a : {"naive", "safe", "online"})
      EXPECT_EQ(cell(f32, f, a).probs, cell(same, f, a).probs) << f << " " << a;
  // The online (FlashAttention-style) cell agrees with the safe one to float32 rounding.
  EXPECT_LT(f32.online_vs_safe[2], 1e-5);
}

// ---- 5. soft-capping ------------------------------------------------------------------------------

TEST(SoftCap, TwoLogitValues) {
  // cap 5 on [10, 0]: z = [5 tanh 2, 0] = [4.82014, 0], p = [0.99200, 0.00800];
  // ∂p/∂s = (diag(p) − p pᵀ) diag(1 − tanh²(s/5)): ‖·‖_F = p₁p₂ √(2 sech⁴2 + 2) = 0.0112528.
  const std::vector<double> ten{10.0, 0.0};
  const SoftmaxJacobianResult c = softmax_jacobian(ten, 5.0);
  EXPECT_NEAR(c.probs[0], 0.99200, 5e-6);
  EXPECT_NEAR(c.probs[1], 0.00800, 5e-6);
  const double p1 = 1.0 / (1.0 + std::exp(-5.0 * std::tanh(2.0)));
  const double sech2 = 1.0 / (std::cosh(2.0) * std::cosh(2.0));
  const double want = p1 * (1.0 - p1) * std::sqrt(2.0 * sech2 * sech2 + 2.0);
  EXPECT_NEAR(c.frobenius, want, 1e-15);
  EXPECT_NEAR(c.frobenius, 0.011253, 5e-7);
  EXPECT_NEAR(c.spectral, c.frobenius, 1e-12 * c.frobenius);  // rank one for two keys
  EXPECT_NEAR(c.jacobian[0], p1 * (1 - p1) * sech2, 1e-15);    // ∂p₁/∂s₁
  EXPECT_NEAR(c.jacobian[1], -p1 * (1 - p1), 1e-15);           // ∂p₁/∂s₂ (s₂ = 0: factor 1)
  const SoftmaxJacobianResult u = softmax_jacobian(ten);
  EXPECT_NEAR(u.frobenius, 9.07916e-5, 1e-9);  // uncapped: 2 p₁p₂, p₂ = 1/(1 + e¹⁰)
  // cap 50 on [100, 0]: p₂ = e^{−50 tanh 2}/(1 + …) = 1.1652e-21: ‖·‖_F = 1.65197e-21.
  const SoftmaxJacobianResult big = softmax_jacobian(std::vector<double>{100.0, 0.0}, 50.0);
  const double p2 = 1.0 / (1.0 + std::exp(50.0 * std::tanh(2.0)));
  EXPECT_NEAR(big.frobenius, p2 * (1 - p2) * std::sqrt(2.0 * sech2 * sech2 + 2.0), 1e-33);
  EXPECT_NEAR(big.frobenius, 1.65197e-21, 1e-26);
}

TEST(SoftCap, JacobianMatchesFiniteDifferencesAndItsSpectralNormTheSvd) {
  Rng r(21);
  for (int n : {3, 7, 40, 128, 200}) {
    std::vector<double> s(n);
    for (double& x : s) x = 6.0 * r.normal();
    s[1] = -inf;  // a masked key
    const double cap = 3.0;
    const SoftmaxJacobianResult got = softmax_jacobian(s, cap);
    auto probs = [&](const std::vector<double>& z) {
      std::vector<double> c(z.size()), p(z.size());
      for (size_t i = 0; i < z.size(); ++i) c[i] = z[i] == -inf ? -inf : cap * std::tanh(z[i] / cap);
      f64_softmax__reference(c.data(), p.data(), int(z.size()));
      return p;
    };
    Eigen::MatrixXd J(n, n);
    for (int j = 0; j < n; ++j) {
      if (j == 1) { J.col(j).setZero(); continue; }
      const double h = 1e-5 * std::max(1.0, std::fabs(s[j]));
      std::vector<double> a = s, b = s;
      a[j] += h;
      b[j] -= h;
      const auto pa = probs(a), pb = probs(b);
      for (int i = 0; i < n; ++i) J(i, j) = (pa[i] - pb[i]) / (2 * h);
    }
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) ASSERT_NEAR(got.jacobian[size_t(i) * n + j], J(i, j), 1e-8) << n << " " << i << " " << j;
    EXPECT_NEAR(got.frobenius, J.norm(), 1e-8);
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> G(got.jacobian.data(), n, n);
    const double svd = Eigen::JacobiSVD<Eigen::MatrixXd>(Eigen::MatrixXd(G)).singularValues()(0);
    EXPECT_NEAR(got.spectral, svd, 1e-9 * svd) << n;
  }
  // Rows like the saturation panel's: L = 128 logits c · q·k at several spreads, caps 2 and 50.
  for (double spread : {0.5, 3.0, 20.0})
    for (double cap : {2.0, 50.0}) {
      std::vector<double> s(128);
      for (double& x : s) x = spread * r.normal();
      const SoftmaxJacobianResult got = softmax_jacobian(s, cap);
      const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> G(got.jacobian.data(), 128, 128);
      const double svd = Eigen::JacobiSVD<Eigen::MatrixXd>(Eigen::MatrixXd(G)).singularValues()(0);
      EXPECT_NEAR(got.spectral, svd, 1e-9 * svd) << "spread " << spread << " cap " << cap;
    }
}

// Double-precision attention of one head and its loss ℓ = Σ dO ⊙ (P V), P = softmax(mask(cap(c·Q Kᵀ))).
double loss64(const std::vector<double>& Q, const std::vector<float>& K, const std::vector<float>& V,
              const std::vector<float>& dO, int L, int dk, double c, double cap, bool causal) {
  double loss = 0.0;
  std::vector<double> s(L), p(L);
  for (int i = 0; i < L; ++i) {
    for (int j = 0; j < L; ++j) {
      double dot = 0.0;
      for (int d = 0; d < dk; ++d) dot += Q[i * dk + d] * double(K[j * dk + d]);
      s[j] = cap * std::tanh(c * dot / cap);
      if (causal && j > i) s[j] = -inf;
    }
    f64_softmax__reference(s.data(), p.data(), L);
    for (int j = 0; j < L; ++j)
      for (int d = 0; d < dk; ++d) loss += dO[i * dk + d] * p[j] * double(V[j * dk + d]);
  }
  return loss;
}

TEST(SoftCap, AttentionStatsGradientsMatchFiniteDifferencesInDouble) {
  for (Kernel kf : families())
    for (bool causal : {false, true}) {
      AttentionStatsParams p;
      p.heads = 1;
      p.seq_len = 6;
      p.dk = 4;
      p.seed = 13;
      p.variance = 4.0;  // scores of std 8 against a cap of 3: deep in tanh's saturation
      p.scale = parse_scale("none");
      p.softcap = 3.0;
      p.causal = causal;
      p.kernel = kf;
      const AttentionStatsResult r = attention_stats(p);
      const int L = p.seq_len, dk = p.dk;
      auto draw = [&](uint64_t stream) {
        Rng g = Rng::stream(p.seed, stream);
        std::vector<float> t(size_t(L) * dk);
        for (auto& x : t) x = static_cast<float>(2.0 * g.normal());
        return t;
      };
      const auto q = draw(1), k = draw(2), v = draw(3), dout = draw(4);
      std::vector<double> Q(q.begin(), q.end());
      for (int i = 0; i < L; ++i) {
        double g2 = 0.0;
        for (int d = 0; d < dk; ++d) {
          const double h = 1e-6;
          std::vector<double> a = Q, b = Q;
          a[i * dk + d] += h;
          b[i * dk + d] -= h;
          const double g = (loss64(a, k, v, dout, L, dk, 1.0, 3.0, causal) - loss64(b, k, v, dout, L, dk, 1.0, 3.0, causal)) / (2 * h);
          g2 += g * g;
        }
        EXPECT_NEAR(r.grad_query[i], std::sqrt(g2), 1e-4 * std::sqrt(g2) + 1e-6) << kernel_name(kf) << " row " << i;
      }
      // The soft-cap shrinks the Jacobian: every row's norm is at most the uncapped softmax's of the
      // same weights, and all are finite.
      for (double j : r.jac_fro) EXPECT_TRUE(std::isfinite(j));
    }
}

TEST(SoftCap, PrecisionLabCapsBeforeEachFormatRounds) {
  // [100, 90, 80] with cap 50: 50·tanh(2), 50·tanh(1.8), 50·tanh(1.6) = 48.20, 47.35, 46.10 — the
  // float16 naive softmax still overflows (exp(46) ≫ 65504), the safe one is right.
  PrecisionLabParams p;
  p.logits = {100.0, 90.0, 80.0, -inf};
  p.softcap = 50.0;
  const PrecisionLabResult r = precision_lab(p);
  std::vector<double> z{50 * std::tanh(2.0), 50 * std::tanh(1.8), 50 * std::tanh(1.6)};
  const double m = z[0];
  const double sum = std::exp(z[0] - m) + std::exp(z[1] - m) + std::exp(z[2] - m);
  EXPECT_NEAR(r.reference[0], 1.0 / sum, 1e-15);
  EXPECT_EQ(r.reference[3], 0.0);  // the masked key stays masked (not −cap)
  EXPECT_NEAR(r.max_abs_logit, z[0], 1e-12);
  EXPECT_EQ(cell(r, "float16", "naive").causes.exp_overflow, 1.0);
  EXPECT_EQ(cell(r, "float16", "safe").share_nonfinite, 0.0);
}

TEST(SoftCap, AttentionMatchesAttentionStatsAndInvalidCapsAreRefused) {
  AttentionStatsParams p;
  p.dk = 8;
  p.seq_len = 16;
  p.heads = 2;
  p.softcap = -1.0;
  EXPECT_THROW(attention_stats(p), std::invalid_argument);
  p.softcap = std::nan("");
  EXPECT_THROW(attention_stats(p), std::invalid_argument);
  p.softcap = inf;
  EXPECT_THROW(attention_stats(p), std::invalid_argument);
  EXPECT_THROW(softmax_jacobian(std::vector<double>{1.0, 2.0}, -3.0), std::invalid_argument);
  PrecisionLabParams lp;
  lp.softcap = 2e6;
  EXPECT_THROW(precision_lab(lp), std::invalid_argument);
  // A cap far above every logit changes nothing measurable.
  p.softcap = 1e6;
  p.gradients = false;
  const AttentionStatsResult a = attention_stats(p);
  p.softcap = 0.0;
  const AttentionStatsResult b = attention_stats(p);
  EXPECT_NEAR(a.summary.entropy.mean, b.summary.entropy.mean, 1e-6);
  EXPECT_NEAR(a.summary.jac_spec.mean, b.summary.jac_spec.mean, 1e-6);
  // A bad mask value is refused, naming it.
  const auto q = randn(2 * 3, 1);
  std::vector<float> mask(4, 0.0f);
  mask[2] = std::nanf("");
  AttentionParams ap = test::attention_params(q, q, q, 1, 2, 3, Kernel::Scalar);
  ap.mask = mask;
  try {
    attention(ap);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("mask[2]"), std::string::npos);
  }
  mask.resize(3);
  ap.mask = mask;
  EXPECT_THROW(attention(ap), std::invalid_argument);
}

TEST(SoftCap, TrainingRunsCapEveryVariantsLogits) {
  for (auto v : {train::AttentionVariant::None, train::AttentionVariant::QkL2}) {
    train::TrainConfig c;
    c.attention = v;
    c.softcap = 2.0;
    c.steps = 3;
    c.eval_size = 8;
    c.batch = 4;
    train::TrainingRun run(c);
    const train::StepMetrics m = run.step(3);
    ASSERT_EQ(m.count(), 3);
    for (double x : m.max_abs_logit) {
      EXPECT_LE(x, 2.0);
      EXPECT_GT(x, 0.5);  // unscaled (none) and g₀ = log₂(T² − T) ≈ 7.9 (qk_l2): well into the cap
    }
    for (double l : m.loss) EXPECT_TRUE(std::isfinite(l));
  }
  train::TrainConfig bad;
  bad.softcap = -1.0;
  EXPECT_THROW(train::TrainingRun{bad}, std::invalid_argument);
}

}  // namespace
}  // namespace sqrtdk