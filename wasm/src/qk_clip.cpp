// qkClip (qk_clip.hpp): per-head maximum logits, QK-Clip's η under the MHA, GQA and MLA rules, and the logits after clipping, in float32 and in double.
#include "qk_clip.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "experiment_common.hpp"
#include "kernel_path.hpp"
#include "shapes.hpp"

namespace sqrtdk {

using namespace detail;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void check_params(const QkClipParams& p, int heads_kv) {
  const char* what = "qkClip";
  const auto number = [what](const char* name, double v, double lo, double hi, bool open_lo) {
    if (!(open_lo ? v > lo : v >= lo) || !(v <= hi))
      throw std::invalid_argument(std::string(what) + ": " + name + " = " + format_number(v) + " must be a number in " +
                                  (open_lo ? "(" : "[") + format_number(lo) + ", " + format_number(hi) + "]");
  };
  number("qGain", p.q_gain, 0.0, 1000.0, true);
  number("tau", p.tau, 0.0, 1e6, true);
  number("alpha", p.alpha, 0.0, 1.0, false);
  check_softcap(what, p.softcap);
  check_int_range(what, "ropeDim", p.rope_dim, 0, p.dk - 1);
  if (p.rope_dim > 0 && heads_kv != p.heads)
    throw std::invalid_argument(std::string(what) + ": ropeDim = " + std::to_string(p.rope_dim) +
                                " (MLA) needs headsKv = heads, got headsKv = " + std::to_string(p.heads_kv));
}


template <typename T>
QkClipResult run(const QkClipParams& p, const KernelPath<T>& path) {
  const char* what = "qkClip";
  check_int_range(what, "heads", p.heads, 1, kQkClipMaxHeads);
  check_int_range(what, "seqLen", p.seq_len, 1, kQkClipMaxSeqLen);
  check_int_range(what, "dk", p.dk, 1, kQkClipMaxDk);
  const int groups = resolve_heads_kv(what, p.heads, p.heads_kv);
  check_params(p, groups);
  const int H = p.heads, L = p.seq_len, dk = p.dk, r = p.rope_dim, nope = dk - r;
  const int per_group = H / groups;
  const double c = resolve_scale(p.scale, dk, H);
  const size_t head = static_cast<size_t>(L) * dk;

  // the draws, q multiplied by its gain; MLA: every head's rotary key is head 0's
  const std::vector<float> qf = draw_tensor(p.seed, 1, H * head, 1.0);
  const std::vector<float> kf = draw_tensor(p.seed, 2, groups * head, 1.0);
  std::vector<T> q(qf.size()), k(kf.size());
  for (size_t i = 0; i < qf.size(); ++i) q[i] = static_cast<T>(p.q_gain * static_cast<double>(qf[i]));
  for (size_t i = 0; i < kf.size(); ++i) k[i] = static_cast<T>(kf[i]);
  if (r > 0)
    for (int g = 1; g < groups; ++g)
      for (int j = 0; j < L; ++j)
        for (int x = nope; x < dk; ++x) k[g * head + static_cast<size_t>(j) * dk + x] = k[static_cast<size_t>(j) * dk + x];

  // the logits of head h from q and k: scaled, soft-capped, masked (−∞)
  std::vector<T> s(static_cast<size_t>(L) * L);
  const auto logits = [&](const std::vector<T>& qq, const std::vector<T>& kk, int h) {
    path.abt(qq.data() + h * head, kk.data() + (h / per_group) * head, s.data(), L, L, dk, c);
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j) {
        T& x = s[static_cast<size_t>(i) * L + j];
        if (p.causal && j > i) x = static_cast<T>(-kInf);
        else if (p.softcap > 0.0) x = static_cast<T>(softcap_logit(static_cast<double>(x), p.softcap));
      }
  };
  const auto row_max = [&]() {
    double m = -kInf;
    for (const T x : s) m = std::max(m, static_cast<double>(x));
    return m;
  };
  const auto mean_entropy = [&]() {
    path.softmax(s.data(), L, L);
    double total = 0.0;
    for (int i = 0; i < L; ++i) {
      double e = 0.0;
      for (int j = 0; j < L; ++j) {
        const double w = static_cast<double>(s[static_cast<size_t>(i) * L + j]);
        if (w > 0.0) e -= w * std::log(w);
      }
      total += e;
    }
    return total / L;
  };

  QkClipResult out;
  out.scale = c;
  out.groups = groups;
  out.max_logit.resize(H);
  out.entropy_before.resize(H);
  double best = -kInf;
  for (int h = 0; h < H; ++h) {
    logits(q, k, h);
    out.max_logit[h] = row_max();
    if (out.max_logit[h] > best) {
      best = out.max_logit[h];
      out.row_head = h;
      for (int i = 0; i < L; ++i)
        for (int j = 0; j < L; ++j)
          if (static_cast<double>(s[static_cast<size_t>(i) * L + j]) == best) {
            out.row_query = i;
            i = L;
            break;
          }
    }
    out.entropy_before[h] = mean_entropy();
  }
  logits(q, k, out.row_head);
  out.row_before.assign(s.begin() + static_cast<size_t>(out.row_query) * L, s.begin() + static_cast<size_t>(out.row_query + 1) * L);

  // η per group: min(1, τ / S_max) where S_max > τ, else 1
  out.group_max_logit.assign(groups, -kInf);
  for (int h = 0; h < H; ++h) out.group_max_logit[h / per_group] = std::max(out.group_max_logit[h / per_group], out.max_logit[h]);
  std::vector<double> eta(groups, 1.0);
  for (int g = 0; g < groups; ++g)
    if (out.group_max_logit[g] > p.tau) eta[g] = p.tau / out.group_max_logit[g];
  out.gamma.resize(H);
  for (int h = 0; h < H; ++h) {
    out.gamma[h] = eta[h / per_group];
    if (out.gamma[h] < 1.0) ++out.clipped_heads;
  }

  // q ← η^α q (MLA: the rotary part × η), k ← η^(1−α) k (MLA: the shared rotary key untouched)
  std::vector<T> qc(q), kc(k);
  for (int h = 0; h < H; ++h) {
    const double e = eta[h / per_group];
    if (e == 1.0) continue;
    const T fn = static_cast<T>(std::pow(e, p.alpha)), fr = static_cast<T>(e);
    for (int i = 0; i < L; ++i)
      for (int x = 0; x < dk; ++x) qc[h * head + static_cast<size_t>(i) * dk + x] *= x < nope ? fn : fr;
  }
  for (int g = 0; g < groups; ++g) {
    if (eta[g] == 1.0) continue;
    const T f = static_cast<T>(std::pow(eta[g], 1.0 - p.alpha));
    for (int j = 0; j < L; ++j)
      for (int x = 0; x < nope; ++x) kc[g * head + static_cast<size_t>(j) * dk + x] *= f;
  }
  out.clipped_max.resize(H);
  out.entropy_after.resize(H);
  for (int h = 0; h < H; ++h) {
    logits(qc, kc, h);
    out.clipped_max[h] = row_max();
    if (h == out.row_head)
      out.row_after.assign(s.begin() + static_cast<size_t>(out.row_query) * L, s.begin() + static_cast<size_t>(out.row_query + 1) * L);
    out.entropy_after[h] = mean_entropy();
  }
  return out;
}

}  // namespace

QkClipResult qk_clip(const QkClipParams& p) {
  KernelPath<float> path;
  path.kt = &kernel_table(p.kernel);
  return run<float>(p, path);
}

QkClipResult qk_clip_reference(const QkClipParams& p) {
  return run<double>(p, KernelPath<double>{});
}

}  // namespace sqrtdk
