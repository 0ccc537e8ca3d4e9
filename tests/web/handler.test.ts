// The worker's request handler against the real wasm core under Node: results, errors as
// messages, and the module still working after an error.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core } from '../../wasm/js/core.js';
import { run } from '../../web/src/worker/handler.ts';
import type { JacobianCurveResult } from '../../web/src/worker/protocol.ts';

let core: Core;
beforeAll(async () => { core = await loadCore({ kernel: 'auto' }); });

describe('worker handler', () => {
  it('answers info with the build', () => {
    const r = run(core, { id: 7, kind: 'info', params: {} });
    expect(r.ok).toBe(true);
    expect(r.id).toBe(7);
    if (r.ok) expect((r.result as { build: string }).build).toMatch(/simd128|baseline/);
  });

  it('answers attentionStats with the numbers of a direct call', () => {
    const params = { heads: 2, seqLen: 16, dk: 32, scale: 'inv_sqrt_dk' as const, seed: 3, perRow: false, heatmapSize: 8 };
    const r = run(core, { id: 1, kind: 'attentionStats', params });
    const direct = core.attentionStats(params);
    expect(r.ok).toBe(true);
    if (r.ok) {
      const res = r.result as typeof direct;
      expect(res.summary.entropy.mean).toBe(direct.summary.entropy.mean);
      expect(res.heatmap.length).toBe(64);
      expect(res.logSeqLen).toBeCloseTo(Math.log(16), 12);
    }
  });

  it('returns a refusal as a message naming the parameter, and keeps working', () => {
    const bad = run(core, { id: 2, kind: 'attentionStats', params: { dk: 0 } });
    expect(bad).toEqual({ id: 2, ok: false, error: { name: 'RangeError', message: expect.stringMatching(/dk/) } });
    const typeErr = run(core, { id: 3, kind: 'attentionStats', params: { dk: 8, bogus: 1 } as never });
    expect(typeErr.ok).toBe(false);
    if (!typeErr.ok) expect(typeErr.error.name).toBe('TypeError');
    const good = run(core, { id: 4, kind: 'softmaxJacobian', params: { logits: [10, 0] } });
    expect(good.ok).toBe(true);
    if (good.ok) expect((good.result as { frobenius: number }).frobenius).toBeCloseTo(2 * (1 / (1 + Math.exp(-10))) * (1 / (1 + Math.exp(10))), 10);
  });

  it('rejects malformed messages without throwing', () => {
    expect(run(core, { id: 5, kind: 'rm -rf', params: {} })).toMatchObject({ id: 5, ok: false, error: { name: 'TypeError' } });
    expect(run(core, 'hello')).toMatchObject({ id: -1, ok: false });
  });

  it('computes the two-logit curve: ‖J‖_F = 2 p1 p2, max 0.5 at gap 0', () => {
    const r = run(core, { id: 6, kind: 'jacobianCurve', params: { gaps: [-10, 0, 6, 10] } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const c = r.result as JacobianCurveResult;
    const expected = [-10, 0, 6, 10].map((g) => { const p = 1 / (1 + Math.exp(-g)); return 2 * p * (1 - p); });
    c.frobenius.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 12));
    expect(c.frobenius[1]).toBeCloseTo(0.5, 12);
  });
});
