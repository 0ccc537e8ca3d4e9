// The checks of what goes into the bindings and comes back: each parameter's type (TypeError) and
// the ranges core.js owns (RangeError), its default filled, typed arrays read through their
// intrinsic getters; the ranges of everything else are the core's (C++). READ: a declared
// parameter's check by its type (experiments.js). sendPacked: a packed call's parameters written
// into the module's buffer as numbers (experiments.js pack: true).
import { EXPERIMENTS, EXPERIMENT_NAMES, KERNEL_NAMES, SCALE_NAMES, packedLayout } from './experiments.js';

// The ranges core.js checks itself (by a parameter's name, in every call that has it), read from
// the declaration (experiments.js); every other range is the core's check.
const rangeOf = (name, key) => Object.freeze([...EXPERIMENTS[name].params[key].range]);
export const LIMITS = Object.freeze({
  dk: rangeOf('attentionStats', 'dk'),
  seqLen: rangeOf('attentionStats', 'seqLen'),
  heads: rangeOf('attentionStats', 'heads'),
  samples: rangeOf('scoreVariance', 'samples'),
  seed: rangeOf('scoreVariance', 'seed'),
  bins: rangeOf('scoreVariance', 'bins'),
  heatmapSize: rangeOf('attentionStats', 'heatmapSize'),
  logits: rangeOf('softmaxJacobian', 'logits'),
  workBytes: 512 * 1024 * 1024,
  // The work budget of one call, in seconds estimated by the core's cost model for the machine it
  // was calibrated on (wasm/src/cost.hpp, scripts/calibrate-cost.mjs): products (with the call's
  // kernel), softmax, per-row statistics with their solvers, normal draws, emulated softmaxes and
  // training steps. A call above it throws a RangeError naming the parameters driving its cost.
  // workBytes and workSeconds are the defaults: loadCore({ limits }) sets others within
  // WORK_LIMIT_BOUNDS, and core.cost(name, params) tells a call's estimate before making it.
  workSeconds: 8,
});

export function choice(what, name, v, options, fallback) {
  if (v === undefined) return fallback;
  if (typeof v !== 'string') throw new TypeError(`${what}: ${name} must be a string, got ${typeName(v)}`);
  if (!options.includes(v)) throw new RangeError(`${what}: ${name} = '${v}' is not one of ${options.map((o) => `'${o}'`).join(', ')}`);
  return v;
}
// The bindings return C++ exceptions as {__sqrtdkError: {name, message}} (throwing from wasm would
// leak the call's C++ objects); this turns them into real errors.
export function checked(result, what) {
  if (result !== null && typeof result === 'object' && Object.hasOwn(result, '__sqrtdkError')) {
    const { name, message: m } = result.__sqrtdkError;
    // The bindings' out-of-memory message cannot know the call; the others name their parameter.
    const message = what !== undefined && m.startsWith('out of memory') ? `${what}: ${m}` : m;
    throw name === 'RangeError' ? new RangeError(message) : new Error(message);
  }
  return result;
}

// ---- parameter checks (types here; ranges in C++) ----
/**
 * A plain object's own enumerable properties in an object without a prototype: a parameter is read
 * only where the caller wrote it, never through Object.prototype (a polluted
 * Object.prototype.scale changes nothing). Anything else (arrays, typed arrays, null) is returned
 * as it is, for the checks to name.
 */
