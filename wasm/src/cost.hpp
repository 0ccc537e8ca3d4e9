// The work budget of one call: a cost model of each experiment's real work (products, softmax,
// per-row statistics with their solvers, normal draws, emulated softmaxes, training steps) in
// nanoseconds of this project's wasm build run by Node on the machine the constants were measured
// on. The products are costed for the kernel family the call uses (scalar or SIMD128); the per-row
// statistics' passes are SIMD128 in the SIMD128 build whatever the kernel (same numbers), the rest
// is scalar code in both builds. A call whose estimate exceeds kBudgetSeconds is refused with
// std::invalid_argument naming the parameters that drive its cost and the estimate.
//
// Calibration: `node scripts/calibrate-cost.mjs` times each term alone through the public API
// (CPU time of the process, median of 3) and prints the constants below; the per-row statistics
// are timed in every regime of the secular solve for ‖J‖₂ (flat rows at d_k = 1 … saturated rows
// without a scale) and the slowest regime is kept, so the model bounds rather than averages.
// Measured 2026-11-30 on the project's build machine (2 cores, Node 20.20.2, Debian emscripten
// 3.1.6, -O3, the simd128 artifact with kernel 'scalar'), while other builds ran; the measured
// values (in brackets) rounded up by about 15 %. The per-row statistics' slowest regime was d_k = 2
// without a scale (rows spread over a few keys, where the secular solve takes the most steps).
// The SIMD kernel and native builds are faster, so the budget is at most about 2 s there.
#pragma once

#include <string>
#include <vector>

#include "kernels.hpp"

