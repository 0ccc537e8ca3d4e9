// precisionLab (precision_lab.hpp): each format's softmax of the same rows, its errors and causes.
#include "precision_lab.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include "cost.hpp"
#include "experiment_common.hpp"
#include "rng.hpp"
#include "shapes.hpp"
#include "stats.hpp"

namespace sqrtdk {

using namespace detail;

ScaleAt parse_scale_at(const std::string& name) {
  if (name == "scores") return ScaleAt::Scores;
  if (name == "query") return ScaleAt::Query;
  if (name == "both") return ScaleAt::Both;
  throw std::invalid_argument("scaleAt = '" + name + "' is not one of 'scores', 'query', 'both'");
}

ScaleRounding parse_scale_rounding(const std::string& name) {
  if (name == "float32") return ScaleRounding::Float32;
  if (name == "cell") return ScaleRounding::Cell;
  throw std::invalid_argument("scaleRounding = '" + name + "' is not one of 'float32', 'cell'");
}

namespace {
// The logits of q [queries, dk] against k [keys, dk] formed in format f (see PrecisionLabParams):
// products and sums rounded to the accumulation format, the dot product stored in f, c applied at
// the scores, to q first, or √c to both, held as p.scale_rounding says. overflow[i] is set when a
// product, a sum or a logit of row i overflowed (or a scaled key, under 'both'). *applied: the c
// the logits carry (the square of the held √c under 'both').
std::vector<std::vector<double>> logits_in_format(const PrecisionLabParams& p, int queries, int keys, double c,
                                                  Format f, std::vector<char>& overflow, double* applied) {
  const Format acc = (p.accumulate == Accumulate::Float32 && (f == Format::Float16 || f == Format::BFloat16))
                         ? Format::Float32
                         : f;
  auto S = [f](double v) { return round_to(f, v); };
  auto A = [acc](double v) { return round_to(acc, v); };
  // Only a half-precision cell holds c as a float32 constant (PyTorch, FlashAttention); a float32 or
  // float64 cell holds c in its own format, as a framework multiplying such a tensor by a Python float does.
  const bool half = f == Format::Float16 || f == Format::BFloat16;
  const bool cell = p.scale_rounding == ScaleRounding::Cell || !half;
  const double held = p.scale_at == ScaleAt::Both ? std::sqrt(c) : c;
  const double cf = cell ? S(held) : round_to(Format::Float32, held);
  // x · c in the format: under Cell (and in float32/float64 cells) c in the format and the product
  // in the accumulation format (core 0.3.0); else c a float32 constant and the product in float32,
  // then rounded to f.
  auto scaled = [&](double x) { return cell ? S(A(cf * x)) : S(round_to(Format::Float32, cf * x)); };
  if (applied) *applied = p.scale_at == ScaleAt::Both ? cf * cf : cf;
  const size_t dk = static_cast<size_t>(p.dk);
  std::vector<double> kf(p.k.size()), qi(dk);
  std::vector<char> key_over(keys, 0);
  for (size_t i = 0; i < kf.size(); ++i) {
    kf[i] = S(p.k[i]);
    if (p.scale_at == ScaleAt::Both) {
      kf[i] = scaled(kf[i]);
      if (std::isinf(kf[i])) key_over[i / dk] = 1;
    }
  }
  std::vector<std::vector<double>> rows(queries, std::vector<double>(keys));
  overflow.assign(queries, 0);
  for (int i = 0; i < queries; ++i) {
    bool over = false;
    for (size_t d = 0; d < dk; ++d) {
      qi[d] = S(p.q[i * dk + d]);
      if (p.scale_at == ScaleAt::Query || p.scale_at == ScaleAt::Both) qi[d] = scaled(qi[d]);
      over = over || std::isinf(qi[d]);
    }
    for (int j = 0; j < keys; ++j) {
      double dot = 0.0;
      for (size_t d = 0; d < dk; ++d) dot = A(dot + A(qi[d] * kf[j * dk + d]));
      double s = S(dot);
      if (p.scale_at == ScaleAt::Scores) {
        over = over || std::isinf(s);
        s = scaled(s);
      }
      over = over || std::isinf(s) || key_over[j];
      rows[i][j] = s;
    }
    overflow[i] = over;
  }
  return rows;
}
}  // namespace

std::vector<std::vector<double>> precision_qk_logits(const PrecisionLabParams& p, Format f, double* applied) {
  check_int_range("precisionLab", "dk", p.dk, 1, kMaxDk);
  const size_t dk = static_cast<size_t>(p.dk);
  const int queries = static_cast<int>(p.q.size() / dk), keys = static_cast<int>(p.k.size() / dk);
  std::vector<char> overflow;
  PrecisionLabParams q = p;
  if (f == Format::Float64) q.accumulate = Accumulate::Same;
  return logits_in_format(q, queries, keys, resolve_scale(p.scale, p.dk, p.heads), f, overflow, applied);
}

PrecisionLabResult precision_lab(const PrecisionLabParams& p) {
  constexpr const char* what = "precisionLab";
  check_int_range(what, "blockSize", p.block_size, 1, kMaxSeqLen);
  check_softcap(what, p.softcap);
  std::vector<std::vector<double>> rows;
  PrecisionLabResult r;
  const bool qk = !p.q.empty() || !p.k.empty();
  int queries = 0, keys = 0;
  if (qk) {
    if (!p.logits.empty()) throw std::invalid_argument("precisionLab: logits cannot go with q and k; give one of them");
    check_int_range(what, "dk", p.dk, 1, kMaxDk);
    check_int_range(what, "heads", p.heads, 1, kMaxHeads);
    const size_t dk = static_cast<size_t>(p.dk);
    if (p.q.size() % dk != 0 || p.q.empty())
      throw std::invalid_argument("precisionLab: q.length = " + std::to_string(p.q.size()) +
                                  " is not queries · dk for dk = " + std::to_string(p.dk));
    if (p.k.size() % dk != 0 || p.k.empty())
      throw std::invalid_argument("precisionLab: k.length = " + std::to_string(p.k.size()) +
                                  " is not keys · dk for dk = " + std::to_string(p.dk));
    check_int_range(what, "queries", static_cast<long long>(p.q.size() / dk), 1, 1024);
    check_int_range(what, "keys", static_cast<long long>(p.k.size() / dk), 1, kMaxSeqLen);
    queries = static_cast<int>(p.q.size() / dk);
    keys = static_cast<int>(p.k.size() / dk);
    const std::string drivers = "queries = " + std::to_string(queries) + ", keys = " + std::to_string(keys) +
                                ", dk = " + std::to_string(p.dk);
    check_work_bytes(what, 8.0 * queries * double(keys) * 5.0 + 8.0 * double(p.k.size()), drivers);  // before check_cost: core.cost records both
    check_cost(what, {{3.0 * queries * double(keys) * p.dk * cost::kNsPerEmulatedMac, drivers,
                       "the products queries · keys · dk emulated in float32, bfloat16 and float16"},
                      {double(queries) * keys * cost::kNsPerPrecisionLogit,
                       "queries = " + std::to_string(queries) + ", keys = " + std::to_string(keys),
                       "12 emulated softmaxes of queries · keys logits"}});
    check_tensor(what, "q", p.q, p.q.size(), "queries · dk");
    check_tensor(what, "k", p.k, p.k.size(), "keys · dk");
    r.scale = resolve_scale(p.scale, p.dk, p.heads);
    // The float64 reference: the products in double.
    for (int i = 0; i < queries; ++i) {
      std::vector<double> row(keys);
      for (int j = 0; j < keys; ++j) {
        double dot = 0.0;
        for (int d = 0; d < p.dk; ++d) dot += double(p.q[size_t(i) * p.dk + d]) * p.k[size_t(j) * p.dk + d];
        row[j] = r.scale * dot;
      }
      rows.push_back(std::move(row));
    }
  } else if (!p.logits.empty()) {
    check_int_range(what, "logits.length", static_cast<long long>(p.logits.size()), 1, kMaxSeqLen);
    for (size_t i = 0; i < p.logits.size(); ++i) {
      const double x = p.logits[i];
      if (std::isnan(x) || x == std::numeric_limits<double>::infinity())
        throw std::invalid_argument("precisionLab: logits[" + std::to_string(i) + "] = " + format_number(x) +
                                    " is not allowed (finite numbers, or -inf for a masked key)");
    }
    check_cost(what, {{double(p.logits.size()) * cost::kNsPerPrecisionLogit,
                       "logits.length = " + std::to_string(p.logits.size()),
                       "12 emulated softmaxes of the logits"}});
    rows.push_back(p.logits);
    r.scale = 1.0;
  } else {
    check_int_range(what, "rows", p.rows, 1, 1024);
    check_int_range(what, "seqLen", p.seq_len, 1, kMaxSeqLen);
    check_int_range(what, "dk", p.dk, 1, kMaxDk);
    check_int_range(what, "heads", p.heads, 1, kMaxHeads);
    check_work_bytes(what, 8.0 * p.rows * p.seq_len * 3.0 + 8.0 * p.seq_len * p.dk,
                     "rows = " + std::to_string(p.rows) + ", seqLen = " + std::to_string(p.seq_len) + ", dk = " + std::to_string(p.dk));
    check_cost(what, {{double(p.rows) * p.seq_len * p.dk * cost::kNsPerMac,
                       "rows = " + std::to_string(p.rows) + ", seqLen = " + std::to_string(p.seq_len) +
                           ", dk = " + std::to_string(p.dk),
                       "the scores rows · seqLen · dk"},
                      {double(p.rows) * p.seq_len * cost::kNsPerPrecisionLogit,
                       "rows = " + std::to_string(p.rows) + ", seqLen = " + std::to_string(p.seq_len),
                       "12 emulated softmaxes of rows · seqLen logits"}});
    r.scale = resolve_scale(p.scale, p.dk, p.heads);
    Rng rng = Rng::stream(p.seed, 5);
    std::vector<double> keys(static_cast<size_t>(p.seq_len) * p.dk), q(p.dk);
    for (double& x : keys) x = rng.normal();
    for (int i = 0; i < p.rows; ++i) {
      for (double& x : q) x = rng.normal();
      std::vector<double> row(p.seq_len);
      for (int j = 0; j < p.seq_len; ++j) {
        double dot = 0.0;
        for (int d = 0; d < p.dk; ++d) dot += q[d] * keys[static_cast<size_t>(j) * p.dk + d];
        row[j] = r.scale * dot;
      }
      rows.push_back(std::move(row));
    }
  }
  auto cap = [&p](std::vector<std::vector<double>>& rs) {
    if (p.softcap > 0.0)
      for (auto& row : rs)
        for (double& x : row) x = softcap_logit(x, p.softcap);  // −∞ stays −∞
  };
  cap(rows);
  r.rows = static_cast<int>(rows.size());
  r.seq_len = static_cast<int>(rows[0].size());
  for (const auto& row : rows)
    for (double x : row)
      if (std::isfinite(x)) r.max_abs_logit = std::max(r.max_abs_logit, std::fabs(x));

  SoftmaxOptions opt;
  opt.block_size = p.block_size;
  opt.accumulate = p.accumulate;
  opt.masked_row = p.masked_row;
  // The float64 safe softmax is the reference.
  std::vector<std::vector<double>> ref;
  std::vector<double> jf;
  for (const auto& row : rows) {
    ref.push_back(softmax_in_format(row, Format::Float64, SoftmaxAlgorithm::Safe, opt));
    bool finite = true;
    for (double v : ref.back()) finite = finite && std::isfinite(v);
    if (finite) jf.push_back(row_stats(ref.back().data(), r.seq_len, kRowJacFro).jac_fro);
  }
  r.reference = ref[0];
  r.jac_fro_median_f64 = quantile(jf, 0.5);

  const bool row_sums = p.row_sums || qk;
  std::vector<double> ref_sum(rows.size(), 0.0);
  for (size_t i = 0; i < rows.size(); ++i)
    for (double v : ref[i]) ref_sum[i] += v;
  const Format formats[] = {Format::Float64, Format::Float32, Format::BFloat16, Format::Float16};
  const SoftmaxAlgorithm algos[] = {SoftmaxAlgorithm::Naive, SoftmaxAlgorithm::Safe, SoftmaxAlgorithm::Online};
  const char* algo_names[] = {"naive", "safe", "online"};
  for (Format f : formats) {
    // With q and k each format forms its own logits (float64: the reference's).
    std::vector<std::vector<double>> own;
    std::vector<char> overflow(rows.size(), 0);
    double applied = r.scale;  // float64 cells: c in double
    if (qk && f != Format::Float64) {
      own = logits_in_format(p, queries, keys, r.scale, f, overflow, &applied);
      cap(own);
    }
    const std::vector<std::vector<double>>& frows = own.empty() ? rows : own;
    const FormatInfo& fi = format_info(f);
    const double u = std::ldexp(1.0, -(fi.mantissa_bits + 1));
    const double stall_tol = u * (2.0 + 2.0 * std::sqrt(double(r.seq_len))) + r.seq_len * fi.min_subnormal;
    std::vector<std::vector<double>> safe_out;
    double online_vs_safe = 0.0;
    for (int a = 0; a < 3; ++a) {
      PrecisionCell cell;
      cell.format = format_info(f).name;
      cell.algorithm = algo_names[a];
      cell.scale_applied = applied;
      double nonfinite = 0, nan = 0, err_sum = 0;
      PrecisionCauses causes;
      int finite_rows = 0;
      std::vector<double> jfro;
      double sum_min = std::numeric_limits<double>::infinity(), sum_max = -sum_min;
      for (size_t i = 0; i < rows.size(); ++i) {
        SoftmaxTrace trace;
        const std::vector<double> out = softmax_in_format(frows[i], f, algos[a], opt, &trace);
        if (overflow[i]) trace.input_overflow = true;  // q·k (or c · q·k, or c · q) overflowed in the format
        if (i == 0) cell.probs = out;
        double row_sum = 0.0;
        for (double v : out) row_sum += v;
        if (!std::isnan(row_sum)) {
          sum_min = std::min(sum_min, row_sum);
          sum_max = std::max(sum_max, row_sum);
        }
        bool bad = false, has_nan = false, flushed = false, ref_finite = true;
        double err = 0.0;
        for (int j = 0; j < r.seq_len; ++j) {
          if (!std::isfinite(out[j])) bad = true;
          if (std::isnan(out[j])) has_nan = true;
          if (!std::isfinite(ref[i][j])) ref_finite = false;
          if (out[j] == 0.0 && ref[i][j] > 0.0) flushed = true;
          err = std::max(err, std::fabs(out[j] - ref[i][j]));
        }
        nonfinite += bad;
        nan += has_nan;
        // The first cause in the order of PrecisionCauses.
        if (trace.input_overflow) causes.input_overflow += 1;
        else if (trace.exp_overflow) causes.exp_overflow += 1;
        else if (trace.sum_overflow) causes.sum_overflow += 1;
        else if (has_nan) causes.nan += 1;
        else if (flushed) causes.underflow += 1;
        else if (row_sums && !bad && std::fabs(row_sum - ref_sum[i]) > stall_tol) causes.sum_stall += 1;
        if (!bad && ref_finite) {
          ++finite_rows;
          err_sum += err;
          cell.max_abs_error = std::max(cell.max_abs_error, err);
        }
        if (!bad) jfro.push_back(row_stats(out.data(), r.seq_len, kRowJacFro).jac_fro);
        if (algos[a] == SoftmaxAlgorithm::Safe) safe_out.push_back(out);
        if (algos[a] == SoftmaxAlgorithm::Online)
          for (int j = 0; j < r.seq_len; ++j) {
            const double d = std::fabs(out[j] - safe_out[i][j]);
            if (!std::isnan(d)) online_vs_safe = std::max(online_vs_safe, d);
          }
      }
      const double n = static_cast<double>(rows.size());
      cell.share_nonfinite = nonfinite / n;
      cell.share_nan = nan / n;
      cell.causes.input_overflow = causes.input_overflow / n;
      cell.causes.exp_overflow = causes.exp_overflow / n;
      cell.causes.sum_overflow = causes.sum_overflow / n;
      cell.causes.nan = causes.nan / n;
      cell.causes.underflow = causes.underflow / n;
      cell.causes.sum_stall = causes.sum_stall / n;
      const double none = std::numeric_limits<double>::quiet_NaN();
      cell.row_sum = sum_min <= sum_max ? RowSumRange{sum_min, sum_max} : RowSumRange{none, none};
      if (finite_rows == 0) {
        cell.max_abs_error = cell.mean_abs_error = std::numeric_limits<double>::quiet_NaN();
      } else {
        cell.mean_abs_error = err_sum / finite_rows;
      }
      cell.jac_fro_median = quantile(jfro, 0.5);
      r.cells.push_back(std::move(cell));
    }
    r.online_vs_safe.push_back(online_vs_safe);
  }
  return r;
}

}  // namespace sqrtdk
