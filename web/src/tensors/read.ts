// Reading the "your own tensors" files: .npy (float32 or float64, little-endian, C order,
// shape [L, d] or [heads, L, d]) and CSV ([L, d], one row per token). The .npy header and data
// are parsed by npyjs (Apache-2.0, aplbrain/npyjs); npyjs itself accepts truncated files whose
// remaining length happens to be a multiple of the item size, ignores trailing bytes and throws
// bare RangeErrors on short or misaligned files, so every file goes through the checks below
// first and after. Each failure is a TensorFileError with a code the page translates; nothing
// here touches the DOM, so tests/web/read.test.ts runs it under Node.
import { parse as npyParse } from 'npyjs';

export const TENSOR_LIMITS = Object.freeze({
  /** bytes per file */
  fileBytes: 16 * 1024 * 1024,
  maxHeads: 16,
  minSeqLen: 2,
  maxSeqLen: 1024,
  maxDk: 1024,
  /** multiply–adds of one attention pass (4 · h · L² · d): the diagnostics run several */
  maxMacs: 2 ** 31,
});

export type TensorErrorCode =
  | 'empty' | 'tooBig' | 'badMagic' | 'version' | 'truncated' | 'trailing' | 'header' | 'dtype' | 'fortran'
  | 'rank' | 'zeroDim' | 'nonFinite' | 'csvRagged' | 'csvValue' | 'csvHeader' | 'csvEmpty' | 'format'
  | 'limitHeads' | 'limitSeqLen' | 'limitDk' | 'limitWork' | 'dkMismatch' | 'lenMismatch' | 'headsMismatch' | 'vMismatch';

/** A problem with a file, named by a code and the values the message needs. */
export class TensorFileError extends Error {
  constructor(readonly code: TensorErrorCode, readonly vars: Record<string, string | number> = {}) {
    super(`${code} ${JSON.stringify(vars)}`);
    this.name = 'TensorFileError';
  }
}

/** A tensor read from a file, always as [heads, seqLen, dk] float32 row-major. */
export interface Tensor {
  name: string;
  heads: number;
  seqLen: number;
  dk: number;
  /** rank of the file's array: 2 ([L, d]) or 3 ([heads, L, d]) */
  rank: 2 | 3;
  /** what the file held */
  dtype: 'float32' | 'float64' | 'csv';
  data: Float32Array;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];  // \x93NUMPY (writeNpy in examples.js writes the same)

function fromShape(name: string, shape: number[], dtype: Tensor['dtype'], values: ArrayLike<number>): Tensor {
  if (shape.length !== 2 && shape.length !== 3) throw new TensorFileError('rank', { name, shape: `(${shape.join(', ')})` });
  if (shape.some((n) => !Number.isInteger(n) || n < 1)) throw new TensorFileError('zeroDim', { name, shape: `(${shape.join(', ')})` });
  const [heads, seqLen, dk] = shape.length === 2 ? [1, shape[0], shape[1]] : shape;
  const data = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    const f = Math.fround(x);
    if (!Number.isFinite(f)) {
      const row = Math.floor(i / dk);
      throw new TensorFileError('nonFinite', { name, value: String(x), index: shape.length === 2 ? `[${row}, ${i % dk}]` : `[${Math.floor(row / seqLen)}, ${row % seqLen}, ${i % dk}]` });
    }
    data[i] = f;
  }
  return { name, heads, seqLen, dk, rank: shape.length as 2 | 3, dtype, data };
}

