// ALiBi against 1/√d_k alone on the long-context view (web/src/worker/alibi.ts, charts/alibi.ts, requests/longctx.ts)
// against the real core: Press's slopes, each head's entropy held to a double reference written here from the same
// draws, the steep head flat and 1/√d_k alone growing with L, the chart built from the result, and the key lalibi.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core } from '../../wasm/js/core.js';
import { alibiEntropy, alibiScales } from '../../web/src/worker/alibi.ts';
import type { AlibiResult } from '../../web/src/worker/alibi.ts';
import { coreNormals } from '../../web/src/worker/draws.ts';
import { run } from '../../web/src/worker/handler.ts';
import { alibiParams, ALIBI_LENS, alibiScalesParams, alibiScalesTooBig } from '../../web/src/requests/longctx.ts';
import { buildAlibi, buildAlibiScales } from '../../web/src/charts/alibi.ts';
import { alibiScaleFigures } from '../../web/src/requests/key-figures.ts';
import { translator } from '../../web/src/i18n/messages.ts';
import { defaultState, parseHash, toHash } from '../../web/src/state/state.ts';

let core: Core;
let full: AlibiResult;
beforeAll(async () => {
  core = await loadCore({});
  full = alibiEntropy(core, alibiParams({ ...defaultState(), lalibi: true })!);
}, 120_000);

/** Mean entropy of head h's last `tail` rows, in double: s_ij = c · q_i·k_j − m (i − j) for j ≤ i (c = 1/√d_k unless given), softmax, −Σ p ln p. */
function reference(q: Float32Array, k: Float32Array, L: number, dk: number, h: number, m: number, tail: number, c = 1 / Math.sqrt(dk)): number {
  let sum = 0;
  for (let i = L - tail; i < L; i++) {
    const s: number[] = [];
    for (let j = 0; j <= i; j++) {
      let d = 0;
      for (let c = 0; c < dk; c++) d += q[(h * L + i) * dk + c] * k[(h * L + j) * dk + c];
      s.push(d * c - m * (i - j));
    }
    const mx = Math.max(...s);
    const z = s.reduce((a, x) => a + Math.exp(x - mx), 0);
    sum -= s.reduce((a, x) => { const p = Math.exp(x - mx) / z; return a + (p > 0 ? p * Math.log(p) : 0); }, 0);
  }
  return sum / tail;
}

