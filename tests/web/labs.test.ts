// The lab panels' pure parts against the real core: chart builders draw exactly their results,
// the worker's new request kinds answer like direct calls, and the request parameters stay
// inside the core's limits and the page's work budgets.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core, LongContextResult, LongContextMethod, LongContextParams } from '../../wasm/js/core.js';
import { run, groupedLogits } from '../../web/src/worker/handler.ts';
import { buildPrecisionProbs, buildPrecisionJacobian, precisionCsv, PROB_FLOOR } from '../../web/src/charts/precision.ts';
import { buildLongContext } from '../../web/src/charts/longctx.ts';
import { buildGqaEntropy, buildKvCache } from '../../web/src/charts/gqa.ts';
import { buildTensorJacobian, buildRowHistogram, quantile, TENSOR_SCALES } from '../../web/src/charts/tensors.ts';
import { FORMATS, ALGORITHMS } from '../../web/src/requests/results.ts';
import { precisionParams, precisionRows, cellText, parseLogitField } from '../../web/src/requests/precision.ts';
import { longParams, longQueries, longKeys, longMethodsToAsk, longRequest, longResultOf, longWorker, METHODS, PANEL_METHODS, QUOTE_L } from '../../web/src/requests/longctx.ts';
import { CLAIMS } from '../../web/src/claims.ts';
import type { Request } from '../../web/src/worker/protocol.ts';
import { FORMULAS, LONG_FACTORS, longContextFormula } from '../../web/src/formulas.js';
import { toHash, parseHash } from '../../web/src/state/state.ts';
import { defaultState } from '../../web/src/state/state.ts';
import { translator } from '../../web/src/i18n/messages.ts';
import { LONG_DK_STEPS, SEQ_STEPS } from '../../web/src/state/schema.js';

let core: Core;
beforeAll(async () => { core = await loadCore({}); });
const t = translator('en');

describe('precision lab', () => {
  it('the presets: which format × algorithm overflows, and the cell texts say so', () => {
    const r = core.precisionLab(precisionParams({ ...defaultState(), plogits: [100, 90, 80] }));
    const bad = r.cells.filter((c) => c.shareNonfinite > 0).map((c) => `${c.format}/${c.algorithm}`);
    expect(bad).toEqual(['float32/naive', 'bfloat16/naive', 'float16/naive']);
    expect(cellText(r.cells.find((c) => c.format === 'float16' && c.algorithm === 'naive')!)).toMatch(/^NaN 100\.0 %/);
    expect(cellText(r.cells.find((c) => c.format === 'float64' && c.algorithm === 'safe')!)).toBe('✓ · Δ 0');
    const probs = buildPrecisionProbs(r, t);
    expect(probs.points).toBe(4 * 3);
    // float16 safe: exp(−20) ≈ 2e-9 underflows to 0 and is drawn at the floor
    expect((probs.config.data.datasets[3].data[2] as { y: number }).y).toBe(PROB_FLOOR);
    expect(probs.csv.rows.find((row) => String(row[0]).startsWith('float16') && row[1] === 2)?.[2]).toBe(0);
    const jac = buildPrecisionJacobian(r, t);
    expect(jac.points).toBe(12 - 3);  // no bar for the three overflowed cells
    expect(precisionCsv(r).rows).toHaveLength(12);
  });
  it('issue #11: the cells name the cause, and −∞ typed or linked is a masked key', () => {
    const cell = (r: ReturnType<Core['precisionLab']>, f: string, a: string) => r.cells.find((c) => c.format === f && c.algorithm === a)!;
    const eleven = core.precisionLab(precisionParams({ ...defaultState(), plogits: [11, 11] }));
    expect(cellText(cell(eleven, 'float16', 'naive'))).toBe('Σ→∞ 100.0 % · Δ 0.5');
    const f32 = core.precisionLab(precisionParams({ ...defaultState(), plogits: [11, 11], pacc: 'float32' }));
    expect(cellText(cell(f32, 'float16', 'naive'))).toBe('✓ · Δ 0');
    const masked = core.precisionLab(precisionParams({ ...defaultState(), plogits: [-Infinity, -Infinity] }));
    expect(cellText(cell(masked, 'float32', 'safe'))).toBe('NaN 100.0 % · 0/0 100.0 %');
    const zero = core.precisionLab(precisionParams({ ...defaultState(), plogits: [-Infinity, -Infinity], pmasked: 'zero' }));
    expect(cellText(cell(zero, 'float32', 'safe'))).toBe('✓ · Δ 0');
    expect(cellText(cell(core.precisionLab({ logits: [70000, 0] }), 'float16', 'safe'))).toMatch(/in→∞ 100\.0 %/);
    expect(cellText(cell(core.precisionLab({ logits: [12, 0] }), 'float16', 'naive'))).toMatch(/exp→∞ 100\.0 %/);
    expect(cellText(cell(core.precisionLab({ logits: [0, -20] }), 'float16', 'naive'))).toMatch(/^0↓ 100\.0 %/);
    expect(precisionCsv(masked).header).toContain('cause_sum_overflow');
    // the field: −∞ in any spelling; +∞ is refused
    expect(parseLogitField('[−∞, 0, 5]')).toEqual([-Infinity, 0, 5]);
    expect(parseLogitField('-inf 1; -Infinity')).toEqual([-Infinity, 1, -Infinity]);
    expect(parseLogitField('inf, 0')).toBeNull();
    expect(parseLogitField('∞')).toBeNull();
    expect(parseLogitField('')).toBeNull();
    // a share link with a masked logit reproduces it
    const s = { ...defaultState(), exp: 'precision' as const, plogits: [-Infinity, 0, 5] };
    expect(toHash(s)).toContain('plogits=-inf,0,5');
    expect(parseHash(toHash(s)).state.plogits).toEqual([-Infinity, 0, 5]);
  });
  it('online equals safe up to rounding, and random rows stay in the budget', () => {
    for (const L of SEQ_STEPS) expect(precisionRows(L) * L).toBeLessThanOrEqual(4096 + 4 * 8);
    const s = { ...defaultState(), pmode: 'random' as const, pdk: 64, pseqLen: 64, pscale: 'inv_sqrt_dk' as const };
    const r = core.precisionLab(precisionParams(s));
    expect(r.rows).toBe(precisionRows(64));
    expect(Array.from(r.onlineVsSafe).every((d, i) => d <= [1e-15, 1e-6, 1e-2, 2e-3][i])).toBe(true);
    expect(FORMATS.length * ALGORITHMS.length).toBe(r.cells.length);
  });
});

