// The two example pairs of the "your own tensors" panel, made deterministically from fixed seeds by
// the core's normal draws (normalDraws, the same bits in every engine and in Node; plain JS so that
// scripts/make-examples.mjs runs it without a build; tests/web/read.test.ts checks that the shipped
// files in web/public/examples/ are exactly what this makes).
//   structured: Q [128, 64] float32, q ~ N(0, 1); K = Q + 0.5·N(0, 1): every key is a near-copy
//               of its own query, so q_i·k_i ≈ |q_i|² ≈ d_k stands far above the other scores.
//   iid:        Q, K [2, 64, 32] float64 (two heads), all entries iid N(0, 1): the textbook case.

/**
 * The bytes of a .npy file: format 1.0, little-endian, C order, header padded to 64 bytes.
 * @param {Float32Array | Float64Array} data @param {number[]} shape @returns {Uint8Array}
 */
export function writeNpy(data, shape) {
  const descr = data instanceof Float32Array ? '<f4' : '<f8';
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const pad = (64 - ((10 + header.length + 1) % 64)) % 64;
  header += ' '.repeat(pad) + '\n';
  const out = new Uint8Array(10 + header.length + data.byteLength);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(out.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), 10 + header.length);
  return out;
}

/**
 * The example files by name, as their bytes, drawn by `core` (stream 0 of seeds 11, 12, 21, 22).
 * @param {Pick<import('../../../wasm/js/core.js').Core, 'normalDraws'>} core
 * @returns {Record<string, Uint8Array>}
 */
export function makeExamples(core) {
  /** @param {number} n @param {number} seed @param {number} [sigma] */
  const randn = (n, seed, sigma = 1) => core.normalDraws({ n, seed, sigma }).values;
  const L = 128, d = 64;
  const q = Float32Array.from(randn(L * d, 11));
  const noise = randn(L * d, 12, 0.5);
  const k = Float32Array.from(q, (x, i) => x + noise[i]);
  const h = 2, L2 = 64, d2 = 32;
  return {
    'structured-q.npy': writeNpy(q, [L, d]),
    'structured-k.npy': writeNpy(k, [L, d]),
    'iid-q.npy': writeNpy(randn(h * L2 * d2, 21), [h, L2, d2]),
    'iid-k.npy': writeNpy(randn(h * L2 * d2, 22), [h, L2, d2]),
  };
}

/** The example pairs: which files make up each. */
export const EXAMPLE_PAIRS = Object.freeze({
  structured: Object.freeze({ q: 'structured-q.npy', k: 'structured-k.npy' }),
  iid: Object.freeze({ q: 'iid-q.npy', k: 'iid-k.npy' }),
});
