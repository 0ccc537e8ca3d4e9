// One cost model (issue 20): the page's budgets, its splitting of a sweep across the pool and its
// preview decisions follow the core's own estimate, core.cost — the terms each call is checked
// against — so a request the page builds within its limits is never refused by the core for its size.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core, LongContextParams } from '../../wasm/js/core.js';
import { parseHash } from '../../web/src/state/state.ts';
import type { State } from '../../web/src/state/state.ts';
import { DK_STEPS } from '../../web/src/state/schema.js';
import { sweepDks, varianceDks, POINT_SECONDS_LIMIT, estimateSeconds } from '../../web/src/worker/cost.ts';
import { sweepParams, pointParams, pointTooBig, varianceSweepParams, logitRuleParams, articleParams } from '../../web/src/requests/attention.ts';
import { longParams, longRequest, METHODS, PANEL_METHODS } from '../../web/src/requests/longctx.ts';
import { plan, PREVIEW_MIN_SECONDS, PREVIEW_QUERIES, LONG_PREVIEW_MIN_SAVED_SECONDS } from '../../web/src/worker/plan.ts';
import { LONG_DK_STEPS } from '../../web/src/state/schema.js';
import type { Kind } from '../../web/src/worker/protocol.ts';

let core: Core;
beforeAll(async () => { core = await loadCore({ kernel: 'auto' }); });

const state = (hash: string): State => parseHash(hash, 'en').state;
const seconds = (kind: Kind, params: unknown) => core.cost(kind as never, params as never).seconds;
const SCALES = ['none', 'inv_sqrt_dk', 'inv_dk', 'inv_sqrt_d_model'] as const;

describe('core.cost', () => {
  it('is the estimate the call is checked against: over the budget it names the same seconds as the refusal', () => {
    const p = { dks: [1024], samples: 200000 };
    const est = core.cost('scoreVariance', p);
    expect(est.fits).toBe(false);
    expect(est.seconds).toBeCloseTo(2 * 200000 * 1024 * 24e-9, 12);
    expect(est.drivers.map((d) => d.params)).toEqual(['samples = 200000, dks = 1024 in sum']);
    expect(() => core.scoreVariance(p)).toThrow(new RegExp(`about ${est.seconds.toFixed(1)} s of work`));
    expect(core.cost('attentionStats', { dk: 64 }).fits).toBe(true);
    expect(() => core.cost('attentionStats', { dk: 0 })).toThrow(RangeError);
    expect(() => core.cost('softmaxJacobian' as never, {} as never)).toThrow(/name = 'softmaxJacobian'/);
  });
});

