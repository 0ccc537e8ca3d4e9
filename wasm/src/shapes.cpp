#include "shapes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "cost.hpp"

namespace sqrtdk {

std::string format_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

void check_int_range(const char* what, const char* name, long long value, long long lo, long long hi) {
  if (value < lo || value > hi) {
    throw std::invalid_argument(std::string(what) + ": " + name + " = " + std::to_string(value) +
                                " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  }
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
