// Issue #11: the numerics real kernels do (1 of 2): masks (causal and additive), ALiBi, d_v ≠ d_k, the log-sum-exp
// and the merge of two chunks, per-position query scales; numerics_rows_test.cpp holds the rest. Every small input
// carries its right value, computed independently in float64 (see the comments). The same file runs natively
// (scalar family) and as wasm under node (scalar and SIMD128).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "experiments.hpp"
#include "kernels.hpp"
#include "precision.hpp"
#include "rng.hpp"
#include "test_util.hpp"

namespace sqrtdk {
namespace {

const float finf = std::numeric_limits<float>::infinity();

using test::families;
using test::randn;

// ---- 1. masks -----------------------------------------------------------------------------------

AttentionParams params(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v, int heads,
                       int L, int dk, Kernel kf) {
  return test::attention_params(q, k, v, heads, L, dk, kf);
}

TEST(Masks, CausalEqualsTheAdditiveMaskOfMinusInfinityAboveTheDiagonalBitForBit) {
  for (Kernel kf : families())
    for (int L : {1, 2, 5, 9, 17, 33}) {
      const int heads = 2, dk = 8;
      const size_t n = size_t(heads) * L * dk;
      const auto q = randn(n, 1), k = randn(n, 2), v = randn(n, 3);
      std::vector<float> mask(size_t(L) * L, 0.0f);
      for (int i = 0; i < L; ++i)
        for (int j = i + 1; j < L; ++j) mask[size_t(i) * L + j] = -finf;
      AttentionParams a = params(q, k, v, heads, L, dk, kf);
      a.causal = true;
      AttentionParams b = params(q, k, v, heads, L, dk, kf);
      b.mask = mask;
      const AttentionResult ra = attention(a), rb = attention(b);
      ASSERT_EQ(ra.weights.size(), rb.weights.size());
      EXPECT_EQ(0, std::memcmp(ra.weights.data(), rb.weights.data(), ra.weights.size() * sizeof(float)))
          << kernel_name(kf) << " L=" << L;
      EXPECT_EQ(0, std::memcmp(ra.output.data(), rb.output.data(), ra.output.size() * sizeof(float)))
          << kernel_name(kf) << " L=" << L;
      // Row 0 sees key 0 only.
      EXPECT_EQ(ra.weights[0], 1.0f);
    }
}

TEST(Masks, AttentionUnderMasksAndSoftCapMatchesTheDoubleReferenceOnTheFullScoreMatrix) {
  for (Kernel kf : families())
    for (int L : {3, 8, 9, 31}) {
      for (bool causal : {false, true})
        for (double cap : {0.0, 2.5}) {
          const int heads = 2, dk = 16;
          const size_t n = size_t(heads) * L * dk;
          const auto q = randn(n, 4, 1.5), k = randn(n, 5, 1.5), v = randn(n, 6);
          // A mask of 0, −∞ and finite values (a learned bias, ALiBi-like ramps): every third
          // entry −∞, every fifth −1.75 · (i − j), the rest 0; one row fully masked when L > 3.
          Rng r(7);
          std::vector<float> mask(size_t(L) * L, 0.0f);
          for (int i = 0; i < L; ++i)
            for (int j = 0; j < L; ++j) {
              const size_t ij = size_t(i) * L + j;
              if (ij % 3 == 1) mask[ij] = -finf;
              else if (ij % 5 == 0) mask[ij] = -1.75f * float(i - j);
            }
          if (L > 3) std::fill_n(mask.begin() + 2 * L, L, -finf);
          AttentionParams p = params(q, k, v, heads, L, dk, kf);
          p.causal = causal;
          p.mask = mask;
          p.softcap = cap;
          const AttentionResult got = attention(p);
          std::vector<double> out(n), w(size_t(heads) * L * L);
          f64_attention_masked__reference(q.data(), k.data(), v.data(), heads, L, dk, got.scale, mask.data(), causal, cap,
                                          false, out.data(), w.data());
          for (size_t i = 0; i < w.size(); ++i)
            ASSERT_NEAR(got.weights[i], w[i], 2e-5 * w[i] + 1e-30)
                << kernel_name(kf) << " L=" << L << " causal=" << causal << " cap=" << cap << " i=" << i;
          double err = 0.0, norm = 1.0;
          for (size_t i = 0; i < n; ++i) {
            err = std::max(err, std::fabs(got.output[i] - out[i]));
            norm = std::max(norm, std::fabs(out[i]));
          }
          EXPECT_LE(err, 2e-5 * norm) << kernel_name(kf) << " L=" << L;
          if (L > 3)
            for (int j = 0; j < L; ++j) EXPECT_EQ(got.weights[size_t(2) * L + j], 0.0f);  // the fully masked row
        }
    }
}

TEST(Alibi, PressSlopesFor8And12HeadsAreThoseOfThePapersReferenceCode) {
  // ofirpress/attention_with_linear_biases, fairseq/models/transformer.py `get_slopes` (run in Python):
  // 8 heads 2^−1 … 2^−8; 12 heads those, then get_slopes(16)[0::2][:4] = 2^−0.5, 2^−1.5, 2^−2.5, 2^−3.5.
  const std::vector<double> eight = alibi_slopes(8);
  ASSERT_EQ(eight.size(), 8u);
  for (int h = 0; h < 8; ++h) EXPECT_EQ(eight[h], std::ldexp(1.0, -(h + 1))) << h;
  const std::vector<double> twelve = alibi_slopes(12);
  const double press12[12] = {0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625,
                              0.7071067811865476, 0.35355339059327384, 0.17677669529663692, 0.08838834764831849};
  ASSERT_EQ(twelve.size(), 12u);
  for (int h = 0; h < 12; ++h) EXPECT_NEAR(twelve[h], press12[h], 1e-16) << h;
  EXPECT_EQ(alibi_slopes(1), (std::vector<double>{std::ldexp(1.0, -8)}));  // start = 2^(−8/1)
  EXPECT_EQ(alibi_slopes(2), (std::vector<double>{1.0 / 16, 1.0 / 256}));
  EXPECT_NEAR(alibi_slopes(3)[2], std::exp2(-2.0), 1e-16);  // 2 heads' slopes, then get_slopes(4)[0] = 2^−2
  EXPECT_THROW(alibi_slopes(0), std::invalid_argument);
}

TEST(Alibi, PerHeadMasksAndAlibiEqualOneCallPerHeadAndTheDoubleReference) {
  for (Kernel kf : families())
    for (int L : {5, 9, 17})
      for (bool causal : {false, true})
        for (double cap : {0.0, 2.5})
          for (int form = 0; form < 3; ++form) {  // 0: a mask per head; 1: ALiBi; 2: both
            const int heads = 3, dk = 8;
            const size_t LL = size_t(L) * L, head = size_t(L) * dk, n = heads * head;
            const auto q = randn(n, 11, 1.5), k = randn(n, 12, 1.5), v = randn(n, 13);
            // a bias per head (T5-like): N(0, 1) entries, every seventh −∞, head 1's row 2 fully masked
            std::vector<float> mask = randn(heads * LL, 14);
            for (size_t i = 0; i < mask.size(); i += 7) mask[i] = -finf;
            std::fill_n(mask.begin() + LL + 2 * L, L, -finf);
            std::vector<float> slopes;
            for (double m : alibi_slopes(heads)) slopes.push_back(float(m));
            AttentionParams p = test::attention_params(q, k, v, heads, L, dk, kf);
            p.causal = causal;
            p.softcap = cap;
            if (form != 1) p.mask = mask;
            if (form != 0) p.alibi = slopes;
            const AttentionResult all = attention(p);
            const std::string where = std::string(kernel_name(kf)) + " L=" + std::to_string(L) + " causal=" +
                                      std::to_string(causal) + " cap=" + std::to_string(cap) + " form=" + std::to_string(form);
            for (int h = 0; h < heads; ++h) {
              // head h alone, its own [L, L] mask: the mask entry joined to the ALiBi term in float32
              std::vector<float> own(LL);
              for (int i = 0; i < L; ++i)
                for (int j = 0; j < L; ++j) {
                  const float bias = form == 0 ? 0.0f : static_cast<float>(-double(slopes[h]) * double(i - j));
                  const float m = mask[h * LL + size_t(i) * L + j];
                  own[size_t(i) * L + j] = form == 0 ? m : form == 1 ? bias : m + bias;
                }
              const std::vector<float> qh(q.begin() + h * head, q.begin() + (h + 1) * head),
                  kh(k.begin() + h * head, k.begin() + (h + 1) * head), vh(v.begin() + h * head, v.begin() + (h + 1) * head);
              AttentionParams one = test::attention_params(qh, kh, vh, 1, L, dk, kf);
              one.causal = causal;
              one.softcap = cap;
              one.mask = own;
              const AttentionResult r = attention(one);
              ASSERT_EQ(0, std::memcmp(r.output.data(), all.output.data() + h * head, head * sizeof(float))) << where << " h=" << h;
              ASSERT_EQ(0, std::memcmp(r.weights.data(), all.weights.data() + h * LL, LL * sizeof(float))) << where << " h=" << h;
            }
            // the double reference: the mask per head and −m_h · (i − j) added in double
            std::vector<double> out(n), w(heads * LL), m64(slopes.begin(), slopes.end());
            f64_attention_masked__reference(q.data(), k.data(), v.data(), heads, L, dk, all.scale, form != 1 ? mask.data() : nullptr,
                                            causal, cap, false, out.data(), w.data(), nullptr, nullptr, true,
                                            form != 0 ? m64.data() : nullptr);
            for (size_t i = 0; i < w.size(); ++i) ASSERT_NEAR(all.weights[i], w[i], 2e-5 * w[i] + 1e-30) << where << " i=" << i;
            double err = 0.0, norm = 1.0;
            for (size_t i = 0; i < n; ++i) {
              err = std::max(err, std::fabs(all.output[i] - out[i]));
              norm = std::max(norm, std::fabs(out[i]));
            }
            EXPECT_LE(err, 2e-5 * norm) << where;
            if (form != 1)
              for (int j = 0; j < L; ++j) EXPECT_EQ(all.weights[LL + 2 * L + j], 0.0f) << where;  // head 1's masked row
          }
}

TEST(Alibi, ZeroSlopesAndOneMaskPerHeadRepeatedChangeNothing) {
  const int heads = 2, L = 7, dk = 4;
  const size_t LL = size_t(L) * L, n = size_t(heads) * L * dk;
  const auto q = randn(n, 21), k = randn(n, 22), v = randn(n, 23);
  std::vector<float> mask = randn(LL, 24), twice(mask);
  twice.insert(twice.end(), mask.begin(), mask.end());
  AttentionParams a = test::attention_params(q, k, v, heads, L, dk, Kernel::Scalar), b = a;
  a.mask = mask;
  b.mask = twice;  // [heads, L, L] holding the same mask for each head
  EXPECT_EQ(attention(a).weights, attention(b).weights);
  EXPECT_EQ(attention(a).output, attention(b).output);
  // a length that is neither L² nor heads · L², a NaN slope and a slope count off heads are refused naming them
  std::vector<float> bad(LL + 1, 0.0f), nan_slope{0.5f, std::nanf("")}, one_slope{0.5f};
  b.mask = bad;
  try { attention(b); FAIL(); } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("mask.length = 50 matches neither seqLen · seqLen = 49"), std::string::npos) << e.what();
  }
  b.mask = {};
  b.alibi = nan_slope;
  try { attention(b); FAIL(); } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("alibi[1] = NaN"), std::string::npos) << e.what();
  }
  b.alibi = one_slope;
  try { attention(b); FAIL(); } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("alibi.length = 1 does not match heads = 2"), std::string::npos) << e.what();
  }
}

