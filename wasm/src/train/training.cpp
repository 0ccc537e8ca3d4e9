// TrainingRun (training.hpp): a validated config, the steps of AdamW with warm-up and clipping, the evaluation and the analysis of a run.
#include "training.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "cost.hpp"
#include "shapes.hpp"

namespace sqrtdk::train {

namespace {
const TrainConfig& validated(const TrainConfig& c) {
  validate(c);
  return c;
}
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TrainingRun::TrainingRun(const TrainConfig& c)
    : cfg_(validated(c)), model_(cfg_), data_rng_(Rng::stream(c.seed, kDataStream)) {
  model_.init(cfg_.seed);
  m_.assign(model_.layout().total, 0.0f);
  v_.assign(model_.layout().total, 0.0f);
  decay_.assign(model_.layout().total, 0);
  for (const ParamTensor& t : model_.layout().tensors)
    if (t.decay) std::fill_n(decay_.begin() + static_cast<std::ptrdiff_t>(t.offset), t.size, uint8_t{1});
  Rng eval_rng = Rng::stream(cfg_.seed, kEvalStream);
  eval_ = generate_batch(cfg_, eval_rng, cfg_.eval_size);
}

double TrainingRun::step_ns() const {
  return 3.0 * (cfg_.kernel == Kernel::Simd ? cost::kNsPerTrainMacSimd : cost::kNsPerTrainMac) *
         train_forward_macs(cfg_.batch, cfg_.seq_len, cfg_.layers, cfg_.d_model, cfg_.mlp, cfg_.vocab);
}

StepMetrics TrainingRun::step(int n) {
  check_int_range("trainingRun.step", "n", n, 1, kMaxSteps);
  // The work budget (cost.hpp) caps the steps of one call; one step always fits (a run's memory
  // budget bounds its size), so a run can always make progress.
  const int left = std::max(0, cfg_.steps - steps_done_);
  const double step_ns = this->step_ns();
  const int fit = static_cast<int>(std::max(1.0, std::floor(work_limits().seconds * 1e9 / step_ns)));
  if (std::min(n, left) > fit)
    throw std::invalid_argument("trainingRun.step: n = " + std::to_string(n) + " steps would take about " +
                                format_number(std::round(std::min(n, left) * step_ns / 1e8) / 10.0) +
                                " s of work (cost model), more than the " +
                                format_number(work_limits().seconds) + " s budget; at most " + std::to_string(fit) +
                                " steps of this config fit in one call: lower n");
  StepMetrics out;
  out.first_step = steps_done_;
  for (int i = 0; i < n && !finished(); ++i) one_step(out);
  return out;
}

void TrainingRun::one_step(StepMetrics& out) {
  const int t = steps_done_;
  const Batch batch = generate_batch(cfg_, data_rng_, cfg_.batch);
  ForwardStats fs;
  const CrossEntropyResult ce = model_.forward(batch.tokens.data(), batch.targets.data(), cfg_.batch, true, &fs);
  double norm = kNaN;
  const double lr = cfg_.warmup > 0 && t < cfg_.warmup ? cfg_.lr * (t + 1) / cfg_.warmup : cfg_.lr;
  if (std::isfinite(ce.loss)) {
    model_.backward();
    double n2 = 0.0;  // accumulated in double: tens of thousands of terms
    for (float g : model_.grads()) n2 += static_cast<double>(g) * g;
    norm = std::sqrt(n2);
  }
  for (auto* h : {&out, &history_}) {
    h->loss.push_back(ce.loss);
    h->grad_norm.push_back(norm);
    h->lr.push_back(lr);
    h->entropy.insert(h->entropy.end(), fs.entropy.begin(), fs.entropy.end());
    h->max_abs_logit.insert(h->max_abs_logit.end(), fs.max_abs_logit.begin(), fs.max_abs_logit.end());
    h->head_scale.insert(h->head_scale.end(), fs.head_scale.begin(), fs.head_scale.end());
  }
  ++steps_done_;
  if (!std::isfinite(ce.loss) || !std::isfinite(norm)) {
    first_nonfinite_ = t;  // a result: recorded, no update, no further steps
    return;
  }
  // Global-norm clipping (Pascanu, Mikolov & Bengio 2013): g ← g · clip / ‖g‖ when ‖g‖ > clip.
  const float gscale = cfg_.clip > 0.0 && norm > cfg_.clip ? static_cast<float>(cfg_.clip / norm) : 1.0f;
  // AdamW (Loshchilov & Hutter 2019, Algorithm 2) with bias correction; the decay is decoupled
  // (θ ← θ − lr·wd·θ) and applies to matrices and embeddings only.
  beta1_pow_ *= cfg_.beta1;
  beta2_pow_ *= cfg_.beta2;
  const float b1 = static_cast<float>(cfg_.beta1), b2 = static_cast<float>(cfg_.beta2);
  const float c1 = static_cast<float>(1.0 / (1.0 - beta1_pow_));
  const float c2 = static_cast<float>(1.0 / (1.0 - beta2_pow_));
  const float lrf = static_cast<float>(lr), wd = static_cast<float>(cfg_.weight_decay);
  const float eps = static_cast<float>(cfg_.adam_eps);
  std::vector<float>& p = model_.params();
  const std::vector<float>& g = model_.grads();
  for (size_t i = 0; i < p.size(); ++i) {
    const float gi = g[i] * gscale;
    m_[i] = b1 * m_[i] + (1.0f - b1) * gi;
    v_[i] = b2 * v_[i] + (1.0f - b2) * gi * gi;
    const float upd = (m_[i] * c1) / (std::sqrt(v_[i] * c2) + eps);
    p[i] -= lrf * (upd + (decay_[i] ? wd * p[i] : 0.0f));
  }
}

EvalResult TrainingRun::evaluate() {
  EvalResult r;
  const int Tn = cfg_.seq_len, V = token_count(cfg_);
  double loss_sum = 0.0;
  int correct = 0, seq_correct = 0;
  for (int s0 = 0; s0 < cfg_.eval_size; s0 += cfg_.batch) {
    const int B = std::min(cfg_.batch, cfg_.eval_size - s0);
    const int* tok = eval_.tokens.data() + static_cast<size_t>(s0) * Tn;
    const int* tgt = eval_.targets.data() + static_cast<size_t>(s0) * Tn;
    const CrossEntropyResult ce = model_.forward(tok, tgt, B, false);
    loss_sum += ce.loss * ce.targets;
    correct += ce.correct;
    r.targets += ce.targets;
    const std::vector<float>& logits = model_.logits();
    for (int b = 0; b < B; ++b) {
      bool all = true;
      for (int t = 0; t < Tn; ++t) {
        const int y = tgt[b * Tn + t];
        if (y < 0) continue;
        const float* l = logits.data() + (static_cast<size_t>(b) * Tn + t) * V;
        const int arg = static_cast<int>(std::max_element(l, l + V) - l);
        all = all && arg == y && std::isfinite(l[arg]);
      }
      seq_correct += all;
    }
  }
  r.sequences = cfg_.eval_size;
  r.loss = loss_sum / r.targets;
  r.token_accuracy = static_cast<double>(correct) / r.targets;
  r.sequence_accuracy = static_cast<double>(seq_correct) / r.sequences;
  return r;
}

Analysis TrainingRun::analysis(int bins) {
  check_int_range("trainingRun.analysis", "bins", bins, 8, 200);
  const int Tn = cfg_.seq_len, H = cfg_.heads, D = head_dim(cfg_), L = cfg_.layers;
  const bool causal = task_is_causal(cfg_.task);
  // At most 256 held-out sequences and 2¹⁸ query–key pairs per layer (2 MiB of logits in double).
  const int pairs_per_sequence = H * (causal ? Tn * (Tn + 1) / 2 : Tn * Tn);
  const int sequences = std::max(1, std::min({cfg_.eval_size, 256, (1 << 18) / pairs_per_sequence}));
  std::vector<std::vector<double>> logits(L);
  std::vector<MomentAccumulator> qk(L);
  std::vector<double> q2(L, 0.0), k2(L, 0.0), ent(L, 0.0), scale(L, 0.0);
  std::vector<double> count_qk(L, 0.0);
  double rows = 0.0;
  for (int s0 = 0; s0 < sequences; s0 += cfg_.batch) {
    const int B = std::min(cfg_.batch, sequences - s0);
    ForwardStats fs;
    model_.forward(eval_.tokens.data() + static_cast<size_t>(s0) * Tn,
                   eval_.targets.data() + static_cast<size_t>(s0) * Tn, B, false, &fs);
    const double rows_here = static_cast<double>(B) * H * Tn;
    rows += rows_here;
    for (int l = 0; l < L; ++l) {
      const AttentionCache<float>& c = model_.attention_cache(l);
      ent[l] += fs.entropy[l] * rows_here;
      for (int b = 0; b < B; ++b)
        for (int h = 0; h < H; ++h) {
          const size_t bh = static_cast<size_t>(b) * H + h;
          const float* raw = c.raw.data() + bh * Tn * Tn;
          for (int i = 0; i < Tn; ++i)
            for (int j = 0; j <= (causal ? i : Tn - 1); ++j) {
              const double r = raw[static_cast<size_t>(i) * Tn + j];
              qk[l].add(r);
              logits[l].push_back(static_cast<double>(c.scale[h]) * r);
            }
          const float* q = c.q.data() + bh * Tn * D;
          const float* k = c.k.data() + bh * Tn * D;
          for (int e = 0; e < Tn * D; ++e) {
            q2[l] += static_cast<double>(q[e]) * q[e];
            k2[l] += static_cast<double>(k[e]) * k[e];
          }
          count_qk[l] += Tn * D;
        }
      if (s0 == 0)
        for (int h = 0; h < H; ++h) scale[l] += c.scale[h] / static_cast<double>(H);
    }
  }
  Analysis a;
  a.sequences = sequences;
  for (int l = 0; l < L; ++l) {
    LayerAnalysis la;
    MomentAccumulator lm;
    double mx = 0.0;
    std::vector<double> absl;
    absl.reserve(logits[l].size());
    for (double s : logits[l]) {
      lm.add(s);
      mx = std::isnan(s) || std::isnan(mx) ? kNaN : std::max(mx, std::fabs(s));
      absl.push_back(std::fabs(s));
    }
    double w = quantile(absl, 0.995);
    w = std::isfinite(w) ? std::max(4.0, std::ceil(w)) : 4.0;
    la.logits = histogram(logits[l], uniform_edges(-w, w, bins));
    la.normal.resize(bins);
    const double n = static_cast<double>(logits[l].size());
    auto Phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
    for (int i = 0; i < bins; ++i) la.normal[i] = n * (Phi(la.logits.edges[i + 1]) - Phi(la.logits.edges[i]));
    la.logit_moments = lm.moments();
    la.qk = qk[l].moments();
    la.q_second_moment = q2[l] / count_qk[l];
    la.k_second_moment = k2[l] / count_qk[l];
    la.iid_qk_variance = D * la.q_second_moment * la.k_second_moment;
    la.scale = scale[l];
    la.entropy = ent[l] / rows;
    la.max_abs_logit = mx;
    a.layers.push_back(std::move(la));
  }
  return a;
}

}  // namespace sqrtdk::train
