// The public JS API of √dk Lab's core (types: core.d.ts). Works in Node 20 and in a module Web
// Worker. It checks the types of every parameter (TypeError), fills defaults, and calls the
// embind functions of the wasm module, which check ranges and throw RangeError naming the value.
// Results are plain objects and typed arrays owned by JS (copied out of the wasm heap).
import { simd as detectSimd } from 'wasm-feature-detect';

export { CORE_VERSION } from './version.js';

export const SCALE_NAMES = Object.freeze(['none', 'inv_sqrt_dk', 'inv_dk', 'inv_sqrt_d_model']);

export const LONG_CONTEXT_METHODS = Object.freeze(['fixed', 'logn', 'yarn', 'article']);

/** How a row with a zero normaliser (every key masked, or every exp underflowed) comes out: 'nan' (its formula) or 'zero' (fused kernels). */
export const MASKED_ROW_RULES = Object.freeze(['nan', 'zero']);
/** Where the precision lab's half-precision softmax accumulates: 'same' (the storage format) or 'float32'. */
export const ACCUMULATE_MODES = Object.freeze(['same', 'float32']);

export const LIMITS = Object.freeze({
  dk: Object.freeze([1, 16384]),
  seqLen: Object.freeze([1, 8192]),
  heads: Object.freeze([1, 64]),
  samples: Object.freeze([2, 1000000]),
  seed: Object.freeze([0, 4294967295]),
  bins: Object.freeze([4, 400]),
  heatmapSize: Object.freeze([1, 512]),
  logits: Object.freeze([1, 4096]),
  workBytes: 512 * 1024 * 1024,
  workMacs: 2 ** 33,
});

// ---- the training lab (createTrainingRun) ----
export const ATTENTION_VARIANTS = Object.freeze(['none', 'inv_sqrt_dk', 'inv_dk', 'learnable_temperature', 'qk_layernorm', 'qk_l2']);
export const TRAINING_TASKS = Object.freeze(['copy', 'reverse', 'sort', 'assoc_recall']);

/** Ranges of the integer fields of a training config (the core checks them too) and the memory budget of a run. */
export const TRAINING_LIMITS = Object.freeze({
  vocab: Object.freeze([2, 256]),
  seqLen: Object.freeze([8, 64]),
  layers: Object.freeze([1, 6]),
  dModel: Object.freeze([8, 512]),
  heads: Object.freeze([1, 16]),
  mlp: Object.freeze([4, 2048]),
  batch: Object.freeze([1, 256]),
  steps: Object.freeze([1, 20000]),
  evalSize: Object.freeze([1, 4096]),
  memoryBytes: 64 * 1024 * 1024,
});

/** The default training config (the core's TrainConfig defaults; kernel: the core's). */
export const TRAINING_DEFAULTS = Object.freeze({
  task: 'copy', vocab: 16, seqLen: 16, layers: 2, dModel: 64, heads: 4, mlp: 128, norm: 'pre',
  attention: 'inv_sqrt_dk', softmax: 'safe', softcap: 0, initStd: 0.125, batch: 16, steps: 200, lr: 3e-3, warmup: 0,
  clip: 1, weightDecay: 0.01, beta1: 0.9, beta2: 0.99, adamEps: 1e-8, evalSize: 256, seed: 0,
});

function choice(what, name, v, options, fallback) {
  if (v === undefined) return fallback;
  if (typeof v !== 'string') throw new TypeError(`${what}: ${name} must be a string, got ${typeName(v)}`);
  if (!options.includes(v)) throw new RangeError(`${what}: ${name} = '${v}' is not one of ${options.map((o) => `'${o}'`).join(', ')}`);
  return v;
}
function trainInt(what, name, v, fallback) {
  if (v === undefined) return fallback;
  if (typeof v !== 'number') throw new TypeError(`${what}: ${name} must be a number, got ${typeName(v)}`);
  if (!Number.isInteger(v)) throw new RangeError(`${what}: ${name} = ${v} must be an integer`);
  const lim = TRAINING_LIMITS[name];
  if (lim && (v < lim[0] || v > lim[1])) throw new RangeError(`${what}: ${name} = ${v} is outside ${lim[0]}..${lim[1]}`);
  if (Math.abs(v) > 2147483647) throw new RangeError(`${what}: ${name} = ${v} is too large`);
  return v;
}

