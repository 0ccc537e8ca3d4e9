// The μP and "Scales in the wild" views' pure parts: their requests (what reaches the core), the
// chart builders (exactly the result drawn), C3's rule at a correlation ρ, and the links the wild
// view writes. The numbers come from the real core.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core, SaturationSweepResult, ModelScale } from '../../wasm/js/core.js';
import { defaultState, withPatch, parseHash, toHash } from '../../web/src/state/state.ts';
import { translator } from '../../web/src/i18n/messages.ts';
import { mupVarianceParams, mupSweepParams, mupScales, MUP_SCALE } from '../../web/src/requests/mup.ts';
import { BUGS, bugParams, wildModelParams, wildReferenceParams, WILD_SEQ_LEN, wildLinkPatch, bugLinkPatch } from '../../web/src/requests/wild.ts';
import { varianceSweepParams, sinkParams, explicitPointParams, explicitSweepParams, sweepParams } from '../../web/src/requests/attention.ts';
import { buildMupMoments, buildMupEntropy } from '../../web/src/charts/mup.ts';
import { buildWildEntropy } from '../../web/src/charts/wild.ts';
import { buildSaturationLine } from '../../web/src/charts/saturation.ts';
import { ALL_SCALES } from '../../web/src/requests/results.ts';
import { MLA_ENTRY } from '../../web/src/interview/live.ts';
import { CLAIMS, c3AtRho, mupDrift, mupLive } from '../../web/src/claims.ts';

let core: Core;
beforeAll(async () => { core = await loadCore({}); });
const t = translator('en');
const zh = translator('zh-CN');

describe('μP requests', () => {
  it('at ρ = 0 the variance request is the variance panel’s default, with no correlation key', () => {
    const s = defaultState();
    const p = mupVarianceParams(s, 0);
    expect(p).not.toHaveProperty('correlation');
    expect(p).toEqual(varianceSweepParams(s));
    expect(mupVarianceParams(s, 0.2).correlation).toBe(0.2);
  });
  it('the sweep: 1/√d_k, 1/d_k and d_k^−p, forward only, ρ from the state, d_k 64 and 1024 included', () => {
    const s = withPatch(defaultState(), { rho: 0.3, mpow: 0.33 });
    const p = mupSweepParams(s);
    expect(p.scales).toEqual(['inv_sqrt_dk', 'inv_dk', { power: 0.33 }]);
    expect(mupScales(0.5)[MUP_SCALE.power]).toEqual({ power: 0.5 });
    expect(p.correlation).toBe(0.3);
    expect(p.gradients).toBe(false);
    expect(p.dks).toContain(64);
    expect(p.dks).toContain(1024);
    expect(mupSweepParams(withPatch(s, { rho: 0 }))).not.toHaveProperty('correlation');
  });
  it('rho and mpow round-trip through the URL and are clamped to their ranges', () => {
    const s = withPatch(defaultState(), { exp: 'mup', rho: -0.35, mpow: 1.25 });
    expect(parseHash(toHash(s), 'en').state).toMatchObject({ rho: -0.35, mpow: 1.25 });
    const bad = parseHash('#v=1&exp=mup&rho=3&mpow=-1', 'en');
    expect(bad.state.rho).toBe(0.2);
    expect(bad.state.mpow).toBe(0.75);
    expect(bad.issues.map((i) => i.key).sort()).toEqual(['mpow', 'rho']);
  });
});

