// Chart builders are pure: they draw exactly the result they are given, and the CSV holds exactly
// the drawn series.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core } from '../../wasm/js/core.js';
import { buildVarianceLaw, varianceRelSE, buildHistogram } from '../../web/src/charts/variance.ts';
import { buildSaturationLine, buildHeatmap } from '../../web/src/charts/saturation.ts';
import { buildGradientSweep, buildJacobianCurve, buildProbs } from '../../web/src/charts/gradient.ts';
import { buildArticle } from '../../web/src/charts/article.ts';
import { csvText } from '../../web/src/charts/kit.ts';
import { ALL_SCALES, ARTICLE_SCALES } from '../../web/src/requests/results.ts';
import { defaultState } from '../../web/src/state/state.ts';
import { translator } from '../../web/src/i18n/messages.ts';
import { sweepDks, varianceDks } from '../../web/src/worker/cost.ts';
import { DK_STEPS } from '../../web/src/state/schema.js';

let core: Core;
beforeAll(async () => { core = await loadCore({}); });
const t = translator('en');

describe('chart builders', () => {
  it('the √d_k / ln L gap: a labelled callout at the chosen d_k on the entropy chart and on the article’s bars (issue 18)', () => {
    const sweep = core.saturationSweep({ dks: [64, 512], scales: [...ALL_SCALES], heads: 8, seqLen: 128, seed: 0 });
    const spec = buildSaturationLine(sweep, [64, 512], ALL_SCALES, 'entropy', null, { ...defaultState(), dk: 512 }, t, ARTICLE_SCALES);
    const gap = (spec.config.options.plugins as { gapLabel: { x: number; y0: number; y1: number; text: string } }).gapLabel;
    const h = sweep.points[ALL_SCALES.indexOf('inv_sqrt_dk')][1].entropy.mean;
    expect(gap).toEqual({ x: 512, y0: h, y1: Math.log(128), text: `ln L − H = ${Number((Math.log(128) - h).toPrecision(3))} nats` });
    expect(Math.log(128) - h).toBeGreaterThan(0.4);
    // only the scales asked for are drawn (the landing: none, ÷√d_k, ÷d_k and ln L)
    expect(spec.config.data.datasets.map((d) => d.label)).toEqual(['no scaling', '÷√d_k', '÷d_k', 'ln L (uniform)']);
    // far from ln L (no scale at d_k = 512): no callout for it; a d_k outside the sweep: none
    expect(buildSaturationLine(sweep, [64, 512], ALL_SCALES, 'entropy', null, { ...defaultState(), dk: 16 }, t).config.options.plugins).not.toHaveProperty('gapLabel');
    const art = core.saturationSweep({ dks: [512], scales: [...ARTICLE_SCALES], heads: 8, seqLen: 128, seed: 0, gradients: false });
    const bars = buildArticle(ARTICLE_SCALES.map((_, i) => ({ summary: art.points[i][0], logSeqLen: art.logSeqLen })) as never, t);
    expect((bars.config.options.plugins as { gapLabel: { x: number } }).gapLabel.x).toBe(1);
  });

  it('variance law: one point per d_k per series, marker at the chosen d_k, CSV = drawn points', () => {
    const state = { ...defaultState(), dk: 16 };
    const sweep = core.scoreVariance({ dks: [1, 4, 16, 64], samples: 500, seed: 1 });
    const point = core.scoreVariance({ dks: [16], samples: 500, seed: 1, histDk: 16 });
    const spec = buildVarianceLaw(sweep, point, state, t);
    expect(spec.config.data.datasets).toHaveLength(7);
    expect(spec.config.data.datasets[0].data).toEqual(sweep.rows.map((r) => ({ x: r.dk, y: r.raw.variance })));
    expect(spec.config.data.datasets[6].data).toHaveLength(3);
    expect(spec.points).toBe(6 * 4 + 3);
    expect(spec.csv.rows).toHaveLength(spec.points);
    expect(spec.config.options.animation).toBe(false);
    expect((spec.config.options.plugins as { vline: { x: number } }).vline.x).toBe(16);
    const text = csvText(spec.csv);
    expect(text.split('\n')[0]).toBe('series,d_k,variance');
    expect(text).toContain(`Var(q·k) measured,16,${sweep.rows[2].raw.variance}`);
  });

  it('variance law with a sample count: ±2 SE bands that shrink with more samples, not exported', () => {
    const state = { ...defaultState(), dk: 16 };
    const sweep = core.scoreVariance({ dks: [1, 4, 16, 64], samples: 500, seed: 1 });
    const few = buildVarianceLaw(sweep, null, state, t, 256);
    const many = buildVarianceLaw(sweep, null, state, t, 2000);
    const bands = (spec: typeof few) => spec.config.data.datasets.filter((d) => d.band);
    expect(bands(few)).toHaveLength(6);
    expect(few.csv).toEqual(buildVarianceLaw(sweep, null, state, t).csv);
    expect(few.points).toBe(6 * 4);
    const width = (spec: typeof few) => {
      const [lo, hi] = bands(spec).slice(0, 2).map((d) => d.data as { y: number }[]);
      return hi[1].y - lo[1].y;
    };
    expect(width(many)).toBeLessThan(width(few) / 2.5);
    // the band at d_k = 4 from 256 samples: 4 × SE with SE/σ² = √(2/255 + 6/(4·256))
    expect(width(few) / sweep.rows[1].raw.variance).toBeCloseTo(4 * Math.sqrt(2 / 255 + 6 / 1024), 12);
  });

  it('the standard error of a sample variance of q·k matches its spread over many seeds', () => {
    // 200 independent estimates of Var(q·k) at d_k = 4 from 256 samples each
    const vs = Array.from({ length: 200 }, (_, s) => core.scoreVariance({ dks: [4], samples: 256, seed: 1000 + s }).rows[0].raw.variance);
    const m = vs.reduce((a, b) => a + b, 0) / vs.length;
    const sd = Math.sqrt(vs.reduce((a, b) => a + (b - m) ** 2, 0) / (vs.length - 1));
    expect(sd / 4).toBeGreaterThan(0.8 * varianceRelSE(256, 4));
    expect(sd / 4).toBeLessThan(1.2 * varianceRelSE(256, 4));
  });

  it('histogram: a density that integrates to the share of samples inside the edges', () => {
    const r = core.scoreVariance({ dks: [64], samples: 4000, seed: 2, histDk: 64, bins: 40 });
    const spec = buildHistogram(r.histRaw, 8, '#000000', t);
    const bars = spec.config.data.datasets[0].data as { x: number; y: number }[];
    const w = r.histRaw.edges[1] - r.histRaw.edges[0];
    const area = bars.reduce((a, b) => a + b.y * w, 0);
    const n = r.histRaw.counts.reduce((a, b) => a + b, 0) + r.histRaw.below + r.histRaw.above;
    expect(area).toBeCloseTo(r.histRaw.counts.reduce((a, b) => a + b, 0) / n, 10);
    const dens = spec.config.data.datasets[1].data as { x: number; y: number }[];
    const peak = dens.reduce((m, p) => Math.max(m, p.y), 0);
    expect(peak).toBeCloseTo(1 / (8 * Math.sqrt(2 * Math.PI)), 3);
  });

  it('saturation, heatmap and gradient charts reflect the sweep and point', () => {
    const state = { ...defaultState(), heads: 1, seqLen: 16, dk: 4, gq: 'jac' as const };
    const dks = [1, 4, 16];
    const sweep = core.saturationSweep({ dks, scales: [...ALL_SCALES], heads: 1, seqLen: 16, seed: 1 });
    const point = core.attentionStats({ heads: 1, seqLen: 16, dk: 4, seed: 1, scale: 'inv_sqrt_dk', perRow: false, heatmapSize: 16 });
    const ent = buildSaturationLine(sweep, dks, ALL_SCALES, 'entropy', point, state, t);
    expect(ent.config.data.datasets).toHaveLength(4 + 1 + 1);
    expect(ent.config.data.datasets[1].data).toEqual(dks.map((dk, i) => ({ x: dk, y: sweep.points[1][i].entropy.mean })));
    expect(ent.config.data.datasets[4].data).toEqual([{ x: 1, y: sweep.logSeqLen }, { x: 4096, y: sweep.logSeqLen }]);
    // the point at d_k = 4 with 1/√d_k is the sweep's point (same seed, same shapes)
    expect((ent.config.data.datasets[5].data[0] as { y: number }).y).toBeCloseTo(sweep.points[1][1].entropy.mean, 12);
    const hm = buildHeatmap(point, 8, t);
    expect(hm.points).toBe(64);
    expect(hm.csv.rows[9]).toEqual([1, 1, point.heatmap[1 * 16 + 1]]);
    const img = (hm.config.options.plugins as { heatmap: { n: number; rgba: Uint8ClampedArray } }).heatmap;
    expect(img.n).toBe(8);
    expect(img.rgba.length).toBe(8 * 8 * 4);
    expect(hm.max).toBe(Math.max(...Array.from({ length: 64 }, (_, k) => point.heatmap[Math.floor(k / 8) * 16 + (k % 8)])));
    const g = buildGradientSweep(sweep, dks, ALL_SCALES, point, state, t);
    expect(g.config.data.datasets).toHaveLength(4 * 4 + 1);
    expect(g.config.data.datasets[2].data).toEqual(dks.map((dk, i) => ({ x: dk, y: sweep.points[0][i].jacFro.median })));
    expect(g.config.data.datasets[1].fill).toBe(0);  // the 90 % line fills down to the 10 % line
  });

  it('article and explorer charts', () => {
    const rs = ARTICLE_SCALES.map((scale) => core.attentionStats({ heads: 1, seqLen: 8, dk: 16, scale, seed: 0, perRow: false, heatmapSize: 1 }));
    const a = buildArticle(rs, t);
    expect(a.config.data.datasets[0].data).toEqual(rs.map((r) => r.summary.entropy.mean));
    expect(a.csv.rows.map((r) => r[0])).toEqual(['none', 'inv_sqrt_dk', 'inv_dk']);
    const j = core.softmaxJacobian([10, 0]);
    const curve = { gaps: Float64Array.from([-1, 0, 1]), frobenius: Float64Array.from([0.39, 0.5, 0.39]), spectral: Float64Array.from([0.39, 0.5, 0.39]) };
    expect(buildJacobianCurve(curve, 10, j, t).points).toBe(4);
    expect(buildProbs(j, 10, t).csv.rows).toEqual([[10, j.probs[0]], [0, j.probs[1]]]);
  });

  it('budgets keep the default sweeps whole and shrink the large ones', () => {
    const four = ['none', 'inv_sqrt_dk', 'inv_dk', 'inv_sqrt_d_model'] as const;
    expect(sweepDks(4, 128, [...four])).toEqual([...DK_STEPS]);
    expect(sweepDks(4, 128, [...four], { kernel: 'scalar' })).toEqual([...DK_STEPS]);
    expect(varianceDks(2000)).toEqual([...DK_STEPS]);
    expect(sweepDks(16, 1024, [...four]).length).toBeLessThan(DK_STEPS.length);
    expect(sweepDks(16, 1024, [...four]).length).toBeGreaterThan(0);
    expect(varianceDks(20000).at(-1)).toBeLessThan(4096);
  });

  it('the catalogue has the same keys and placeholders in both languages', async () => {
    const { en, zhCN } = await import('../../web/src/i18n/messages.ts');
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(en).sort());
    for (const k of Object.keys(en) as (keyof typeof en)[]) {
      const ph = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
      expect(ph(zhCN[k]), k).toEqual(ph(en[k]));
    }
  });

  it('the page\'s catalogue parts (web/src/i18n/catalogue.ts) are the whole catalogue, loaded by view and language', async () => {
    const { en, zhCN } = await import('../../web/src/i18n/messages.ts');
    const { loadCatalogue, hasCatalogue, translator: pageTranslator } = await import('../../web/src/i18n/catalogue.ts');
    const { PANELS } = await import('../../web/src/state/schema.js');
    // the base (frame, titles, notices) in one language brings neither the other language nor a view's pack
    await loadCatalogue('en', 'variance');
    expect(hasCatalogue('en', 'variance')).toBe(true);
    expect(hasCatalogue('en', 'training')).toBe(false);
    expect(hasCatalogue('zh-CN')).toBe(false);
    const t = pageTranslator('en');
    expect(t('var.title')).toBe(en['var.title']);
    expect(t('train.title')).toBe(en['train.title']);  // every view's title is in the base
    expect(t('train.run')).toBe('train.run');           // a pack not loaded: the key
    for (const [lang, whole] of [['en', en], ['zh-CN', zhCN]] as const) {
      for (const p of PANELS) await loadCatalogue(lang, p);
      const tr = pageTranslator(lang);
      for (const k of Object.keys(whole) as (keyof typeof en)[]) expect(tr(k), k).toBe(whole[k]);
    }
  });
});