// The bindings return C++ exceptions as {__sqrtdkError: {name, message}} (throwing from wasm would
// leak the call's C++ objects); this turns them into real errors.
function checked(result) {
  if (result !== null && typeof result === 'object' && Object.hasOwn(result, '__sqrtdkError')) {
    const { name, message } = result.__sqrtdkError;
    throw name === 'RangeError' ? new RangeError(message) : new Error(message);
  }
  return result;
}

// Frees the wasm-side state of runs the caller forgot to dispose() once their wrapper is collected.
const runRegistry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((handle) => { try { handle.delete(); } catch { /* already gone */ } })
  : null;

function wrapTrainingRun(handle, config) {
  let live = true;
  const use = (method) => {
    if (!live) throw new Error(`trainingRun.${method}: this run was disposed`);
    return handle;
  };
  const run = Object.freeze({
    config,
    step(n = 1) {
      const what = 'trainingRun.step';
      if (typeof n !== 'number') throw new TypeError(`${what}: n must be a number, got ${typeName(n)}`);
      if (!Number.isInteger(n) || n < 1 || n > TRAINING_LIMITS.steps[1]) {
        throw new RangeError(`${what}: n = ${n} is outside 1..${TRAINING_LIMITS.steps[1]}`);
      }
      return checked(use('step').step(n));
    },
    evaluate() { return checked(use('evaluate').evaluate()); },
    analysis(bins = 64) {
      const what = 'trainingRun.analysis';
      if (typeof bins !== 'number') throw new TypeError(`${what}: bins must be a number, got ${typeName(bins)}`);
      if (!Number.isInteger(bins) || bins < 8 || bins > 200) throw new RangeError(`${what}: bins = ${bins} is outside 8..200`);
      return checked(use('analysis').analysis(bins));
    },
    info() { return checked(use('info').info()); },
    get disposed() { return !live; },
    dispose() {
      if (!live) return;
      live = false;
      runRegistry?.unregister(run);
      handle.delete();
    },
  });
  runRegistry?.register(run, handle, run);
  return run;
}

const TRAINING_KEYS = ['task', 'vocab', 'seqLen', 'layers', 'dModel', 'heads', 'mlp', 'norm', 'attention', 'softmax', 'softcap',
  'initStd', 'batch', 'steps', 'lr', 'warmup', 'clip', 'weightDecay', 'beta1', 'beta2', 'adamEps', 'evalSize', 'seed', 'kernel'];

const ARTIFACTS = {
  simd128: {
    module: () => import('../dist/sqrtdk-simd.mjs'),
    wasm: () => new URL('../dist/sqrtdk-simd.wasm', import.meta.url),
  },
  baseline: {
    module: () => import('../dist/sqrtdk-base.mjs'),
    wasm: () => new URL('../dist/sqrtdk-base.wasm', import.meta.url),
  },
};

const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;

let simdPromise = null;
/** @returns {Promise<boolean>} */
export function simdSupported() {
  simdPromise ??= detectSimd();
  return simdPromise;
}