describe('μP builders and C3 at ρ', () => {
  it('moments: ρ = 0 and the chosen ρ, each measured and with the core’s theory line (d_k(1 + ρ²), ρ·d_k)', () => {
    const dks = [16, 64, 256];
    const iid = core.scoreVariance({ dks, samples: 2000, seed: 1 });
    const cor = core.scoreVariance({ dks, samples: 2000, seed: 1, correlation: 0.5 });
    const v = buildMupMoments(iid, cor, 0.5, 'variance', t);
    expect(v.config.data.datasets).toHaveLength(4);
    expect(v.config.data.datasets[2].data).toEqual(cor.rows.map((r) => ({ x: r.dk, y: r.raw.variance })));
    expect(v.config.data.datasets[3].data).toEqual(dks.map((dk) => ({ x: dk, y: dk * 1.25 })));
    const m = buildMupMoments(iid, cor, 0.5, 'mean', t);
    expect(m.config.data.datasets[3].data).toEqual(dks.map((dk) => ({ x: dk, y: 0.5 * dk })));
    expect(m.csv.rows).toHaveLength(m.points);
    expect(buildMupMoments(iid, null, 0, 'variance', t).config.data.datasets).toHaveLength(2);
    expect(v.config.data.datasets[0].label).toContain('ρ = 0');
  });
  it('entropy: three scales and ln L, in both languages', () => {
    const s = withPatch(defaultState(), { rho: 0.2, mpow: 0.75 });
    const p = { ...mupSweepParams(s), dks: [16, 64] };
    const r = core.saturationSweep(p);
    const spec = buildMupEntropy(r, p.dks, 0.75, t);
    expect(spec.config.data.datasets.map((d) => d.label)).toEqual(['÷√d_k', '÷d_k', '× d_k^−0.75', 'ln L (uniform)']);
    expect(spec.config.data.datasets[2].data).toEqual(p.dks.map((dk, i) => ({ x: dk, y: r.points[2][i].entropy.mean })));
    expect(buildMupEntropy(r, p.dks, 0.75, zh).config.data.datasets[3].label).not.toBe('ln L (uniform)');
  });
  it('c3AtRho: holds below 5 % of ln L, partly below 15 %, otherwise not', () => {
    expect(c3AtRho(0.01)).toBe('agree');
    expect(c3AtRho(0.1)).toBe('partly');
    expect(c3AtRho(0.4)).toBe('disagree');
  });
  it('C3 at ρ from the core: holds for iid, not for correlated q, k (the checker says partly)', () => {
    const d = CLAIMS.C3c;
    const s = withPatch(defaultState(), d.patch(1));
    expect(s.exp).toBe('mup');
    const reqs = d.requests(s);
    expect(reqs).toHaveLength(2);
    const results = reqs.map((r) => core.saturationSweep(r.params as never));
    const l = d.extract(results, s);
    expect(c3AtRho(l.iidSqrt)).toBe('agree');
    expect(c3AtRho(l.rhoSqrt)).toBe('disagree');
    expect(l.rhoInv).toBeLessThan(0.05);
    expect(d.verdict(l)).toBe('partly');
    // the panel's box reads the same rule from the same request
    const live = mupLive(results[1] as SaturationSweepResult, s);
    expect(live.sqrt).toBe(l.rhoSqrt);
    expect(mupDrift(results[0] as SaturationSweepResult, { ...s, rho: 0 }, 'sqrt')).toBe(l.iidSqrt);
  }, 60_000);
});

describe('saturation: explicit scale and sink', () => {
  it('an explicit scale replaces the point’s scale and adds a fifth series at the same d_k; 0 changes nothing', () => {
    const s = withPatch(defaultState(), { exp: 'saturation', sscale: 0.135234 });
    expect(explicitPointParams(s)).toEqual({ scale: 0.135234 });
    expect(explicitSweepParams(s).scales).toEqual([...ALL_SCALES, 0.135234]);
    expect(explicitPointParams(defaultState())).toEqual({});
    expect(explicitSweepParams(defaultState())).toEqual({});
    const dks = [16, 64];
    const r = core.saturationSweep({ ...sweepParams(s), dks, ...explicitSweepParams(s), gradients: false });
    const spec = buildSaturationLine(r, dks, ALL_SCALES, 'entropy', null, s, t);
    const extra = spec.config.data.datasets.find((d) => d.label === 'c = 0.135234');
    expect(extra?.data).toEqual(dks.map((dk, i) => ({ x: dk, y: r.points[4][i].entropy.mean })));
  });
  it('a sink logit goes to every head; −∞ (the default) sends none', () => {
    expect(sinkParams(defaultState())).toEqual({});
    const s = withPatch(defaultState(), { heads: 3, sink: [1.5] });
    expect(sinkParams(s)).toEqual({ sinks: [1.5, 1.5, 1.5] });
    const r = core.attentionStats({ heads: 3, seqLen: 16, dk: 16, seed: 1, perRow: false, gradients: false, ...sinkParams(s) });
    expect(r.summary.sinkMass!.mean).toBeGreaterThan(0);
    expect(r.summary.sinkMass!.mean).toBeLessThan(1);
    expect(parseHash(toHash(s), 'en').state.sink).toEqual([1.5]);
    expect(parseHash('#v=1&exp=saturation&sink=-inf', 'en').state.sink).toEqual([-Infinity]);
  });
});