describe('ALiBi against 1/√d_k alone', () => {
  it('Press\'s slopes for 8 heads: 2^(−8h/8) = 1/2 … 1/256; the scale stays 1/√d_k', () => {
    expect(full.slopes).toEqual([0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625]);
    expect(full.scale).toBe(1 / Math.sqrt(64));
    expect(full.seqLens).toEqual([...ALIBI_LENS]);
  });

  it('each head\'s entropy is the double reference\'s on the same draws, with ALiBi and without', () => {
    const heads = 8, L = 64, dk = 16, tail = 16;
    const r = alibiEntropy(core, { heads, dk, seqLens: [L], tail, seed: 3 });
    const q = coreNormals(core, heads * L * dk, 3, 1), k = coreNormals(core, heads * L * dk, 3, 2);
    for (let h = 0; h < heads; h++) {
      expect(r.alibi[h][0]).toBeCloseTo(reference(q, k, L, dk, h, 2 ** -(h + 1), tail), 4);
      expect(r.plain[h][0]).toBeCloseTo(reference(q, k, L, dk, h, 0, tail), 4);
    }
    expect(r.plainMean[0]).toBeCloseTo(r.plain.reduce((a, e) => a + e[0], 0) / heads, 12);
  });

  it('the steep head stays flat, 1/√d_k alone grows like ln L, and every ALiBi head is below it at L = 1024', () => {
    const n = full.seqLens.length - 1, i64 = full.seqLens.indexOf(64);
    const ln16 = Math.log(16);
    // head 1 (m = 1/2): a window of a few keys, the same entropy from L = 64 to 1024
    expect(Math.abs(full.alibi[0][n] - full.alibi[0][i64])).toBeLessThan(0.1 * ln16);
    expect(full.alibi[0][n]).toBeLessThan(2);
    // 1/√d_k alone: nearly the growth of ln L, and below ln L
    expect(full.plainMean[n] - full.plainMean[i64]).toBeGreaterThan(0.8 * ln16);
    for (let l = 0; l <= n; l++) expect(full.plainMean[l]).toBeLessThan(Math.log(full.seqLens[l]));
    // head 8 (m = 1/256) still grows
    expect(full.alibi[7][n] - full.alibi[7][i64]).toBeGreaterThan(0.25 * ln16);
    for (let h = 0; h < 8; h++) expect(full.alibi[h][n], `head ${h + 1}`).toBeLessThan(full.plainMean[n]);
    // steeper slope, lower entropy
    for (let h = 1; h < 8; h++) expect(full.alibi[h][n]).toBeGreaterThan(full.alibi[h - 1][n]);
  });

  it('the worker answers as the direct call, and refuses a length below the rows read', () => {
    const p = { heads: 4, dk: 8, seqLens: [16, 32], tail: 8, seed: 0 };
    const viaWorker = run(core, { id: 1, kind: 'alibiEntropy', params: p });
    expect(viaWorker.ok).toBe(true);
    expect((viaWorker as { result: unknown }).result).toEqual(alibiEntropy(core, p));
    expect(run(core, { id: 2, kind: 'alibiEntropy', params: { ...p, seqLens: [4] } }).ok).toBe(false);
    expect(run(core, { id: 3, kind: 'alibiEntropy', params: { ...p, tail: 0 } }).ok).toBe(false);
  });

  it('the chart: one line per head labelled with its slope, 1/√d_k alone and ln L, its CSV the plotted numbers, both languages', () => {
    for (const lang of ['en', 'zh-CN'] as const) {
      const spec = buildAlibi(full, translator(lang));
      const ds = spec.config.data.datasets;
      expect(ds.length).toBe(10);
      expect(spec.points).toBe(10 * ALIBI_LENS.length);
      expect(ds[0].label).toContain('0.5');
      expect(ds[7].label).toContain('0.00391');
      expect(ds[0].data).toEqual(full.seqLens.map((x, l) => ({ x, y: full.alibi[0][l] })));
      expect(ds[8].data).toEqual(full.seqLens.map((x, l) => ({ x, y: full.plainMean[l] })));
      expect((ds[9].data[6] as { y: number }).y).toBeCloseTo(Math.log(1024), 12);
      expect(spec.csv.rows.length).toBe(70);
      expect(spec.csv.rows[0]).toEqual([ds[0].label, 16, full.alibi[0][0]]);
    }
    expect(buildAlibi(full, translator('zh-CN')).config.data.datasets[0].label).not.toBe(buildAlibi(full, translator('en')).config.data.datasets[0].label);
  });

  it('lalibi: off by default (nothing asked), on from the link with the view\'s d_k', () => {
    expect(defaultState().lalibi).toBe(false);
    expect(alibiParams(defaultState())).toBeNull();
    const s = parseHash(toHash({ ...defaultState(), lalibi: true, ldk: 128 })).state;
    expect(s.lalibi).toBe(true);
    expect(alibiParams(s)).toEqual({ heads: 8, dk: 128, seqLens: [...ALIBI_LENS], tail: 16, seed: 0 });
  });
});

