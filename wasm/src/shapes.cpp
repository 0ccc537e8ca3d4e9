// Shape checks shared by every call of the core: heads, seq_len, dk and array lengths (notation in shapes.hpp).
#include "shapes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

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

}  // namespace sqrtdk
