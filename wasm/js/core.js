// The public JS API of √dk Lab's core (types: core.d.ts): the loader and the core object. Works in
// Node 20 and in a module Web Worker. Each method checks the types of its parameters (TypeError,
// checks.js), fills defaults (experiments.js), and calls the embind function of the wasm module,
// which checks ranges and throws RangeError naming the value. Results are plain objects and typed
// arrays owned by JS (copied out of the wasm heap).
import { simd as detectSimd, exceptions as detectExceptions } from 'wasm-feature-detect';

import { CORE_VERSION } from './version.js';
import {
  EXPERIMENTS, EXPERIMENT_NAMES, defaultsOf, SCALE_NAMES, LONG_CONTEXT_METHODS, MASKED_ROW_RULES, ACCUMULATE_MODES, SCALE_AT, SCALE_ROUNDING,
  ATTENTION_VARIANTS, TRAINING_TASKS,
} from './experiments.js';
import {
  LIMITS, READ, alibiOf, checkNotDetached, checkObject, checked, describe, float32, float32Rows, freshView, headsKvOf, int,
  isDetached, maskOf, numberList, own, sendPacked, sinks, softcap, typeName, typedArrayKind,
} from './checks.js';
import { TRAINING_LIMITS, TRAINING_DEFAULTS, createTrainingRun } from './training-run.js';

export { LIMITS, TRAINING_LIMITS, TRAINING_DEFAULTS };

export { CORE_VERSION };
// Reading a Hugging Face config.json (no wasm): the scale a model applies, with its modifiers.
export { modelConfig, MODEL_CONFIG_LIMITS, MODEL_CONFIG_TYPES } from './model-config.js';

// The lists of names the calls accept, and the experiments themselves, are declared once in
// experiments.js; the loader re-exports the lists and derives its own from that declaration.
export { SCALE_NAMES, LONG_CONTEXT_METHODS, MASKED_ROW_RULES, ACCUMULATE_MODES, SCALE_AT, SCALE_ROUNDING, ATTENTION_VARIANTS, TRAINING_TASKS };

const ARTIFACTS = {
  simd128: {
    module: () => import('../dist/sqrtdk-simd.mjs'),
    wasm: () => new URL('../dist/sqrtdk-simd.wasm', import.meta.url),
  },
  baseline: {
    module: () => import('../dist/sqrtdk-base.mjs'),
    wasm: () => new URL('../dist/sqrtdk-base.wasm', import.meta.url),
  },
  // the SIMD128 build's first part (loadCore({ part: 'first' })): the same objects linked with
  // only the calls of FIRST_PART_CALLS, 28 KB gzip instead of 128 (CMakeLists.txt)
  'simd128:first': {
    module: () => import('../dist/sqrtdk-simd-first.mjs'),
    wasm: () => new URL('../dist/sqrtdk-simd-first.wasm', import.meta.url),
  },
};

/** The parts of the core loadCore can load: 'full' (every call) or 'first' (FIRST_PART_CALLS only). */
export const CORE_PARTS = Object.freeze(['full', 'first']);
/**
 * The calls of the core's first part (the variance view's: scoreVariance and its cost, with info
 * and limits): a core of part 'first' refuses every other method with a TypeError, and core.cost
 * any other name. Its scoreVariance is the full core's, bit for bit (same objects, same flags).
 */
export const FIRST_PART_CALLS = Object.freeze(EXPERIMENT_NAMES.filter((name) => EXPERIMENTS[name].part === 'first'));

const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;

let simdPromise = null;
/**
 * Whether the SIMD128 build runs here: the engine validates WebAssembly SIMD128 and exception
 * handling (the build's C++ exceptions are WebAssembly's own; CMakeLists.txt).
 * @returns {Promise<boolean>}
 */
export function simdSupported() {
  simdPromise ??= Promise.all([detectSimd(), detectExceptions()]).then(([simd, eh]) => simd && eh);
  return simdPromise;
}