describe('long context', () => {
  it('one request per method; fixed ignores L_train; the quoted length is in the sweep', () => {
    const s = { ...defaultState(), ldk: 16, ltrain: 256 };
    expect(longParams(s, 'fixed').trainLen).toBe(longParams({ ...s, ltrain: 1024 }, 'fixed').trainLen);
    expect(longParams(s, 'logn').trainLen).toBe(256);
    expect(longParams(s, 'yarn').seqLens).toContain(8192);
    for (const dk of LONG_DK_STEPS) expect(longQueries(dk) * dk).toBeLessThanOrEqual(1024);
  });
  // the worker's answer to a longContext request (worker/handler.ts run(), as the page's worker runs it)
  const answer = (params: LongContextParams): LongContextResult => {
    const r = run(core, { id: 0, kind: 'longContext', params } as Request);
    if (!r.ok) throw new Error(r.error.message);
    return r.result as LongContextResult;
  };
  it('an L_train change is one request naming logn, YaRN and the article, its points bit for bit those of the per-method requests', () => {
    const before = { ...defaultState(), exp: 'longctx' as const };
    const shown = longKeys(before);  // every curve final at the default L_train (512)
    expect(longMethodsToAsk(before, shown)).toEqual([]);
    const after = { ...before, ltrain: 1024 };
    const ask = longMethodsToAsk(after, shown);
    expect(ask).toEqual(['logn', 'yarn', 'article']);
    const p = longRequest(after, ask);
    expect(p).toEqual({ ...longParams(after, 'logn'), methods: ['logn', 'yarn', 'article'] });
    expect(p.trainLen).toBe(1024);
    expect(longWorker(ask)).toBe('live');
    const r = answer(p);
    expect(r.points).toHaveLength(3);
    for (const m of ask) expect(longResultOf(r, ask, m), m).toEqual(answer(longParams(after, m)));
    // and back: the same three, never the methods that ignore L_train
    expect(longMethodsToAsk(before, longKeys(after))).toEqual(['logn', 'yarn', 'article']);
  });
  it('a d_k or sink change is one request for all six methods; those that ignore L_train give their own request\'s bits at any L_train', () => {
    const s = { ...defaultState(), exp: 'longctx' as const, ltrain: 2048 };
    for (const next of [{ ...s, ldk: 32 }, { ...s, sink: [1.5] }]) {
      const ask = longMethodsToAsk(next, longKeys(s));
      expect(ask).toEqual([...PANEL_METHODS]);
      const p = longRequest(next, ask);
      expect(p.methods).toEqual([...PANEL_METHODS]);
      expect(p.trainLen).toBe(2048);
      const r = answer(p);
      // fixed, Llama 4 and SSMax alone ask with trainLen 512 (one cache entry for every L_train)
      expect(longParams(next, 'fixed').trainLen).toBe(512);
      for (const m of PANEL_METHODS) expect(longResultOf(r, ask, m), `${m} ${JSON.stringify(next.sink)}`).toEqual(answer(longParams(next, m)));
    }
  });
  it('the claim check C8 asks the same one request as an L_train change, and reads the per-method requests\' numbers from it', () => {
    const s = { ...defaultState(), exp: 'longctx' as const, ltrain: 1024 };
    const reqs = CLAIMS.C8.requests(s);
    expect(reqs.map((r) => r.params)).toEqual([longRequest(s, ['logn', 'yarn', 'article'])]);
    const live = CLAIMS.C8.extract([answer(reqs[0].params as LongContextParams)], s);
    const one = (m: LongContextMethod) => answer(longParams(s, m)).points[0].find((p) => p.seqLen === QUOTE_L)!;
    expect(live).toEqual({
      logn: one('logn').multiplier, yarn: one('yarn').multiplier, article: one('article').multiplier, articleMax: one('article').maxWeight,
      ratio: one('article').multiplier / Math.max(one('logn').multiplier, one('yarn').multiplier),
    });
  });
  it('a method whose curve is still on its way is asked again with the others; the request keeps the panel\'s order', () => {
    const s = { ...defaultState(), exp: 'longctx' as const };
    const { yarn: _pending, ...shown } = longKeys(s);
    expect(longMethodsToAsk(s, shown)).toEqual(['yarn']);
    expect(longMethodsToAsk({ ...s, ltrain: 256 }, shown)).toEqual(['logn', 'yarn', 'article']);
    const only = longRequest(s, ['ssmax', 'fixed']);
    expect(only).toEqual({ ...longParams(s, 'fixed'), methods: ['fixed', 'ssmax'] });
    expect(longWorker(['yarn', 'article'])).toBe('sweep');
    expect(() => longRequest(s, [])).toThrow(RangeError);
    expect(() => longResultOf({ points: [[]] }, ['fixed'], 'logn')).toThrow(/'logn' is not in the request/);
  });
  it('builds entropy, ratio and max weight against L, with ln L', () => {
    const results: Partial<Record<LongContextMethod, LongContextResult>> = {};
    for (const m of METHODS) results[m] = core.longContext({ dk: 8, seqLens: [64, 256, 1024], trainLen: 128, queries: 2, methods: [m] });
    const ent = buildLongContext(results, METHODS, 'entropy', 128, t);
    expect(ent.points).toBe(4 * 3 + 3);
    expect(ent.config.data.datasets[4].data).toEqual([64, 256, 1024].map((L) => ({ x: L, y: Math.log(L) })));
    const ratio = buildLongContext(results, METHODS, 'entropyRatio', 128, t);
    expect((ratio.config.data.datasets[3].data[2] as { y: number }).y).toBe(results.article!.points[0][2].entropyRatio);
    // the article's multiplier at L = 1024, L_train = 128 is √8
    expect(results.article!.points[0][2].multiplier).toBeCloseTo(Math.sqrt(8), 12);
    expect(buildLongContext({ fixed: results.fixed }, METHODS, 'maxWeight', 128, t).points).toBe(3);
  });
  it('the formula shows the factor of every method the panel draws, Llama 4 and SSMax included, and no other', () => {
    expect(Object.keys(LONG_FACTORS)).toEqual([...PANEL_METHODS]);
    const tex = FORMULAS.longctx;
    expect(tex).toBe(longContextFormula([...PANEL_METHODS]));
    expect(tex.match(/\\lambda_\{/g)).toHaveLength(PANEL_METHODS.length);
    for (const name of ['fixed', '\\log n', 'YaRN', 'article', 'Llama 4', 'SSMax']) expect(tex).toContain(name);
    // the factors are the core's: Llama 4's at L = 16384 (⌊16384 / 8192⌋ = 2), SSMax's s = 0.43
    const r = core.longContext({ dk: 8, seqLens: [16384], queries: 1, methods: ['llama4', 'ssmax'] });
    expect(r.points[0][0].multiplier).toBeCloseTo(1 + 0.1 * Math.log(3), 14);
    expect(r.points[1][0].multiplier).toBeCloseTo(0.43 * Math.log(16384), 14);
    expect(tex).toContain('\\tfrac{L}{8192}');
    expect(tex).toContain('0.43\\,\\ln L');
    expect(() => longContextFormula(['fixed', 'ntk'])).toThrow(/no factor for method 'ntk'/);
  });
});

describe('GQA / MQA', () => {
  it('groupedLogits: Var(q·k/√d) ≈ 1 for MHA, GQA and MQA; refuses a non-divisor', () => {
    for (const kv of [8, 2, 1]) {
      const r = groupedLogits(core, { heads: 8, headsKv: kv, seqLen: 32, dk: 64, seed: 3 });
      expect(Math.abs(r.scaledVariance - 1)).toBeLessThan(0.1);
      expect(r.qk.variance / 64).toBeCloseTo(r.scaledVariance, 12);
    }
    expect(() => groupedLogits(core, { heads: 8, headsKv: 3, seqLen: 4, dk: 4, seed: 0 })).toThrow(RangeError);
    const viaWorker = run(core, { id: 9, kind: 'groupedLogits', params: { heads: 4, headsKv: 3, seqLen: 4, dk: 4, seed: 0 } });
    expect(viaWorker).toMatchObject({ id: 9, ok: false, error: { name: 'RangeError' } });
  });
  it('entropy against d_head: the layouts lie on each other; the KV chart is exactly the totals', () => {
    const dims = [16, 64];
    const stats = (kv: number, scale: 'none' | 'inv_sqrt_dk') => dims.map((dk) => core.attentionStats({ heads: 4, headsKv: kv, seqLen: 16, dk, scale, seed: 0, perRow: false, heatmapSize: 1 }));
    const scaled = { mha: stats(4, 'inv_sqrt_dk'), gqa: stats(2, 'inv_sqrt_dk'), mqa: stats(1, 'inv_sqrt_dk') };
    const raw = { mha: stats(4, 'none'), gqa: stats(2, 'none'), mqa: stats(1, 'none') };
    const labels = { mha: 'MHA', gqa: 'GQA', mqa: 'MQA' };
    const spec = buildGqaEntropy(scaled, raw, dims, labels, 64, t);
    expect(spec.points).toBe(6 * 2 + 2);
    expect(spec.config.data.datasets[0].data).toEqual(dims.map((d, i) => ({ x: d, y: scaled.mha[i].summary.entropy.mean })));
    const kv = buildKvCache({ mha: 4, gqa: 2, mqa: 1 }, labels, t);
    expect(kv.csv.rows.map((r) => r[1])).toEqual([4, 2, 1]);
  });
});

describe('your own tensors', () => {
  it('floating bars of ‖J‖_F per scale and row histograms of the per-row arrays', () => {
    const q = Float32Array.from({ length: 2 * 16 * 8 }, (_, i) => Math.sin(i));
    const k = Float32Array.from({ length: 2 * 16 * 8 }, (_, i) => Math.cos(i * 0.7));
    const own = Object.fromEntries(TENSOR_SCALES.map((scale) => [scale, core.tensorStats({ q, k, heads: 2, seqLen: 16, dk: 8, scale })])) as never;
    const iid = Object.fromEntries(TENSOR_SCALES.map((scale) => [scale, core.attentionStats({ heads: 2, seqLen: 16, dk: 8, scale, perRow: true, heatmapSize: 1 })])) as never;
    const spec = buildTensorJacobian(own, iid, t);
    const bands = spec.config.data.datasets[0].data as unknown as number[][];
    expect(bands[1][0]).toBeCloseTo(quantile((own as Record<string, { rows: { jacFro: Float64Array } }>).inv_sqrt_dk.rows.jacFro, 0.1), 12);
    expect(spec.csv.rows).toHaveLength(6);
    const hist = buildRowHistogram([0.1, 0.2, 0.2, 5], [1, 1], 0, 1, 'x', null, t, 10);
    const bars = hist.config.data.datasets[0].data as { x: number; y: number }[];
    expect(bars.reduce((a, b) => a + b.y * 0.1, 0)).toBeCloseTo(1, 12);  // out-of-range values land in the edge bins
    expect(bars[2].y).toBeCloseTo(2 / (4 * 0.1), 12);
  });
  it('the worker answers tensorStats like a direct call', () => {
    const q = Float32Array.from({ length: 16 }, (_, i) => i / 8);
    const params = { q, k: q, heads: 1, seqLen: 4, dk: 4, scale: 'inv_sqrt_dk' as const };
    const r = run(core, { id: 1, kind: 'tensorStats', params });
    expect(r.ok).toBe(true);
    if (r.ok) expect((r.result as { qk: { variance: number } }).qk.variance).toBe(core.tensorStats(params).qk.variance);
  });
});
