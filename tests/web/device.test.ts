// The "your device" panel's pure parts, against the real core: the plain JS attention computes the
// same attention as the core, the worker's handler times real calls and refuses bad requests, a run
// yields finite positive GFLOP/s for every measure and stops sending after Cancel; the chart, the
// CSV, the pool size, and the link (it carries exp only, no device data).
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core } from '../../wasm/js/core.js';
import { DEVICE_SHAPE, attentionFlops, attentionJs, deviceInputs, plan, summarise, median, ofPeak, PEAK_ITERS, plannedMs, BUDGET_MS, SLICE_MS } from '../../web/src/device/bench.ts';
import type { Shape } from '../../web/src/device/bench.ts';
import { DeviceHost } from '../../web/src/device/host.ts';
import { runDevice } from '../../web/src/device/run.ts';
import type { RunHooks } from '../../web/src/device/run.ts';
import { buildDevice, buildDevicePlan } from '../../web/src/device/chart.ts';
import { defaultPoolSize } from '../../web/src/worker/pool.ts';
import type { SliceResult } from '../../web/src/device/protocol.ts';
import { translator } from '../../web/src/i18n/messages.ts';
import { defaultState, toHash, panelKeys, embedHash } from '../../web/src/state/state.ts';

const t = translator('en');
let core: Core;
beforeAll(async () => { core = await loadCore({ kernel: 'simd' }); }, 60000);

describe('device benchmark: what is timed', () => {
  it('counts 4·h·L²·d_k FLOPs (the two products)', () => {
    expect(attentionFlops(DEVICE_SHAPE)).toBe(4 * 8 * 128 * 128 * 64);
    expect(attentionFlops({ heads: 1, seqLen: 2, dk: 3 })).toBe(48);
  });

  it('the plain JavaScript loop computes the same attention as the core (float32 rounding apart)', () => {
    const s: Shape = { heads: 3, seqLen: 17, dk: 12 };
    const { q, k, v } = deviceInputs(core, s, 5);
    const js = attentionJs(q, k, v, s, 1 / Math.sqrt(s.dk));
    // a 2-key hand check: softmax([a, b]) · [v0, v1]
    const two = attentionJs(new Float32Array([1, 0, 2, 0]), new Float32Array([1, 0, 0, 1]), new Float32Array([1, 2, 3, 4]), { heads: 1, seqLen: 2, dk: 2 }, 1);
    const p = 1 / (1 + Math.exp(-1));  // row 0: logits [1, 0]
    expect(two[0]).toBeCloseTo(p * 1 + (1 - p) * 3, 6);
    expect(two[1]).toBeCloseTo(p * 2 + (1 - p) * 4, 6);
    for (const kernel of ['simd', 'scalar'] as const) {
      const ours = core.attention({ q, k, v, heads: s.heads, seqLen: s.seqLen, dk: s.dk, scale: 'inv_sqrt_dk', kernel, weights: false }).output;
      let err = 0;
      for (let i = 0; i < ours.length; ++i) err = Math.max(err, Math.abs(ours[i] - js[i]));
      expect(err, kernel).toBeLessThan(2e-6);
      expect(err, kernel).toBeGreaterThanOrEqual(0);
    }
  });

  it('the core exposes the SIMD128 peak kernel: FLOPs per call and a finite sum; bad iters refused', () => {
    const r = core.simdPeak({ iters: 10 });
    expect(r.flop).toBe(16384 * 10);
    expect(Number.isFinite(r.sum)).toBe(true);
    expect(core.simdPeak({ iters: 10 }).sum).toBe(r.sum);  // deterministic
    expect(() => core.simdPeak({ iters: 0 })).toThrow(/iters = 0 is outside 1\.\.1000000/);
    expect(() => core.simdPeak({ iters: 1.5 })).toThrow(RangeError);
    expect(() => core.simdPeak({ n: 3 } as never)).toThrow(/unknown parameter 'n'/);
  });

  it('plan: SIMD128 kernel and peak only where the engine validates SIMD128', () => {
    expect(plan(true)).toEqual(['simd', 'scalar', 'js', 'peak']);
    expect(plan(false)).toEqual(['scalar', 'js']);
  });

  it('summarise: GFLOP/s from the median call; no time or a zero median refused', () => {
    const s = summarise('scalar', 2e6, [4, 1, 2, 3, 100]);
    expect(s).toEqual({ measure: 'scalar', calls: 5, medianMs: 3, flopPerCall: 2e6, gflops: 2e6 / 3e6 });
    expect(median([1, 2, 3, 4])).toBe(2.5);
    expect(() => summarise('js', 1, [])).toThrow(/no call was timed/);
    expect(() => summarise('js', 1, [0, 0, 1])).toThrow(/timer too coarse/);
  });

  it('the pool size: one worker per logical core but one, at least one, at most 8', () => {
    expect([defaultPoolSize(1), defaultPoolSize(2), defaultPoolSize(8), defaultPoolSize(0), defaultPoolSize(NaN), defaultPoolSize(16)]).toEqual([1, 1, 7, 1, 1, 8]);
  });
});

