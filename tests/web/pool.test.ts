// The worker pool and the progressive plans against the real wasm core under Node (the workers are
// stand-ins that run worker/handler.ts's run() on one core, answering asynchronously): a sweep split
// by point across 1, 2 or 4 workers merges to exactly the numbers of one full call, the final result
// of a progressive request is bit for bit one full call, a preview really is a prefix of the full
// draw, and a superseded request's remaining calls are never sent.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core, SaturationSweepParams, SaturationSweepResult, ScoreVarianceParams, AttentionStatsParams, LongContextParams } from '../../wasm/js/core.js';
import { run } from '../../web/src/worker/handler.ts';
import type { WorkerLike, Kind, Calls } from '../../web/src/worker/protocol.ts';
import { Compute, defaultPoolSize } from '../../web/src/compute.ts';
import { plan, groups, PLAN_RULES, ruleOf } from '../../web/src/worker/plan.ts';
import { EXPERIMENTS, EXPERIMENT_NAMES } from '../../wasm/js/experiments.js';
import { DK_STEPS } from '../../web/src/state/schema.js';

const DK_STEPS_ALL = [...DK_STEPS];
import { sweepParams, pointParams, varianceSweepParams, variancePointParams, articleParams, logitRuleParams } from '../../web/src/requests/attention.ts';
import { longParams, longRequest, METHODS, PANEL_METHODS } from '../../web/src/requests/longctx.ts';
import { gqaStatsParams } from '../../web/src/requests/gqa.ts';
import { parseHash } from '../../web/src/state/state.ts';

let core: Core;
beforeAll(async () => { core = await loadCore({ kernel: 'auto' }); });

/** A worker stand-in: answers each request with run() on the real core, one macrotask later. */
function fakeWorker(calls: { kind: string; params: unknown }[]): WorkerLike {
  const w: WorkerLike = {
    onmessage: null, onerror: null,
    terminate() {},
    postMessage(m: unknown) {
      const msg = m as { id: number; kind: string; params: unknown };
      calls.push({ kind: msg.kind, params: msg.params });
      setTimeout(() => w.onmessage?.({ data: run(core, msg) } as MessageEvent), 0);
    },
  };
  return w;
}

function compute(poolSize: number, calls: { kind: string; params: unknown }[] = []): Compute {
  return new Compute({ createWorker: () => fakeWorker(calls), onRestart: () => {}, poolSize });
}

/** The same numbers, bit for bit (typed arrays compared element by element, NaN equal to NaN). */
function bitwise(a: unknown, b: unknown): void {
  const norm = (v: unknown): unknown => {
    if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>, (x) => (Number.isNaN(x) ? 'NaN' : Object.is(x, -0) ? '-0' : x));
    if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : v;
    if (Array.isArray(v)) return v.map(norm);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)]));
    return v;
  };
  expect(norm(a)).toEqual(norm(b));
}

const direct = <K extends Kind>(kind: K, params: Calls[K]['params']): Calls[K]['result'] => {
  const r = run(core, { id: 1, kind, params } as never);
  if (!r.ok) throw new Error(r.error.message);
  return r.result as Calls[K]['result'];
};

// Every experiment the page runs at default settings (and a few off-default ones), with its kind.
const state = parseHash('', 'en').state;
const small = { ...state, heads: 2, seqLen: 32 };
const CASES: { name: string; kind: Kind; params: unknown }[] = [
  { name: 'saturation sweep', kind: 'saturationSweep', params: { ...sweepParams(small), dks: [8, 64, 256] } },
  { name: 'saturation sweep, causal + soft-cap, d_model scale', kind: 'saturationSweep', params: { ...sweepParams(small), dks: [16, 128], scales: ['none', 'inv_sqrt_d_model'], ...logitRuleParams({ ...state, causal: true, softcap: 20 }) } },
  { name: 'article check (one d_k, three scales)', kind: 'saturationSweep', params: { ...articleParams(state), heads: 3, seqLen: 32 } },
  { name: 'variance sweep', kind: 'scoreVariance', params: { ...varianceSweepParams(state), samples: 1000, dks: [1, 8, 64, 512] } },
  { name: 'variance sweep, histogram inside', kind: 'scoreVariance', params: { dks: [2, 32, 256], samples: 600, seed: 5, histDk: 32, bins: 20 } },
  { name: 'variance sweep, histogram outside', kind: 'scoreVariance', params: { dks: [2, 32], samples: 600, seed: 5, histDk: 100, bins: 20 } },
  { name: 'variance point', kind: 'scoreVariance', params: variancePointParams(state) },
  { name: 'saturation point', kind: 'attentionStats', params: { ...pointParams(state), heads: 4, seqLen: 64, dk: 256 } },
  { name: 'saturation point, d_model scale', kind: 'attentionStats', params: { ...pointParams(state), heads: 4, seqLen: 64, dk: 256, scale: 'inv_sqrt_d_model' } },
  { name: 'GQA point', kind: 'attentionStats', params: { ...gqaStatsParams({ ...state, hq: 8, hkv: 2 }, 'gqa', 128) } },
  ...METHODS.map((m) => ({ name: `long context ${m}`, kind: 'longContext' as Kind, params: { ...longParams(state, m), seqLens: [64, 512, 2048] } })),
  { name: 'long context, the panel\'s one request for every method', kind: 'longContext', params: { ...longRequest({ ...state, ltrain: 256 }, PANEL_METHODS), seqLens: [64, 512, 2048] } },
];

