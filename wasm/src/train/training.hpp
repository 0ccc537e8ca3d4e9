// TrainingRun: one training run of the lab as a pure state object (config, weights, AdamW state,
// data generator), stepped in chunks by its caller (the page's worker, the tests, the benchmark).
// No globals, no I/O, no threads. Notation: config.hpp.
//
// Reproducibility: a run is fixed by its config (seed included) and kernel family. Streams of
// the seed: the weights (model.hpp's kInitStream…), the training batches (kDataStream: batch i
// is the i-th draw, the same for every variant and LayerNorm placement of a seed), the held-out
// set (kEvalStream). A non-finite loss or gradient norm is a result, not an error: the step is
// recorded (NaN metrics), no update is applied, and the run stops stepping.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "config.hpp"
#include "model.hpp"
#include "rng.hpp"
#include "stats.hpp"
#include "tasks.hpp"

namespace sqrtdk::train {

inline constexpr uint64_t kDataStream = 0x11;
inline constexpr uint64_t kEvalStream = 0x12;

// Per-step metrics of consecutive steps first_step, first_step + 1, …
struct StepMetrics {
  int first_step = 0;
  std::vector<double> loss;           // [n] training loss of the batch (before the update), nats
  std::vector<double> grad_norm;      // [n] global L2 norm of the gradient, before clipping
  std::vector<double> lr;             // [n] learning rate applied (after warm-up)
  std::vector<double> entropy;        // [n, layers] mean attention entropy, nats
  std::vector<double> max_abs_logit;  // [n, layers] max |scaled logit| (unmasked)
  std::vector<double> head_scale;     // [n, layers] mean over heads of τ_h or g_h; NaN when the variant has none
  int count() const { return static_cast<int>(loss.size()); }
};

struct EvalResult {
  double loss = 0.0;               // mean cross-entropy over the held-out targets, nats
  double token_accuracy = 0.0;     // share of targets whose argmax is right (teacher forcing)
  double sequence_accuracy = 0.0;  // share of sequences with every target right
  int sequences = 0;
  int targets = 0;
};

// After training, per layer, on the held-out set: the trained model's attention logits against
// the iid argument (q, k with iid components of variance σ² ⇒ Var(q·k) = d_k σ⁴, and with c = 1/√d_k
// the logits are N(0, 1) when σ = 1).
struct LayerAnalysis {
  Histogram logits;               // scaled logits S = c_h q̂·k̂ (unmasked), edges ±w, w = max(4, ⌈q99.5 |S|⌉)
  std::vector<double> normal;     // [bins] the counts N(0, 1) predicts in those bins
  Moments logit_moments;          // of S
  Moments qk;                     // of q̂·k̂, the raw dot product (unmasked pairs)
  double q_second_moment = 0.0;   // mean of q̂ components squared
  double k_second_moment = 0.0;
  double iid_qk_variance = 0.0;   // d_k · E[q̂²] · E[k̂²], what the iid argument predicts for Var(q̂·k̂)
  double scale = 0.0;             // mean over heads of c_h
  double entropy = 0.0;           // mean attention entropy, nats
  double max_abs_logit = 0.0;
};
struct Analysis {
  int sequences = 0;
  std::vector<LayerAnalysis> layers;
};

class TrainingRun {
 public:
  // Validates c (std::invalid_argument naming the field and value), draws the weights and the
  // held-out set.
  explicit TrainingRun(const TrainConfig& c);

  // Runs up to n more steps (n in 1..kMaxSteps), fewer when the run reaches config().steps or
  // diverges. Returns the metrics of the steps it ran (none once finished). Throws
  // std::invalid_argument naming n when the steps it would run exceed the work budget of one call
  // (cost.hpp: 3 × the forward multiply-adds per step; one step always fits).
  StepMetrics step(int n);
  EvalResult evaluate();
  // On the first min(evalSize, 256, ⌊2¹⁸ / pairs per sequence⌋) held-out sequences; bins in 8..200.
  Analysis analysis(int bins = 64);

  const TrainConfig& config() const { return cfg_; }
  // Seconds of work one step takes by the cost model (cost.hpp: 3 × the forward pass's
  // multiply-adds at the kernel's calibrated ns per multiply-add, on the calibration machine): the
  // figure step() checks its budget against, and the page's estimate of a run's duration.
  double step_seconds() const { return step_ns() / 1e9; }
  size_t parameter_count() const { return model_.layout().total; }
  int steps_done() const { return steps_done_; }
  bool diverged() const { return first_nonfinite_ >= 0; }
  int first_nonfinite_step() const { return first_nonfinite_; }  // −1: none
  bool finished() const { return diverged() || steps_done_ >= cfg_.steps; }
  const StepMetrics& history() const { return history_; }
  const std::vector<float>& params() const { return model_.params(); }
  Model<float>& model() { return model_; }

 private:
  void one_step(StepMetrics& out);
  double step_ns() const;
  TrainConfig cfg_;
  Model<float> model_;
  std::vector<float> m_, v_;
  std::vector<uint8_t> decay_;  // [params] 1 where weight decay applies
  Rng data_rng_;
  Batch eval_;
  int steps_done_ = 0;
  int first_nonfinite_ = -1;
  double beta1_pow_ = 1.0, beta2_pow_ = 1.0;
  StepMetrics history_;
};

}  // namespace sqrtdk::train
