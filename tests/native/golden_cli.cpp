// Prints, as JSON, numbers that the wasm build must reproduce (tests/node/parity.test.mjs):
// scoreVariance moments and attentionStats summaries (scalar kernel) for fixed seeds.
#include <cstdio>
#include <string>

#include "experiments.hpp"

using namespace sqrtdk;

namespace {
void print_summary(const char* name, const Summary& s, bool comma = true) {
  std::printf("\"%s\":[%.17g,%.17g,%.17g,%.17g]%s", name, s.mean, s.median, s.p10, s.p90, comma ? "," : "");
}
}  // namespace

int main() {
  ScoreVarianceParams sv;
  sv.dks = {1, 64, 512};
  sv.samples = 5000;
  sv.seed = 7;
  sv.hist_dk = 64;
  const ScoreVarianceResult r = score_variance(sv);
  std::printf("{\"scoreVariance\":[");
  for (size_t i = 0; i < r.rows.size(); ++i)
    std::printf("%s[%d,%.17g,%.17g]", i ? "," : "", r.rows[i].dk, r.rows[i].raw.mean, r.rows[i].raw.variance);
  std::printf("],\"attentionStats\":{");
  const char* scales[] = {"none", "inv_sqrt_dk", "inv_dk"};
  for (int s = 0; s < 3; ++s) {
    AttentionStatsParams a;
    a.heads = 2;
    a.seq_len = 64;
    a.dk = 32;
    a.seed = 5;
    a.scale = parse_scale(scales[s]);
    a.kernel = Kernel::Scalar;
    const AttentionStatsResult x = attention_stats(a);
    std::printf("%s\"%s\":{", s ? "," : "", scales[s]);
    print_summary("entropy", x.summary.entropy);
    print_summary("maxWeight", x.summary.max_weight);
    print_summary("jacFro", x.summary.jac_fro);
    print_summary("jacSpec", x.summary.jac_spec);
    print_summary("gradQuery", x.summary.grad_query, false);
    std::printf("}");
  }
  std::printf("}}\n");
  return 0;
}
