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

double analyse_rows_ns(int heads, int seq_len, bool gradients, bool softcap) {
  const double L = seq_len;
  double ns = heads * L * L * (cost::kNsPerRowWeight + (gradients ? cost::kNsPerGradWeight : 0.0));
  if (softcap) {
    const double steps = std::min(L, 160.0);  // the most the Lanczos solve may take (stats.hpp)
    ns += heads * L * (L * steps * cost::kNsPerLanczosLS + steps * steps * cost::kNsPerLanczosS2);
  }
  return ns;
}

double draws_ns(double normals) { return normals * cost::kNsPerNormal; }

double long_weight_ns(Kernel kernel) {
  return kernel == Kernel::Simd ? cost::kNsPerLongWeightSimd : cost::kNsPerLongWeight;
}

double train_forward_macs(int batch, int seq_len, int layers, int d_model, int mlp, int vocab) {
  const double T = seq_len, C = d_model, F = mlp;
  return double(batch) * T * (layers * (4.0 * C * C + 2.0 * C * F + 2.0 * T * C) + C * (vocab + 1.0));
}

}  // namespace sqrtdk