/** Reads a .npy file (the whole file's bytes). */
export function readNpy(name: string, buf: ArrayBuffer): Tensor {
  const bytes = new Uint8Array(buf);
  if (bytes.length === 0) throw new TensorFileError('empty', { name });
  if (bytes.length > TENSOR_LIMITS.fileBytes) throw new TensorFileError('tooBig', { name, mb: TENSOR_LIMITS.fileBytes / 2 ** 20 });
  if (bytes.length < 6 || MAGIC.some((b, i) => bytes[i] !== b)) throw new TensorFileError('badMagic', { name });
  if (bytes.length < 10) throw new TensorFileError('truncated', { name });
  const major = bytes[6];
  if (major < 1 || major > 3) throw new TensorFileError('version', { name, version: `${major}.${bytes[7]}` });
  const view = new DataView(buf);
  const headerStart = major === 1 ? 10 : 12;
  if (bytes.length < headerStart) throw new TensorFileError('truncated', { name });
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  if (headerStart + headerLen > bytes.length) throw new TensorFileError('truncated', { name });
  const header = new TextDecoder('latin1').decode(bytes.subarray(headerStart, headerStart + headerLen));
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  if (descr === undefined || shapeText === undefined || fortran === undefined) throw new TensorFileError('header', { name });
  if (descr !== '<f4' && descr !== '<f8') throw new TensorFileError('dtype', { name, dtype: descr });
  if (fortran === 'True') throw new TensorFileError('fortran', { name });
  const itemSize = descr === '<f4' ? 4 : 8;
  const dataStart = headerStart + headerLen;
  if (dataStart % itemSize !== 0) throw new TensorFileError('header', { name });  // numpy pads the header to 64 bytes
  let parsed: { data: unknown; shape: number[] };
  try {
    parsed = npyParse(buf) as { data: unknown; shape: number[] };
  } catch {
    throw new TensorFileError((bytes.length - dataStart) % itemSize !== 0 ? 'truncated' : 'header', { name });
  }
  const shape = parsed.shape;
  if (shape.some((n) => !Number.isInteger(n) || n < 0)) throw new TensorFileError('header', { name });
  const expected = shape.reduce((a, b) => a * b, 1);
  const data = parsed.data as Float32Array | Float64Array;
  if (!(data instanceof Float32Array || data instanceof Float64Array)) throw new TensorFileError('dtype', { name, dtype: descr });
  if (data.length < expected) throw new TensorFileError('truncated', { name, got: data.length, expected });
  if (data.length > expected) throw new TensorFileError('trailing', { name, extra: (data.length - expected) * itemSize });
  return fromShape(name, shape, descr === '<f4' ? 'float32' : 'float64', data);
}

const NUM_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NONFINITE_RE = /^[+-]?(nan|inf|infinity)$/i;

/**
 * Reads a CSV file: one row per token, d comma-separated numbers. Blank lines and lines starting
 * with # are skipped; the first other line may be one header row of names (no cell a number), and
 * any further row with text in it is refused (TensorFileError 'csvHeader' for a second row of
 * names, 'csvValue' for a word among numbers), naming its line.
 */
export function readCsv(name: string, text: string): Tensor {
  if (text.length === 0) throw new TensorFileError('empty', { name });
  if (text.length > TENSOR_LIMITS.fileBytes) throw new TensorFileError('tooBig', { name, mb: TENSOR_LIMITS.fileBytes / 2 ** 20 });
  const lines = text.split(/\r?\n/);
  const values: number[] = [];
  let cols = -1;
  let rows = 0;
  let headerLine = 0;  // 1-based line of the header row, 0 while none was read
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li].trim();
    if (line === '' || line.startsWith('#')) continue;
    const cells = line.split(',').map((c) => c.trim());
    const numeric = cells.map((c) => NUM_RE.test(c) || NONFINITE_RE.test(c));
    if (numeric.every((ok) => !ok)) {
      if (rows === 0 && headerLine === 0) { headerLine = li + 1; continue; }  // the one header row of names
      throw new TensorFileError('csvHeader', { name, line: li + 1, value: cells[0].slice(0, 24) });
    }
    const bad = numeric.indexOf(false);
    if (bad >= 0) throw new TensorFileError('csvValue', { name, line: li + 1, value: cells[bad].slice(0, 24) });
    if (cols < 0) cols = cells.length;
    else if (cells.length !== cols) throw new TensorFileError('csvRagged', { name, line: li + 1, got: cells.length, expected: cols });
    for (const c of cells) values.push(Number(c.replace(/^([+-]?)inf$/i, '$1Infinity')));
    rows++;
  }
  if (rows === 0) throw new TensorFileError('csvEmpty', { name });
  return fromShape(name, [rows, cols], 'csv', values);
}

