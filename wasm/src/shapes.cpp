#include "shapes.hpp"

#include <cmath>
#include <cstdio>

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

void check_work_bytes(const char* what, double bytes) {
  if (bytes > kMaxWorkBytes) {
    throw std::invalid_argument(std::string(what) + ": this call would need " +
                                format_number(std::ceil(bytes / 1048576.0)) +
                                " MiB of memory, more than the 512 MiB limit; use a smaller size");
  }
}

void check_work_macs(const char* what, double macs) {
  if (macs > kMaxMacs) {
    throw std::invalid_argument(std::string(what) + ": this call would need " + format_number(macs) +
                                " multiply-adds, more than the limit of " + format_number(kMaxMacs) +
                                "; use a smaller size");
  }
}

}  // namespace sqrtdk
