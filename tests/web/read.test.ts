// The "your own tensors" reader: valid .npy and CSV files, and a table of broken ones, each of
// which must give a TensorFileError with the code the page turns into its message.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { readNpy, readCsv, readTensorFile, pairTensors, TensorFileError, TENSOR_LIMITS } from '../../web/src/tensors/read.ts';
import type { TensorErrorCode, Tensor } from '../../web/src/tensors/read.ts';
import { writeNpy, makeExamples, EXAMPLE_PAIRS } from '../../web/src/tensors/examples.js';
import { en, zhCN, translator } from '../../web/src/i18n/messages.ts';
import { loadCore } from '../../wasm/js/core.js';
import type { Core } from '../../wasm/js/core.js';

const ab = (u: Uint8Array): ArrayBuffer => u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;
/** A .npy file with a hand-written header (for the broken cases). */
function npyWith(header: string, data: Uint8Array, { major = 1, magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59] } = {}): ArrayBuffer {
  const pad = (64 - ((10 + header.length + 1) % 64)) % 64;
  const h = header + ' '.repeat(pad) + '\n';
  const out = new Uint8Array(10 + h.length + data.length);
  out.set(magic);
  out[6] = major;
  new DataView(out.buffer).setUint16(8, h.length, true);
  for (let i = 0; i < h.length; i++) out[10 + i] = h.charCodeAt(i);
  out.set(data, 10 + h.length);
  return out.buffer;
}
const f32 = (xs: number[]) => new Uint8Array(new Float32Array(xs).buffer);
const good = ab(writeNpy(new Float32Array([1, 2, 3, 4, 5, 6]), [2, 3]));

function code(f: () => unknown): TensorErrorCode | 'none' {
  try { f(); return 'none'; } catch (e) { if (e instanceof TensorFileError) return e.code; throw e; }
}

describe('reading valid files', () => {
  it('.npy float32 [L, d]', () => {
    const t = readNpy('q.npy', good);
    expect(t).toMatchObject({ heads: 1, seqLen: 2, dk: 3, rank: 2, dtype: 'float32' });
    expect(Array.from(t.data)).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it('.npy float64 [heads, L, d] becomes float32', () => {
    const x = Float64Array.from({ length: 2 * 3 * 4 }, (_, i) => i / 3);
    const t = readTensorFile('k.npy', ab(writeNpy(x, [2, 3, 4])));
    expect(t).toMatchObject({ heads: 2, seqLen: 3, dk: 4, rank: 3, dtype: 'float64' });
    expect(t.data[5]).toBe(Math.fround(5 / 3));
  });
  it('.npy format 2.0 (4-byte header length)', () => {
    const header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
    const pad = (64 - ((12 + header.length + 1) % 64)) % 64;
    const h = header + ' '.repeat(pad) + '\n';
    const out = new Uint8Array(12 + h.length + 16);
    out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 2, 0]);
    new DataView(out.buffer).setUint32(8, h.length, true);
    for (let i = 0; i < h.length; i++) out[12 + i] = h.charCodeAt(i);
    out.set(f32([1, 2, 3, 4]), 12 + h.length);
    expect(Array.from(readNpy('v2.npy', out.buffer).data)).toEqual([1, 2, 3, 4]);
  });
  it('CSV with a header row, blank lines, comments and CRLF', () => {
    const t = readCsv('q.csv', 'a,b,c\r\n# a comment\r\n1, 2, 3\r\n\r\n-4e-1,+5,.5\r\n');
    expect(t).toMatchObject({ heads: 1, seqLen: 2, dk: 3, dtype: 'csv' });
    expect(Array.from(t.data)).toEqual([1, 2, 3, Math.fround(-0.4), 5, 0.5]);
  });
  it('a file without .npy magic is read as CSV by content', () => {
    const bytes = new TextEncoder().encode('1,2\n3,4\n');
    expect(readTensorFile('x.txt', ab(bytes))).toMatchObject({ seqLen: 2, dk: 2, dtype: 'csv' });
  });
});