export function own(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || ArrayBuffer.isView(v)) return v;
  const out = Object.create(null);
  for (const key of Object.keys(v)) out[key] = v[key];
  return out;
}
export function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
export function checkObject(what, params, allowed) {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new TypeError(`${what}: params must be an object, got ${typeName(params)}`);
  }
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`${what}: unknown parameter '${key}' (expected one of ${allowed.join(', ')})`);
    }
  }
}
/** An integer parameter: its fallback when absent (none: required), within `limits[name]` where that has it. */
export function int(what, name, v, fallback, limits = LIMITS) {
  if (v === undefined) {
    if (fallback === undefined) throw new TypeError(`${what}: ${name} is required`);
    return fallback;
  }
  if (typeof v !== 'number') throw new TypeError(`${what}: ${name} must be a number, got ${typeName(v)}`);
  if (!Number.isInteger(v)) throw new RangeError(`${what}: ${name} = ${v} must be an integer`);
  const lim = limits[name];
  if (lim && (v < lim[0] || v > lim[1])) throw new RangeError(`${what}: ${name} = ${v} is outside ${lim[0]}..${lim[1]}`);
  if (Math.abs(v) > 2147483647) throw new RangeError(`${what}: ${name} = ${v} is too large`);
  return v;
}
export function num(what, name, v, fallback) {
  if (v === undefined) return fallback;
  if (typeof v !== 'number') throw new TypeError(`${what}: ${name} must be a number, got ${typeName(v)}`);
  if (!Number.isFinite(v)) throw new RangeError(`${what}: ${name} = ${v} must be a finite number`);
  return v;
}
export function seed(what, v, fallback) {
  if (v === undefined) return fallback;
  if (typeof v !== 'number') throw new TypeError(`${what}: seed must be a number, got ${typeName(v)}`);
  const [lo, hi] = LIMITS.seed;
  if (!Number.isInteger(v) || v < lo || v > hi) {
    throw new RangeError(`${what}: seed = ${v} must be an integer in ${lo}..${hi}`);
  }
  return v;
}
export function bool(what, name, v, fallback) {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw new TypeError(`${what}: ${name} must be a boolean, got ${typeName(v)}`);
  return v;
}
export function scale(what, v, fallback, name = 'scale') {
  if (v === undefined) return fallback;
  if (typeof v === 'number') {
    if (!(v > 0) || !Number.isFinite(v) || v > 1e4) throw new RangeError(`${what}: ${name} = ${v} must be a positive number ≤ 10000`);
    return v;
  }
  if (typeof v === 'string') {
    if (!SCALE_NAMES.includes(v)) {
      throw new RangeError(`${what}: ${name} = '${v}' is not one of ${SCALE_NAMES.map((s) => `'${s}'`).join(', ')} or a positive number`);
    }
    return v;
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    // { power: p }: c = d_k^−p, p in 0..2 (½ is 1/√d_k, 1 is 1/d_k)
    const keys = Object.keys(v);
    if (keys.length !== 1 || keys[0] !== 'power') {
      throw new TypeError(`${what}: ${name} as an object must be { power: p }, got keys ${keys.length ? keys.join(', ') : '(none)'}`);
    }
    const p = v.power;
    if (typeof p !== 'number') throw new TypeError(`${what}: ${name}.power must be a number, got ${typeName(p)}`);
    if (!(p >= 0 && p <= 2)) throw new RangeError(`${what}: ${name}.power = ${p} must be a number in 0..2 (c = d_k^-power)`);
    return { power: p };
  }
  throw new TypeError(`${what}: ${name} must be a string or a number, got ${typeName(v)} (or { power: p })`);
}
// Attention sinks: absent or null = none; else one logit per head (a plain array of numbers, a
// Float32Array or a Float64Array of length heads; any other typed array is refused), each finite
// with |S| ≤ 1e6 or −∞ (no sink for that head).
// Returns a Float64Array copy, or null.
export function sinks(what, v, heads) {
  if (v === undefined || v === null) return null;
  const kind = typedArrayKind(v);
  // logits are real numbers: an integer typed array (Int32Array, Uint8Array, …) is a caller's mistake
  if (kind !== undefined && kind !== 'Float32Array' && kind !== 'Float64Array') {
    throw new TypeError(`${what}: sinks must be a Float32Array, Float64Array or an array of numbers, got ${kind}`);
  }
  const count = kind !== undefined && kind in NUMBER_ARRAYS ? taByteLength.call(v) / NUMBER_ARRAYS[kind] : Array.isArray(v) ? v.length : -1;
  if (count >= 0 && count !== heads) {
    throw new RangeError(`${what}: sinks.length = ${count} does not match heads = ${heads} (one sink logit per head)`);
  }
  const out = numberList(what, 'sinks', v, heads, heads);
  out.forEach((x, i) => {
    if (x !== -Infinity && !(Number.isFinite(x) && Math.abs(x) <= 1e6)) {
      throw new RangeError(`${what}: sinks[${i}] = ${x} must be a finite number of magnitude ≤ 1e6, or -Infinity (no sink)`);
    }
  });
  return out;
}
// One sink logit (a 'sink' parameter): a number, finite with |S| ≤ 1e6, or −∞ (no sink).
export function sinkLogit(what, v) {
  if (typeof v !== 'number') throw new TypeError(`${what}: sink must be a number, got ${typeName(v)}`);
  if (v !== -Infinity && !(Number.isFinite(v) && Math.abs(v) <= 1e6)) {
    throw new RangeError(`${what}: sink = ${v} must be a finite number of magnitude ≤ 1e6, or -Infinity (no sink)`);
  }
  return v;
}
// ρ, the correlation of each key with its matching query: absent = its default (0, independent); a number in −1..1.
export function correlation(what, v, fallback) {
  if (v === undefined) return fallback;
  if (typeof v !== 'number') throw new TypeError(`${what}: correlation must be a number, got ${typeName(v)}`);
  if (!(v >= -1 && v <= 1)) throw new RangeError(`${what}: correlation = ${v} must be a number in -1..1`);
  return v;
}
// Logit soft-capping: absent = off (its default, 0 for the core); otherwise a number in (0, 1e6].
export function softcap(what, v, fallback = 0) {
  if (v === undefined) return fallback;
  if (typeof v !== 'number') throw new TypeError(`${what}: softcap must be a number, got ${typeName(v)}`);
  if (!(v > 0) || !Number.isFinite(v) || v > 1e6) {
    throw new RangeError(`${what}: softcap = ${v} must be a positive number ≤ 1e6 (leave it out to turn soft-capping off)`);
  }
  return v;
}
/** A list of at most maxLength integers in lim (a plain array or a genuine typed array), each named `${name}[i]`. */
export function intList(what, name, v, maxLength, lim) {
  const kind = typedArrayKind(v);
  if (!Array.isArray(v) && !(kind in NUMBER_ARRAYS)) {
    throw new TypeError(`${what}: ${name} must be an array of integers, got ${describe(v)}`);
  }
  if (kind !== undefined) checkNotDetached(what, name, v, kind);
  const list = kind !== undefined ? freshView(v, kind) : v;
  if (list.length === 0) throw new RangeError(`${what}: ${name} is empty; give at least one value`);
  if (list.length > maxLength) throw new RangeError(`${what}: ${name}.length = ${list.length} is outside 1..${maxLength}`);
  return Array.from(list, (x, i) => {
    const n = int(what, `${name}[${i}]`, x);
    if (n < lim[0] || n > lim[1]) throw new RangeError(`${what}: ${name}[${i}] = ${n} is outside ${lim[0]}..${lim[1]}`);
    return n;
  });
}
/** A plain array of at most maxLength elements, each read by f(element, `${name}[i]`). */
export function list(what, name, v, maxLength, f) {
  if (!Array.isArray(v)) throw new TypeError(`${what}: ${name} must be an array, got ${describe(v)}`);
  if (v.length === 0) throw new RangeError(`${what}: ${name} is empty; give at least one value`);
  if (v.length > maxLength) throw new RangeError(`${what}: ${name}.length = ${v.length} is outside 1..${maxLength}`);
  return Array.from(v, (x, i) => f(x, `${name}[${i}]`));
}
// Genuine typed arrays, read through the intrinsic getters of %TypedArray%.prototype, so that an
// own or subclassed `length`, `byteLength` or Symbol.toStringTag cannot lie about the data.
const TypedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsic = (key) => Object.getOwnPropertyDescriptor(TypedArrayProto, key).get;
const taTag = intrinsic(Symbol.toStringTag);
const taByteLength = intrinsic('byteLength');
const taByteOffset = intrinsic('byteOffset');
const taBuffer = intrinsic('buffer');
const NUMBER_ARRAYS = { Float64Array: 8, Float32Array: 4, Int32Array: 4, Uint32Array: 4, Int16Array: 2, Uint16Array: 2, Int8Array: 1, Uint8Array: 1, Uint8ClampedArray: 1 };
/** The kind of a genuine typed array ('Float32Array', …), or undefined for anything else. */
export function typedArrayKind(v) {
  return v !== null && typeof v === 'object' ? taTag.call(v) : undefined;
}
/** A fresh view of a genuine typed array over the same bytes, with its real element count. */
export function freshView(v, kind) {
  const Ctor = globalThis[kind];
  return new Ctor(taBuffer.call(v), taByteOffset.call(v), taByteLength.call(v) / Ctor.BYTES_PER_ELEMENT);
}
export function describe(v) {
  return typedArrayKind(v) ?? typeName(v);
}
/**
 * A list of numbers: a genuine typed array of numbers or a plain array whose every element is a
 * number. Its real element count is checked against lo..hi before anything is converted; returns
 * a Float64Array copy.
 */