// ---- the work budget of a loaded core (loadCore's limits) ----
/** The bounds of loadCore's `limits` (inclusive): seconds of estimated work, bytes of memory per call. */
export const WORK_LIMIT_BOUNDS = Object.freeze({
  workSeconds: Object.freeze([0.01, 3600]),
  workBytes: Object.freeze([1024 * 1024, 768 * 1024 * 1024]),
});
/** loadCore's limits, checked against WORK_LIMIT_BOUNDS and completed with LIMITS' defaults. */
function workLimits(what, v) {
  if (v === undefined) return Object.freeze({ workSeconds: LIMITS.workSeconds, workBytes: LIMITS.workBytes });
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new TypeError(`${what}: limits must be an object, got ${typeName(v)}`);
  const keys = Object.keys(WORK_LIMIT_BOUNDS);
  for (const key of Object.keys(v)) {
    if (!keys.includes(key)) throw new TypeError(`${what}: unknown option 'limits.${key}' (expected one of ${keys.join(', ')})`);
  }
  const out = {};
  for (const key of keys) {
    const x = v[key];
    if (x === undefined) { out[key] = LIMITS[key]; continue; }
    if (typeof x !== 'number') throw new TypeError(`${what}: limits.${key} must be a number, got ${typeName(x)}`);
    const [lo, hi] = WORK_LIMIT_BOUNDS[key];
    if (!(x >= lo && x <= hi)) throw new RangeError(`${what}: limits.${key} = ${x} is outside ${lo}..${hi}`);
    out[key] = x;
  }
  return Object.freeze(out);
}

/** The experiments core.cost estimates: the calls whose work the core budgets. */
export const COSTED_CALLS = Object.freeze(EXPERIMENT_NAMES.filter((name) => EXPERIMENTS[name].costed));

/** The parameters each call accepts, and the defaults it fills (experiments.js). */
const PARAM_KEYS = Object.freeze(Object.fromEntries(EXPERIMENT_NAMES.map((name) => [name, Object.freeze(Object.keys(EXPERIMENTS[name].params))])));
const DEFAULTS = Object.freeze(Object.fromEntries(EXPERIMENT_NAMES.map((name) => [name, defaultsOf(name)])));
/** Each call's declared parameters that READ knows, in declaration order: [key, spec, its READ check]. */
const READ_ENTRIES = Object.freeze(Object.fromEntries(EXPERIMENT_NAMES.map((name) => [name,
  Object.freeze(Object.entries(EXPERIMENTS[name].params).filter(([, spec]) => spec.type in READ).map(([key, spec]) => Object.freeze([key, spec, READ[spec.type]])))])));
const NONE = Object.freeze([]);
const ATTENTION_OWN = Object.freeze(['heads', 'seqLen', 'dk', 'headsKv', 'dv', 'sinks']);  // read by attention's method itself
// The limits the module's C++ side enforces now (one module may serve cores with other limits).
const moduleLimits = new WeakMap();  // embind module → limits last set