// ---- parameter checks (types here; ranges in C++) ----
function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
function checkObject(what, params, allowed) {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new TypeError(`${what}: params must be an object, got ${typeName(params)}`);
  }
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`${what}: unknown parameter '${key}' (expected one of ${allowed.join(', ')})`);
    }
  }
}
function int(what, name, v, fallback) {
  if (v === undefined) {
    if (fallback === undefined) throw new TypeError(`${what}: ${name} is required`);
    return fallback;
  }
  if (typeof v !== 'number') throw new TypeError(`${what}: ${name} must be a number, got ${typeName(v)}`);
  if (!Number.isInteger(v)) throw new RangeError(`${what}: ${name} = ${v} must be an integer`);
  const lim = LIMITS[name];
  if (lim && (v < lim[0] || v > lim[1])) throw new RangeError(`${what}: ${name} = ${v} is outside ${lim[0]}..${lim[1]}`);
  if (Math.abs(v) > 2147483647) throw new RangeError(`${what}: ${name} = ${v} is too large`);
  return v;
}
function num(what, name, v, fallback) {
  if (v === undefined) return fallback;
  if (typeof v !== 'number') throw new TypeError(`${what}: ${name} must be a number, got ${typeName(v)}`);
  if (!Number.isFinite(v)) throw new RangeError(`${what}: ${name} = ${v} must be a finite number`);
  return v;
}
function seed(what, v) {
  if (v === undefined) return 0;
  if (typeof v !== 'number') throw new TypeError(`${what}: seed must be a number, got ${typeName(v)}`);
  if (!Number.isInteger(v) || v < 0 || v > 4294967295) {
    throw new RangeError(`${what}: seed = ${v} must be an integer in 0..4294967295`);
  }
  return v;
}
function bool(what, name, v, fallback) {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw new TypeError(`${what}: ${name} must be a boolean, got ${typeName(v)}`);
  return v;
}
function scale(what, v, fallback = 'inv_sqrt_dk') {
  if (v === undefined) return fallback;
  if (typeof v === 'number') {
    if (!(v > 0) || !Number.isFinite(v) || v > 1e4) throw new RangeError(`${what}: scale = ${v} must be a positive number ≤ 10000`);
    return v;
  }
  if (typeof v === 'string') {
    if (!SCALE_NAMES.includes(v)) {
      throw new RangeError(`${what}: scale = '${v}' is not one of ${SCALE_NAMES.map((s) => `'${s}'`).join(', ')} or a positive number`);
    }
    return v;
  }
  throw new TypeError(`${what}: scale must be a string or a number, got ${typeName(v)}`);
}
// Logit soft-capping: absent = off (0 for the core); otherwise a number in (0, 1e6].
function softcap(what, v) {
  if (v === undefined) return 0;
  if (typeof v !== 'number') throw new TypeError(`${what}: softcap must be a number, got ${typeName(v)}`);
  if (!(v > 0) || !Number.isFinite(v) || v > 1e6) {
    throw new RangeError(`${what}: softcap = ${v} must be a positive number ≤ 1e6 (leave it out to turn soft-capping off)`);
  }
  return v;
}
function intList(what, name, v) {
  if (!Array.isArray(v) && !ArrayBuffer.isView(v)) {
    throw new TypeError(`${what}: ${name} must be an array of integers, got ${typeName(v)}`);
  }
  return Array.from(v, (x, i) => int(what, `${name}[${i}]`, x));
}
function isDetached(buffer) {
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  try { new Uint8Array(buffer); return false; } catch { return true; }
}
function float32(what, name, v) {
  if (!(v instanceof Float32Array)) throw new TypeError(`${what}: ${name} must be a Float32Array, got ${typeName(v)}`);
  // A detached buffer (transferred to a worker) reads as length 0: say what happened.
  if (v.length === 0 && v.buffer.byteLength === 0 && v.byteOffset === 0 && isDetached(v.buffer)) {
    throw new TypeError(`${what}: ${name} is a Float32Array over a detached ArrayBuffer (it was transferred)`);
  }
  return v;
}