describe('broken files give a message naming the problem', () => {
  const hdr = (descr: string, shape: string, fortran = 'False') => `{'descr': '${descr}', 'fortran_order': ${fortran}, 'shape': ${shape}, }`;
  const rows: [string, () => unknown, TensorErrorCode][] = [
    ['empty file', () => readTensorFile('e.npy', new ArrayBuffer(0)), 'empty'],
    ['too big', () => readNpy('big.npy', new ArrayBuffer(TENSOR_LIMITS.fileBytes + 1)), 'tooBig'],
    ['bad magic', () => readNpy('x.npy', npyWith(hdr('<f4', '(2,)'), f32([1, 2]), { magic: [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x58] })), 'badMagic'],
    ['a PNG named .npy', () => readTensorFile('x.npy', ab(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 0, 0, 0, 13]))), 'badMagic'],
    ['only the magic', () => readNpy('x.npy', ab(new Uint8Array([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1]))), 'truncated'],
    ['header cut off', () => readNpy('x.npy', good.slice(0, 40)), 'truncated'],
    ['data cut to a whole number of items', () => readNpy('x.npy', good.slice(0, good.byteLength - 4)), 'truncated'],
    ['data cut mid-item', () => readNpy('x.npy', good.slice(0, good.byteLength - 3)), 'truncated'],
    ['bytes after the data', () => readNpy('x.npy', npyWith(hdr('<f4', '(2, 3)'), f32([1, 2, 3, 4, 5, 6, 7, 8]))), 'trailing'],
    ['unknown version', () => readNpy('x.npy', npyWith(hdr('<f4', '(2,)'), f32([1, 2]), { major: 9 })), 'version'],
    ['header without shape', () => readNpy('x.npy', npyWith("{'descr': '<f4', 'fortran_order': False, }", f32([1]))), 'header'],
    ['int32', () => readNpy('x.npy', npyWith(hdr('<i4', '(2, 2)'), new Uint8Array(16))), 'dtype'],
    ['big-endian float32', () => readNpy('x.npy', npyWith(hdr('>f4', '(2, 2)'), new Uint8Array(16))), 'dtype'],
    ['float16', () => readNpy('x.npy', npyWith(hdr('<f2', '(2, 2)'), new Uint8Array(8))), 'dtype'],
    ['Fortran order', () => readNpy('x.npy', npyWith(hdr('<f4', '(2, 2)', 'True'), f32([1, 2, 3, 4]))), 'fortran'],
    ['rank 1', () => readNpy('x.npy', npyWith(hdr('<f4', '(4,)'), f32([1, 2, 3, 4]))), 'rank'],
    ['rank 4', () => readNpy('x.npy', npyWith(hdr('<f4', '(1, 1, 2, 2)'), f32([1, 2, 3, 4]))), 'rank'],
    ['a zero dimension', () => readNpy('x.npy', npyWith(hdr('<f4', '(0, 4)'), new Uint8Array(0))), 'zeroDim'],
    ['NaN in .npy', () => readNpy('x.npy', npyWith(hdr('<f4', '(2, 2)'), f32([1, NaN, 3, 4]))), 'nonFinite'],
    ['∞ in .npy', () => readNpy('x.npy', npyWith(hdr('<f4', '(2, 2)'), f32([1, 2, Infinity, 4]))), 'nonFinite'],
    ['float64 beyond float32', () => readNpy('x.npy', ab(writeNpy(new Float64Array([1, 1e300, 0, 0]), [2, 2]))), 'nonFinite'],
    ['NaN in CSV', () => readCsv('x.csv', '1,2\nnan,4\n'), 'nonFinite'],
    ['ragged CSV', () => readCsv('x.csv', '1,2,3\n4,5\n'), 'csvRagged'],
    ['a word in CSV', () => readCsv('x.csv', '1,2\n3,abc\n'), 'csvValue'],
    ['CSV of names only', () => readCsv('x.csv', 'a,b\n'), 'csvEmpty'],
    ['CSV with two header rows', () => readCsv('x.csv', 'a,b\nc,d\n1,2\n'), 'csvHeader'],
    ['CSV with a row of names after the numbers', () => readCsv('x.csv', '1,2\n3,4\nq,k\n'), 'csvHeader'],
    ['binary that is not UTF-8', () => readTensorFile('x.bin', ab(new Uint8Array([0xff, 0xfe, 0x00, 0xc3]))), 'format'],
  ];
  for (const [name, f, expected] of rows) {
    it(name, () => expect(code(f)).toBe(expected));
  }
  it('every error code has a message in both languages', () => {
    const codes = new Set(rows.map((r) => r[2]));
    for (const c of ['limitHeads', 'limitSeqLen', 'limitDk', 'limitWork', 'dkMismatch', 'lenMismatch', 'headsMismatch', 'vMismatch'] as const) codes.add(c);
    for (const c of codes) {
      expect(en[`tens.err.${c}` as keyof typeof en], c).toBeTruthy();
      expect(zhCN[`tens.err.${c}` as keyof typeof en], c).toBeTruthy();
    }
  });
  it('the message names the file and the problem', () => {
    try { readNpy('model_q.npy', npyWith(hdr('<i8', '(2, 2)'), new Uint8Array(32))); } catch (e) {
      expect((e as TensorFileError).vars).toEqual({ name: 'model_q.npy', dtype: '<i8' });
    }
  });
});