describe('device worker handler', { timeout: 60000 }, () => {
  it('answers info and times slices of each measure on the real core; refuses malformed requests', () => {
    const host = new DeviceHost(core, true);
    const info = host.handle({ id: 1, kind: 'info' });
    expect(info).toMatchObject({ id: 1, ok: true, result: { simd: true, build: 'simd128' } });
    for (const m of ['simd', 'scalar', 'js', 'peak'] as const) {
      const r = host.handle({ id: 2, kind: 'slice', measure: m, sliceMs: 0, minCalls: 2 });
      expect(r.ok, m).toBe(true);
      const s = (r as { result: SliceResult }).result;
      expect(s.times.length).toBe(2);
      expect(s.flopPerCall).toBe(m === 'peak' ? 16384 * PEAK_ITERS : attentionFlops(DEVICE_SHAPE));
      for (const x of s.times) expect(x).toBeGreaterThanOrEqual(0);
    }
    expect(host.handle({ id: 3, kind: 'slice', measure: 'gpu', sliceMs: 1, minCalls: 1 })).toEqual({ id: 3, ok: false, error: { name: 'TypeError', message: 'malformed device request' } });
    expect(host.handle({ id: 4, kind: 'slice', measure: 'js', sliceMs: 1, minCalls: 0 }).ok).toBe(false);
    expect(host.handle(null).id).toBe(-1);
  });

  it('in the baseline build, the SIMD measures are refused with a reason', async () => {
    const base = await loadCore({ build: 'baseline' });
    const host = new DeviceHost(base, false);
    const r = host.handle({ id: 5, kind: 'slice', measure: 'peak', sliceMs: 0, minCalls: 1 });
    expect(r).toMatchObject({ ok: false, error: { name: 'RangeError' } });
    expect((r as { error: { message: string } }).error.message).toMatch(/needs WebAssembly SIMD128/);
    expect(host.handle({ id: 6, kind: 'slice', measure: 'scalar', sliceMs: 0, minCalls: 1 }).ok).toBe(true);
  });
});