describe("the page's decisions follow core.cost", () => {
  const budgetSweep = (kernel: {} | { kernel: 'scalar' }) => 1.001 * seconds('saturationSweep', { dks: [...DK_STEPS], scales: [...SCALES], heads: 4, seqLen: 128, ...kernel });
  for (const hash of ['#v=1&exp=saturation', '#v=1&exp=saturation&heads=16&seqLen=1024', '#v=1&exp=saturation&heads=8&seqLen=512',
    '#v=1&exp=saturation&heads=16&seqLen=1024&kernel=scalar', '#v=1&exp=saturation&heads=2&seqLen=768&kernel=scalar']) {
    it(`a sweep holds the d_k whose estimate fits the default sweep's: ${hash}`, () => {
      const s = state(hash);
      const p = sweepParams(s);
      const kernel = s.kernel === 'auto' ? {} : { kernel: s.kernel };
      expect(p.dks).toEqual(DK_STEPS.slice(0, p.dks.length));
      expect(seconds('saturationSweep', p) <= budgetSweep(kernel) || p.dks.length === 1).toBe(true);
      if (p.dks.length < DK_STEPS.length) {
        expect(seconds('saturationSweep', { ...p, dks: DK_STEPS.slice(0, p.dks.length + 1) })).toBeGreaterThan(budgetSweep(kernel));
      }
    });
  }

  it('the variance sweep holds the d_k whose estimate fits the default one', () => {
    const budget = 1.001 * seconds('scoreVariance', { dks: [...DK_STEPS], samples: 2000, bins: 4 });
    for (const samples of [2000, 5000, 20000]) {
      const p = varianceSweepParams(state(`#v=1&exp=variance&samples=${samples}`));
      expect(seconds('scoreVariance', p)).toBeLessThanOrEqual(budget);
      if (p.dks.length < DK_STEPS.length) expect(seconds('scoreVariance', { ...p, dks: DK_STEPS.slice(0, p.dks.length + 1) })).toBeGreaterThan(budget);
    }
    expect(varianceDks(2000)).toEqual([...DK_STEPS]);
  });

  it('a point is refused by the page exactly when the core estimates it over the limit', () => {
    for (const hash of ['#v=1&exp=saturation&heads=4&seqLen=256&dk=4096', '#v=1&exp=saturation&heads=5&seqLen=256&dk=4096',
      '#v=1&exp=saturation&heads=16&seqLen=1024&dk=1', '#v=1&exp=saturation&heads=1&seqLen=512&dk=4096&kernel=scalar',
      '#v=1&exp=saturation&heads=4&seqLen=1024&dk=256']) {
      const s = state(hash);
      const est = seconds('attentionStats', pointParams(s));
      expect(pointTooBig(s), hash).toBe(est > POINT_SECONDS_LIMIT ? est.toFixed(1) : null);
    }
    expect(pointTooBig(state('#v=1&exp=saturation&heads=4&seqLen=256&dk=4096'))).toBeNull();
    expect(pointTooBig(state('#v=1&exp=saturation&heads=5&seqLen=256&dk=4096'))).not.toBeNull();
  });

  it('a preview is planned exactly when the estimate is over PREVIEW_MIN_SECONDS', () => {
    const reqs: [Kind, unknown][] = [
      ['saturationSweep', sweepParams(state('#v=1&exp=saturation'))],
      ['saturationSweep', sweepParams(state('#v=1&exp=saturation&heads=2&seqLen=16'))],
      ['attentionStats', pointParams(state('#v=1&exp=saturation'))],
      ['attentionStats', pointParams(state('#v=1&exp=saturation&heads=2&seqLen=8&dk=4'))],
      ['scoreVariance', varianceSweepParams(state('#v=1&exp=variance'))],
      ['scoreVariance', varianceSweepParams(state('#v=1&exp=variance&samples=600'))],
    ];
    for (const [kind, params] of reqs) {
      const steps = plan(kind, params as never, true, 1);
      expect(steps.length > 1, `${kind} ${JSON.stringify(params)}`).toBe(seconds(kind, params) > PREVIEW_MIN_SECONDS);
    }
  });

  it('a longContext preview is planned exactly when the core estimates it LONG_PREVIEW_MIN_SAVED_SECONDS before the full call', () => {
    const reqs = [
      ...METHODS.map((m) => longParams(state('#v=1&exp=longctx'), m)),
      // the panel's requests: an L_train change (three methods), a d_k change (all six), with a sink, the scalar kernel
      ...['', '&sink=2', '&kernel=scalar', '&kernel=scalar&sink=2'].flatMap((extra) => LONG_DK_STEPS.flatMap((dk) => {
        const s = state(`#v=1&exp=longctx&ldk=${dk}&ltrain=1024${extra}`);
        return [longRequest(s, ['logn', 'yarn', 'article']), longRequest(s, PANEL_METHODS)];
      })),
      { dk: 64, seqLens: [1024, 16384], queries: 256, methods: ['fixed', 'logn'] },  // a script's, with many queries
    ] satisfies LongContextParams[];
    const previewed = reqs.map((p) => {
      const saved = seconds('longContext', p) - seconds('longContext', { ...p, queries: PREVIEW_QUERIES });
      const steps = plan('longContext', p, true, 1);
      expect(steps.length > 1, JSON.stringify(p)).toBe(saved >= LONG_PREVIEW_MIN_SAVED_SECONDS);
      return steps.length > 1;
    });
    // the panel's own with the SIMD128 kernels: one step, one redraw; a long call still gets its first estimate
    expect(previewed.slice(0, METHODS.length + 2 * LONG_DK_STEPS.length)).not.toContain(true);
    expect(previewed.at(-1)).toBe(true);
  });

  it('every final call fits the core\'s budget of one call: a soft-capped sweep is split where its estimate says so', () => {
    // cap 1 on the page's sweep: its flat rows take every Lanczos step (6 s at 4 heads, measured and estimated)
    for (const hash of ['#v=1&exp=saturation&softcap=1&heads=8', '#v=1&exp=saturation&heads=8&seqLen=256&softcap=1&causal=1', '#v=1&exp=saturation&softcap=1&heads=6&kernel=scalar']) {
      const s = state(hash);
      const p = { ...sweepParams(s), ...logitRuleParams(s) };
      expect(seconds('saturationSweep', p), 'the whole sweep is over one call\'s budget').toBeGreaterThan(core.limits.workSeconds);
      for (const parts of [1, 2]) {
        const final = plan('saturationSweep', p, false, parts).at(-1)!;
        expect(final.calls.length).toBeGreaterThan(1);
        for (const c of final.calls) expect(seconds(c.kind, c.params)).toBeLessThanOrEqual(core.limits.workSeconds);
      }
    }
    // a request that fits goes in as many calls as workers, one on one worker
    expect(plan('saturationSweep', sweepParams(state('#v=1&exp=saturation')), false, 1).at(-1)!.calls).toHaveLength(1);
    expect(plan('saturationSweep', articleParams(state('#v=1&exp=article')), false, 3).at(-1)!.calls).toHaveLength(3);
  });

  it('the planner reads the estimate it is given: no preview and no split when the model says the work is small', () => {
    const p = { ...sweepParams(state('#v=1&exp=saturation&softcap=1')), ...logitRuleParams(state('#v=1&exp=saturation&softcap=1')) };
    expect(plan('saturationSweep', p, true, 1, () => 0)).toHaveLength(1);
    expect(plan('saturationSweep', p, true, 1, () => 0)[0].calls).toHaveLength(1);
    const huge = plan('saturationSweep', p, false, 1, () => 1e9).at(-1)!;
    expect(huge.calls).toHaveLength(p.dks.length * p.scales!.length);  // one call per point, no further
    expect(estimateSeconds('saturationSweep', p)).toBe(seconds('saturationSweep', p));
  });
});