describe('pairing Q, K and V', () => {
  const t = (heads: number, seqLen: number, dk: number, name = 'x'): Tensor => ({ name, heads, seqLen, dk, rank: 3, dtype: 'float32', data: Float32Array.from({ length: heads * seqLen * dk }, (_, i) => i) });
  it('MHA pairs as they are', () => {
    const p = pairTensors(t(2, 4, 3), t(2, 4, 3));
    expect(p).toMatchObject({ heads: 2, seqLen: 4, dk: 3, headsKv: 2 });
  });
  it('GQA: K heads are repeated over their groups of query heads', () => {
    const k = t(2, 2, 2);
    const p = pairTensors(t(4, 2, 2), k);
    expect(p.headsKv).toBe(2);
    expect(Array.from(p.k)).toEqual([0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7]);
  });
  const bad: [string, () => unknown, TensorErrorCode][] = [
    ['different d', () => pairTensors(t(1, 4, 3), t(1, 4, 5)), 'dkMismatch'],
    ['different L', () => pairTensors(t(1, 4, 3), t(1, 5, 3)), 'lenMismatch'],
    ['K heads do not divide Q heads', () => pairTensors(t(3, 4, 3), t(2, 4, 3)), 'headsMismatch'],
    ['more K heads than Q heads', () => pairTensors(t(1, 4, 3), t(2, 4, 3)), 'headsMismatch'],
    ['V shaped unlike K', () => pairTensors(t(1, 4, 3), t(1, 4, 3), t(1, 4, 2)), 'vMismatch'],
    ['too many heads', () => pairTensors(t(TENSOR_LIMITS.maxHeads + 1, 2, 2), t(1, 2, 2)), 'limitHeads'],
    ['L = 1', () => pairTensors(t(1, 1, 2), t(1, 1, 2)), 'limitSeqLen'],
    ['L too long', () => pairTensors(t(1, TENSOR_LIMITS.maxSeqLen + 1, 1), t(1, TENSOR_LIMITS.maxSeqLen + 1, 1)), 'limitSeqLen'],
    ['d too large', () => pairTensors(t(1, 2, TENSOR_LIMITS.maxDk + 1), t(1, 2, TENSOR_LIMITS.maxDk + 1)), 'limitDk'],
    ['too much work', () => pairTensors(t(16, 1024, 64), t(16, 1024, 64)), 'limitWork'],
  ];
  for (const [name, f, expected] of bad) it(name, () => expect(code(f)).toBe(expected));
});

