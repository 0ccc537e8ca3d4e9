// Drives one device benchmark from the page: asks the worker for the engine's facts, then for each
// measure a warm-up slice (discarded: V8 tiers wasm and JS up from its first tier) and timed slices
// until the measure's time budget is spent. Between slices it reports progress and checks for
// Cancel, so a cancelled run stops within one slice.
import { BUDGET_MS, DEVICE_SHAPE, MIN_CALLS, SLICE_MS, attentionFlops, plan, summarise } from './bench.ts';
import type { DeviceResult, Timing, Measure } from './bench.ts';
import type { DeviceInfo, SliceResult, DeviceRequest } from './protocol.ts';

type Req = DeviceRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export interface RunHooks {
  /** sends one request to the device worker; resolves with its result or rejects with its error */
  send(req: Req): Promise<unknown>;
  /** share of the run done, 0..1, and the measure running */
  progress(done: number, measure: Measure): void;
  cancelled(): boolean;
  hardwareConcurrency: number;
  poolSize: number;
  budgetMs?: number;
  sliceMs?: number;
}

/** The whole run, or null when cancelled (no further request is sent after Cancel). */
export async function runDevice(h: RunHooks): Promise<DeviceResult | null> {
  const budget = h.budgetMs ?? BUDGET_MS;
  const sliceMs = h.sliceMs ?? SLICE_MS;
  const info = await h.send({ kind: 'info' }) as DeviceInfo;
  if (h.cancelled()) return null;
  const measures = plan(info.simd && info.build === 'simd128');
  const timings: Timing[] = [];
  for (const [i, m] of measures.entries()) {
    h.progress(i / measures.length, m);
    await h.send({ kind: 'slice', measure: m, sliceMs, minCalls: 2 });  // warm-up
    const times: number[] = [];
    let spent = 0;
    let flop = 0;
    while (spent < budget || times.length < MIN_CALLS) {
      if (h.cancelled()) return null;
      const r = await h.send({ kind: 'slice', measure: m, sliceMs, minCalls: 1 }) as SliceResult;
      times.push(...r.times);
      flop = r.flopPerCall;
      spent += r.times.reduce((a, b) => a + b, 0);
      h.progress((i + Math.min(1, spent / budget)) / measures.length, m);
    }
    timings.push(summarise(m, flop, times));
  }
  if (h.cancelled()) return null;
  return {
    shape: { ...DEVICE_SHAPE },
    flops: attentionFlops(DEVICE_SHAPE),
    facts: { simd: info.simd, build: info.build, version: info.version, hardwareConcurrency: h.hardwareConcurrency, poolSize: h.poolSize },
    timings,
  };
}