// ---- the core object ----
function makeCore(mod, build, defaultKernel) {
  const kernelOf = (what, v) => {
    if (v === undefined) return defaultKernel;
    if (typeof v !== 'string') throw new TypeError(`${what}: kernel must be a string, got ${typeName(v)}`);
    if (v !== 'scalar' && v !== 'simd') throw new RangeError(`${what}: kernel = '${v}' is not one of 'scalar', 'simd'`);
    if (v === 'simd' && build !== 'simd128') {
      throw new RangeError(`${what}: kernel = 'simd' is not in the baseline build (this engine has no WebAssembly SIMD128); use 'scalar'`);
    }
    return v;
  };
  return Object.freeze({
    scoreVariance(params) {
      const what = 'scoreVariance';
      checkObject(what, params, ['dks', 'samples', 'seed', 'variance', 'histDk', 'bins']);
      const dks = intList(what, 'dks', params.dks);
      return checked(mod.scoreVariance({
        dks,
        samples: int(what, 'samples', params.samples, 20000),
        seed: seed(what, params.seed),
        variance: num(what, 'variance', params.variance, 1),
        histDk: int(what, 'histDk', params.histDk, dks.length > 0 ? dks[0] : 64),
        bins: int(what, 'bins', params.bins, 60),
      }));
    },
    attentionStats(params) {
      const what = 'attentionStats';
      checkObject(what, params, ['heads', 'headsKv', 'seqLen', 'dk', 'scale', 'seed', 'variance', 'threshold', 'kernel', 'heatmapSize', 'perRow', 'gradients', 'causal', 'softcap']);
      return checked(mod.attentionStats({
        heads: int(what, 'heads', params.heads, 8),
        headsKv: int(what, 'headsKv', params.headsKv, 0),
        seqLen: int(what, 'seqLen', params.seqLen, 128),
        dk: int(what, 'dk', params.dk),
        scale: scale(what, params.scale),
        seed: seed(what, params.seed),
        variance: num(what, 'variance', params.variance, 1),
        threshold: num(what, 'threshold', params.threshold, 0.99),
        kernel: kernelOf(what, params.kernel),
        heatmapSize: int(what, 'heatmapSize', params.heatmapSize, 128),
        perRow: bool(what, 'perRow', params.perRow, true),
        gradients: bool(what, 'gradients', params.gradients, true),
        causal: bool(what, 'causal', params.causal, false),
        softcap: softcap(what, params.softcap),
      }));
    },
    saturationSweep(params) {
      const what = 'saturationSweep';
      checkObject(what, params, ['dks', 'scales', 'heads', 'seqLen', 'seed', 'variance', 'threshold', 'kernel', 'gradients', 'causal', 'softcap']);
      let scales = ['none', 'inv_sqrt_dk', 'inv_dk'];
      if (params.scales !== undefined) {
        if (!Array.isArray(params.scales)) throw new TypeError(`${what}: scales must be an array, got ${typeName(params.scales)}`);
        scales = params.scales.map((s) => scale(what, s));
      }
      return checked(mod.saturationSweep({
        dks: intList(what, 'dks', params.dks),
        scales,
        heads: int(what, 'heads', params.heads, 4),
        seqLen: int(what, 'seqLen', params.seqLen, 128),
        seed: seed(what, params.seed),
        variance: num(what, 'variance', params.variance, 1),
        threshold: num(what, 'threshold', params.threshold, 0.99),
        kernel: kernelOf(what, params.kernel),
        gradients: bool(what, 'gradients', params.gradients, true),
        causal: bool(what, 'causal', params.causal, false),
        softcap: softcap(what, params.softcap),
      }));
    },
    softmaxJacobian(logits, options = {}) {
      const what = 'softmaxJacobian';
      if (logits === null || typeof logits !== 'object' || !Number.isInteger(logits.length) || logits.length < 0) {
        throw new TypeError(`${what}: logits must be an array of numbers, got ${typeName(logits)}`);
      }
      const x = Float64Array.from(logits, (v, i) => {
        if (typeof v !== 'number') throw new TypeError(`${what}: logits[${i}] must be a number, got ${typeName(v)}`);
        return v;
      });
      checkObject(what, options, ['softcap']);
      return checked(mod.softmaxJacobian(x, softcap(what, options.softcap)));
    },
    attention(params) {
      const what = 'attention';
      checkObject(what, params, ['q', 'k', 'v', 'heads', 'headsKv', 'seqLen', 'dk', 'scale', 'kernel', 'weights', 'causal', 'mask', 'softcap', 'maskedRow']);
      return checked(mod.attention({
        q: float32(what, 'q', params.q),
        k: float32(what, 'k', params.k),
        v: float32(what, 'v', params.v),
        heads: int(what, 'heads', params.heads),
        headsKv: int(what, 'headsKv', params.headsKv, 0),
        seqLen: int(what, 'seqLen', params.seqLen),
        dk: int(what, 'dk', params.dk),
        scale: scale(what, params.scale),
        kernel: kernelOf(what, params.kernel),
        weights: bool(what, 'weights', params.weights, true),
        causal: bool(what, 'causal', params.causal, false),
        mask: params.mask === undefined || params.mask === null ? null : float32(what, 'mask', params.mask),
        softcap: softcap(what, params.softcap),
        maskedRow: choice(what, 'maskedRow', params.maskedRow, MASKED_ROW_RULES, 'zero'),
      }));
    },
    tensorStats(params) {
      const what = 'tensorStats';
      checkObject(what, params, ['q', 'k', 'v', 'heads', 'seqLen', 'dk', 'scale', 'seed', 'threshold', 'kernel', 'causal']);
      return checked(mod.tensorStats({
        q: float32(what, 'q', params.q),
        k: float32(what, 'k', params.k),
        v: params.v === undefined || params.v === null ? null : float32(what, 'v', params.v),
        heads: int(what, 'heads', params.heads),
        seqLen: int(what, 'seqLen', params.seqLen),
        dk: int(what, 'dk', params.dk),
        scale: scale(what, params.scale),
        seed: seed(what, params.seed),
        threshold: num(what, 'threshold', params.threshold, 0.99),
        kernel: kernelOf(what, params.kernel),
        causal: bool(what, 'causal', params.causal, false),
      }));
    },
    precisionLab(params) {
      const what = 'precisionLab';
      checkObject(what, params, ['logits', 'rows', 'seqLen', 'dk', 'heads', 'scale', 'seed', 'blockSize', 'accumulate', 'maskedRow', 'softcap']);
      let logits = null;
      if (params.logits !== undefined && params.logits !== null) {
        if (typeof params.logits !== 'object' || typeof params.logits.length !== 'number') {
          throw new TypeError(`${what}: logits must be an array of numbers, got ${typeName(params.logits)}`);
        }
        logits = Float64Array.from(params.logits, (v, i) => {
          if (typeof v !== 'number') throw new TypeError(`${what}: logits[${i}] must be a number, got ${typeName(v)}`);
          return v;
        });
        if (logits.length === 0) throw new RangeError(`${what}: logits is empty; give 1..8192 values or leave it out`);
      }
      return checked(mod.precisionLab({
        logits,
        rows: int(what, 'rows', params.rows, 64),
        seqLen: int(what, 'seqLen', params.seqLen, 128),
        dk: int(what, 'dk', params.dk, 64),
        heads: int(what, 'heads', params.heads, 1),
        scale: scale(what, params.scale),
        seed: seed(what, params.seed),
        blockSize: int(what, 'blockSize', params.blockSize, 32),
        accumulate: choice(what, 'accumulate', params.accumulate, ACCUMULATE_MODES, 'same'),
        maskedRow: choice(what, 'maskedRow', params.maskedRow, MASKED_ROW_RULES, 'nan'),
        softcap: softcap(what, params.softcap),
      }));
    },
    longContext(params) {
      const what = 'longContext';
      checkObject(what, params, ['dk', 'seqLens', 'trainLen', 'queries', 'methods', 'seed', 'kernel']);
      let methods = [...LONG_CONTEXT_METHODS];
      if (params.methods !== undefined) {
        if (!Array.isArray(params.methods)) throw new TypeError(`${what}: methods must be an array, got ${typeName(params.methods)}`);
        methods = params.methods.map((m, i) => {
          if (typeof m !== 'string') throw new TypeError(`${what}: methods[${i}] must be a string, got ${typeName(m)}`);
          return m;
        });
      }
      return checked(mod.longContext({
        dk: int(what, 'dk', params.dk, 64),
        seqLens: intList(what, 'seqLens', params.seqLens),
        trainLen: int(what, 'trainLen', params.trainLen, 512),
        queries: int(what, 'queries', params.queries, 64),
        methods,
        seed: seed(what, params.seed),
        kernel: kernelOf(what, params.kernel),
      }));
    },
    createTrainingRun(config = {}) {
      const what = 'createTrainingRun';
      checkObject(what, config, TRAINING_KEYS);
      const d = TRAINING_DEFAULTS;
      const steps = trainInt(what, 'steps', config.steps, d.steps);
      const cfg = Object.freeze({
        task: choice(what, 'task', config.task, TRAINING_TASKS, d.task),
        vocab: trainInt(what, 'vocab', config.vocab, d.vocab),
        seqLen: trainInt(what, 'seqLen', config.seqLen, d.seqLen),
        layers: trainInt(what, 'layers', config.layers, d.layers),
        dModel: trainInt(what, 'dModel', config.dModel, d.dModel),
        heads: trainInt(what, 'heads', config.heads, d.heads),
        mlp: trainInt(what, 'mlp', config.mlp, d.mlp),
        norm: choice(what, 'norm', config.norm, ['pre', 'post'], d.norm),
        attention: choice(what, 'attention', config.attention, ATTENTION_VARIANTS, d.attention),
        softmax: choice(what, 'softmax', config.softmax, ['safe', 'naive'], d.softmax),
        softcap: num(what, 'softcap', config.softcap, d.softcap),  // 0 = off; the core checks 0 or (0, 1e6]
        initStd: num(what, 'initStd', config.initStd, d.initStd),
        batch: trainInt(what, 'batch', config.batch, d.batch),
        steps,
        lr: num(what, 'lr', config.lr, d.lr),
        warmup: trainInt(what, 'warmup', config.warmup, d.warmup),
        clip: num(what, 'clip', config.clip, d.clip),
        weightDecay: num(what, 'weightDecay', config.weightDecay, d.weightDecay),
        beta1: num(what, 'beta1', config.beta1, d.beta1),
        beta2: num(what, 'beta2', config.beta2, d.beta2),
        adamEps: num(what, 'adamEps', config.adamEps, d.adamEps),
        evalSize: trainInt(what, 'evalSize', config.evalSize, d.evalSize),
        seed: seed(what, config.seed),
        kernel: kernelOf(what, config.kernel),
      });
      const handle = new mod.TrainingRun();
      try {
        checked(handle.init(cfg));  // range checks (RangeError naming the value), weights, held-out set
      } catch (e) {
        handle.delete();
        throw e;
      }
      return wrapTrainingRun(handle, cfg);
    },
    info() {
      const b = mod.buildInfo();
      return { version: b.version, kernel: defaultKernel, simd: b.simd, build };
    },
  });
}