describe('the example files', () => {
  let core: Core;  // the examples are the core's normal draws (normalDraws)
  beforeAll(async () => { core = await loadCore(); }, 60000);
  it('web/public/examples/ holds exactly what scripts/make-examples.mjs makes', () => {
    for (const [name, bytes] of Object.entries(makeExamples(core))) {
      const shipped = readFileSync(new URL(`../../web/public/examples/${name}`, import.meta.url));
      expect(Buffer.compare(shipped, Buffer.from(bytes)), name).toBe(0);
    }
  });
  it('the pairs read back and pair up: structured keys are near-copies of the queries', () => {
    const ex = makeExamples(core);
    for (const [id, names] of Object.entries(EXAMPLE_PAIRS)) {
      const q = readTensorFile(names.q, ab(ex[names.q]));
      const k = readTensorFile(names.k, ab(ex[names.k]));
      const p = pairTensors(q, k);
      if (id === 'structured') {
        expect(p).toMatchObject({ heads: 1, seqLen: 128, dk: 64 });
        let diff = 0;
        for (let i = 0; i < p.q.length; i++) diff += (p.k[i] - p.q[i]) ** 2;
        expect(Math.sqrt(diff / p.q.length)).toBeCloseTo(0.5, 1);
      } else expect(p).toMatchObject({ heads: 2, seqLen: 64, dk: 32 });
    }
  });
});

describe('CSV: one optional header row, as documented; any further row of text is refused', () => {
  const err = (f: () => unknown): TensorFileError => {
    try { f(); } catch (e) { if (e instanceof TensorFileError) return e; throw e; }
    throw new Error('no TensorFileError');
  };
  it('a header row after comments and blank lines is the first row and is skipped', () => {
    const t = readCsv('k.csv', '# exported\n\nk0,k1\n0.5,-1\n2,3e-1\n');
    expect(t).toMatchObject({ seqLen: 2, dk: 2 });
    expect(Array.from(t.data)).toEqual([0.5, -1, 2, Math.fround(0.3)]);
  });
  it('a one-column file with a header', () => {
    expect(Array.from(readCsv('v.csv', 'v\n1\n2\n3\n').data)).toEqual([1, 2, 3]);
  });
  it('a second header row is refused, naming its line (counted in the file) and its first cell', () => {
    const e = err(() => readCsv('q.csv', 'a,b\n\n# units\nunit,unit\n1,2\n'));
    expect(e.code).toBe('csvHeader');
    expect(e.vars).toEqual({ name: 'q.csv', line: 4, value: 'unit' });
    expect(translator('en')('tens.err.csvHeader', e.vars)).toBe('q.csv, line 4: “unit” is text, not numbers; only the first row may be a header of names.');
    expect(translator('zh-CN')('tens.err.csvHeader', e.vars)).toBe('q.csv 第 4 行：“unit”是文字而不是数字；只有第一行可以是列名表头。');
  });
  it('a row of text between numbers is refused at its line, with or without a header', () => {
    expect(err(() => readCsv('q.csv', '1,2\nx,y\n3,4\n')).vars).toEqual({ name: 'q.csv', line: 2, value: 'x' });
    expect(err(() => readCsv('q.csv', 'a,b\r\n1,2\r\n3,4\r\nend,end\r\n')).vars).toEqual({ name: 'q.csv', line: 4, value: 'end' });
  });
  it('a header row that mixes names and numbers is a row with a bad value, named', () => {
    const e = err(() => readCsv('q.csv', 'dim,2\n1,2\n'));
    expect(e.code).toBe('csvValue');
    expect(e.vars).toEqual({ name: 'q.csv', line: 1, value: 'dim' });
  });
  it('a long first cell is cut in the message', () => {
    expect(err(() => readCsv('q.csv', 'a\n' + 'b'.repeat(500) + '\n1\n')).vars.value).toBe('b'.repeat(24));
  });
});