TEST(HeadSizes, DvOtherThanDkMatchesThePaddedCallAndTheDoubleReference) {
  // DeepSeek's MLA: q/k heads of 192, v heads of 128 (with GQA and MQA as well: K/V head ⌊h / group⌋)
  for (Kernel kf : families())
    for (int heads_kv : {2, 1})
      for (bool causal : {false, true}) {
        const int heads = 2, L = 9, dk = 192, dv = 128;
        const auto q = randn(size_t(heads) * L * dk, 31), k = randn(size_t(heads_kv) * L * dk, 32), v = randn(size_t(heads_kv) * L * dv, 33);
        AttentionParams p = test::attention_params(q, k, v, heads, L, dk, kf);
        p.heads_kv = heads_kv;
        p.dv = dv;
        p.causal = causal;
        const AttentionResult r = attention(p);
        ASSERT_EQ(r.output.size(), size_t(heads) * L * dv);
        // v zero-padded to dk columns: the same weights, and the first dv columns of each output row, bit for bit
        std::vector<float> padded(size_t(heads_kv) * L * dk, 0.0f);
        for (size_t row = 0; row < size_t(heads_kv) * L; ++row) std::copy_n(v.begin() + row * dv, dv, padded.begin() + row * dk);
        AttentionParams w = p;
        w.dv = 0;
        w.v = padded;
        const AttentionResult rp = attention(w);
        EXPECT_EQ(r.weights, rp.weights) << kernel_name(kf);
        for (size_t row = 0; row < size_t(heads) * L; ++row)
          ASSERT_EQ(0, std::memcmp(r.output.data() + row * dv, rp.output.data() + row * dk, dv * sizeof(float))) << kernel_name(kf) << " row " << row;
        // no weights kept (the fused path is for dv = dk only): the same output
        p.want_weights = false;
        EXPECT_EQ(attention(p).output, r.output) << kernel_name(kf);
        if (heads_kv != heads) continue;
        std::vector<double> out(size_t(heads) * L * dv);
        f64_attention_masked__reference(q.data(), k.data(), v.data(), heads, L, dk, r.scale, nullptr, causal, 0.0, false,
                                        out.data(), nullptr, nullptr, nullptr, false, nullptr, dv);
        double err = 0.0, norm = 1.0;
        for (size_t i = 0; i < out.size(); ++i) {
          err = std::max(err, std::fabs(r.output[i] - out[i]));
          norm = std::max(norm, std::fabs(out[i]));
        }
        EXPECT_LE(err, 2e-5 * norm) << kernel_name(kf);
      }
  // dv = dk written out is dv left at 0, bit for bit; a v of dk columns with dv = 128 is refused naming dv
  const auto q = randn(2 * 4 * 8, 1), k = randn(2 * 4 * 8, 2), v = randn(2 * 4 * 8, 3);
  AttentionParams a = test::attention_params(q, k, v, 2, 4, 8, Kernel::Scalar), b = a;
  b.dv = 8;
  EXPECT_EQ(attention(a).output, attention(b).output);
  b.dv = 4;
  try { attention(b); FAIL(); } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("v.length = 64 does not match headsKv · seqLen · dv = 32"), std::string::npos) << e.what();
  }
  b.dv = -1;
  EXPECT_THROW(attention(b), std::invalid_argument);
}

