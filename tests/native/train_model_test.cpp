// The whole model in double against finite differences, for every attention variant and both
// LayerNorm placements; the tasks' layouts; the shared initial weights; the config checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "train/model.hpp"
#include "train/tasks.hpp"
#include "train/training.hpp"
#include "train_fd.hpp"

namespace sqrtdk::train {
namespace {

TrainConfig tiny(AttentionVariant v, NormPlacement n, Task task = Task::Copy) {
  TrainConfig c;
  c.task = task;
  c.vocab = 5;
  c.seq_len = 8;
  c.layers = 2;
  c.d_model = 8;
  c.heads = 2;
  c.mlp = 12;
  c.batch = 2;
  c.attention = v;
  c.norm = n;
  c.init_std = 0.5;  // logits of order 1: the softmax is neither uniform nor saturated
  c.eval_size = 4;
  return c;
}

struct ModelCase {
  AttentionVariant variant;
  NormPlacement norm;
  Task task;
};
class TrainModelGrad : public ::testing::TestWithParam<ModelCase> {};

TEST_P(TrainModelGrad, EveryParameterMatchesFiniteDifferences) {
  const ModelCase mc = GetParam();
  const TrainConfig c = tiny(mc.variant, mc.norm, mc.task);
  validate(c);
  Model<double> m(c);
  m.init(7);
  // Move the variant's own parameters and the LayerNorm gains off their initial constants.
  Rng jitter = Rng::stream(7, 99);
  for (const ParamTensor& t : m.layout().tensors)
    if (!t.decay)
      for (size_t i = 0; i < t.size; ++i) m.params()[t.offset + i] += 0.1 * jitter.normal();
  Rng data(3);
  const Batch b = generate_batch(c, data, c.batch);
  m.forward(b.tokens.data(), b.targets.data(), c.batch, true);
  m.backward();
  const std::vector<double> analytic = m.grads();
  auto loss = [&] { return m.forward(b.tokens.data(), b.targets.data(), c.batch, false).loss; };
  const std::vector<double> numeric = fd::numeric_gradient(m.params().data(), m.params().size(), loss);
  const fd::FdError all = fd::compare(analytic.data(), numeric);
  const std::string name = std::string("model ") + attention_variant_name(c.attention) + " " + norm_name(c.norm) +
                           "-LN " + task_name(c.task);
  fd::report(name, all);
  EXPECT_LE(all.max_rel, fd::kTolerance) << "worst parameter " << all.worst;
  // Per tensor too, so a small tensor is not hidden behind a large one's floor.
  for (const ParamTensor& t : m.layout().tensors) {
    const std::vector<double> num(numeric.begin() + t.offset, numeric.begin() + t.offset + t.size);
    if (t.name.ends_with("k_ln_b")) {
      // qk_layernorm's key bias shifts every logit of a row by q̂·b_k, which the softmax ignores:
      // its gradient is exactly zero (both must vanish against the model's largest gradient).
      for (size_t i = 0; i < t.size; ++i) {
        EXPECT_LE(std::fabs(analytic[t.offset + i]), 1e-12 * all.max_abs_grad) << name << " " << t.name;
        EXPECT_LE(std::fabs(num[i]), 1e-9 * all.max_abs_grad) << name << " " << t.name;
      }
      continue;
    }
    const fd::FdError e = fd::compare(analytic.data() + t.offset, num);
    EXPECT_LE(e.max_rel, fd::kTolerance) << name << " tensor " << t.name;
  }
}

std::vector<ModelCase> model_cases() {
  std::vector<ModelCase> v;
  for (auto var : {AttentionVariant::None, AttentionVariant::InvSqrtDk, AttentionVariant::InvDk,
                   AttentionVariant::LearnableTemperature, AttentionVariant::QkLayerNorm, AttentionVariant::QkL2})
    for (auto n : {NormPlacement::Pre, NormPlacement::Post}) v.push_back({var, n, Task::Copy});
  v.push_back({AttentionVariant::InvSqrtDk, NormPlacement::Pre, Task::AssocRecall});  // no causal mask
  return v;
}
INSTANTIATE_TEST_SUITE_P(Variants, TrainModelGrad, ::testing::ValuesIn(model_cases()),
                         [](const ::testing::TestParamInfo<ModelCase>& i) {
                           return std::string(attention_variant_name(i.param.variant)) + "_" +
                                  norm_name(i.param.norm) + "_" + task_name(i.param.task);
                         });

TEST(TrainTasks, LayoutsPutTheTargetsWhereDocumented) {
  TrainConfig c;
  c.vocab = 10;
  c.seq_len = 9;  // odd: one leading separator
  Rng rng(1);
  for (Task t : {Task::Copy, Task::Reverse, Task::Sort}) {
    c.task = t;
    std::vector<int> tok, tgt;
    generate_sequence(c, rng, tok, tgt);
    const int n = 4, o = 1, sep = 10;
    EXPECT_EQ(tok[0], sep);
    EXPECT_EQ(tok[o + n], sep);
    std::vector<int> x(tok.begin() + o, tok.begin() + o + n), y;
    for (int i = 0; i < n; ++i) y.push_back(tgt[o + n + i]);
    std::vector<int> expect = x;
    if (t == Task::Reverse) std::reverse(expect.begin(), expect.end());
    if (t == Task::Sort) std::sort(expect.begin(), expect.end());
    EXPECT_EQ(y, expect) << task_name(t);
    for (int i = 0; i < o + n; ++i) EXPECT_EQ(tgt[i], -1);
    for (int i = 0; i + 1 < n; ++i) EXPECT_EQ(tok[o + n + 1 + i], y[i]);  // teacher forcing
    EXPECT_EQ(targets_per_sequence(c), n);
  }
  c.task = Task::AssocRecall;
  c.seq_len = 12;  // 5 pairs, SEP, query
  for (int rep = 0; rep < 20; ++rep) {
    std::vector<int> tok, tgt;
    generate_sequence(c, rng, tok, tgt);
    EXPECT_EQ(tok[10], 10);
    int found = -1;
    for (int i = 0; i < 5; ++i) {
      for (int j = 0; j < i; ++j) EXPECT_NE(tok[2 * i], tok[2 * j]);  // distinct keys
      if (tok[2 * i] == tok[11]) found = tok[2 * i + 1];
    }
    EXPECT_EQ(tgt[11], found);
    EXPECT_EQ(std::count(tgt.begin(), tgt.end(), -1), 11);
  }
}

TEST(TrainModel, VariantsAndPlacementsStartFromTheSameSharedWeights) {
  TrainConfig a;
  Model<float> base(a);
  base.init(5);
  for (auto var : {AttentionVariant::None, AttentionVariant::LearnableTemperature, AttentionVariant::QkLayerNorm,
                   AttentionVariant::QkL2})
    for (auto n : {NormPlacement::Pre, NormPlacement::Post}) {
      TrainConfig b = a;
      b.attention = var;
      b.norm = n;
      Model<float> m(b);
      m.init(5);
      for (const ParamTensor& t : m.layout().tensors) {
        auto it = std::find_if(base.layout().tensors.begin(), base.layout().tensors.end(),
                               [&](const ParamTensor& u) { return u.name == t.name; });
        if (it == base.layout().tensors.end()) continue;  // variant-specific
        ASSERT_EQ(it->size, t.size);
        EXPECT_TRUE(std::equal(m.params().begin() + t.offset, m.params().begin() + t.offset + t.size,
                               base.params().begin() + it->offset))
            << t.name;
      }
    }
}

void expect_refused(TrainConfig c, const std::string& needle) {
  try {
    validate(c);
    ADD_FAILURE() << "accepted, expected a message containing: " << needle;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(TrainConfigCheck, RefusesOutOfRangeValuesNamingThem) {
  TrainConfig c;
  validate(c);  // the defaults are valid
  auto with = [&](auto f) {
    TrainConfig d;
    f(d);
    return d;
  };
  expect_refused(with([](TrainConfig& d) { d.d_model = 60, d.heads = 8; }), "dModel = 60 is not divisible by heads = 8");
  expect_refused(with([](TrainConfig& d) { d.seq_len = 7; }), "seqLen = 7 is outside 8..64");
  expect_refused(with([](TrainConfig& d) { d.seq_len = 65; }), "seqLen = 65");
  expect_refused(with([](TrainConfig& d) { d.layers = 7; }), "layers = 7 is outside 1..6");
  expect_refused(with([](TrainConfig& d) { d.layers = 0; }), "layers = 0");
  expect_refused(with([](TrainConfig& d) { d.steps = kMaxSteps + 1; }), "steps = 20001 is outside 1..20000");
  expect_refused(with([](TrainConfig& d) { d.warmup = 500; }), "warmup = 500 is outside 0..200");
  expect_refused(with([](TrainConfig& d) { d.vocab = 1; }), "vocab = 1");
  expect_refused(with([](TrainConfig& d) { d.lr = 0; }), "lr = 0");
  expect_refused(with([](TrainConfig& d) { d.lr = std::nan(""); }), "lr = NaN");
  expect_refused(with([](TrainConfig& d) { d.init_std = -1; }), "initStd = -1");
  expect_refused(with([](TrainConfig& d) { d.clip = -0.5; }), "clip = -0.5");
  expect_refused(with([](TrainConfig& d) { d.beta2 = 1; }), "beta2 = 1");
  expect_refused(with([](TrainConfig& d) { d.batch = 0; }), "batch = 0");
  expect_refused(with([](TrainConfig& d) { d.task = Task::AssocRecall, d.seq_len = 64, d.vocab = 8; }),
                 "vocab = 8 is below the 31 distinct keys");
  expect_refused(with([](TrainConfig& d) { d.d_model = 512, d.mlp = 2048, d.layers = 6, d.heads = 8; }),
                 "more than the 64 MiB budget");
  if (!simd_available()) expect_refused(with([](TrainConfig& d) { d.kernel = Kernel::Simd; }), "kernel = 'simd'");
  EXPECT_THROW(parse_attention_variant("sqrt"), std::invalid_argument);
  EXPECT_THROW(parse_task("copy2"), std::invalid_argument);
  EXPECT_THROW(TrainingRun(with([](TrainConfig& d) { d.heads = 3; })), std::invalid_argument);
  for (auto v : {"none", "inv_sqrt_dk", "inv_dk", "learnable_temperature", "qk_layernorm", "qk_l2"})
    EXPECT_STREQ(attention_variant_name(parse_attention_variant(v)), v);
}

}  // namespace
}  // namespace sqrtdk::train
