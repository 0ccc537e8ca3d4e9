// The core on the page's thread (web/src/worker/in-thread.ts), the fallback of a page where no
// worker can start: driven through the pool's WorkerClient like a worker, it answers in order
// with the very numbers of the worker's handler on its own core, and a refusal as a core error.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadCore } from '../../wasm/js/core.js';
import type { Core } from '../../wasm/js/core.js';
import { InThreadCore } from '../../web/src/worker/in-thread.ts';
import { CoreError } from '../../web/src/worker/protocol.ts';
import { WorkerClient } from '../../web/src/worker/client.ts';
import { run } from '../../web/src/worker/handler.ts';

let core: Core;
let module: WebAssembly.Module;
beforeAll(async () => {
  core = await loadCore({ kernel: 'auto' });
  module = await WebAssembly.compile(readFileSync(new URL('../../wasm/dist/sqrtdk-simd.wasm', import.meta.url)));
});

describe('InThreadCore', () => {
  it('answers the worker protocol with the handler’s numbers, in the order asked', async () => {
    const client = new WorkerClient({ createWorker: () => new InThreadCore(Promise.resolve({ module, build: 'simd128' as const })) });
    const sweep = { dks: [64, 512], scales: ['none', 'inv_sqrt_dk'], heads: 2, seqLen: 32, seed: 3, gradients: false };
    const point = { heads: 2, seqLen: 32, dk: 128, scale: 'none', seed: 5 };
    const order: string[] = [];
    const [a, b] = await Promise.all([
      client.call('saturationSweep', sweep as never).then((r) => { order.push('sweep'); return r; }),
      client.call('attentionStats', point as never).then((r) => { order.push('point'); return r; }),
    ]);
    expect(order).toEqual(['sweep', 'point']);
    const wantA = run(core, { id: 1, kind: 'saturationSweep', params: sweep as never });
    const wantB = run(core, { id: 2, kind: 'attentionStats', params: point as never });
    expect(wantA.ok && wantB.ok).toBe(true);
    expect(a).toEqual(wantA.ok ? wantA.result : null);
    expect(b).toEqual(wantB.ok ? wantB.result : null);
    const bad = await client.call('attentionStats', { ...point, dk: 0 } as never).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(CoreError);
    expect((bad as CoreError).kind).toBe('core');
    expect((bad as CoreError).message).toMatch(/dk/);
    client.terminate();
  });

  it('starts with the core\'s first part and takes the full core when a request needs it: same numbers, in order', async () => {
    const firstModule = await WebAssembly.compile(readFileSync(new URL('../../wasm/dist/sqrtdk-simd-first.wasm', import.meta.url)));
    let asked = 0;
    let announce: (() => void) | null = null;
    const source = {
      full: () => { asked++; announce?.(); return Promise.resolve({ module, build: 'simd128' as const, part: 'full' as const }); },
      onFull: (f: () => void) => { announce = f; return () => { announce = null; }; },
    };
    const client = new WorkerClient({ createWorker: () => new InThreadCore(Promise.resolve({ module: firstModule, build: 'simd128' as const, part: 'first' as const }), source) });
    const variance = { dks: [1, 64, 512], samples: 2000, seed: 3, bins: 4 };
    const info = await client.call('info', {});
    expect(info.part).toBe('first');
    const a = await client.call('scoreVariance', variance);
    expect(asked).toBe(0);  // the first part answers the variance view without the full core
    const sweep = { dks: [64], scales: ['inv_sqrt_dk'], heads: 2, seqLen: 32, seed: 3, gradients: false };
    const order: string[] = [];
    const [b, c] = await Promise.all([
      client.call('saturationSweep', sweep as never).then((r) => { order.push('sweep'); return r; }),
      client.call('scoreVariance', variance).then((r) => { order.push('variance'); return r; }),
    ]);
    expect(asked).toBeGreaterThan(0);
    expect(order).toEqual(['sweep', 'variance']);
    const want = (kind: 'scoreVariance' | 'saturationSweep', params: unknown) => { const r = run(core, { id: 1, kind, params } as never); return r.ok ? r.result : null; };
    expect(a).toEqual(want('scoreVariance', variance));
    expect(b).toEqual(want('saturationSweep', sweep));
    expect(c).toEqual(a);
    expect((await client.call('info', {})).part).toBe('full');  // from then on the full core answers
    client.terminate();
  });
});