// ---- the core object ----
/** Every method of the core reads its object arguments as own properties only (see own()). */
function ownArgs(methods) {
  const out = {};
  for (const [name, f] of Object.entries(methods)) out[name] = typeof f === 'function' ? (...args) => f(...args.map(own)) : f;
  return Object.freeze(out);
}
function makeCore(mod, build, defaultKernel, limits = workLimits('loadCore', undefined), part = 'full') {
  // A call the first part lacks: a TypeError saying which part has it (the page loads the full one).
  const need = (name) => {
    if (part === 'first' && !FIRST_PART_CALLS.includes(name)) {
      throw new TypeError(`${name}: not in the first part of the core (loadCore({ part: 'first' }) has ${FIRST_PART_CALLS.join(', ')}); load the full core (part: 'full')`);
    }
  };
  // Every call runs under this core's limits: the module's budget is set before each call.
  const applyLimits = () => {
    if (moduleLimits.get(mod) === limits) return;
    mod.setWorkLimits(limits.workSeconds, limits.workBytes);
    moduleLimits.set(mod, limits);
  };
  // While core.cost resolves a call's parameters, `resolving` receives them instead of the call.
  let resolving = null;
  const call = (name, params) => {
    need(name);
    if (resolving !== null) { resolving.params = params; throw resolving; }
    applyLimits();
    sendPacked(mod, name, params);
    return checked(mod[name](params), name);
  };
  const kernelOf = (what, v) => {
    if (v === undefined) return defaultKernel;
    if (typeof v !== 'string') throw new TypeError(`${what}: kernel must be a string, got ${typeName(v)}`);
    if (v !== 'scalar' && v !== 'simd') throw new RangeError(`${what}: kernel = '${v}' is not one of 'scalar', 'simd'`);
    if (v === 'simd' && build !== 'simd128') {
      throw new RangeError(`${what}: kernel = 'simd' is not in the baseline build (this engine has no WebAssembly SIMD128); use 'scalar'`);
    }
    return v;
  };
  // The declared parameters of call `name` that READ knows, in declaration order, but those in
  // `own` (the method reads them itself): each checked once, by its declared type and default.
  // The object it returns is the one the call sends: a method adds its own parameters to it (no
  // spread into a second object: a call's fixed cost is in such copies at small shapes).
  const declared = (name, params, own = NONE) => {
    const out = {};
    for (const [key, spec, read] of READ_ENTRIES[name]) {
      if (own.length === 0 || !own.includes(key)) out[key] = read(name, key, params[key], spec, kernelOf, out);
    }
    return out;
  };
  // A 'params' experiment whose every parameter READ knows needs no method of its own below: its
  // method checks the keys and each parameter's type and default, and the core the ranges
  // (four of the declared experiments today, normalDraws among them).
  const withDerived = (methods) => {
    for (const name of EXPERIMENT_NAMES.filter((n) => !(n in methods))) {
      const e = EXPERIMENTS[name];
      const odd = Object.entries(e.params).filter(([, spec]) => !(spec.type in READ)).map(([key, spec]) => `${key} (${spec.type})`);
      if (e.call !== 'params' || odd.length > 0) {
        throw new Error(`core.js: ${name} needs a method of its own in makeCore (${e.call !== 'params' ? `call '${e.call}'` : `its parameters ${odd.join(', ')}`})`);
      }
      methods[name] = (params) => {
        checkObject(name, params, PARAM_KEYS[name]);
        return call(name, declared(name, params));
      };
    }
    return methods;
  };
  const core = ownArgs(withDerived({
    /** This core's budgets per call (loadCore's limits). */
    limits,
    /** 'full', or 'first': only FIRST_PART_CALLS (loadCore's part). */
    part,
    cost(name, params) {
      const what = 'cost';
      if (typeof name !== 'string') throw new TypeError(`${what}: name must be a string, got ${typeName(name)}`);
      if (!COSTED_CALLS.includes(name)) throw new RangeError(`${what}: name = '${name}' is not one of ${COSTED_CALLS.map((c) => `'${c}'`).join(', ')}`);
      need(name);
      // the parameters exactly as core[name](params) would send them (its checks and defaults)
      const box = { params: undefined };
      resolving = box;
      try {
        core[name](params);
      } catch (e) {
        if (e !== box) throw e;
      } finally {
        resolving = null;
      }
      // this core's limits, as its call would run under them (whether a sweep's scales share their
      // products depends on workBytes)
      applyLimits();
      sendPacked(mod, name, box.params);
      const est = checked(mod.cost(name, box.params));
      return Object.freeze({
        seconds: est.seconds,
        bytes: est.bytes,
        drivers: Object.freeze(est.drivers.map((d) => Object.freeze(d))),
        fits: est.seconds <= limits.workSeconds && est.bytes <= limits.workBytes,
      });
    },
    scoreVariance(params) {
      const what = 'scoreVariance';
      checkObject(what, params, PARAM_KEYS[what]);
      const p = declared(what, params, ['histDk']);
      return call(what, { ...p, histDk: int(what, 'histDk', params.histDk, p.dks[0]) });
    },
    softmaxJacobian(logits, options = {}) {
      const what = 'softmaxJacobian';
      checkObject(what, options, PARAM_KEYS[what].filter((key) => key !== 'logits'));
      need(what);
      const x = numberList(what, 'logits', logits, ...LIMITS.logits);
      applyLimits();
      return checked(mod.softmaxJacobian(x, softcap(what, options.softcap, DEFAULTS[what].softcap)));
    },
    attention(params) {
      const what = 'attention';
      checkObject(what, params, PARAM_KEYS[what]);
      // The shape first, then every tensor's real length against it: nothing is copied into the
      // wasm heap before the bindings' shape and budget checks (check_attention_work) pass.
      const heads = int(what, 'heads', params.heads);
      const seqLen = int(what, 'seqLen', params.seqLen);
      const dk = int(what, 'dk', params.dk);
      const headsKv = headsKvOf(what, heads, params.headsKv);
      const dv = int(what, 'dv', params.dv, DEFAULTS[what].dv);
      if (dv < 0 || dv > LIMITS.dk[1]) throw new RangeError(`${what}: dv = ${dv} is outside 0..${LIMITS.dk[1]} (0: dv = dk)`);
      const n = heads * seqLen * dk, nkv = headsKv * seqLen * dk, nkvV = headsKv * seqLen * (dv || dk);
      const q = float32(what, 'q', params.q, n, 'heads · seqLen · dk');
      const k = float32(what, 'k', params.k, nkv, 'headsKv · seqLen · dk');
      const v = float32(what, 'v', params.v, nkvV, dv ? 'headsKv · seqLen · dv' : 'headsKv · seqLen · dk');
      const p = declared(what, params, ATTENTION_OWN);
      p.q = q; p.k = k; p.v = v;
      p.heads = heads; p.headsKv = params.headsKv === undefined ? 0 : headsKv; p.seqLen = seqLen; p.dk = dk; p.dv = dv;
      p.mask = maskOf(what, params.mask, heads, seqLen);
      p.sinks = sinks(what, params.sinks, heads);
      p.alibi = alibiOf(what, params.alibi, heads);
      p.queryScale = params.queryScale === undefined || params.queryScale === null ? null : float32(what, 'queryScale', params.queryScale, seqLen, 'seqLen');
      const r = call(what, p);
      // the staged results are views of the wasm heap (the next call reuses it): copied out at once by the
      // constructor, which runs no caller code (slice() asks Symbol.species); optional ones as own keys only
      r.output = new Float32Array(r.output);
      if (r.weights !== null) r.weights = new Float32Array(r.weights);
      if (Object.hasOwn(r, 'sinkWeights')) r.sinkWeights = new Float32Array(r.sinkWeights);
      if (Object.hasOwn(r, 'lse')) r.lse = new Float32Array(r.lse);
      return r;
    },
    mergeAttention(params) {
      const what = 'mergeAttention';
      checkObject(what, params, PARAM_KEYS[what]);
      const spec = EXPERIMENTS.mergeAttention.params;
      const dims = {};
      for (const key of ['heads', 'seqLen', 'dv']) {
        const x = int(what, key, params[key]);
        const [lo, hi] = spec[key].range;
        if (x < lo || x > hi) throw new RangeError(`${what}: ${key} = ${x} is outside ${lo}..${hi}`);
        dims[key] = x;
      }
      const rows = dims.heads * dims.seqLen;
      const part = (name) => {
        const s = params[name];
        if (s === null || typeof s !== 'object' || Array.isArray(s)) {
          throw new TypeError(`${what}: ${name} must be { output, lse } (an attention result with lse: true), got ${typeName(s)}`);
        }
        return {
          output: float32(what, `${name}.output`, s.output, rows * dims.dv, 'heads · seqLen · dv'),
          lse: float32(what, `${name}.lse`, s.lse, rows, 'heads · seqLen'),
        };
      };
      return call('mergeAttention', { a: part('a'), b: part('b'), ...dims });
    },
    simdPeak(params = {}) {
      const what = 'simdPeak';
      checkObject(what, params, PARAM_KEYS[what]);
      if (build !== 'simd128') throw new RangeError(`${what}: the baseline build has no WebAssembly SIMD128`);
      return call(what, declared(what, params));
    },
    tensorStats(params) {
      const what = 'tensorStats';
      checkObject(what, params, PARAM_KEYS[what]);
      const heads = int(what, 'heads', params.heads);
      const seqLen = int(what, 'seqLen', params.seqLen);
      const dk = int(what, 'dk', params.dk);
      const n = heads * seqLen * dk;
      // A zero-length v is refused (it is not "no v": leave v out, or pass null, to draw V).
      const q = float32(what, 'q', params.q, n, 'heads · seqLen · dk');
      const k = float32(what, 'k', params.k, n, 'heads · seqLen · dk');
      const v = params.v === undefined || params.v === null ? null : float32(what, 'v', params.v, n, 'heads · seqLen · dk');
      return call(what, { ...declared(what, params, ['heads', 'seqLen', 'dk']), q, k, v, heads, seqLen, dk });
    },
    precisionLab(params) {
      const what = 'precisionLab';
      checkObject(what, params, PARAM_KEYS[what]);
      let logits = null;
      let q = null, k = null;
      const hasQ = params.q !== undefined && params.q !== null, hasK = params.k !== undefined && params.k !== null;
      if (hasQ || hasK) {
        // q [queries, dk] and k [keys, dk]: the products are formed in each format
        if (!hasQ || !hasK) throw new TypeError(`${what}: q and k go together: give both (q [queries, dk], k [keys, dk]) or neither`);
        if (params.logits !== undefined && params.logits !== null) throw new TypeError(`${what}: logits cannot go with q and k: give one of them`);
        const clash = ['rows', 'seqLen', 'seed'].filter((key) => params[key] !== undefined);
        if (clash.length > 0) {
          throw new TypeError(`${what}: ${clash.join(', ')} cannot go with q and k (they describe random rows; q and k give the rows and keys): leave ${clash.length > 1 ? 'them' : 'it'} out`);
        }
        const dk = int(what, 'dk', params.dk);
        q = float32Rows(what, 'q', params.q, dk, 1024, 'queries');
        k = float32Rows(what, 'k', params.k, dk, 8192, 'keys');
      } else if (params.scaleAt !== undefined) {
        throw new TypeError(`${what}: scaleAt goes with q and k (it says where the scale meets the products): give q and k, or leave scaleAt out`);
      } else if (params.scaleRounding !== undefined) {
        throw new TypeError(`${what}: scaleRounding goes with q and k (it says how a float16/bfloat16 cell holds the scale): give q and k, or leave scaleRounding out`);
      }
      if (params.logits !== undefined && params.logits !== null) {
        // Explicit logits are one row: the parameters of the random rows cannot go with them.
        const clash = ['rows', 'seqLen', 'dk', 'heads', 'scale', 'seed'].filter((k) => params[k] !== undefined);
        if (clash.length > 0) {
          throw new TypeError(`${what}: ${clash.join(', ')} cannot go with logits (they describe random rows; explicit logits are one row): leave ${clash.length > 1 ? 'them' : 'it'} out, or leave logits out`);
        }
        if (Array.isArray(params.logits) && params.logits.length === 0) {
          throw new RangeError(`${what}: logits is empty; give 1..8192 values or leave it out`);
        }
        logits = numberList(what, 'logits', params.logits, 1, 8192);
      }
      return call(what, { ...declared(what, params), logits, q, k });
    },
    normalisers(params = {}) {
      const what = 'normalisers';
      checkObject(what, params, PARAM_KEYS[what]);
      let logits = null;
      if (params.logits !== undefined && params.logits !== null) {
        // one explicit row: the parameters of the drawn rows cannot go with it
        const clash = ['seqLen', 'causal'].filter((key) => params[key] !== undefined);
        if (clash.length > 0) {
          throw new TypeError(`${what}: ${clash.join(', ')} cannot go with logits (explicit logits are one row of their own length): leave ${clash.length > 1 ? 'them' : 'it'} out`);
        }
        logits = numberList(what, 'logits', params.logits, 1, 4096);
      }
      return call(what, { ...declared(what, params), logits });
    },
    qkClip(params = {}) {
      const what = 'qkClip';
      checkObject(what, params, PARAM_KEYS[what]);
      const p = declared(what, params, ['headsKv']);
      return call(what, { ...p, headsKv: params.headsKv === undefined || params.headsKv === 0 ? 0 : headsKvOf(what, p.heads, params.headsKv) });
    },
    modelScales(...args) {
      // the catalogue takes nothing: an argument (options that would be ignored) is refused
      need('modelScales');
      if (args.length > 0) {
        throw new TypeError(`modelScales: takes no arguments, got ${args.length} (${args.map(describe).join(', ')})`);
      }
      return checked(mod.modelScales());
    },
    createTrainingRun(config = {}) {
      need('createTrainingRun');
      return createTrainingRun(mod, config, kernelOf, applyLimits);
    },
    info() {
      const b = mod.buildInfo();
      // heapBytes: the wasm heap's current size (it grows with the largest call so far, never shrinks).
      return { version: b.version, kernel: defaultKernel, simd: b.simd, build, part, heapBytes: mod.HEAP8.length };
    },
  }));
  return core;
}

