// Split-KV attention merged by the log-sum-exp (web/src/worker/split-kv.ts) against the real core: the merge is the full
// call up to float32 rounding, the base-2 lse read as nats is visibly wrong, an empty chunk is neutral, and the
// long-context view's request reads its keys.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core } from '../../wasm/js/core.js';
import { splitKv } from '../../web/src/worker/split-kv.ts';
import { coreNormals } from '../../web/src/worker/draws.ts';
import { run } from '../../web/src/worker/handler.ts';
import { splitKvParams, SPLIT_KV_HEADS } from '../../web/src/requests/longctx.ts';
import { defaultState, parseHash, toHash } from '../../web/src/state/state.ts';

let core: Core;
beforeAll(async () => { core = await loadCore({}); });

describe('split-KV merge by the LSE', () => {
  it('the inputs: the core\'s draws as float32 (attentionStats\' own Q and K of that shape), streams differ', () => {
    const a = coreNormals(core, 65536, 0, 1);
    expect(coreNormals(core, 65536, 0, 1)).toEqual(a);
    const mean = a.reduce((s, x) => s + x, 0) / a.length;
    const variance = a.reduce((s, x) => s + (x - mean) ** 2, 0) / a.length;
    expect(Math.abs(mean)).toBeLessThan(0.02);
    expect(variance).toBeGreaterThan(0.97);
    expect(variance).toBeLessThan(1.03);
    expect(coreNormals(core, 16, 0, 2)).not.toEqual(coreNormals(core, 16, 0, 1));
    expect(() => coreNormals(core, 2 ** 30, 0, 1)).toThrow(/n/);
  });

  it('merging the two chunks gives the full call up to float32 rounding; base 2 read as nats does not', () => {
    const r = splitKv(core, { heads: 4, seqLen: 256, dk: 64, split: 128, seed: 0 });
    expect(r.maxDiff).toBeGreaterThan(0);  // two roundings, not one: not bit for bit
    expect(r.maxDiff).toBeLessThan(2e-6);
    expect(r.lseMaxDiff).toBeLessThan(2e-6);
    expect(r.base2MaxDiff).toBeGreaterThan(0.02);
    expect(r.base2MaxDiff).toBeLessThan(1);
    // causal: rows 0..127 see no key of chunk B, every row sees key 0 of chunk A
    expect(r.emptyRowsB).toBe(4 * 128);
    expect(r.emptyRowsA).toBe(0);
    expect(r.emptyMaxDiff).toBe(0);
    expect(r.emptyLseEqual).toBe(true);
    expect(r.rows).toBe(4 * 256);
  });

  it('a split at 0 or L leaves one chunk empty everywhere: the merge is the full call bit for bit', () => {
    for (const split of [0, 64]) {
      const r = splitKv(core, { heads: 2, seqLen: 64, dk: 16, split, seed: 0 });
      expect(r.maxDiff).toBe(0);
      expect(r.lseMaxDiff).toBe(0);
      expect(r.base2MaxDiff).toBe(0);  // one chunk alone has weight 1 whatever the base of its lse
      expect(split === 0 ? r.emptyRowsA : r.emptyRowsB).toBe(2 * 64);
    }
  });

  it('the worker answers as the direct call, and refuses a split outside 0..L', () => {
    const p = { heads: 2, seqLen: 64, dk: 16, split: 20, seed: 0 };
    const viaWorker = run(core, { id: 1, kind: 'splitKv', params: p });
    expect(viaWorker.ok).toBe(true);
    expect((viaWorker as { result: unknown }).result).toEqual(splitKv(core, p));
    const bad = run(core, { id: 2, kind: 'splitKv', params: { ...p, split: 65 } });
    expect(bad.ok).toBe(false);
  });

  it('the view reads lmsplit and lmlen from the link', () => {
    const s = { ...defaultState(), lmsplit: 0.25, lmlen: 512, ldk: 128 };
    expect(splitKvParams(s)).toEqual({ heads: SPLIT_KV_HEADS, seqLen: 512, dk: 128, split: 128, seed: 0 });
    const back = parseHash(toHash(s)).state;
    expect(back.lmsplit).toBe(0.25);
    expect(back.lmlen).toBe(512);
  });
});
