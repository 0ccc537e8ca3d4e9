// embind bindings: type conversion only. Each function reads a plain JS object (already checked
// and completed with defaults by wasm/js/core.js) with its experiment's read_params (for a packed
// experiment, experiments.js pack: true, the numbers core.js wrote into g_packed instead), calls the
// experiment of the same name, and copies the result into JS-owned objects and typed arrays (never
// views into the wasm heap, which die when memory grows; the one exception, attention's staged
// results, leave as views that core.js slices into JS-owned copies before anything else runs in
// the module) with its to_js. Both are generated from
// wasm/js/experiments.js (experiment_reads.hpp, experiment_results.hpp), and so is the whole
// binding of an experiment that needs no code of its own; this file holds the conversions they
// call and the bindings that do need code (tensors copied after a budget check, staged buffers). A std::invalid_argument becomes a JS RangeError with its message;
// any other C++ exception becomes an Error. No maths here. The one class, TrainingRun, holds a
// training run's state between chunks of steps; core.js owns its handle (dispose() and a
// FinalizationRegistry delete it).
//
// Compiled twice (CMakeLists.txt): the full core, and with SQRTDK_FIRST_VIEW the first view's core
// (sqrtdk-simd-first: issue 20, the first view ≤ 250 KB gzip), linked from the same static library
// with only what the variance view asks for (the experiments of part 'first' in wasm/js/experiments.js,
// their cost, buildInfo, setWorkLimits), so
// the linker drops every other experiment, the precision and training labs and their bindings. Same
// objects and flags, so its scoreVariance is the full core's, bit for bit (tests/node/first-core.test.mjs).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "cost.hpp"
#include "experiment_calls.hpp"  // generated from wasm/js/experiments.js (scripts/gen-experiments.mjs)
#include "experiments.hpp"
#include "model_scales.hpp"
#include "peak.hpp"
#include "train/training.hpp"

#ifdef SQRTDK_FIRST_VIEW
// the conversions only the other experiments use are left unused here
#pragma clang diagnostic ignored "-Wunused-function"
#endif

using emscripten::val;
using namespace sqrtdk;