// The log-sum-exp of each row of head h in double from float32 q, k (scale c, an additive mask [L, L], causal).
std::vector<double> lse_reference(const std::vector<float>& q, const std::vector<float>& k, int heads, int L, int dk, double c,
                                  const std::vector<float>& mask, bool causal) {
  std::vector<double> out(size_t(heads) * L);
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < L; ++i) {
      std::vector<double> s(L);
      double m = -std::numeric_limits<double>::infinity();
      for (int j = 0; j < L; ++j) {
        double dot = 0.0;
        for (int d = 0; d < dk; ++d) dot += double(q[(size_t(h) * L + i) * dk + d]) * k[(size_t(h) * L + j) * dk + d];
        s[j] = c * dot + (mask.empty() ? 0.0 : double(mask[size_t(i) * L + j]));
        if (causal && j > i) s[j] = -std::numeric_limits<double>::infinity();
        m = std::max(m, s[j]);
      }
      double sum = 0.0;
      for (double x : s) sum += std::exp(x - m);
      out[size_t(h) * L + i] = m == -std::numeric_limits<double>::infinity() ? m : m + std::log(sum);
    }
  return out;
}

TEST(LogSumExp, EachRowsLseMatchesTheDoubleReferenceAndMergingTwoChunksGivesTheFullCall) {
  const double inf = std::numeric_limits<double>::infinity();
  for (Kernel kf : families())
    for (bool causal : {false, true})
      for (int split : {1, 6, 12}) {
        const int heads = 2, L = 13, dk = 16;
        const size_t n = size_t(heads) * L * dk;
        const auto q = randn(n, 41, 1.5), k = randn(n, 42, 1.5), v = randn(n, 43);
        AttentionParams p = test::attention_params(q, k, v, heads, L, dk, kf);
        p.causal = causal;
        p.want_lse = true;
        const AttentionResult full = attention(p);
        const std::vector<double> ref = lse_reference(q, k, heads, L, dk, full.scale, {}, causal);
        for (size_t r = 0; r < ref.size(); ++r) EXPECT_NEAR(full.lse[r], ref[r], 2e-6 * (1.0 + std::fabs(ref[r]))) << r;
        // the keys split at `split`: chunk a sees keys < split, chunk b the rest (a mask of −∞ hides the others);
        // under causal the rows i < split see nothing of chunk b: its (0, −∞) must be neutral
        std::vector<float> mask_a(size_t(L) * L, 0.0f), mask_b(size_t(L) * L, 0.0f);
        for (int i = 0; i < L; ++i)
          for (int j = 0; j < L; ++j) (j < split ? mask_b : mask_a)[size_t(i) * L + j] = -finf;
        AttentionParams pa = p, pb = p;
        pa.mask = mask_a;
        pb.mask = mask_b;
        const AttentionResult a = attention(pa), b = attention(pb);
        if (causal) EXPECT_EQ(b.lse[0], -finf);  // row 0 sees only key 0
        const std::vector<double> ref_a = lse_reference(q, k, heads, L, dk, full.scale, mask_a, causal);
        for (size_t r = 0; r < ref_a.size(); ++r) {
          if (ref_a[r] == -inf) EXPECT_EQ(a.lse[r], -finf);
          else EXPECT_NEAR(a.lse[r], ref_a[r], 2e-6 * (1.0 + std::fabs(ref_a[r]))) << r;
        }
        MergeAttentionParams mp;
        mp.output_a = a.output;
        mp.lse_a = a.lse;
        mp.output_b = b.output;
        mp.lse_b = b.lse;
        mp.heads = heads;
        mp.seq_len = L;
        mp.dv = dk;
        const MergeAttentionResult m = merge_attention(mp);
        double err = 0.0, norm = 1.0;
        for (size_t i = 0; i < n; ++i) {
          ASSERT_FALSE(std::isnan(m.output[i]));
          err = std::max(err, double(std::fabs(m.output[i] - full.output[i])));
          norm = std::max(norm, double(std::fabs(full.output[i])));
        }
        EXPECT_LE(err, 2e-6 * norm) << kernel_name(kf) << " causal=" << causal << " split=" << split;
        for (size_t r = 0; r < full.lse.size(); ++r) EXPECT_NEAR(m.lse[r], full.lse[r], 2e-6 * (1.0 + std::fabs(full.lse[r]))) << r;
      }
}