/** Reads a file by its content: .npy by its magic bytes, else CSV (UTF-8 text). */
export function readTensorFile(name: string, buf: ArrayBuffer): Tensor {
  if (buf.byteLength === 0) throw new TensorFileError('empty', { name });
  if (buf.byteLength > TENSOR_LIMITS.fileBytes) throw new TensorFileError('tooBig', { name, mb: TENSOR_LIMITS.fileBytes / 2 ** 20 });
  const head = new Uint8Array(buf, 0, Math.min(6, buf.byteLength));
  if (head[0] === 0x93 || /\.npy$/i.test(name)) return readNpy(name, buf);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw new TensorFileError('format', { name });
  }
  return readCsv(name, text);
}

/** What the diagnostics run on: q and k (and v) as [heads, seqLen, dk], K/V repeated for grouped heads. */
export interface TensorPair {
  heads: number;
  seqLen: number;
  dk: number;
  /** K/V heads in the files (< heads for GQA/MQA tensors) */
  headsKv: number;
  q: Float32Array;
  k: Float32Array;
  v: Float32Array | null;
}

function expand(t: Tensor, heads: number): Float32Array {
  if (t.heads === heads) return t.data;
  const per = t.seqLen * t.dk;
  const group = heads / t.heads;
  const out = new Float32Array(heads * per);
  for (let h = 0; h < heads; h++) out.set(t.data.subarray(Math.floor(h / group) * per, (Math.floor(h / group) + 1) * per), h * per);
  return out;
}

/** Checks that Q, K (and V) fit together and inside the limits; repeats K/V heads for grouped (GQA/MQA) tensors. */
export function pairTensors(q: Tensor, k: Tensor, v: Tensor | null = null): TensorPair {
  const L = TENSOR_LIMITS;
  for (const t of [q, k, v]) {
    if (!t) continue;
    if (t.heads > L.maxHeads) throw new TensorFileError('limitHeads', { name: t.name, heads: t.heads, max: L.maxHeads });
    if (t.seqLen < L.minSeqLen || t.seqLen > L.maxSeqLen) throw new TensorFileError('limitSeqLen', { name: t.name, seqLen: t.seqLen, min: L.minSeqLen, max: L.maxSeqLen });
    if (t.dk > L.maxDk) throw new TensorFileError('limitDk', { name: t.name, dk: t.dk, max: L.maxDk });
  }
  if (k.dk !== q.dk) throw new TensorFileError('dkMismatch', { q: q.dk, k: k.dk });
  if (k.seqLen !== q.seqLen) throw new TensorFileError('lenMismatch', { q: q.seqLen, k: k.seqLen });
  if (k.heads > q.heads || q.heads % k.heads !== 0) throw new TensorFileError('headsMismatch', { q: q.heads, k: k.heads });
  if (v && (v.heads !== k.heads || v.seqLen !== k.seqLen || v.dk !== k.dk)) {
    throw new TensorFileError('vMismatch', { v: `[${v.heads}, ${v.seqLen}, ${v.dk}]`, k: `[${k.heads}, ${k.seqLen}, ${k.dk}]` });
  }
  const macs = 4 * q.heads * q.seqLen * q.seqLen * q.dk;
  if (macs > L.maxMacs) throw new TensorFileError('limitWork', { gmac: (macs / 1e9).toFixed(1), max: (L.maxMacs / 1e9).toFixed(1) });
  return { heads: q.heads, seqLen: q.seqLen, dk: q.dk, headsKv: k.heads, q: q.data, k: expand(k, q.heads), v: v ? expand(v, q.heads) : null };
}
