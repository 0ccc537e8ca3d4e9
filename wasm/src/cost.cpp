// The cost model's arithmetic: each experiment's work in ns from its shape (cost.hpp has the model), and the work-size check.
#include "cost.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "shapes.hpp"

namespace sqrtdk {

namespace {
std::string seconds(double ns) {
  const double s = ns / 1e9;
  char buf[32];
  std::snprintf(buf, sizeof buf, s < 10 ? "%.1f" : "%.0f", s);
  return buf;
}
// "heads = 64, seqLen = 8192" → "heads or seqLen".
std::string names_of(const std::string& drivers) {
  std::vector<std::string> names;
  size_t pos = 0;
  while (pos < drivers.size()) {
    size_t end = drivers.find(", ", pos);
    if (end == std::string::npos) end = drivers.size();
    const std::string item = drivers.substr(pos, end - pos);
    names.push_back(item.substr(0, item.find(" = ")));
    pos = end + 2;
  }
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}
}  // namespace

namespace {
WorkLimits g_limits;
CostEstimate* g_recording = nullptr;
}  // namespace

const WorkLimits& work_limits() { return g_limits; }
void set_work_limits(double seconds, double bytes) {
  g_limits.seconds = seconds;
  g_limits.bytes = bytes;
}
CostEstimate*& recording_estimate() { return g_recording; }

void check_cost(const char* what, const std::vector<CostTerm>& terms) {
  double total = 0.0;
  const CostTerm* top = nullptr;
  for (const CostTerm& t : terms) {
    total += t.ns;
    if (top == nullptr || t.ns > top->ns) top = &t;
  }
  if (g_recording != nullptr) {
    g_recording->ns = total;
    g_recording->terms = terms;
    throw EstimateDone{};
  }
  if (!(total > g_limits.seconds * 1e9) || top == nullptr) return;
  throw std::invalid_argument(std::string(what) + ": this call would take about " + seconds(total) +
                              " s of work (cost model), more than the " +
                              format_number(g_limits.seconds) + " s budget; most of it is " + top->label + " (" +
                              top->drivers + "): lower " + names_of(top->drivers));
}

double ns_per_mac(Kernel kernel) { return kernel == Kernel::Simd ? cost::kNsPerMacSimd : cost::kNsPerMac; }

double analyse_products_ns(int heads, int seq_len, int dk, bool gradients, Kernel kernel) {
  return (gradients ? 3.0 : 1.0) * heads * double(seq_len) * seq_len * dk * ns_per_mac(kernel);
}

double analyse_rows_ns(int heads, int seq_len, bool gradients) {
  const double L = seq_len;
  return heads * L * L * (cost::kNsPerRowWeight + (gradients ? cost::kNsPerGradWeight : 0.0));
}

namespace {
// Lanczos steps per row (softcap_lanczos_steps), measured by scripts/calibrate-cost.mjs
// (2026-12-01, SIMD128 build, Node 20): [L][cap][logit_std / cap], each solved from the row's
// measured time t = kNsPerLanczosS2 · S² + kNsPerLanczosLS · L · S with the measured constants.
constexpr double kStepsL[] = {64, 256, 1024};
constexpr double kStepsCap[] = {1, 5, 50};
constexpr double kStepsX[] = {0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 1, 1.4, 2, 3, 5, 8, 16, 32, 100};
constexpr double kSteps[3][3][16] = {
  {  // L 64
    {31.6, 30.8, 31.7, 47.0, 62.6, 63.5, 61.9, 55.8, 46.1, 37.1, 29.5, 22.5, 20.1, 15.4, 13.7, 11.5},  // cap 1
    {27.3, 24.3, 20.5, 18.8, 19.1, 22.0, 27.4, 32.0, 31.7, 26.8, 24.9, 20.9, 17.3, 15.6, 16.9, 11.5},  // cap 5
    {17.0, 14.6, 13.2, 12.7, 12.9, 12.9, 13.6, 15.5, 18.1, 20.8, 20.5, 19.0, 16.8, 14.5, 12.9, 11.5},  // cap 50
  },
  {  // L 256
    {38.7, 39.0, 43.2, 116.1, 159.6, 160.0, 159.5, 157.3, 143.8, 113.3, 82.2, 55.2, 39.5, 27.1, 20.6, 15.0},  // cap 1
    {32.7, 27.8, 23.4, 22.6, 26.4, 43.1, 74.8, 96.2, 92.9, 72.3, 58.5, 44.1, 33.9, 24.4, 19.2, 14.6},  // cap 5
    {19.9, 16.9, 15.8, 15.4, 16.0, 17.1, 19.3, 26.3, 37.7, 45.2, 45.4, 39.6, 32.8, 24.2, 19.2, 14.7},  // cap 50
  },
  {  // L 1024
    {45.6, 46.6, 55.6, 159.6, 160.0, 160.0, 159.4, 158.7, 159.5, 158.9, 158.7, 152.2, 114.2, 65.6, 42.1, 23.6},  // cap 1
    {38.2, 31.8, 27.5, 26.9, 39.4, 116.3, 160.0, 160.0, 160.0, 116.4, 108.1, 110.2, 90.7, 57.3, 37.1, 21.8},  // cap 5
    {22.7, 19.0, 17.8, 18.0, 19.3, 21.2, 28.1, 59.8, 79.7, 68.3, 70.6, 83.6, 79.4, 55.2, 36.8, 21.8},  // cap 50
  },
};
// The index i and weight w of v between grid[i] and grid[i + 1], linear in ln v, clamped.
template <size_t N>
void bracket(const double (&grid)[N], double v, size_t& i, double& w) {
  if (!(v > grid[0])) { i = 0; w = 0.0; return; }
  if (v >= grid[N - 1]) { i = N - 2; w = 1.0; return; }
  i = 0;
  while (v > grid[i + 1]) ++i;
  w = std::log(v / grid[i]) / std::log(grid[i + 1] / grid[i]);
}
}  // namespace

double softcap_lanczos_steps(int seq_len, double logit_std, double cap) {
  const double L = seq_len;
  const double most = std::min(L, 160.0);  // the most the Lanczos solve may take (stats.hpp)
  size_t il, ic, ix;
  double wl, wc, wx;
  bracket(kStepsL, L, il, wl);
  bracket(kStepsCap, cap, ic, wc);
  bracket(kStepsX, logit_std / cap, ix, wx);
  double s = 0.0;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      for (int d = 0; d < 2; ++d)
        s += (a ? wl : 1.0 - wl) * (b ? wc : 1.0 - wc) * (d ? wx : 1.0 - wx) * std::log(kSteps[il + a][ic + b][ix + d]);
  return std::clamp(std::exp(s), 1.0, most);
}

double softcap_row_ns(int seq_len, double logit_std, double cap) {
  const double S = softcap_lanczos_steps(seq_len, logit_std, cap);
  return double(seq_len) * S * cost::kNsPerLanczosLS + S * S * cost::kNsPerLanczosS2;
}

double draws_ns(double normals) { return normals * cost::kNsPerNormal; }

double long_weight_ns(Kernel kernel, bool sink) {
#if defined(__wasm_simd128__)
  const double scalar = cost::kNsPerLongWeight;
#else
  const double scalar = cost::kNsPerLongWeightBaseline;  // the row statistics have no SIMD128 pass either
#endif
  return (kernel == Kernel::Simd ? cost::kNsPerLongWeightSimd : scalar) + (sink ? cost::kNsPerLongSinkWeight : 0.0);
}

double train_forward_macs(int batch, int seq_len, int layers, int d_model, int mlp, int vocab) {
  const double T = seq_len, C = d_model, F = mlp;
  return double(batch) * T * (layers * (4.0 * C * C + 2.0 * C * F + 2.0 * T * C) + C * (vocab + 1.0));
}

void check_work_bytes(const char* what, double bytes, const std::string& drivers) {
  if (CostEstimate* e = recording_estimate()) {  // core.cost: record, do not refuse
    e->bytes = std::max(e->bytes, bytes);
    return;
  }
  if (bytes > work_limits().bytes) {
    std::string names;  // "heads = 4, seqLen = 8192" → "heads or seqLen"
    size_t pos = 0;
    std::vector<std::string> list;
    while (pos < drivers.size()) {
      size_t end = drivers.find(", ", pos);
      if (end == std::string::npos) end = drivers.size();
      const std::string item = drivers.substr(pos, end - pos);
      list.push_back(item.substr(0, item.find(" = ")));
      pos = end + 2;
    }
    for (size_t i = 0; i < list.size(); ++i) names += (i == 0 ? "" : i + 1 == list.size() ? " or " : ", ") + list[i];
    throw std::invalid_argument(std::string(what) + ": this call would need " +
                                format_number(std::ceil(bytes / 1048576.0)) +
                                " MiB of memory, more than the " + format_number(work_limits().bytes / 1048576.0) +
                                " MiB limit (" + drivers + "): lower " + names);
  }
}

}  // namespace sqrtdk