TEST(LogSumExp, AnEmptyChunkIsNeutralAndTwoGiveZeroAndMinusInfinity) {
  const std::vector<float> o{0.25f, -3.0f, 7.5f, 1e-3f}, l{2.5f, -1.0f}, zero(4, 0.0f), empty(2, -finf);
  MergeAttentionParams mp;
  mp.heads = 1;
  mp.seq_len = 2;
  mp.dv = 2;
  mp.output_a = o;
  mp.lse_a = l;
  mp.output_b = zero;
  mp.lse_b = empty;
  MergeAttentionResult m = merge_attention(mp);
  EXPECT_EQ(m.output, o);  // bit for bit
  EXPECT_EQ(m.lse, l);
  mp.output_a = zero;
  mp.lse_a = empty;
  m = merge_attention(mp);
  EXPECT_EQ(m.output, zero);
  EXPECT_EQ(m.lse, empty);
  // equal lse: the mean of the outputs, lse + ln 2
  mp.output_a = o;
  mp.lse_a = l;
  mp.output_b = o;
  mp.lse_b = l;
  m = merge_attention(mp);
  EXPECT_EQ(m.output, o);
  EXPECT_FLOAT_EQ(m.lse[0], 2.5f + float(std::log(2.0)));
  const std::vector<float> bad{std::nanf(""), 0.0f};
  mp.lse_b = bad;
  try { merge_attention(mp); FAIL(); } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("mergeAttention: b.lse[0] = NaN is not allowed"), std::string::npos) << e.what();
  }
  // a fully masked row: lse −∞ and output 0 (default), NaN output under maskedRow 'nan'; with a finite sink S the
  // lse is S (the sink is the row's only term)
  const auto q = randn(2 * 4, 1), k = randn(2 * 4, 2), v = randn(2 * 4, 3);
  const std::vector<float> mask(4, -finf);  // L = 2: both rows see no key
  AttentionParams p = test::attention_params(q, k, v, 1, 2, 4, Kernel::Scalar);
  p.mask = mask;
  p.want_lse = true;
  AttentionResult r = attention(p);
  EXPECT_EQ(r.lse[0], -finf);
  for (int d = 0; d < 4; ++d) EXPECT_EQ(r.output[d], 0.0f);
  const std::vector<double> sink{0.75};
  p.sinks = sink;
  r = attention(p);
  EXPECT_FLOAT_EQ(r.lse[0], 0.75f);
  // and with a sink on a live row, p_sink = e^{S − lse}
  p.mask = {};
  r = attention(p);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(r.sink_weights[i], std::exp(0.75 - double(r.lse[i])), 1e-6) << i;
}