export function numberList(what, name, v, lo, hi) {
  const kind = typedArrayKind(v);
  let count;
  if (kind !== undefined) {
    if (!(kind in NUMBER_ARRAYS)) throw new TypeError(`${what}: ${name} must be an array of numbers, got ${kind}`);
    checkNotDetached(what, name, v, kind);
    count = taByteLength.call(v) / NUMBER_ARRAYS[kind];
  } else if (Array.isArray(v)) {
    count = v.length;
  } else {
    throw new TypeError(`${what}: ${name} must be an array of numbers or a typed array, got ${typeName(v)}`);
  }
  if (count < lo || count > hi) throw new RangeError(`${what}: ${name}.length = ${count} is outside ${lo}..${hi}`);
  if (kind !== undefined) return Float64Array.from(freshView(v, kind));
  const out = new Float64Array(count);
  for (let i = 0; i < count; ++i) {
    const x = v[i];
    if (typeof x !== 'number') throw new TypeError(`${what}: ${name}[${i}] must be a number, got ${typeName(x)}`);
    out[i] = x;
  }
  return out;
}
export function checkNotDetached(what, name, v, kind) {
  // A detached buffer (transferred to a worker) reads as length 0: say what happened.
  if (taByteLength.call(v) === 0 && isDetached(taBuffer.call(v))) {
    throw new TypeError(`${what}: ${name} is a ${kind} over a detached ArrayBuffer (it was transferred)`);
  }
}
export function isDetached(buffer) {
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  try { new Uint8Array(buffer); return false; } catch { return true; }
}
/**
 * A genuine Float32Array whose real element count (byteLength / 4, never a `length` property) is
 * `expected` (shape: its formula, for the message); returns a fresh view of the same bytes, so the
 * bindings copy exactly the checked elements. Checked before anything is copied into the heap.
 */
