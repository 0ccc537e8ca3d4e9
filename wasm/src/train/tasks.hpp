// The synthetic tasks of the training lab, generated from the seed (no downloads). Layouts and
// target positions: config.hpp (enum Task). Notation: config.hpp.
#pragma once

#include <vector>

#include "config.hpp"
#include "rng.hpp"

namespace sqrtdk::train {

struct Batch {
  int B = 0, Tn = 0;
  std::vector<int> tokens;   // [B, T] the context
  std::vector<int> targets;  // [B, T] the token to predict at each position, −1 where none
};

// Appends one sequence of the task to `out` (tokens and targets, T each), drawing from rng.
void generate_sequence(const TrainConfig& c, Rng& rng, std::vector<int>& tokens, std::vector<int>& targets);
// B sequences.
Batch generate_batch(const TrainConfig& c, Rng& rng, int B);
// Targets per sequence: n = ⌊T/2⌋ for copy/reverse/sort, 1 for assoc_recall.
int targets_per_sequence(const TrainConfig& c);

}  // namespace sqrtdk::train
