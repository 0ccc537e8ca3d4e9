// The training lab's synthetic tasks (tasks.hpp): one sequence and a batch of them, drawn from the seed.
#include "tasks.hpp"

#include <algorithm>

namespace sqrtdk::train {

namespace {
// A uniform integer in 0..n−1: ⌊u · n⌋ with u = Rng::uniform() (53 bits; bias below 2⁻⁴⁵ for n ≤ 256).
int uniform_int(Rng& rng, int n) { return std::min(n - 1, static_cast<int>(rng.uniform() * n)); }
}  // namespace

int targets_per_sequence(const TrainConfig& c) { return c.task == Task::AssocRecall ? 1 : c.seq_len / 2; }

void generate_sequence(const TrainConfig& c, Rng& rng, std::vector<int>& tokens, std::vector<int>& targets) {
  const int Tn = c.seq_len, sep = c.vocab;
  const size_t start = tokens.size();
  tokens.resize(start + Tn, sep);
  targets.resize(start + Tn, -1);
  int* tok = tokens.data() + start;
  int* tgt = targets.data() + start;
  if (c.task == Task::AssocRecall) {
    const int p = (Tn - 1) / 2;
    // p distinct keys: a partial Fisher–Yates shuffle of the symbols.
    std::vector<int> sym(c.vocab);
    for (int i = 0; i < c.vocab; ++i) sym[i] = i;
    for (int i = 0; i < p; ++i) std::swap(sym[i], sym[i + uniform_int(rng, c.vocab - i)]);
    std::vector<int> val(p);
    for (int i = 0; i < p; ++i) {
      val[i] = uniform_int(rng, c.vocab);
      tok[2 * i] = sym[i];
      tok[2 * i + 1] = val[i];
    }
    const int q = uniform_int(rng, p);
    // position 2p is SEP when T is even (already filled); the query key is last
    tok[Tn - 1] = sym[q];
    tgt[Tn - 1] = val[q];
    return;
  }
  const int n = Tn / 2, o = Tn - 2 * n;
  std::vector<int> x(n), y;
  for (int i = 0; i < n; ++i) x[i] = uniform_int(rng, c.vocab);
  y = x;
  if (c.task == Task::Reverse) std::reverse(y.begin(), y.end());
  if (c.task == Task::Sort) std::sort(y.begin(), y.end());
  // [SEP]·o, x₁..xₙ, SEP, y₁..y_{n−1}; targets y₁..yₙ at positions o+n .. T−1
  for (int i = 0; i < n; ++i) tok[o + i] = x[i];
  tok[o + n] = sep;
  for (int i = 0; i + 1 < n; ++i) tok[o + n + 1 + i] = y[i];
  for (int i = 0; i < n; ++i) tgt[o + n + i] = y[i];
}

Batch generate_batch(const TrainConfig& c, Rng& rng, int B) {
  Batch b;
  b.B = B;
  b.Tn = c.seq_len;
  b.tokens.reserve(static_cast<size_t>(B) * c.seq_len);
  b.targets.reserve(static_cast<size_t>(B) * c.seq_len);
  for (int i = 0; i < B; ++i) generate_sequence(c, rng, b.tokens, b.targets);
  return b;
}

}  // namespace sqrtdk::train