describe('pool size', () => {
  it('one worker per core, one core kept for the page, at least one, at most 8', () => {
    expect([undefined, 1, 2, 3, 4, 8, 64].map((n) => defaultPoolSize(n))).toEqual([1, 1, 1, 2, 3, 7, 8]);
    expect(compute(3).poolSize).toBe(3);
  });
});

describe('split by point and progressive: the final result is one full call, bit for bit', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const want = direct(c.kind, c.params as never);
      const results: unknown[] = [];
      for (const size of [1, 2, 4]) {
        const calls: { kind: string; params: unknown }[] = [];
        const steps: unknown[] = [];
        const got = await compute(size, calls).get('sweep', c.kind, c.params as never, 'p:x', undefined, (r) => steps.push(r));
        bitwise(got, want);
        results.push(got);
        // the plan really split or sliced the work where it could
        expect(calls.length).toBe(plan(c.kind, c.params as never, true, size).reduce((n, s) => n + s.calls.length, 0));
      }
      bitwise(results[1], results[0]);
      bitwise(results[2], results[0]);
    });
  }

  it('a sweep is split into one call per worker, by d_k (by scale when there are fewer d_k than workers)', () => {
    const p = { ...sweepParams(small), dks: [8, 64, 1024] };  // over PREVIEW_MIN_SECONDS (its scales share the products)
    expect(plan('saturationSweep', p, false, 1)).toHaveLength(1);
    expect(plan('saturationSweep', p, false, 1)[0].calls).toEqual([{ kind: 'saturationSweep', params: p }]);  // one worker: the request itself
    const steps = plan('saturationSweep', p, true, 2);
    expect(steps.map((s) => s.final)).toEqual([false, true]);
    expect(steps[1].calls.map((c) => (c.params as SaturationSweepParams).dks)).toEqual([[1024], [8, 64]]);
    expect(steps[1].calls.every((c) => (c.params as SaturationSweepParams).scales!.length === p.scales!.length)).toBe(true);
    expect(steps[0].calls.every((c) => (c.params as SaturationSweepParams).heads === 1)).toBe(true);
    // the preview's 1/√d_model is the full request's factor 1/√(heads·d_k), one call per d_k
    const dm = steps[0].calls.filter((c) => typeof (c.params as SaturationSweepParams).scales![0] === 'number');
    expect(dm.map((c) => (c.params as SaturationSweepParams).scales![0])).toEqual(p.dks.map((dk) => 1 / Math.sqrt(p.heads! * dk)));
    const art = plan('saturationSweep', articleParams(state), false, 4);
    expect(art[0].calls.map((c) => (c.params as SaturationSweepParams).scales)).toEqual([['none'], ['inv_sqrt_dk'], ['inv_dk']]);
  });

  it('a sweep over the core\'s budget goes in as many calls as the core\'s estimate needs (the whole sweep does not fit); the page default with a cap fits one', async () => {
    // Gemma 2's cap 50 at the page's default: its rows take about 20 Lanczos steps, one call of about a second
    expect(core.cost('saturationSweep', { ...sweepParams(state), ...logitRuleParams({ ...state, softcap: 50 }) }).fits).toBe(true);
    // with the scalar kernel at 8 heads the products of the large d_k are over the budget
    const big = { ...state, softcap: 50, heads: 8, kernel: 'scalar' as const };
    const p = { ...sweepParams(big), ...logitRuleParams(big), kernel: 'scalar' as const, heads: 8, dks: [...DK_STEPS] };
    expect(p.softcap).toBe(50);
    expect(() => core.saturationSweep(p)).toThrow(/budget/);
    const steps = plan('saturationSweep', p, false, 1);
    expect(steps).toHaveLength(1);
    expect(steps[0].calls.length).toBeGreaterThan(1);
    for (const c of steps[0].calls) expect(core.cost('saturationSweep', c.params as SaturationSweepParams).fits).toBe(true);
    expect(steps[0].calls.flatMap((c) => (c.params as SaturationSweepParams).dks).sort((a, b) => a - b)).toEqual(p.dks);
    // the merged result equals the points of one call per d_k (here two d_k, bit for bit)
    const two = { ...p, dks: [p.dks[0], p.dks[1]] };
    const merged = await compute(1).get('sweep', 'saturationSweep', two, 'p:cap');
    const each = two.dks.map((dk) => direct('saturationSweep', { ...two, dks: [dk] }));
    bitwise((merged as SaturationSweepResult).points, two.scales!.map((_, si) => each.map((r) => r.points[si][0])));
  });

  it('a preview the core refuses is skipped: the full request answers (its result, or its own refusal)', async () => {
    // a worker whose core refuses every one-head call, as a budget that only the slice broke would
    const refusing = (calls: { kind: string; params: unknown }[]): WorkerLike => {
      const w = fakeWorker(calls);
      const post = w.postMessage.bind(w);
      w.postMessage = (m: unknown) => {
        const msg = m as { id: number; params: { heads?: number } };
        if (msg.params?.heads === 1) {
          calls.push({ kind: 'refused', params: msg.params });
          setTimeout(() => w.onmessage?.({ data: { id: msg.id, ok: false, error: { name: 'RangeError', message: 'heads = 1 refused' } } } as MessageEvent), 0);
        } else post(m);
      };
      return w;
    };
    const calls: { kind: string; params: unknown }[] = [];
    const c = new Compute({ createWorker: () => refusing(calls), onRestart: () => {}, poolSize: 1 });
    const p = { ...pointParams(state), heads: 4, seqLen: 64, dk: 256 };
    const steps: unknown[] = [];
    const got = await c.get('live', 'attentionStats', p, 'p:r', undefined, (r) => steps.push(r));
    expect(calls.map((x) => x.kind)).toEqual(['refused', 'attentionStats']);
    expect(steps).toHaveLength(0);
    bitwise(got, direct('attentionStats', p));
  });

  it('groups: at most n groups of about equal cost, heaviest first, every item once', () => {
    expect(groups([1, 2, 4, 8, 16, 32], 2)).toEqual([[5], [0, 1, 2, 3, 4]]);
    expect(groups([5, 5, 5, 5], 3)).toEqual([[0, 3], [1], [2]]);
    expect(groups([3, 1], 8)).toEqual([[0], [1]]);
    const g = groups(DK_STEPS_ALL, 3);
    expect(g.flat().sort((a, b) => a - b)).toEqual(DK_STEPS_ALL.map((_, i) => i));
  });

  it('every experiment the worker passes through declares its planning rule, a rule of PLAN_RULES, and every rule plans one', () => {
    const declared = EXPERIMENT_NAMES.filter((n) => EXPERIMENTS[n].call === 'params').map((n) => [n, (EXPERIMENTS[n] as { plan?: string }).plan] as const);
    expect(declared.length).toBeGreaterThan(10);
    for (const [n, rule] of declared) {
      expect(rule, `${n}: no plan in its declaration (wasm/js/experiments/<family>.js)`).toBeTypeOf('string');
      expect(Object.keys(PLAN_RULES), `${n}: plan '${rule}'`).toContain(rule);
      expect(ruleOf(n)).toBe(rule);
    }
    expect(new Set(declared.map(([, r]) => r))).toEqual(new Set(Object.keys(PLAN_RULES)));
    // the rules of the four split experiments, as the planner had them by name
    expect(['saturationSweep', 'scoreVariance', 'attentionStats', 'longContext'].map((n) => ruleOf(n as Kind)))
      .toEqual(['scalesByDks', 'rowsByDks', 'oneGroupPreview', 'pointsByLengths']);
    expect(ruleOf('splitKv')).toBe('single');  // a kind of the page's own, not a declared experiment
  });
});