namespace {

// ---- JS → C++ ----
Scale to_scale(const val& v) {
  const std::string type = v.typeOf().as<std::string>();
  if (type == "number") return scale_value(v.as<double>());
  if (type == "object") return scale_power(v["power"].as<double>());  // { power: p }, checked by core.js
  return parse_scale(v.as<std::string>());
}

// ---- JS → C++, packed calls (experiments.js pack: true) ----
// The numbers core.js writes (checks.js packParams) just before a packed call, in the layout of
// experiments.js packedLayout; the generated read_params of that call reads them here. A static
// buffer: its address, which core.js asks once (packedParams), never changes.
alignas(8) double g_packed[SQRTDK_PACKED_CAPACITY];
const double* packed_params() { return g_packed; }
double js_packed_params() { return static_cast<double>(reinterpret_cast<uintptr_t>(g_packed)); }
[[maybe_unused]] int packed_int(double x, const char* key) {
  if (!(x >= -2147483648.0 && x <= 2147483647.0) || x != std::trunc(x))
    throw std::invalid_argument(std::string(key) + " = " + format_number(x) + " is not an integer");
  return static_cast<int>(x);
}
[[maybe_unused]] uint32_t packed_seed(double x, const char* key) {
  if (!(x >= 0.0 && x <= 4294967295.0) || x != std::trunc(x))
    throw std::invalid_argument(std::string(key) + " = " + format_number(x) + " is not an integer in 0..4294967295");
  return static_cast<uint32_t>(x);
}
[[maybe_unused]] double packed_number(double x, const char*) { return x; }  // the core checks its range, naming it
[[maybe_unused]] bool packed_bool(double x, const char* key) {
  if (x != 0.0 && x != 1.0) throw std::invalid_argument(std::string(key) + " = " + format_number(x) + " is not a boolean (0 or 1)");
  return x == 1.0;
}
// The name at index x of `names` (a kernel, a choice).
[[maybe_unused]] std::string packed_name(std::initializer_list<const char*> names, double x, const char* key) {
  if (!(x >= 0.0 && x < static_cast<double>(names.size())) || x != std::trunc(x))
    throw std::invalid_argument(std::string(key) + ": index " + format_number(x) + " names none of its " +
                                std::to_string(names.size()) + " values");
  return names.begin()[static_cast<size_t>(x)];
}
// A scale as two numbers: kind ≥ 0 the index of its name, −1 a number c, −2 { power: p }.
[[maybe_unused]] Scale packed_scale(std::initializer_list<const char*> names, double kind, double value, const char* key) {
  if (kind == -1.0) return scale_value(value);
  if (kind == -2.0) return scale_power(value);
  return parse_scale(packed_name(names, kind, key));
}

template <typename T>
std::vector<T> copy_typed_array(const val& arr) {
  std::vector<T> out(arr["length"].as<size_t>());
  val view{emscripten::typed_memory_view(out.size(), out.data())};
  view.call<void>("set", arr);  // one memcpy from JS into the heap
  return out;
}

// ---- C++ → JS (copies) ----
template <typename T>
val to_typed_array(const char* ctor, const std::vector<T>& v) {
  val out = val::global(ctor).new_(v.size());
  if (!v.empty()) out.call<void>("set", val(emscripten::typed_memory_view(v.size(), v.data())));
  return out;
}
val f64(const std::vector<double>& v) { return to_typed_array("Float64Array", v); }
val f32(const std::vector<float>& v) { return to_typed_array("Float32Array", v); }

// A number, or null where the core's value is NaN (a figure that is not applicable).
val number_or_null(double x) { return std::isnan(x) ? val::null() : val(x); }

// Runs f; a C++ exception becomes {__sqrtdkError: {name, message}}, which core.js turns into a
// RangeError (std::invalid_argument, std::bad_alloc) or an Error. The error is returned, not
// thrown with val::throw_(): a JS throw would unwind through wasm without running the C++
// destructors, leaking the argument handles and buffers of every refused call.
template <typename F>
val guarded(F&& f) {
  std::string message;
  const char* name = "Error";
  try {
    return f();
  } catch (const std::invalid_argument& e) {
    message = e.what();
    name = "RangeError";
  } catch (const std::bad_alloc&) {
    message = "out of memory: the WebAssembly heap could not grow; use a smaller size";
    name = "RangeError";
  } catch (const std::exception& e) {
    message = e.what();
  }
  val err = val::object();
  err.set("name", std::string(name));
  err.set("message", message);
  val out = val::object();
  out.set("__sqrtdkError", err);
  return out;
}

// ---- the experiments ----
// read_params(o, p) of each experiment's Params (generated: the declared parameters, each read once)
#include "experiment_reads.hpp"  // generated from wasm/js/experiments.js (scripts/gen-experiments.mjs)
// to_js(result, flags_of(p)) of each result and record (generated: the declared fields), and the
// bindings that need nothing else (js_score_variance, js_attention_stats, ...)
#include "experiment_results.hpp"  // generated from wasm/js/experiments.js (scripts/gen-experiments.mjs)

#ifndef SQRTDK_FIRST_VIEW  // the other experiments and labs: the full core only
val js_softmax_jacobian(val logits, double softcap) {
  return guarded([&] {
    const std::vector<double> x = copy_typed_array<double>(logits);
    return to_js(softmax_jacobian(x, softcap), NoFlags{});
  });
}

// A heap buffer kept from call to call (grown, never shrunk, never zero-filled): attention's
// inputs and outputs go through these instead of fresh std::vectors, so a call pays one copy in per
// input and one copy out per output, and no allocation or zero-fill.
class Staging {
 public:
  std::span<float> size(size_t n) {
    if (n > cap_) {
      data_.reset();
      data_.reset(new float[n]);
      cap_ = n;
    }
    return {data_.get(), n};
  }
  // One memcpy of the JS Float32Array into the heap.
  std::span<const float> fill(const val& arr) {
    const std::span<float> s = size(arr["length"].as<size_t>());
    if (!s.empty()) val(emscripten::typed_memory_view(s.size(), s.data())).call<void>("set", arr);
    return s;
  }
  // A view of the staged floats, for core.js to copy out with one slice() before anything else runs
  // in the module (the buffer is reused by the next call, and a memory growth detaches the view):
  // one handle where copy_out's new Float32Array and set cost four crossings.
  static val view(std::span<const float> s) { return val(emscripten::typed_memory_view(s.size(), s.data())); }
  // One memcpy out of the heap into a new JS-owned Float32Array.
  static val copy_out(std::span<const float> s) {
    val out = val::global("Float32Array").new_(s.size());
    if (!s.empty()) out.call<void>("set", val(emscripten::typed_memory_view(s.size(), s.data())));
    return out;
  }