describe('does ALiBi need the 1/√d_k? (the saturation view, key salibi)', () => {
  it('each head\'s entropy under ÷√d_k, no scale and ÷d_k is the double reference\'s on the same draws', () => {
    const heads = 8, L = 48, dk = 16, tail = 16, seed = 5;
    const r = alibiScales(core, { heads, dk, seqLen: L, tail, seed, scales: ['inv_sqrt_dk', 'none', 'inv_dk'] });
    const q = coreNormals(core, heads * L * dk, seed, 1), k = coreNormals(core, heads * L * dk, seed, 2);
    expect(r.slopes).toEqual([0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625]);
    expect(r.rows.map((x) => [x.scale, x.c])).toEqual([['inv_sqrt_dk', 0.25], ['none', 1], ['inv_dk', 1 / 16]]);
    for (const row of r.rows) {
      let plain = 0;
      for (let h = 0; h < heads; h++) {
        expect(row.alibi[h], `${row.scale} head ${h + 1}`).toBeCloseTo(reference(q, k, L, dk, h, 2 ** -(h + 1), tail, row.c), 4);
        plain += reference(q, k, L, dk, h, 0, tail, row.c) / heads;
      }
      expect(row.plainMean, row.scale).toBeCloseTo(plain, 4);
    }
    // the worker answers as the direct call; no scale refused
    const p = { heads: 2, dk: 4, seqLen: 16, tail: 8, seed: 0, scales: ['none' as const] };
    const viaWorker = run(core, { id: 4, kind: 'alibiScales', params: p });
    expect((viaWorker as { result: unknown }).result).toEqual(alibiScales(core, p));
    expect(run(core, { id: 5, kind: 'alibiScales', params: { ...p, scales: [] } }).ok).toBe(false);
  });

  it('at the view\'s defaults (d_k 64, L 128): ÷√d_k spreads the heads by their slopes; unscaled q·k swamps them; ÷d_k leaves the slopes alone', () => {
    const r = alibiScales(core, alibiScalesParams({ ...defaultState(), salibi: true })!);
    const [sq, none, inv] = r.rows;
    const spread = (x: typeof sq) => x.alibi[7] - x.alibi[0];
    expect(spread(sq)).toBeGreaterThan(1.5);
    expect(spread(none)).toBeLessThan(0.5 * spread(sq));
    expect(none.alibi[7]).toBeLessThan(sq.alibi[0] + 0.5);
    // ÷d_k: content is small, so the bias alone sets each head; above ÷√d_k at every head
    for (let h = 0; h < 8; h++) expect(inv.alibi[h]).toBeGreaterThan(sq.alibi[h]);
    for (let h = 1; h < 8; h++) expect(sq.alibi[h]).toBeGreaterThan(sq.alibi[h - 1]);
  });

  it('the chart (solid with ALiBi, dashed without, per scale), its figures and the key: off by default, too big refused', () => {
    const r = alibiScales(core, { heads: 8, dk: 16, seqLen: 32, tail: 16, seed: 1, scales: ['inv_sqrt_dk', 'none', 'inv_dk'] });
    for (const lang of ['en', 'zh-CN'] as const) {
      const t = translator(lang);
      const spec = buildAlibiScales(r, t);
      const ds = spec.config.data.datasets;
      expect(ds.length).toBe(6);
      expect(spec.points).toBe(48);
      expect(ds[0].data).toEqual(r.rows[0].alibi.map((y, h) => ({ x: h + 1, y })));
      expect(ds[3].data).toEqual(r.rows[1].alibi.map((_, h) => ({ x: h + 1, y: r.rows[1].plainMean })));
      expect(spec.csv.rows[0]).toEqual([ds[0].label, 1, r.rows[0].alibi[0]]);
      const figs = alibiScaleFigures(r, t);
      expect(figs.map((f) => f.id)).toEqual(['sal-inv_sqrt_dk-steep', 'sal-inv_sqrt_dk-gentle', 'sal-none-steep', 'sal-none-gentle', 'sal-inv_dk-steep', 'sal-inv_dk-gentle']);
      expect(Number(figs[1].value)).toBeCloseTo(r.rows[0].alibi[7], 3);
    }
    expect(buildAlibiScales(r, translator('zh-CN')).config.data.datasets[1].label).not.toBe(buildAlibiScales(r, translator('en')).config.data.datasets[1].label);
    expect(defaultState().salibi).toBe(false);
    expect(alibiScalesParams(defaultState())).toBeNull();
    const s = parseHash(toHash({ ...defaultState(), salibi: true, dk: 128, seqLen: 8, seed: 9 })).state;
    expect(alibiScalesParams(s)).toEqual({ heads: 8, dk: 128, seqLen: 8, tail: 8, seed: 9, scales: ['inv_sqrt_dk', 'none', 'inv_dk'] });
    expect(alibiScalesTooBig(alibiScalesParams({ ...s, dk: 4096, seqLen: 1024 })!)).toBe(true);
    expect(alibiScalesTooBig(alibiScalesParams({ ...s, dk: 64, seqLen: 512 })!)).toBe(false);
  });
});