describe('a device run', { timeout: 60000 }, () => {
  // the handler in-process, answering asynchronously as a worker does
  const hooks = (host: DeviceHost, over: Partial<RunHooks> = {}) => {
    const sent: string[] = [];
    const progress: number[] = [];
    const h: RunHooks = {
      send: async (req) => {
        await new Promise((r) => setTimeout(r, 0));  // a message round trip: other tasks run meanwhile
        sent.push(req.kind === 'slice' ? req.measure : req.kind);
        const r = host.handle({ ...req, id: sent.length });
        if (!r.ok) throw new Error(r.error.message);
        return r.result;
      },
      progress: (d) => { progress.push(d); },
      cancelled: () => false,
      hardwareConcurrency: 4,
      poolSize: 3,
      budgetMs: 5,
      sliceMs: 1,
      ...over,
    };
    return { h, sent, progress };
  };

  it('yields finite positive GFLOP/s for every measure, progress rising to 1, and the facts', async () => {
    const { h, progress } = hooks(new DeviceHost(core, true));
    const r = await runDevice(h);
    expect(r).not.toBeNull();
    expect(r!.timings.map((x) => x.measure)).toEqual(['simd', 'scalar', 'js', 'peak']);
    for (const x of r!.timings) {
      expect(Number.isFinite(x.gflops) && x.gflops > 0, x.measure).toBe(true);
      expect(x.calls).toBeGreaterThanOrEqual(3);
    }
    expect(r!.facts).toEqual({ simd: true, build: 'simd128', version: core.info().version, hardwareConcurrency: 4, poolSize: 3 });
    expect(progress.every((p, i) => p >= 0 && p <= 1 && (i === 0 || p >= progress[i - 1]))).toBe(true);
    expect(progress.at(-1)).toBe(1);
    const share = ofPeak(r!.timings, 'simd');
    expect(share! > 0).toBe(true);
    expect(ofPeak(r!.timings, 'peak')).toBeNull();
    // the chart and its CSV: one bar and one row per measure, the same numbers
    const spec = buildDevice(r!, t);
    expect(spec.points).toBe(4);
    expect(spec.config.data.labels).toEqual(['our SIMD128 kernel', 'our scalar kernel', 'plain JavaScript loop', 'SIMD128 mul+add peak']);
    expect(spec.config.data.datasets[0].data).toEqual(r!.timings.map((x) => x.gflops));
    expect(spec.csv.rows.map((row) => row[0])).toEqual(['simd', 'scalar', 'js', 'peak']);
    expect(spec.csv.rows[0][2]).toBe(r!.timings[0].gflops);
    expect(spec.csv.rows[0][6]).toBe(share);
  });

  it('before a run: the same axes with an empty slot per planned measure, and the plan\'s time', () => {
    const spec = buildDevicePlan(plan(true), DEVICE_SHAPE, t);
    expect(spec.points).toBe(0);
    expect(spec.config.data.labels).toEqual(['our SIMD128 kernel', 'our scalar kernel', 'plain JavaScript loop', 'SIMD128 mul+add peak']);
    expect(spec.config.data.datasets[0].data).toEqual([]);
    expect(spec.csv.rows).toEqual([]);
    expect(spec.csv.header).toEqual(buildDevice({ shape: { ...DEVICE_SHAPE }, flops: 1, facts: { simd: true, build: 'simd128', version: '', hardwareConcurrency: 1, poolSize: 1 }, timings: [] }, t).csv.header);
    expect(buildDevicePlan(plan(false), DEVICE_SHAPE, t).config.data.labels).toEqual(['our scalar kernel', 'plain JavaScript loop']);
    // each measure: a warm-up slice and its budget
    expect(plannedMs(4)).toBe(4 * (BUDGET_MS + SLICE_MS));
  });

  it('on an engine without SIMD128: the scalar kernel and JS only', async () => {
    const base = await loadCore({ build: 'baseline' });
    const { h, sent } = hooks(new DeviceHost(base, false));
    const r = await runDevice(h);
    expect(r!.timings.map((x) => x.measure)).toEqual(['scalar', 'js']);
    expect(sent.includes('simd') || sent.includes('peak')).toBe(false);
  });

  it('Cancel: the run returns null and sends nothing more', async () => {
    let cancel = false;
    const { h, sent } = hooks(new DeviceHost(core, true), { cancelled: () => cancel, budgetMs: 1e6 });
    const p = runDevice(h);
    // cancel once a few timed slices of the first measure went out
    await new Promise<void>((resolve) => { const tick = () => (sent.length >= 4 ? resolve() : setTimeout(tick, 0)); tick(); });
    cancel = true;
    expect(await p).toBeNull();
    const n = sent.length;
    await new Promise((r) => setTimeout(r, 20));
    expect(sent.length).toBe(n);
    expect(sent.every((m) => m === 'info' || m === 'simd')).toBe(true);
  });
});

describe('the device panel link', () => {
  it('carries exp only: no key of its own, no device data', () => {
    expect(panelKeys('device')).toEqual([]);
    const s = { ...defaultState('en'), exp: 'device' as const };
    expect(toHash(s)).toMatch(/exp=device/);
    expect(embedHash(s)).toMatch(/^#v=1&exp=device&lang=en&cv=[^&]+&embed=1$/);
  });
});
