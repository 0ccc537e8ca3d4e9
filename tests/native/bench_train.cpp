// Native training speed of the training lab (not a test): steps per second of a TrainingRun,
// printed as one JSON object for scripts/bench.mjs. Usage:
//   sqrtdk_bench_train [--attention NAME] [--steps N] [--min-seconds S]
// The default configuration is TrainConfig's (copy, d_model 64, 2 layers, 4 heads, T 16, batch 16).
// Native builds hold only the scalar kernel family (SIMD128 is WebAssembly's).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "train/training.hpp"

using namespace sqrtdk;
using namespace sqrtdk::train;

int main(int argc, char** argv) {
  TrainConfig c;
  int steps = 100;
  double min_seconds = 1.0;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
      if (a == "--attention" && v) c.attention = parse_attention_variant(v), ++i;
      else if (a == "--steps" && v) steps = std::atoi(v), ++i;
      else if (a == "--min-seconds" && v) min_seconds = std::atof(v), ++i;
      else throw std::invalid_argument("unknown argument '" + a + "'");
    }
    c.steps = kMaxSteps;
    TrainingRun run(c);
    run.step(5);  // warm-up: buffers grown, caches warm
    int done = 0;
    const auto t0 = std::chrono::steady_clock::now();
    double seconds = 0.0;
    while (done < steps || seconds < min_seconds) {
      done += run.step(10).count();
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (run.finished()) break;
    }
    std::printf(
        "{\"bench\":\"train\",\"build\":\"native\",\"kernel\":\"%s\",\"attention\":\"%s\",\"task\":\"%s\","
        "\"dModel\":%d,\"layers\":%d,\"heads\":%d,\"seqLen\":%d,\"batch\":%d,\"mlp\":%d,\"parameters\":%zu,"
        "\"steps\":%d,\"seconds\":%.6f,\"stepsPerSecond\":%.3f,\"diverged\":%s}\n",
        kernel_name(c.kernel), attention_variant_name(c.attention), task_name(c.task), c.d_model, c.layers, c.heads,
        c.seq_len, c.batch, c.mlp, run.parameter_count(), done, seconds, done / seconds,
        run.diverged() ? "true" : "false");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sqrtdk_bench_train: %s\n", e.what());
    return 2;
  }
  return 0;
}