TEST(QueryScale, SsmaxPerPositionMatchesTheDoubleReferenceAndOnesChangeNothing) {
  // Scalable-Softmax in a causal prefill: row i sees n = i + 1 keys, t_i = s · ln(i + 1), s = 0.43 (Nakanishi 2025)
  for (Kernel kf : families())
    for (double cap : {0.0, 2.5}) {
      const int heads = 2, L = 12, dk = 16;
      const size_t n = size_t(heads) * L * dk;
      const auto q = randn(n, 61, 2.0), k = randn(n, 62, 2.0), v = randn(n, 63);
      std::vector<float> t(L);
      for (int i = 0; i < L; ++i) t[i] = static_cast<float>(0.43 * std::log(i + 1.0));
      AttentionParams p = test::attention_params(q, k, v, heads, L, dk, kf);
      p.causal = true;
      p.softcap = cap;
      p.query_scale = t;
      const AttentionResult r = attention(p);
      std::vector<double> out(n), w(size_t(heads) * L * L);
      f64_attention_masked__reference(q.data(), k.data(), v.data(), heads, L, dk, r.scale, nullptr, true, cap, false,
                                      out.data(), w.data(), nullptr, nullptr, false, nullptr, 0, t.data());
      for (size_t i = 0; i < w.size(); ++i) ASSERT_NEAR(r.weights[i], w[i], 2e-5 * w[i] + 1e-30) << kernel_name(kf) << " i=" << i;
      double err = 0.0, norm = 1.0;
      for (size_t i = 0; i < n; ++i) {
        err = std::max(err, std::fabs(r.output[i] - out[i]));
        norm = std::max(norm, std::fabs(out[i]));
      }
      EXPECT_LE(err, 2e-5 * norm) << kernel_name(kf);
      // t_i = 1 for every row: the very bits of the call without it
      const std::vector<float> ones(L, 1.0f);
      p.query_scale = ones;
      const AttentionResult a = attention(p);
      p.query_scale = {};
      const AttentionResult b = attention(p);
      EXPECT_EQ(a.weights, b.weights);
      EXPECT_EQ(a.output, b.output);
    }
  const auto q = randn(8, 1);
  const std::vector<float> short_t{1.0f}, negative{1.0f, -0.5f};
  AttentionParams p = test::attention_params(q, q, q, 1, 2, 4, Kernel::Scalar);
  p.query_scale = short_t;
  try { attention(p); FAIL(); } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("queryScale.length = 1 does not match seqLen = 2"), std::string::npos) << e.what();
  }
  p.query_scale = negative;
  try { attention(p); FAIL(); } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("queryScale[1] = -0.5 must be a number in 0..1e4"), std::string::npos) << e.what();
  }
}

