// Native benchmark of the attention forward pass, for `npm run bench` (scripts/bench.mjs runs it
// and parses its JSON). Not a test: it measures, it checks nothing but that the two builds agree.
//
//   sqrtdk_bench_native [--shapes 1x128x64,8x128x64,...] [--reps 20]
//
// For each (heads, seq_len, d_k): Q, K, V iid N(0, 1) from the project's RNG, then the median of
// `reps` calls (after a warm-up of at least 2 calls and 0.3 s) of
//   scalar            sqrtdk::attention with Kernel::Scalar: the library's own path (validation,
//                     allocation, Q Kᵀ → softmax → P V per head), built like the library
//                     (-O3, auto-vectorisation off for kernels_scalar.cpp);
//   autovec-O3-native the same per-head loop on the same kernels' source compiled with
//                     -O3 -march=native and auto-vectorisation on (bench_autovec_kernels.cpp),
//                     when CMake built it (SQRTDK_BENCH_AUTOVEC).
// Prints one JSON object on stdout: {compiler, kernels, results: [{heads, seqLen, dk, kernels:
// {name: {medianMs, minMs, calls}}}]}.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "experiments.hpp"
#include "kernels.hpp"
#include "rng.hpp"

#ifdef SQRTDK_BENCH_AUTOVEC
namespace sqrtdk_autovec {
void f32_matmul_abt__scalar(const float* a, const float* b, float* c, int M, int N, int K, float alpha);
void f32_matmul_ab__scalar(const float* a, const float* b, float* c, int M, int N, int K, float alpha);
void f32_softmax_rows__scalar(float* x, int rows, int cols);
}  // namespace sqrtdk_autovec
#endif

namespace {

struct Shape {
  int heads, seq_len, dk;
};
struct Timing {
  double median_ms, min_ms;
  int calls;
};

template <class F>
Timing time_calls(F&& f, int reps) {
  using clock = std::chrono::steady_clock;
  const auto w0 = clock::now();
  for (int i = 0; i < 2 || std::chrono::duration<double>(clock::now() - w0).count() < 0.3; ++i) f();
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  const size_t m = ms.size() / 2;
  const double med = ms.size() % 2 ? ms[m] : 0.5 * (ms[m - 1] + ms[m]);
  return {med, ms.front(), reps};
}

std::vector<float> normals(size_t n, uint64_t seed) {
  sqrtdk::Rng rng(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(rng.normal());
  return v;
}

#ifdef SQRTDK_BENCH_AUTOVEC
// The per-head loop of sqrtdk::attention (MHA, no weights kept), on the auto-vectorised kernels.
std::vector<float> attention_autovec(const std::vector<float>& q, const std::vector<float>& k,
                                     const std::vector<float>& v, const Shape& s, float scale) {
  const size_t head = static_cast<size_t>(s.seq_len) * s.dk;
  std::vector<float> out(head * s.heads);
  std::vector<float> P(static_cast<size_t>(s.seq_len) * s.seq_len);
  for (int h = 0; h < s.heads; ++h) {
    sqrtdk_autovec::f32_matmul_abt__scalar(q.data() + h * head, k.data() + h * head, P.data(), s.seq_len, s.seq_len,
                                           s.dk, scale);
    sqrtdk_autovec::f32_softmax_rows__scalar(P.data(), s.seq_len, s.seq_len);
    sqrtdk_autovec::f32_matmul_ab__scalar(P.data(), v.data() + h * head, out.data() + h * head, s.seq_len, s.dk,
                                          s.seq_len, 1.0f);
  }
  return out;
}
#endif

std::vector<Shape> parse_shapes(const char* arg) {
  std::vector<Shape> shapes;
  std::string s(arg);
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find(',', pos);
    if (end == std::string::npos) end = s.size();
    Shape sh{};
    if (std::sscanf(s.substr(pos, end - pos).c_str(), "%dx%dx%d", &sh.heads, &sh.seq_len, &sh.dk) != 3) {
      std::fprintf(stderr, "bad shape '%s' (want HxLxD)\n", s.substr(pos, end - pos).c_str());
      std::exit(2);
    }
    shapes.push_back(sh);
    pos = end + 1;
  }
  return shapes;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Shape> shapes = {{1, 128, 64}, {8, 128, 64}, {8, 128, 512}, {8, 512, 64}, {1, 1024, 64}, {8, 1024, 128}};
  int reps = 20;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--shapes") && i + 1 < argc) shapes = parse_shapes(argv[++i]);
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: %s [--shapes HxLxD,...] [--reps N]\n", argv[0]);
      return 2;
    }
  }

#ifdef __clang__
  const char* compiler = "clang " __clang_version__;
#else
  const char* compiler = "g++ " __VERSION__;
#endif
  std::printf("{\n  \"compiler\": \"%s\",\n", compiler);
  std::printf("  \"kernels\": {\"scalar\": \"sqrtdk::attention, Kernel::Scalar (library build: -O3, no auto-vectorisation)\"");
#ifdef SQRTDK_BENCH_AUTOVEC
  std::printf(", \"autovec-O3-native\": \"the scalar kernels' source, -O3 -march=native, auto-vectorised, -ffp-contract=off\"");
#endif
  std::printf("},\n  \"results\": [");
  for (size_t si = 0; si < shapes.size(); ++si) {
    const Shape& s = shapes[si];
    const size_t n = static_cast<size_t>(s.heads) * s.seq_len * s.dk;
    const std::vector<float> q = normals(n, 1), k = normals(n, 2), v = normals(n, 3);
    sqrtdk::AttentionParams p;
    p.q = q;
    p.k = k;
    p.v = v;
    p.heads = s.heads;
    p.seq_len = s.seq_len;
    p.dk = s.dk;
    p.scale = sqrtdk::parse_scale("inv_sqrt_dk");
    p.kernel = sqrtdk::Kernel::Scalar;
    p.want_weights = false;
    std::vector<float> ref;
    const Timing scalar = time_calls([&] { ref = sqrtdk::attention(p).output; }, reps);
    std::printf("%s\n    {\"heads\": %d, \"seqLen\": %d, \"dk\": %d, \"kernels\": {\n", si ? "," : "", s.heads, s.seq_len, s.dk);
    std::printf("      \"scalar\": {\"medianMs\": %.6g, \"minMs\": %.6g, \"calls\": %d}", scalar.median_ms, scalar.min_ms,
                scalar.calls);
#ifdef SQRTDK_BENCH_AUTOVEC
    std::vector<float> av;
    const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(s.dk)));
    const Timing autovec = time_calls([&] { av = attention_autovec(q, k, v, s, scale); }, reps);
    double diff = 0, den = 0;  // the two builds must compute the same thing
    for (size_t i = 0; i < n; ++i) {
      diff = std::max(diff, static_cast<double>(std::fabs(av[i] - ref[i])));
      den = std::max(den, static_cast<double>(std::fabs(ref[i])));
    }
    std::printf(",\n      \"autovec-O3-native\": {\"medianMs\": %.6g, \"minMs\": %.6g, \"calls\": %d, \"relDiffVsScalar\": %.3g}",
                autovec.median_ms, autovec.min_ms, autovec.calls, diff / den);
#endif
    std::printf("\n    }}");
    std::fflush(stdout);
  }
  std::printf("\n  ]\n}\n");
  return 0;
}
