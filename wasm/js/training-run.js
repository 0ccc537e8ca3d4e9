// The training lab's runs (core.createTrainingRun): a config's checks and defaults, the budget of
// live runs per wasm module, and the run object that wraps the bindings' TrainingRun handle.
import { ATTENTION_VARIANTS, TRAINING_DEFAULTS, TRAINING_TASKS } from './experiments.js';
import { checkObject, checked, choice, int, num, seed, typeName } from './checks.js';

/** The default training config (declared in experiments.js, where the C++ TrainConfig's defaults are generated from). */
export { TRAINING_DEFAULTS };

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
  // The memory all live (not yet disposed) runs of one wasm instance may hold together — per
  // process and build, since loadCore() memoises the instance and every Core of it shares its heap: six runs of
  // the largest size (the page's six variants), leaving room in the 1 GiB heap for a 512 MiB call.
  liveBytes: 6 * 64 * 1024 * 1024,
});

/** An integer field of a training config, within TRAINING_LIMITS (checks.js' int with the training lab's table). */
const trainInt = (what, name, v, fallback) => int(what, name, v, fallback, TRAINING_LIMITS);

// Frees the wasm-side state of runs the caller forgot to dispose() once their wrapper is collected.
const runRegistry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ handle, release }) => { release(); try { handle.delete(); } catch { /* already gone */ } })
  : null;

// The memory of the live runs of each loaded module (the budget TRAINING_LIMITS.liveBytes).
const liveRuns = new WeakMap();  // embind module → { bytes, count }
function liveOf(mod) {
  if (!liveRuns.has(mod)) liveRuns.set(mod, { bytes: 0, count: 0 });
  return liveRuns.get(mod);
}
const mib = (b) => (b / 1048576).toFixed(1);

/** The error of a call on a disposed run (documented in core.d.ts: a TypeError, as for a revoked object). */
function disposedError(method) {
  return new TypeError(`trainingRun.${method}: this run was disposed (dispose() was called); create a new run`);
}

function wrapTrainingRun(handle, config, mod, bytes, applyLimits) {
  let live = true;
  const use = (method) => {
    if (!live) throw disposedError(method);
    return handle;
  };
  const budget = liveOf(mod);
  budget.bytes += bytes;
  budget.count += 1;
  const release = () => { budget.bytes -= bytes; budget.count -= 1; };
  const run = Object.freeze({
    config,
    step(n = 1) {
      const what = 'trainingRun.step';
      use('step');  // a disposed run says so before anything else
      if (typeof n !== 'number') throw new TypeError(`${what}: n must be a number, got ${typeName(n)}`);
      if (!Number.isInteger(n) || n < 1 || n > TRAINING_LIMITS.steps[1]) {
        throw new RangeError(`${what}: n = ${n} is outside 1..${TRAINING_LIMITS.steps[1]}`);
      }
      applyLimits();  // its steps are capped by the work budget of the core that made it
      return checked(use('step').step(n));
    },
    evaluate() { return checked(use('evaluate').evaluate()); },
    analysis(bins = 64) {
      const what = 'trainingRun.analysis';
      use('analysis');
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
      release();
      handle.delete();
    },
    // `using run = core.createTrainingRun(…)` disposes the run at the end of the block.
    ...(typeof Symbol.dispose === 'symbol' ? { [Symbol.dispose]() { run.dispose(); } } : {}),
  });
  runRegistry?.register(run, { handle, release }, run);
  return run;
}

const TRAINING_KEYS = ['task', 'vocab', 'seqLen', 'layers', 'dModel', 'heads', 'mlp', 'norm', 'attention', 'softmax', 'softcap',
  'initStd', 'batch', 'steps', 'lr', 'warmup', 'clip', 'weightDecay', 'beta1', 'beta2', 'adamEps', 'evalSize', 'seed', 'kernel'];

/**
 * createTrainingRun(config) of a loaded core: the config checked (types here, ranges in the core) and
 * completed with TRAINING_DEFAULTS, within the budget of live runs; kernelOf and applyLimits are the core's.
 */
export function createTrainingRun(mod, config, kernelOf, applyLimits) {
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
    seed: seed(what, config.seed, d.seed),
    kernel: kernelOf(what, config.kernel),
  });
  const live = liveOf(mod);
  const limit = TRAINING_LIMITS.liveBytes;
  const overBudget = (need) => new RangeError(`${what}: the ${live.count} live training runs hold ${mib(live.bytes)} MiB; ` +
    `${need === null ? 'no more fit' : `this one needs ${mib(need)} MiB more`} in the ${mib(limit)} MiB budget of live runs ` +
    '(TRAINING_LIMITS.liveBytes): call dispose() on the runs you no longer need (or create them with `using`)');
  if (live.bytes >= limit) throw overBudget(null);
  const handle = new mod.TrainingRun();
  let bytes;
  try {
    applyLimits();
    checked(handle.init(cfg));  // range checks (RangeError naming the value), weights, held-out set
    bytes = handle.info().memoryBytes;
    if (live.bytes + bytes > limit) throw overBudget(bytes);
  } catch (e) {
    handle.delete();
    throw e;
  }
  return wrapTrainingRun(handle, cfg, mod, bytes, applyLimits);
}