TEST(Masks, AttentionStatsCausalRowsMatchTheDoubleReferenceAndUseTheirOwnCeiling) {
  for (Kernel kf : families()) {
    AttentionStatsParams p;
    p.heads = 2;
    p.seq_len = 24;
    p.dk = 16;
    p.seed = 9;
    p.kernel = kf;
    p.causal = true;
    p.gradients = false;
    const AttentionStatsResult r = attention_stats(p);
    // The same Q, K (streams 1 and 2 of the seed) through the double reference with the causal mask.
    const size_t n = size_t(p.heads) * p.seq_len * p.dk;
    std::vector<float> q(n), k(n);
    Rng rq = Rng::stream(p.seed, 1), rk = Rng::stream(p.seed, 2);
    for (auto& x : q) x = static_cast<float>(rq.normal());
    for (auto& x : k) x = static_cast<float>(rk.normal());
    const int L = p.seq_len;
    std::vector<double> w(size_t(p.heads) * L * L);
    f64_attention_masked__reference(q.data(), k.data(), q.data(), p.heads, L, p.dk, 0.25, nullptr, true, 0.0, false,
                                    nullptr, w.data());
    std::vector<double> ratio;
    for (int h = 0; h < p.heads; ++h)
      for (int i = 0; i < L; ++i) {
        double H = 0.0;
        for (int j = 0; j < L; ++j) {
          const double pj = w[(size_t(h) * L + i) * L + j];
          if (j > i) ASSERT_EQ(pj, 0.0);
          if (pj > 0) H -= pj * std::log(pj);
        }
        EXPECT_NEAR(r.entropy[size_t(h) * L + i], H, 2e-5 * std::max(1.0, H)) << kernel_name(kf) << " row " << i;
        if (i > 0) ratio.push_back(H / std::log(i + 1.0));
      }
    EXPECT_EQ(r.entropy[0], 0.0);  // row 0 sees one key
    const Summary s = summarize(ratio);
    EXPECT_NEAR(r.summary.entropy_ratio.mean, s.mean, 2e-5);
    EXPECT_NEAR(r.summary.entropy_ratio.median, s.median, 2e-5);
    EXPECT_LE(r.summary.entropy_ratio.p90, 1.0);
    // Unmasked, the ceiling is ln L for every row.
    p.causal = false;
    const AttentionStatsResult u = attention_stats(p);
    double mean_ratio = 0.0;
    for (double h : u.entropy) mean_ratio += h / std::log(double(L)) / double(u.entropy.size());
    EXPECT_NEAR(u.summary.entropy_ratio.mean, mean_ratio, 1e-12);
  }
}