export function float32(what, name, v, expected, shape) {
  const kind = typedArrayKind(v);
  if (kind !== 'Float32Array') throw new TypeError(`${what}: ${name} must be a Float32Array, got ${describe(v)}`);
  checkNotDetached(what, name, v, kind);
  const count = taByteLength.call(v) / 4;
  if (count !== expected) {
    throw new RangeError(`${what}: ${name}.length = ${count} does not match ${shape} = ${expected}`);
  }
  return freshView(v, kind);
}
/**
 * attention's additive mask: null (none), or a genuine Float32Array of seqLen · seqLen (every head) or
 * heads · seqLen · seqLen (one per head) elements; returns a fresh view of the same bytes.
 */
export function maskOf(what, v, heads, seqLen) {
  if (v === undefined || v === null) return null;
  const kind = typedArrayKind(v);
  if (kind !== 'Float32Array') throw new TypeError(`${what}: mask must be a Float32Array [seqLen, seqLen] or [heads, seqLen, seqLen], got ${describe(v)}`);
  checkNotDetached(what, 'mask', v, kind);
  const count = taByteLength.call(v) / 4;
  if (count !== seqLen * seqLen && count !== heads * seqLen * seqLen) {
    throw new RangeError(`${what}: mask.length = ${count} matches neither seqLen · seqLen = ${seqLen * seqLen} (one mask for every head) nor heads · seqLen · seqLen = ${heads * seqLen * seqLen} (one per head)`);
  }
  return freshView(v, kind);
}
/** attention's ALiBi slopes: null (none), 'press' (the core computes Press et al.'s) or a Float32Array [heads]. */
export function alibiOf(what, v, heads) {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') {
    if (v !== 'press') throw new RangeError(`${what}: alibi = '${v}' is not 'press'; give 'press' (Press et al.'s slopes) or a Float32Array [heads] of slopes`);
    return v;
  }
  if (typedArrayKind(v) !== 'Float32Array') throw new TypeError(`${what}: alibi must be 'press' or a Float32Array [heads] of slopes, got ${describe(v)}`);
  return float32(what, 'alibi', v, heads, 'heads');
}
/**
 * A genuine Float32Array of rows × dk elements, rows in 1..maxRows (named `rowsName` in messages);
 * returns a fresh view of the same bytes. Checked before anything is copied into the heap.
 */
export function float32Rows(what, name, v, dk, maxRows, rowsName) {
  const kind = typedArrayKind(v);
  if (kind !== 'Float32Array') throw new TypeError(`${what}: ${name} must be a Float32Array [${rowsName}, dk], got ${describe(v)}`);
  checkNotDetached(what, name, v, kind);
  const count = taByteLength.call(v) / 4;
  if (count === 0 || count % dk !== 0) throw new RangeError(`${what}: ${name}.length = ${count} is not ${rowsName} · dk for dk = ${dk}`);
  if (count / dk > maxRows) throw new RangeError(`${what}: ${name} holds ${count / dk} ${rowsName}, more than ${maxRows}`);
  return freshView(v, kind);
}
/** headsKv as the core reads it (0 = heads), checked here because k and v are sized by it. */
export function headsKvOf(what, heads, v) {
  const hkv = int(what, 'headsKv', v, 0);
  if (hkv === 0) return heads;
  if (hkv < 1 || hkv > heads) throw new RangeError(`${what}: headsKv = ${hkv} is outside 1..${heads}`);
  if (heads % hkv !== 0) throw new RangeError(`${what}: headsKv = ${hkv} does not divide heads = ${heads}`);
  return hkv;
}