const modules = new Map();  // build → Promise<embind module>, loaded once

async function instantiate(build, options) {
  const art = ARTIFACTS[build];
  const { default: factory } = await art.module();
  const moduleArgs = {};
  if (options.wasmModule) {
    // a WebAssembly.Module compiled elsewhere (the page compiles once and posts it to each worker):
    // Emscripten's instantiateWasm hook instantiates it with the loader's imports
    const mod = options.wasmModule;
    if (!(mod instanceof WebAssembly.Module)) throw new TypeError(`loadCore: wasmModule must be a WebAssembly.Module, not ${typeName(mod)}`);
    let fail;
    const failed = new Promise((_, reject) => { fail = reject; });
    moduleArgs.instantiateWasm = (imports, receive) => {
      WebAssembly.instantiate(mod, imports).then((instance) => receive(instance, mod), fail);
      return {};
    };
    return Promise.race([factory(moduleArgs), failed]);
  }
  if (options.wasmBinary) {
    moduleArgs.wasmBinary = options.wasmBinary;
  } else if (isNode) {
    // Emscripten 3.1.6's ES6 loader cannot read files in Node: hand it the bytes.
    const fsName = 'node:fs/promises';
    const { readFile } = await import(/* @vite-ignore */ fsName);
    moduleArgs.wasmBinary = await readFile(art.wasm());
  } else {
    const url = String(options.wasmUrl ?? art.wasm());
    moduleArgs.locateFile = (path) => (path.endsWith('.wasm') ? url : path);
  }
  return factory(moduleArgs);
}

/**
 * Loads the core. The wasm module of each build is instantiated once (the promise is memoised).
 * @param {import('./core.js').LoadOptions} [options]
 */
export async function loadCore(options = {}) {
  const what = 'loadCore';
  if (options === null || typeof options !== 'object') throw new TypeError(`${what}: options must be an object`);
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
  const kernel = choice === 'auto' ? (build === 'simd128' ? 'simd' : 'scalar') : choice;
  const key = options.wasmBinary || options.wasmUrl || options.wasmModule ? `${build}:custom` : build;
  if (!modules.has(key)) {
    const p = instantiate(build, options);
    modules.set(key, p);
    p.catch(() => modules.delete(key));  // a failed load may be retried
  }
  return makeCore(await modules.get(key), build, kernel);
}