const modules = new Map();  // build → Promise<embind module>, loaded once

// The bytes of a wasm binary given as an ArrayBuffer or a genuine Uint8Array (a copy), or a TypeError.
function binaryBytes(what, v) {
  if (v instanceof ArrayBuffer) {
    if (isDetached(v)) throw new TypeError(`${what}: wasmBinary is a detached ArrayBuffer (it was transferred)`);
    return new Uint8Array(v.slice(0));
  }
  if (typedArrayKind(v) === 'Uint8Array') {
    checkNotDetached(what, 'wasmBinary', v, 'Uint8Array');
    return Uint8Array.from(freshView(v, 'Uint8Array'));
  }
  throw new TypeError(`${what}: wasmBinary must be an ArrayBuffer or a Uint8Array, got ${describe(v)}`);
}
function checkWasm(what, name, bytes) {
  if (!WebAssembly.validate(bytes)) {
    throw new TypeError(`${what}: ${name} is not a valid WebAssembly module (${bytes.length} bytes${bytes.length >= 4 ? `, starting ${Array.from(bytes.subarray(0, 4), (b) => b.toString(16).padStart(2, '0')).join(' ')}` : ''})`);
  }
  return bytes;
}
// A number per WebAssembly.Module object: a compiled module is memoised by identity.
const moduleIds = new WeakMap();
let modulesSeen = 0;
function moduleId(mod) {
  if (!(mod instanceof WebAssembly.Module)) throw new TypeError(`loadCore: wasmModule must be a WebAssembly.Module, not ${describe(mod)}`);
  if (!moduleIds.has(mod)) moduleIds.set(mod, ++modulesSeen);
  return moduleIds.get(mod);
}
// FNV-1a of the bytes: custom binaries are memoised by their content.
function fingerprint(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; ++i) h = Math.imul(h ^ bytes[i], 0x01000193);
  return `${bytes.length}:${(h >>> 0).toString(16)}`;
}