namespace sqrtdk {

// The budget of one call, in estimated seconds on the calibration machine. 8 s: the smallest round
// value that accepts every request the page makes within its own limits (web/src/compute.ts and the
// state schema's ranges) without soft-capping, with either kernel: the largest are the default
// saturation sweep with kernel 'scalar' (13 d_k × 4 scales at h 4, L 128: estimated 7.1 s,
// measured 5.9 s) and the sweep the page always requests at h 16, L 1024 (its first d_k: estimated
// 5.5 s, measured 4.0 s). Every reproduction of issue 12 is estimated at 15 s or more.
inline constexpr double kBudgetSeconds = 8.0;

namespace cost {
inline constexpr double kNsPerMac = 1.1;            // [0.92] float32 multiply-add of the scalar matmul
inline constexpr double kNsPerMacSimd = 0.16;       // [0.13] the same with the SIMD128 kernel
inline constexpr double kNsPerRowWeight = 23.0;     // [19.8] per attention weight: softmax, entropy, ‖J‖_F and
                                                    // the secular solve for ‖J‖₂ (slowest regime; core 0.3.0's
                                                    // float32-row passes, SIMD128 in that build: 0.31 × 0.2.0's
                                                    // 63.8, both timed 2026-12-01 on one machine, 12.0 vs 38.6)
inline constexpr double kNsPerGradWeight = 10.0;   // [9.05] per weight, backward pass: dP copy, J·dP, dS
// The soft-capped ‖J D‖₂ of one row (Lanczos, stats.hpp): S steps of two J products (L terms each)
// and a Sturm bisection every 4 steps (S² terms); per row kNsPerLanczosLS · L · S + kNsPerLanczosS2 · S².
// The two constants come from rows that take every step (S = min(L, 160): cap 1, logits of standard
// deviation 0.5, [103, 720, 1240] µs per row at L 64, 256, 1024), measured 2026-12-01 with the
// SIMD128 build; how many steps a row takes is the table softcap_lanczos_steps (cost.cpp) measured
// with them.
inline constexpr double kNsPerLanczosLS = 4.6;      // [4.23] per L · S
inline constexpr double kNsPerLanczosS2 = 23.0;     // [21.3] per S²
inline constexpr double kNsPerSoftmaxWeight = 48.0; // [39.6] attention(): soft-cap, masks, softmax per weight
inline constexpr double kNsPerNormal = 24.0;        // [20.8] one N(0, 1) draw (with its use in a dot product)
inline constexpr double kNsPerLongWeight = 9.4;     // [8.15] longContext, kernel 'scalar': the logits' scaling,
                                                    // softmax and row statistics (entropy, max weight) per weight
inline constexpr double kNsPerLongWeightSimd = 4.1;  // [3.57] the same with the SIMD128 kernel's softmax (both
                                                    // measured 2026-12-01 after the products were shared)
inline constexpr double kNsPerLongWeightBaseline = 17.5;  // [17.1] kernel 'scalar' in the baseline build, whose
                                                    // row statistics are scalar too (kNsPerLongWeight was timed
                                                    // in the SIMD128 build: 1.82× under the baseline's time)
inline constexpr double kNsPerLongSinkWeight = 3.6;  // [2.7 SIMD128 kernel and baseline, 3.6 kernel 'scalar'] added
                                                    // per weight by a sink logit (its softmax row and sink mass);
                                                    // dk 1, 4 × 16384 keys, 256 queries, 6 methods, 2026-12-01
inline constexpr double kNsPerPrecisionLogit = 2100.0;  // [1830] precisionLab: 12 emulated softmaxes and checks per logit
inline constexpr double kNsPerEmulatedMac = 20.0;  // [16.5] precisionLab with q and k: one multiply-add emulated
                                                    // in float32, bfloat16 or float16 (two roundings), per format
                                                    // (measured 2026-12-01, queries 16, keys 256, dk 256, CPU time
                                                    // less that of the softmaxes; float64's products are not counted)
inline constexpr double kNsPerPairMoment = 5.0;    // [within the noise of the rest; kept] tensorStats: Welford moments of one q·k pair
inline constexpr double kNsPerTrainMac = 0.8;       // [0.65 at dModel 320, 0.72 at 64] training: per multiply-add
                                                    // of a step (3 × forward), scalar kernel
inline constexpr double kNsPerTrainMacSimd = 0.18;  // [0.095 at dModel 320, 0.15 at 64] the same, SIMD128 kernel
}  // namespace cost

// One term of an estimate: its nanoseconds and what drives it ("heads · seqLen² · dk (products)")
// with the values of those parameters.
struct CostTerm {
  double ns = 0.0;
  std::string drivers;  // e.g. "heads = 64, seqLen = 8192"
  std::string label;    // e.g. "per-row statistics of 4.3e9 attention weights"
};

// The budgets every call is checked against: kBudgetSeconds and kMaxWorkBytes unless the caller
// set others (loadCore({ limits }) through the bindings' setWorkLimits, before each call).
struct WorkLimits {
  double seconds = kBudgetSeconds;
  double bytes = 512.0 * 1024.0 * 1024.0;  // = kMaxWorkBytes (shapes.hpp)
};
const WorkLimits& work_limits();
// Sets the budgets of the calls that follow (the bindings check the bounds; see core.js).
void set_work_limits(double seconds, double bytes);

// An estimate of one call (core.cost): its terms and the bytes of memory it needs.
struct CostEstimate {
  double ns = 0.0;
  double bytes = 0.0;
  std::vector<CostTerm> terms;
};
// Thrown by check_cost while an estimate is recorded (see estimate_cost): the call stops right
// after its parameters and budgets were checked, before anything is drawn or computed.
struct EstimateDone {};
// Runs `call` (an experiment) in estimate mode: every parameter check runs as in the call, then
// check_work_bytes records the memory instead of refusing it and check_cost records the terms and
// stops the call (EstimateDone). So the estimate is, term for term, what the call checks against
// its budget: one cost model. Returns false if the call never reached check_cost.
template <typename F>
bool estimate_cost(CostEstimate& out, F&& call);
// Internals of estimate_cost: the estimate being recorded (null outside estimate mode).
CostEstimate*& recording_estimate();

// Throws std::invalid_argument when `bytes` exceeds the work limit's bytes (kMaxWorkBytes), naming the parameters that
// drive it: `drivers` like "heads = 4, seqLen = 8192" (the message ends "lower heads or seqLen").
void check_work_bytes(const char* what, double bytes, const std::string& drivers);
// Throws std::invalid_argument when the terms add up to more than the work limit (kBudgetSeconds):
// "<what>: this call would take about <s> s of work (cost model), more than the
//  2 s budget; most of it is <label> (<drivers>): lower <drivers' names>".
void check_cost(const char* what, const std::vector<CostTerm>& terms);

// Nanoseconds of the analysis of one attention pass (attentionStats, each point of a sweep,
// tensorStats): heads · seqLen² · dk products (1 forward, 3 with gradients), the per-row statistics
// of heads · seqLen² weights, the normal draws of the inputs.
double ns_per_mac(Kernel kernel);  // kNsPerMac or kNsPerMacSimd
double analyse_products_ns(int heads, int seq_len, int dk, bool gradients, Kernel kernel);
double analyse_rows_ns(int heads, int seq_len, bool gradients);
// The soft-cap's Lanczos solve of ‖J D‖₂ (only for a soft-capped call that asks for ‖J‖₂, spectral;
// without it a capped row's ‖J D‖_F is O(L) like an uncapped row's), per row of seq_len keys whose
// raw logits c · q·k have standard deviation logit_std (c · σ² · √d_k for iid N(0, σ²) inputs) under
// the cap: kNsPerLanczosLS · L · S + kNsPerLanczosS2 · S² with S the steps such rows take,
// softcap_lanczos_steps.
double softcap_row_ns(int seq_len, double logit_std, double cap);
// The Lanczos steps a row takes (1 … min(seq_len, 160)): measured rows (scripts/calibrate-cost.mjs)
// at L 64, 256, 1024, cap 1, 5, 50 and logit_std / cap from 0.02 to 100, interpolated linearly in
// the logarithms of the three (clamped to the measured ranges). The steps are a property of the
// rows' spectrum: flat rows whose tanh still bends (cap 1, logit_std 0.2 … 3) take every step,
// peaked or saturated rows 15 … 45.
double softcap_lanczos_steps(int seq_len, double logit_std, double cap);
double draws_ns(double normals);
// Nanoseconds per weight of longContext beyond its products (the logits' scaling, softmax, entropy
// and max weight): kNsPerLongWeightSimd, kNsPerLongWeight (kernel 'scalar' in the SIMD128 build) or
// kNsPerLongWeightBaseline (any other build), plus kNsPerLongSinkWeight with a sink logit.
double long_weight_ns(Kernel kernel, bool sink = false);
// A training step of a config: 3 × the forward pass's multiply-adds, per sequence
// T·(layers·(4C² + 2CF + 2TC) + C·V).
double train_forward_macs(int batch, int seq_len, int layers, int d_model, int mlp, int vocab);

template <typename F>
bool estimate_cost(CostEstimate& out, F&& call) {
  struct Scope {
    explicit Scope(CostEstimate* e) { recording_estimate() = e; }
    ~Scope() { recording_estimate() = nullptr; }
  } scope(&out);
  try {
    call();
  } catch (const EstimateDone&) {
    return true;
  }
  return false;
}

}  // namespace sqrtdk