describe('Scales in the wild', () => {
  it('every catalogue entry: a request at L = 4096 with its scale (and cap), a reference at 1/√d_head, a saturation link', () => {
    const cat: ModelScale[] = core.modelScales();
    expect(cat.length).toBeGreaterThanOrEqual(12);
    const s = defaultState();
    expect(WILD_SEQ_LEN).toBe(4096);
    for (const m of cat) {
      const p = wildModelParams(s, m);
      expect(p).toMatchObject({ heads: 1, seqLen: 4096, dk: m.dHead, scale: m.scale, gradients: false, spectral: false });
      expect(wildReferenceParams(s, m.dHead).scale).toBe('inv_sqrt_dk');
      const link = withPatch(s, wildLinkPatch(m));
      expect(link.exp).toBe('saturation');
      expect(link.dk).toBe(m.dHead);
      expect(Math.abs(link.sscale - m.scale)).toBeLessThan(1e-6);
      // the link survives the URL
      expect(parseHash(toHash(link), 'en').state.sscale).toBe(link.sscale);
    }
    // the interview's MLA follow-up reads entry MLA_ENTRY
    expect(cat[MLA_ENTRY].model).toMatch(/^DeepSeek-V3/);
    expect(cat[MLA_ENTRY].dHead).toBe(192);
  });
  it('the wild chart: two bars per model, CSV = the drawn numbers, and none counted until both are in', () => {
    const rows = [{ model: 'A', own: 4.1, ref: 7.8 }, { model: 'B', own: NaN, ref: 7.7 }];
    const spec = buildWildEntropy(rows, Math.log(4096), t);
    expect(spec.config.data.labels).toEqual(['A', 'B']);
    expect(spec.points).toBe(2);
    expect(spec.csv.rows).toEqual([['A', 4.1, 7.8], ['B', NaN, 7.7]]);
  });
  it('the bug museum at its shapes: CLIP’s 1/√12 is 0.2887 instead of 0.125, and every wrong scale moves the entropy', () => {
    const s = defaultState();
    const clip = BUGS.find((b) => b.id === 'clip')!;
    const w = core.attentionStats(bugParams(s, clip, 'wrong')), r = core.attentionStats(bugParams(s, clip, 'right'));
    expect(w.summary.scale).toBeCloseTo(0.288675, 6);
    expect(r.summary.scale).toBe(0.125);
    for (const b of BUGS) {
      const ew = core.attentionStats(bugParams(s, b, 'wrong')).summary, er = core.attentionStats(bugParams(s, b, 'right')).summary;
      expect(Math.abs(ew.entropy.mean - er.entropy.mean)).toBeGreaterThan(0.05);
      const link = withPatch(s, bugLinkPatch(b, ew.scale));
      expect(link.seqLen).toBeLessThanOrEqual(1024);
      expect(Math.abs(link.sscale - ew.scale)).toBeLessThan(1e-6);
    }
    // the missing scale (none) saturates; applied twice (1/d_k) flattens
    const mlc = core.attentionStats(bugParams(s, BUGS.find((b) => b.id === 'mlc')!, 'wrong')).summary;
    expect(mlc.maxWeight.mean).toBeGreaterThan(0.5);
    const twice = core.attentionStats(bugParams(s, BUGS.find((b) => b.id === 'twice')!, 'wrong'));
    expect(twice.summary.entropy.mean).toBeGreaterThan(0.98 * twice.logSeqLen);
  }, 60_000);
});
