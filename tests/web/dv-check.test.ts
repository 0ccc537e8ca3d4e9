// d_v ≠ d_k on the GQA view (web/src/worker/dv-check.ts, kvcache.ts, requests/gqa.ts) against the real core: the scale
// from d_k (1/√192 = 0.0721688 under MLA), the weights untouched by v's size, and the KV cache of K and V of different
// sizes and of MLA's latent (Kimi K2's config: 61 layers, 64 heads, kv_lora_rank 512, qk_rope_head_dim 64).
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadCore } from '../../wasm/js/core.js';
import type { Core } from '../../wasm/js/core.js';
import { dvCheck } from '../../web/src/worker/dv-check.ts';
import { run } from '../../web/src/worker/handler.ts';
import { kvCacheBytes, mlaLatentBytesPerToken } from '../../web/src/kvcache.ts';
import { dvCheckParams, KIMI_K2_MLA } from '../../web/src/requests/gqa.ts';
import { kvCacheOf } from '../../web/src/requests/key-figures.ts';
import { defaultState, parseHash, toHash } from '../../web/src/state/state.ts';

let core: Core;
beforeAll(async () => { core = await loadCore({}); });

describe('d_v ≠ d_k', () => {
  it('MLA 192/128: the scale is 1/√192, the weights are those of v of d_k, the output d_v wide', () => {
    const r = dvCheck(core, { heads: 8, headsKv: 8, seqLen: 32, dk: 192, dv: 128, seed: 0 });
    expect(r.scale).toBeCloseTo(0.0721688, 7);
    expect(r.scale).toBe(1 / Math.sqrt(192));
    expect(r.weightsMaxDiff).toBe(0);
    expect(r.outputLength).toBe(8 * 32 * 128);
    expect(r.outputMaxDiff).toBeLessThan(1e-5);
    // 1/√128 > 1/√192: sharper rows, lower entropy, higher max weight
    expect(r.entropyDv).toBeLessThan(r.entropy - 0.05);
    expect(r.maxWeightDv).toBeGreaterThan(r.maxWeight);
  });

  it('at d_v = d_k both scales are the same numbers; GQA groups read their K/V head', () => {
    const r = dvCheck(core, { heads: 8, headsKv: 2, seqLen: 32, dk: 64, dv: 64, seed: 0 });
    expect(r.entropyDv).toBe(r.entropy);
    expect(r.weightsMaxDiff).toBe(0);
    expect(r.outputMaxDiff).toBeLessThan(1e-5);
    expect(() => dvCheck(core, { heads: 8, headsKv: 3, seqLen: 4, dk: 4, dv: 4, seed: 0 })).toThrow(/headsKv/);
    const bad = run(core, { id: 1, kind: 'dvCheck', params: { heads: 8, headsKv: 8, seqLen: 4, dk: 4, dv: 0, seed: 0 } });
    expect(bad.ok).toBe(false);
  });

  it('KV cache per token: K and V of their own sizes, and MLA latent, on Kimi K2 in bf16', () => {
    const cfg = JSON.parse(readFileSync('tests/node/configs/kimi-k2-instruct.json', 'utf8'));
    expect([cfg.num_attention_heads, cfg.num_hidden_layers, cfg.qk_nope_head_dim + cfg.qk_rope_head_dim, cfg.v_head_dim, cfg.kv_lora_rank, cfg.qk_rope_head_dim])
      .toEqual([KIMI_K2_MLA.hq, KIMI_K2_MLA.kvl, KIMI_K2_MLA.gdk, KIMI_K2_MLA.gdv, KIMI_K2_MLA.kvLoraRank, KIMI_K2_MLA.ropeDim]);
    // 61 · 64 · (192 + 128) · 2 B = 2 498 560 B; latent 61 · (512 + 64) · 2 B = 70 272 B
    expect(kvCacheBytes({ layers: 61, headsKv: 64, dHead: 192, dV: 128, bytesPerElement: 2, tokens: 1 }).bytesPerToken).toBe(2498560);
    expect(mlaLatentBytesPerToken(61, 512, 64, 2)).toBe(70272);
    expect(() => mlaLatentBytesPerToken(0, 512, 64, 2)).toThrow(/layers/);
    // without gdv the calculator is as before, bit for bit
    const s = defaultState();
    expect(kvCacheOf('gqa', s).perToken).toBe(2 * s.kvl * s.hkv * s.gdk * 2);
    const mla = { ...s, hq: 64, hkv: 64, gdk: 192, gdv: 128, kvl: 61 };
    expect(kvCacheOf('gqa', mla).perToken).toBe(2498560);
  });

  it('the view reads gdv from the link (0 = d_head)', () => {
    const s = { ...defaultState(), gdv: 128, gdk: 192, hq: 64, hkv: 64 };
    expect(dvCheckParams(s)).toEqual({ heads: 64, headsKv: 64, seqLen: 32, dk: 192, dv: 128, seed: 0 });
    expect(dvCheckParams(defaultState()).dv).toBe(defaultState().gdk);
    expect(parseHash(toHash(s)).state.gdv).toBe(128);
  });
});