/**
 * How a declared parameter is checked, by its type, with its declared default (a parameter with
 * none is required; a default null takes null too): reader(what, key, v, spec, kernelOf, read), read
 * the call's parameters read so far. A type not here (tensors, ALiBi, partial states) is read by
 * the experiment's own method in core.js.
 */
export const READ = Object.freeze({
  int: (what, key, v, spec) => int(what, key, v, spec.default),
  number: (what, key, v, spec) => (spec.default === null && (v === undefined || v === null) ? null : num(what, key, v, spec.default)),
  bool: (what, key, v, spec) => bool(what, key, v, spec.default),
  seed: (what, key, v, spec) => seed(what, v, spec.default),
  kernel: (what, key, v, spec, kernelOf) => kernelOf(what, v),
  scale: (what, key, v, spec) => scale(what, v, spec.default, key),
  choice: (what, key, v, spec) => choice(what, key, v, spec.values, spec.default),
  softcap: (what, key, v, spec) => softcap(what, v, spec.default),
  correlation: (what, key, v, spec) => correlation(what, v, spec.default),
  sink: (what, key, v) => (v === undefined || v === null ? null : sinkLogit(what, v)),
  // one sink logit per head: after `heads` (read is what the call has read so far)
  sinks: (what, key, v, spec, kernelOf, read) => sinks(what, v, read.heads),
  // lists: left out, a copy of the default (absent: required); else at most count[1] elements
  intList: (what, key, v, spec) => (v === undefined && spec.default !== undefined ? [...spec.default] : intList(what, key, v, spec.count[1], spec.range)),
  scaleList: (what, key, v, spec) => (v === undefined && spec.default !== undefined ? [...spec.default] : list(what, key, v, spec.count[1], (s, name) => {
    if (s === undefined) throw new TypeError(`${what}: ${name} must be a string or a number, got undefined`);
    return scale(what, s, undefined, name);
  })),
  choiceList: (what, key, v, spec) => (v === undefined && spec.default !== undefined ? [...spec.default]
    : list(what, key, v, spec.count[1], (m, name) => choice(what, name, m ?? null, spec.values))),
});


/**
 * Writes the checked parameters `params` of a packed call (experiments.js `pack: true`) into `heap`
 * (the module's HEAPF64, taken at the call: memory growth replaces it) from index `at`, by `layout`
 * (packedLayout): a number as it is, a bool as 1 or 0, a kernel or a choice as the index of its name, a
 * scale as two numbers, its kind (the index of its name in SCALE_NAMES; −1 a number; −2 { power })
 * and its value. The generated read_params reads them back in the same layout.
 */
export function packParams(heap, at, layout, params) {
  for (const [key, spec, offset] of layout) {
    const v = params[key];
    const i = at + offset;
    switch (spec.type) {
      case 'bool': heap[i] = v ? 1 : 0; break;
      case 'kernel': heap[i] = KERNEL_NAMES.indexOf(v); break;
      case 'choice': heap[i] = spec.values.indexOf(v); break;
      case 'scale':
        if (typeof v === 'string') { heap[i] = SCALE_NAMES.indexOf(v); heap[i + 1] = 0; } else if (typeof v === 'number') { heap[i] = -1; heap[i + 1] = v; } else { heap[i] = -2; heap[i + 1] = v.power; }
        break;
      default: heap[i] = v;
    }
  }
}

/** The layout of each packed call's numbers (experiments.js pack: true, packedLayout). */
const PACKED = Object.freeze(Object.fromEntries(EXPERIMENT_NAMES.filter((name) => EXPERIMENTS[name].pack).map((name) => [name, packedLayout(name)])));
const packedIndex = new WeakMap();  // embind module → index in HEAPF64 of its buffer of packed parameters
/** Writes the parameters of call `name` into the module's buffer if it is packed (its read_params reads them there). */
export function sendPacked(mod, name, params) {
  const layout = PACKED[name];
  if (layout === undefined) return;
  let at = packedIndex.get(mod);
  if (at === undefined) {
    at = mod.packedParams() / 8;  // a static buffer of the module: its address never changes
    packedIndex.set(mod, at);
  }
  packParams(mod.HEAPF64, at, layout, params);  // HEAPF64 taken now: a memory growth replaces it
}