/** What a load asked for, as its refusals name it: "the 'simd128' build", or "the first part of the 'simd128' build". */
function target(build, part) {
  return part === 'first' ? `the first part of the '${build}' build` : `the '${build}' build`;
}

// The module a load gave is this core's `build` (a custom binary or module of the other build, or of
// another program, links without its bindings): else a TypeError naming the source.
async function instantiate(build, options, bytes) {
  const mod = await instantiateRaw(build, options, bytes);
  const source = ['wasmBinary', 'wasmUrl', 'wasmModule'].find((k) => options[k] !== undefined) ?? 'the build';
  // the other build links with this loader too (both import the same functions) but its function
  // table is not the one this loader registered: its first call fails
  let info = null, failure = '';
  try { info = typeof mod.buildInfo === 'function' ? mod.buildInfo() : null; } catch (e) { failure = String(e?.message ?? e).slice(0, 200); }
  if (!info || info.simd !== (build === 'simd128')) {
    throw new TypeError(`loadCore: ${source} is not ${target(build, options.part)} of this core${info ? ` (it reports simd = ${info.simd})` : failure ? ` (its bindings fail: ${failure})` : ` (it has no bindings of this core, or it is its other part: each part's .wasm loads only with its own part, and this load asked for part '${options.part ?? 'full'}')`}`);
  }
  // a core of another version (a stale cached .wasm, a file from another release) would give other
  // numbers under this version's name: refused
  // buildInfo().part: 'first' or 'full' (cores before the first part existed report none: full)
  const part = info.part ?? 'full';
  if (part !== (options.part ?? 'full')) {
    throw new TypeError(`loadCore: ${source} is the '${part}' part of this core, not the '${options.part ?? 'full'}' part asked for`);
  }
  if (info.version !== CORE_VERSION) {
    throw new TypeError(`loadCore: ${source} is core ${String(info.version).slice(0, 40)}, not ${CORE_VERSION} (this loader's CORE_VERSION): use the loader of its own version, or this version's .wasm`);
  }
  return mod;
}

async function instantiateRaw(build, options, bytes) {
  const what = 'loadCore';
  const art = ARTIFACTS[options.part === 'first' ? `${build}:first` : build];
  const { default: factory } = await art.module();
  // The module's own messages (an abort while loading) go into the rejection, not to stderr.
  const messages = [];
  let loading = true;
  const moduleArgs = {
    print: (t) => { if (loading) messages.push(String(t)); else console.log(t); },
    printErr: (t) => { if (loading) messages.push(String(t)); else console.error(t); },
  };
  if (options.wasmModule) {
    // a WebAssembly.Module compiled elsewhere (the page compiles once and posts it to each worker):
    // Emscripten's instantiateWasm hook instantiates it with the loader's imports
    const mod = options.wasmModule;
    if (!(mod instanceof WebAssembly.Module)) throw new TypeError(`loadCore: wasmModule must be a WebAssembly.Module, not ${describe(mod)}`);
    if (!WebAssembly.Module.exports(mod).some((e) => e.kind === 'memory')) {
      throw new TypeError(`${what}: wasmModule is not ${target(build, options.part)} of this core (it exports no memory: an empty or foreign WebAssembly module)`);
    }
    let fail;
    const failed = new Promise((_, reject) => { fail = reject; });
    // a Module that is not this build (another program, or the other build) fails to link or to
    // start: a TypeError naming wasmModule, never an uncaught throw inside the loader
    // (the other part of the same build fails here too, at its first binding: its imports are named by position)
    const refuse = (e) => fail(new TypeError(`${what}: wasmModule is not ${target(build, options.part)} of this core (${String(e?.message ?? e).slice(0, 200)}; each part's .wasm loads only with its own part, and this load asked for part '${options.part ?? 'full'}')`));
    moduleArgs.instantiateWasm = (imports, receive) => {
      WebAssembly.instantiate(mod, imports).then((instance) => {
        try { receive(instance, mod); } catch (e) { refuse(e); }
      }, refuse);
      return {};
    };
    try {
      return await Promise.race([factory(moduleArgs), failed]);
    } finally {
      loading = false;
    }
  }
  if (bytes) {
    let compiled = null;
    try { compiled = new WebAssembly.Module(bytes); } catch { /* the loader says why below */ }
    if (compiled && !WebAssembly.Module.exports(compiled).some((e) => e.kind === 'memory')) {
      const source = options.wasmUrl !== undefined ? 'wasmUrl' : 'wasmBinary';
      throw new TypeError(`${what}: the wasm module did not load (custom binary '${build}'${options.part === 'first' ? ', part first' : ''}): ${source} exports no memory (an empty or foreign WebAssembly module), so it is not this core`);
    }
    moduleArgs.wasmBinary = bytes;
  } else if (isNode) {
    // Emscripten 3.1.6's ES6 loader cannot read files in Node: hand it the bytes.
    const fsName = 'node:fs/promises';
    const { readFile } = await import(/* @vite-ignore */ fsName);
    moduleArgs.wasmBinary = await readFile(art.wasm());
  } else {
    const url = String(options.wasmUrl ?? art.wasm());
    moduleArgs.locateFile = (path) => (path.endsWith('.wasm') ? url : path);
  }
  try {
    const mod = await factory(moduleArgs);
    loading = false;
    return mod;
  } catch (e) {
    loading = false;
    const detail = messages.filter((m) => m.trim() !== '').slice(-2).join('; ') || String(e?.message ?? e);
    throw new TypeError(`${what}: the wasm module did not load (${bytes ? 'custom binary' : 'build'} '${build}'${options.part === 'first' && (bytes || options.wasmUrl !== undefined) ? ', part first: each part\'s .wasm goes with its own part' : ''}): ${detail}`);
  }
}

// In Node, the bytes of options.wasmUrl (file:, http:, https: or data: URL, or a path), or null.
async function nodeUrlBytes(what, wasmUrl) {
  if (wasmUrl === undefined) return null;
  if (typeof wasmUrl !== 'string' && !(wasmUrl instanceof URL)) {
    throw new TypeError(`${what}: wasmUrl must be a string or a URL, got ${typeName(wasmUrl)}`);
  }
  let url;
  try {
    url = new URL(String(wasmUrl), `file://${process.cwd()}/`);
  } catch {
    throw new TypeError(`${what}: wasmUrl = '${String(wasmUrl)}' is not a URL or a path`);
  }
  let data;
  try {
    if (url.protocol === 'file:') {
      const fsName = 'node:fs/promises';
      const { readFile } = await import(/* @vite-ignore */ fsName);
      data = await readFile(url);
    } else if (['http:', 'https:', 'data:'].includes(url.protocol)) {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      data = await res.arrayBuffer();
    } else {
      throw new TypeError(`${what}: wasmUrl = '${url.href}' has protocol ${url.protocol}; use file:, http:, https: or data:`);
    }
  } catch (e) {
    if (e instanceof TypeError && e.message.startsWith(what)) throw e;
    throw new TypeError(`${what}: wasmUrl = '${url.href}' could not be read: ${e?.message ?? e}`);
  }
  return { bytes: checkWasm(what, 'wasmUrl', new Uint8Array(data)), href: url.href };
}

/** The options loadCore accepts; any other is refused with a TypeError naming it. */
const LOAD_OPTIONS = ['kernel', 'build', 'wasmBinary', 'wasmUrl', 'wasmModule', 'limits', 'part'];

/**
 * Loads the core. The wasm module of each build is instantiated once (the promise is memoised).
 * @param {import('./core.js').LoadOptions} [options]
 */
export async function loadCore(options = {}) {
  const what = 'loadCore';
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new TypeError(`${what}: options must be an object`);
  options = own(options);
  for (const key of Object.keys(options)) {
    if (!LOAD_OPTIONS.includes(key)) throw new TypeError(`${what}: unknown option '${key}' (expected one of ${LOAD_OPTIONS.join(', ')})`);
  }
  const limits = workLimits(what, options.limits);
  const choice = options.kernel ?? 'auto';
  if (!['auto', 'simd', 'scalar'].includes(choice)) {
    throw new RangeError(`${what}: kernel = '${choice}' is not one of 'auto', 'simd', 'scalar'`);
  }
  const buildChoice = options.build ?? 'auto';
  if (!['auto', 'simd128', 'baseline'].includes(buildChoice)) {
    throw new RangeError(`${what}: build = '${buildChoice}' is not one of 'auto', 'simd128', 'baseline'`);
  }
  const hasSimd = await simdSupported();
  if ((buildChoice === 'simd128' || choice === 'simd') && !hasSimd) {
    throw new RangeError(`${what}: this engine does not validate WebAssembly SIMD128, so the simd128 build and the 'simd' kernel are unavailable`);
  }
  if (buildChoice === 'baseline' && choice === 'simd') {
    throw new RangeError(`${what}: kernel = 'simd' needs the simd128 build, not 'baseline'`);
  }
  const build = buildChoice === 'auto' ? (hasSimd ? 'simd128' : 'baseline') : buildChoice;
  const partChoice = options.part ?? 'full';
  if (!CORE_PARTS.includes(partChoice)) {
    throw new RangeError(`${what}: part = '${String(partChoice)}' is not one of ${CORE_PARTS.map((p) => `'${p}'`).join(', ')}`);
  }
  if (partChoice === 'first' && buildChoice === 'baseline') {
    throw new RangeError(`${what}: part = 'first' is a part of the simd128 build; the baseline build loads whole (leave part out)`);
  }
  // the first part exists only in the SIMD128 build: with build 'auto' on an engine without SIMD128
  // the whole baseline core comes instead (core.part says which)
  const part = build === 'simd128' ? partChoice : 'full';
  options = Object.assign(Object.create(null), options, { part });  // still own properties only (see own())
  const sources = ['wasmBinary', 'wasmUrl', 'wasmModule'].filter((k) => options[k] !== undefined);
  if (sources.length > 1) throw new TypeError(`${what}: ${sources.join(' and ')} cannot go together: give one source of the core`);
  const kernel = choice === 'auto' ? (build === 'simd128' ? 'simd' : 'scalar') : choice;
  // A custom binary is memoised by its content (the bytes of wasmBinary, or those read from
  // wasmUrl in Node), a browser wasmUrl by its address; bytes that are not wasm are refused here.
  let bytes = null;
  let key = part === 'first' ? `${build}:first` : build;
  if (options.wasmBinary !== undefined) {
    bytes = checkWasm(what, 'wasmBinary', binaryBytes(what, options.wasmBinary));
    key = `${key}:bin:${fingerprint(bytes)}`;
  } else if (options.wasmUrl !== undefined && isNode) {
    const got = await nodeUrlBytes(what, options.wasmUrl);
    bytes = got.bytes;
    key = `${key}:bin:${fingerprint(bytes)}`;
  } else if (options.wasmUrl !== undefined) {
    key = `${key}:url:${String(options.wasmUrl)}`;
  } else if (options.wasmModule !== undefined) {
    key = `${key}:module:${moduleId(options.wasmModule)}`;
  }
  if (!modules.has(key)) {
    const p = instantiate(build, options, bytes);
    modules.set(key, p);
    p.catch(() => modules.delete(key));  // a failed load may be retried
  }
  return makeCore(await modules.get(key), build, kernel, limits, part);
}