 private:
  std::unique_ptr<float[]> data_;
  size_t cap_ = 0;
};
Staging g_q, g_k, g_v, g_out, g_weights, g_sink_weights, g_lse;

val js_attention(val o) {
  return guarded([&] {
    AttentionParams p;
    read_params(o, p);  // every parameter but the tensors, the sinks and ALiBi (field: null)
    const std::vector<double> sinks = o["sinks"].isNull() ? std::vector<double>{} : copy_typed_array<double>(o["sinks"]);
    p.sinks = sinks;
    check_attention_work(p);  // shape and budgets before any tensor is copied into the heap
    p.q = g_q.fill(o["q"]);
    p.k = g_k.fill(o["k"]);
    p.v = g_v.fill(o["v"]);
    const std::vector<float> mask = o["mask"].isNull() ? std::vector<float>{} : copy_typed_array<float>(o["mask"]);
    p.mask = mask;
    std::vector<float> alibi;  // 'press': Press et al.'s slopes (alibi_slopes), held as float32
    if (o["alibi"].isString()) {
      for (double m : alibi_slopes(p.heads)) alibi.push_back(static_cast<float>(m));
    } else if (!o["alibi"].isNull()) {
      alibi = copy_typed_array<float>(o["alibi"]);
    }
    p.alibi = alibi;
    const std::vector<float> query_scale = o["queryScale"].isNull() ? std::vector<float>{} : copy_typed_array<float>(o["queryScale"]);
    p.query_scale = query_scale;
    // sized from the shape; attention_into refuses a bad shape before it writes anything
    const double n = static_cast<double>(p.heads) * p.seq_len * resolve_dv(p);  // the output [heads, seqLen, dv]
    const double nw = p.want_weights ? static_cast<double>(p.heads) * p.seq_len * p.seq_len : 0.0;
    const bool sane = p.heads > 0 && p.seq_len > 0 && p.dk > 0 && n + nw <= work_limits().bytes / 4;  // check_attention_work passed: within the call's budget
    const std::span<float> output = sane ? g_out.size(static_cast<size_t>(n)) : std::span<float>{};
    const std::span<float> weights = sane ? g_weights.size(static_cast<size_t>(nw)) : std::span<float>{};
    const size_t ns = sinks.empty() ? 0 : static_cast<size_t>(p.heads) * p.seq_len;
    const std::span<float> sink_weights = sane ? g_sink_weights.size(ns) : std::span<float>{};
    const size_t nl = p.want_lse ? static_cast<size_t>(p.heads) * p.seq_len : 0;
    const std::span<float> lse = sane ? g_lse.size(nl) : std::span<float>{};
    const double scale = attention_into(p, output, weights, sink_weights, lse);
    // the staged results as views (core.js's attention slices each into a JS-owned copy at once);
    // alibiSlopes, in a vector this call frees, is copied here
    val out = val::object();
    out.set("scale", scale);
    out.set("output", Staging::view(output));
    out.set("weights", p.want_weights ? Staging::view(weights) : val::null());
    if (!sinks.empty()) {  // only with sinks: results without them are unchanged
      out.set("sinkWeights", Staging::view(sink_weights));
      out.set("sinkMass", mean_sink_mass(sink_weights));
    }
    if (!alibi.empty()) out.set("alibiSlopes", Staging::copy_out(alibi));  // only with ALiBi
    if (p.want_lse) out.set("lse", Staging::view(lse));                     // only with lse: true
    return out;
  });
}

val js_merge_attention(val o) {
  return guarded([&] {
    MergeAttentionParams p;
    read_params(o, p);
    const std::vector<float> oa = copy_typed_array<float>(o["a"]["output"]), la = copy_typed_array<float>(o["a"]["lse"]),
                             ob = copy_typed_array<float>(o["b"]["output"]), lb = copy_typed_array<float>(o["b"]["lse"]);
    p.output_a = oa;
    p.lse_a = la;
    p.output_b = ob;
    p.lse_b = lb;
    return to_js(merge_attention(p), flags_of(p));
  });
}

val js_simd_peak(val o) {
  return guarded([&] {
#ifdef SQRTDK_HAVE_WASM_SIMD
    const int iters = o["iters"].as<int>();  // its one parameter (no Params struct)
    const float sum = f32x4_muladd_peak(iters);
    val out = val::object();
    out.set("flop", kPeakFlopPerIter * iters);
    out.set("sum", sum);
    return out;
#else
    (void)o;
    throw std::invalid_argument("simdPeak: the baseline build has no WebAssembly SIMD128");
    return val::null();
#endif
  });
}

val js_tensor_stats(val o) {
  return guarded([&] {
    TensorStatsParams p;
    read_params(o, p);  // every parameter but the tensors (field: null)
    check_tensor_stats_work(p);  // shape and budgets before any tensor is copied into the heap
    const std::vector<float> q = copy_typed_array<float>(o["q"]);
    const std::vector<float> k = copy_typed_array<float>(o["k"]);
    const std::vector<float> v = o["v"].isNull() ? std::vector<float>{} : copy_typed_array<float>(o["v"]);
    p.q = q;
    p.k = k;
    p.v = v;
    return to_js(tensor_stats(p), flags_of(p));
  });
}

val js_model_scales() {
  return guarded([&] { return to_js(model_scales(), NoFlags{}); });
}

// ---- the training lab: a run is state, so it is a class; core.js wraps the handle ----
class JsTrainingRun {
 public:
  val init(val o) {
    return guarded([&] {
      train::TrainConfig c;
      read_training_config(o, c);  // generated (experiment_reads.hpp): every field of TRAINING_DEFAULTS, and the kernel
      run_ = std::make_unique<train::TrainingRun>(c);
      return info();
    });
  }
  val step(int n) {
    return guarded([&] {
      const train::StepMetrics m = run_->step(n);
      val out = val::object();
      out.set("firstStep", m.first_step);
      out.set("count", m.count());
      out.set("loss", f64(m.loss));
      out.set("gradNorm", f64(m.grad_norm));
      out.set("lr", f64(m.lr));
      out.set("entropy", f64(m.entropy));
      out.set("maxAbsLogit", f64(m.max_abs_logit));
      out.set("headScale", f64(m.head_scale));
      set_status(out);
      return out;
    });
  }
  val evaluate() {
    return guarded([&] {
      const train::EvalResult e = run_->evaluate();
      val out = val::object();
      out.set("loss", e.loss);
      out.set("tokenAccuracy", e.token_accuracy);
      out.set("sequenceAccuracy", e.sequence_accuracy);
      out.set("sequences", e.sequences);
      out.set("targets", e.targets);
      return out;
    });
  }
  val analysis(int bins) {
    return guarded([&] {
      const train::Analysis a = run_->analysis(bins);
      val layers = val::array();
      for (const auto& la : a.layers) {
        val x = val::object();
        x.set("logits", to_js(la.logits, NoFlags{}));
        x.set("normal", f64(la.normal));
        x.set("logitMoments", to_js(la.logit_moments, NoFlags{}));
        x.set("qk", to_js(la.qk, NoFlags{}));
        x.set("qSecondMoment", la.q_second_moment);
        x.set("kSecondMoment", la.k_second_moment);
        x.set("iidQkVariance", la.iid_qk_variance);
        x.set("scale", la.scale);
        x.set("entropy", la.entropy);
        x.set("maxAbsLogit", la.max_abs_logit);
        layers.call<void>("push", x);
      }
      val out = val::object();
      out.set("sequences", a.sequences);
      out.set("layers", layers);
      return out;
    });
  }
  val info() {
    const train::TrainConfig& c = run_->config();
    val out = val::object();
    out.set("parameters", static_cast<double>(run_->parameter_count()));
    out.set("memoryBytes", train::training_bytes(c));
    out.set("dk", train::head_dim(c));
    out.set("tokens", train::token_count(c));
    out.set("causal", train::task_is_causal(c.task));
    out.set("targetsPerSequence", train::targets_per_sequence(c));
    out.set("steps", c.steps);
    out.set("stepSeconds", run_->step_seconds());
    set_status(out);
    return out;
  }