describe('a preview is a prefix of the full draw', () => {
  it('attentionStats with one head gives head 0 of the full call (its heatmap, bit for bit)', () => {
    const full = { heads: 4, seqLen: 64, dk: 256, seed: 9, perRow: true, heatmapSize: 16 } satisfies AttentionStatsParams;
    const [preview] = plan('attentionStats', full, true, 2);
    expect((preview.calls[0].params as AttentionStatsParams).heads).toBe(1);
    const a = direct('attentionStats', preview.calls[0].params as AttentionStatsParams);
    const b = direct('attentionStats', full);
    bitwise(a.heatmap, b.heatmap);
    bitwise(a.rows.entropy, b.rows.entropy.subarray(0, 64));
    bitwise(a.rows.gradQuery, b.rows.gradQuery.subarray(0, 64));
  });

  it('a GQA preview is one K/V head with its query group: rows of the first group, bit for bit', () => {
    const full = { heads: 8, headsKv: 2, seqLen: 128, dk: 64, seed: 2, perRow: true, heatmapSize: 4 } satisfies AttentionStatsParams;
    const [preview] = plan('attentionStats', full, true, 2);
    expect(preview.calls[0].params).toMatchObject({ heads: 4, headsKv: 1 });
    const a = direct('attentionStats', preview.calls[0].params as AttentionStatsParams);
    const b = direct('attentionStats', full);
    bitwise(a.rows.entropy, b.rows.entropy.subarray(0, 4 * 128));
    bitwise(a.rows.gradLogits, b.rows.gradLogits.subarray(0, 4 * 128));
  });

  it('scoreVariance with fewer samples: the histogram of the preview never holds more than the full one', () => {
    const full = { dks: [2048], samples: 3000, seed: 4, histDk: 2048, bins: 10 } satisfies ScoreVarianceParams;
    const [preview, last] = plan('scoreVariance', full, true, 2);
    expect(last.final).toBe(true);
    const a = direct('scoreVariance', preview.calls[0].params as ScoreVarianceParams);
    const b = direct('scoreVariance', full);
    // the first 256 scores are the first 256 of the 3000: no bin of the preview exceeds the full count
    a.histRaw.counts.forEach((n, i) => expect(n).toBeLessThanOrEqual(b.histRaw.counts[i]));
    expect(a.histRaw.counts.reduce((x, y) => x + y, 0) + a.histRaw.below + a.histRaw.above).toBe(256);
  });

  it('longContext with fewer queries: the preview of one query is the full call with one query', () => {
    // a request long enough for a preview (LONG_PREVIEW_MIN_SAVED_SECONDS): many queries (only the preview's two are computed here)
    const full = { dk: 64, seqLens: [128, 16384], queries: 1024, methods: ['fixed', 'yarn'], seed: 0 } satisfies LongContextParams;
    const [preview] = plan('longContext', full, true, 2);
    expect(preview.final).toBe(false);
    expect(preview.calls).toHaveLength(2);
    const one = direct('longContext', { ...full, queries: 2 });
    const merged = preview.merge(preview.calls.map((c) => direct('longContext', c.params as LongContextParams)));
    bitwise(merged, one);
  });
});