TEST(Masks, SaturationSweepAndTensorStatsTakeTheCausalMask) {
  SaturationSweepParams s;
  s.dks = {16};
  s.scales = {parse_scale("inv_sqrt_dk")};
  s.heads = 2;
  s.seq_len = 20;
  s.seed = 4;
  s.causal = true;
  const SaturationSweepResult sw = saturation_sweep(s);
  AttentionStatsParams a;
  a.heads = 2;
  a.seq_len = 20;
  a.dk = 16;
  a.seed = 4;
  a.causal = true;
  const AttentionStatsResult st = attention_stats(a);
  EXPECT_EQ(sw.points[0][0].entropy.mean, st.summary.entropy.mean);
  EXPECT_EQ(sw.points[0][0].entropy_ratio.mean, st.summary.entropy_ratio.mean);
  EXPECT_EQ(sw.points[0][0].grad_query.mean, st.summary.grad_query.mean);
  // tensorStats on the same draws
  const size_t n = size_t(2) * 20 * 16;
  std::vector<float> q(n), k(n);
  Rng rq = Rng::stream(4, 1), rk = Rng::stream(4, 2);
  for (auto& x : q) x = static_cast<float>(rq.normal());
  for (auto& x : k) x = static_cast<float>(rk.normal());
  TensorStatsParams t;
  t.q = q;
  t.k = k;
  t.heads = 2;
  t.seq_len = 20;
  t.dk = 16;
  t.causal = true;
  const TensorStatsResult tr = tensor_stats(t);
  EXPECT_EQ(tr.summary.entropy.mean, st.summary.entropy.mean);
  EXPECT_EQ(tr.entropy[0], 0.0);
}

}  // namespace
}  // namespace sqrtdk