 private:
  void set_status(val& out) const {
    out.set("stepsDone", run_->steps_done());
    out.set("finished", run_->finished());
    out.set("diverged", run_->diverged());
    out.set("firstNonfiniteStep", run_->diverged() ? val(run_->first_nonfinite_step()) : val::null());
  }
  std::unique_ptr<train::TrainingRun> run_;
};

#endif  // SQRTDK_FIRST_VIEW

// core.cost(name, params): the call of that name in estimate mode (cost.hpp, estimate_cost): its
// parameter checks, then the cost model's terms instead of the work. A refused parameter comes back
// as the call's own error.
val js_cost(std::string name, val o) {
  return guarded([&] {
    CostEstimate e;
    val refused = val::undefined();
    const auto run = [&](val (*call)(val)) {
      return estimate_cost(e, [&] { refused = call(o); });
    };
    bool reached = false;
    bool known = false;
#define SQRTDK_COST(js, cpp) \
  if (!known && name == #js) {   \
    known = true;                \
    reached = run(&js_##cpp);    \
  }
    SQRTDK_FIRST_PART_COSTED(SQRTDK_COST)
#ifndef SQRTDK_FIRST_VIEW
    SQRTDK_FULL_PART_COSTED(SQRTDK_COST)
#endif
#undef SQRTDK_COST
    if (!known) throw std::invalid_argument("cost: name = '" + name + "' has no cost model");
    if (!reached) {
      if (!refused.isUndefined() && refused.hasOwnProperty("__sqrtdkError")) return refused;
      throw std::logic_error("cost: " + name + " returned before its cost check");
    }
    val drivers = val::array();
    for (const CostTerm& t : e.terms) {
      val d = val::object();
      d.set("label", t.label);
      d.set("params", t.drivers);
      d.set("seconds", t.ns / 1e9);
      drivers.call<void>("push", d);
    }
    val out = val::object();
    out.set("seconds", e.ns / 1e9);
    out.set("bytes", e.bytes);
    out.set("drivers", drivers);
    return out;
  });
}

// The budgets of the calls that follow (core.js checks them against WORK_LIMIT_BOUNDS first).
void js_set_work_limits(double seconds, double bytes) { set_work_limits(seconds, bytes); }

val js_build_info() {
  val o = val::object();
  o.set("version", std::string(kVersion));
  o.set("simd", simd_available());
#ifdef SQRTDK_FIRST_VIEW
  o.set("part", std::string("first"));
#else
  o.set("part", std::string("full"));
#endif
  return o;
}

}  // namespace

// Every experiment of wasm/js/experiments.js, as the method of its name (experiment_calls.hpp,
// generated from that declaration): a new experiment is one js_<cpp name> above, not a line here.
#define SQRTDK_REGISTER(js, cpp) emscripten::function(#js, &js_##cpp);
EMSCRIPTEN_BINDINGS(sqrtdk) {
  SQRTDK_FIRST_PART_CALLS(SQRTDK_REGISTER)
  emscripten::function("buildInfo", &js_build_info);
  emscripten::function("cost", &js_cost);
  emscripten::function("setWorkLimits", &js_set_work_limits);
  emscripten::function("packedParams", &js_packed_params);
#ifndef SQRTDK_FIRST_VIEW
  SQRTDK_FULL_PART_CALLS(SQRTDK_REGISTER)
  emscripten::class_<JsTrainingRun>("TrainingRun")
      .constructor<>()
      .function("init", &JsTrainingRun::init)
      .function("step", &JsTrainingRun::step)
      .function("evaluate", &JsTrainingRun::evaluate)
      .function("analysis", &JsTrainingRun::analysis)
      .function("info", &JsTrainingRun::info);
#endif
}
