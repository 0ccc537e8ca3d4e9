// The training lab's configuration: the checks of a TrainConfig and the names of its choices (variants, tasks, norms, softmax), parsed and printed.
#include "config.hpp"

#include <cmath>
#include <stdexcept>

#include "model.hpp"
#include "shapes.hpp"

namespace sqrtdk::train {

namespace {
constexpr const char* kWhat = "trainingRun";

[[noreturn]] void bad(const std::string& msg) { throw std::invalid_argument(std::string(kWhat) + ": " + msg); }

void check_real(const char* name, double v, double lo, double hi, bool lo_open) {
  const bool ok = std::isfinite(v) && (lo_open ? v > lo : v >= lo) && v <= hi;
  if (!ok)
    bad(std::string(name) + " = " + format_number(v) + " is outside " + (lo_open ? "(" : "[") + format_number(lo) +
        ", " + format_number(hi) + "]");
}
void check_unit_open(const char* name, double v) {
  if (!(std::isfinite(v) && v >= 0.0 && v < 1.0)) bad(std::string(name) + " = " + format_number(v) + " is outside [0, 1)");
}
}  // namespace

AttentionVariant parse_attention_variant(const std::string& name) {
  if (name == "none") return AttentionVariant::None;
  if (name == "inv_sqrt_dk") return AttentionVariant::InvSqrtDk;
  if (name == "inv_dk") return AttentionVariant::InvDk;
  if (name == "learnable_temperature") return AttentionVariant::LearnableTemperature;
  if (name == "qk_layernorm") return AttentionVariant::QkLayerNorm;
  if (name == "qk_l2") return AttentionVariant::QkL2;
  bad("attention = '" + name +
      "' is not one of 'none', 'inv_sqrt_dk', 'inv_dk', 'learnable_temperature', 'qk_layernorm', 'qk_l2'");
}
const char* attention_variant_name(AttentionVariant v) {
  switch (v) {
    case AttentionVariant::None: return "none";
    case AttentionVariant::InvSqrtDk: return "inv_sqrt_dk";
    case AttentionVariant::InvDk: return "inv_dk";
    case AttentionVariant::LearnableTemperature: return "learnable_temperature";
    case AttentionVariant::QkLayerNorm: return "qk_layernorm";
    case AttentionVariant::QkL2: return "qk_l2";
  }
  return "?";
}
Task parse_task(const std::string& name) {
  if (name == "copy") return Task::Copy;
  if (name == "reverse") return Task::Reverse;
  if (name == "sort") return Task::Sort;
  if (name == "assoc_recall") return Task::AssocRecall;
  bad("task = '" + name + "' is not one of 'copy', 'reverse', 'sort', 'assoc_recall'");
}
const char* task_name(Task t) {
  switch (t) {
    case Task::Copy: return "copy";
    case Task::Reverse: return "reverse";
    case Task::Sort: return "sort";
    case Task::AssocRecall: return "assoc_recall";
  }
  return "?";
}
NormPlacement parse_norm(const std::string& name) {
  if (name == "pre") return NormPlacement::Pre;
  if (name == "post") return NormPlacement::Post;
  bad("norm = '" + name + "' is not one of 'pre', 'post'");
}
const char* norm_name(NormPlacement n) { return n == NormPlacement::Pre ? "pre" : "post"; }
SoftmaxKind parse_softmax(const std::string& name) {
  if (name == "safe") return SoftmaxKind::Safe;
  if (name == "naive") return SoftmaxKind::Naive;
  bad("softmax = '" + name + "' is not one of 'safe', 'naive'");
}
const char* softmax_name(SoftmaxKind s) { return s == SoftmaxKind::Safe ? "safe" : "naive"; }

bool task_is_causal(Task t) { return t != Task::AssocRecall; }

size_t parameter_count(const TrainConfig& c) { return make_layout(c).total; }

double training_bytes(const TrainConfig& c) {
  const double P = static_cast<double>(parameter_count(c));
  const double N = double(c.batch) * c.seq_len, C = c.d_model, F = c.mlp, V = token_count(c);
  const double BHTT = double(c.batch) * c.heads * c.seq_len * c.seq_len;
  const double per_layer = N * (13.0 * C + 2.0 * F + 8.0) + 2.0 * BHTT;     // activations and attention cache
  const double shared = N * (12.0 * C + 2.0 * F + 2.0 * V) + 3.0 * C * std::max(3.0 * C, F);  // backward, scratch
  const double eval = 2.0 * c.eval_size * c.seq_len;                       // held-out tokens and targets
  return 16.0 * P + 4.0 * (c.layers * per_layer + shared + eval);
}

void validate(const TrainConfig& c) {
  check_int_range(kWhat, "vocab", c.vocab, 2, 256);
  check_int_range(kWhat, "seqLen", c.seq_len, 8, 64);
  check_int_range(kWhat, "layers", c.layers, 1, 6);
  check_int_range(kWhat, "dModel", c.d_model, 8, 512);
  check_int_range(kWhat, "heads", c.heads, 1, 16);
  if (c.d_model % c.heads != 0)
    bad("dModel = " + std::to_string(c.d_model) + " is not divisible by heads = " + std::to_string(c.heads) +
        " (d_k = dModel / heads must be an integer)");
  check_int_range(kWhat, "mlp", c.mlp, 4, 2048);
  check_int_range(kWhat, "batch", c.batch, 1, 256);
  check_int_range(kWhat, "steps", c.steps, 1, kMaxSteps);
  check_int_range(kWhat, "warmup", c.warmup, 0, c.steps);
  check_int_range(kWhat, "evalSize", c.eval_size, 1, 4096);
  check_real("initStd", c.init_std, 0.0, 10.0, true);
  check_real("lr", c.lr, 0.0, 1.0, true);
  check_real("clip", c.clip, 0.0, 1e6, false);
  check_real("weightDecay", c.weight_decay, 0.0, 1.0, false);
  check_unit_open("beta1", c.beta1);
  check_unit_open("beta2", c.beta2);
  check_real("adamEps", c.adam_eps, 0.0, 1.0, true);
  if (c.softcap != 0.0 && !(std::isfinite(c.softcap) && c.softcap > 0.0 && c.softcap <= 1e6))
    bad("softcap = " + format_number(c.softcap) + " is outside (0, 1000000] (0 turns soft-capping off)");
  if (c.task == Task::AssocRecall) {
    const int pairs = (c.seq_len - 1) / 2;
    if (c.vocab < pairs)
      bad("vocab = " + std::to_string(c.vocab) + " is below the " + std::to_string(pairs) +
          " distinct keys assoc_recall needs at seqLen = " + std::to_string(c.seq_len));
  }
  kernel_table(c.kernel);  // throws if the family is not in this build
  const double bytes = training_bytes(c);
  if (bytes > kMaxTrainBytes)
    bad("this model needs " + format_number(std::ceil(bytes / 1048576.0)) + " MiB (" +
        std::to_string(parameter_count(c)) + " parameters × 16 bytes for weights, gradients and AdamW moments, " +
        "plus activations), more than the 64 MiB budget of a run; reduce dModel, mlp, layers, batch or seqLen");
}

}  // namespace sqrtdk::train
