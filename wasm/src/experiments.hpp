// The experiments of √dk Lab: one pure function each, Params in, Result out. No globals, no I/O;
// the bindings (wasm/bindings) expose each one-to-one to JavaScript, and the tests call exactly
// these functions. Notation (shapes, units): shapes.hpp. Every function throws
// std::invalid_argument naming the parameter and its value when the input is out of range.
// Each family has its header (below) and its source file of the same name; an experiment declared
// with cppStructs: 'generated' has its structs and declaration in experiment_structs.hpp instead.
#pragma once

#include "attention.hpp"
#include "attention_stats.hpp"
#include "logit_options.hpp"
#include "long_context.hpp"
#include "normal_draws.hpp"
#include "normalisers.hpp"
#include "precision_lab.hpp"
#include "qk_clip.hpp"
#include "score_variance.hpp"
// the structs and function of each experiment declared with cppStructs: 'generated' (after every family header)
#include "experiment_structs.hpp"  // generated from wasm/js/experiments.js (scripts/gen-experiments.mjs)

namespace sqrtdk {

inline constexpr const char* kVersion = "0.6.0";

}  // namespace sqrtdk