describe('stale work is dropped', () => {
  it('a request superseded on its channel rejects, and its calls not yet sent never reach a worker', async () => {
    const calls: { kind: string; params: unknown }[] = [];
    const c = compute(1, calls);
    const outcomes: string[] = [];
    const ps = [8, 16, 32, 64, 128].map((dk) => c.get('live', 'attentionStats', { heads: 4, seqLen: 128, dk, seed: 1, perRow: false, heatmapSize: 1 }, 'sat:point', undefined, () => {})
      .then(() => outcomes.push(`ok ${dk}`), (e: { kind?: string }) => outcomes.push(`${e.kind} ${dk}`)));
    await Promise.all(ps);
    expect(outcomes.sort()).toEqual(['ok 128', 'superseded 16', 'superseded 32', 'superseded 64', 'superseded 8']);
    // the first request's first call was sent at once; the three in between never were
    const dks = calls.map((x) => (x.params as AttentionStatsParams).dk);
    expect(dks.filter((d) => d === 16 || d === 32 || d === 64)).toEqual([]);
    expect(dks.filter((d) => d === 8).length).toBe(1);  // its preview only: its full call was never sent
    expect(dks.filter((d) => d === 128).length).toBe(2);  // preview and full
    expect(c.stats().started.sat).toBe(2);
  });

  it('the same request from two channels is computed once; superseding one channel keeps it for the other', async () => {
    const calls: { kind: string; params: unknown }[] = [];
    const c = compute(2, calls);
    const p = { dks: [8, 64], samples: 1000, seed: 3, bins: 4 } satisfies ScoreVarianceParams;
    const a = c.get('sweep', 'scoreVariance', p, 'a:x');
    const b = c.get('sweep', 'scoreVariance', p, 'b:x');
    void c.get('sweep', 'scoreVariance', { ...p, seed: 4 }, 'a:x');
    await expect(a).rejects.toMatchObject({ kind: 'superseded' });
    bitwise(await b, direct('scoreVariance', p));
  });
});
