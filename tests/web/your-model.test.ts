// "Your model" (requests/your-model.ts): each saved config reads as its whole file in tests/node/configs does (scale,
// d_head, modifiers and their fields), the state a pasted config puts in the URL (its numbers, validated at the URL
// boundary, never the file), and the links it opens.
import { describe, it, expect } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import { readFileSync } from 'node:fs';
import { modelConfig } from '../../wasm/js/model-config.js';
import type { ModelConfigResult } from '../../wasm/js/core.js';
import { CATALOGUE_CONFIGS, configCatalogue, SAVED_CONFIGS, savedConfig, pastedPatch, modelOfState, yourModelLinks, yourModelParams, readConfig } from '../../web/src/requests/your-model.ts';
import { SAVED_MODELS } from '../../web/src/state/schema.js';
import { defaultState, parseHash, toHash, withPatch } from '../../web/src/state/state.ts';

const FILES: Record<string, string> = {
  'deepseek-v3': 'deepseek-v3.json', 'deepseek-v3.2': 'deepseek-v3.2-exp.json', 'kimi-k2': 'kimi-k2-instruct.json', 'qwen3-next': 'qwen3-next.json', 'gemma-3-27b': 'gemma-3-27b-it.json',
  'gpt-oss-120b': 'gpt-oss-120b.json', 'llama-4-scout': 'llama-4-scout-17b-16e.json', 'llama-3.1-8b': 'llama-3.1-8b.json',
};
const whole = (id: string) => modelConfig(readFileSync(new URL(`../node/configs/${FILES[id]}`, import.meta.url), 'utf8')) as ModelConfigResult;

describe('Your model: the saved configs', () => {
  it('offers every saved id of the state, in its order', () => {
    expect(SAVED_CONFIGS.map((c) => c.id)).toEqual(SAVED_MODELS.filter((m) => m !== 'none'));
    expect(savedConfig('none')).toBeUndefined();
  });
  for (const c of SAVED_CONFIGS) {
    it(`${c.id}: its fields read as the whole file does`, () => {
      const a = modelConfig(c.config) as ModelConfigResult;
      const b = whole(c.id);
      expect(a.scale).toBe(b.scale);
      expect([a.dHead, a.dV, a.heads, a.headsKv, a.softcap, a.sinks, a.qkNorm, a.slidingWindow]).toEqual([b.dHead, b.dV, b.heads, b.headsKv, b.softcap, b.sinks, b.qkNorm, b.slidingWindow]);
      expect(a.modifiers).toEqual(b.modifiers);
      expect(a.unknown).toEqual([]);
    });
  }
});

describe('Your model: the URL keeps the numbers read, never the file', () => {
  it('a pasted config puts d_head, c (6 decimals) and the soft-cap in the link, and they survive the round trip', () => {
    const text = readFileSync(new URL('../node/configs/gemma-2-27b.json', import.meta.url), 'utf8');
    const got = readConfig(text);
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    const p = pastedPatch(got.result);
    expect(p).toEqual({ ok: true, patch: { ym: 'none', ymdh: 128, ymsc: 0.083333, ymcap: 50 } });
    if (!p.ok) return;
    const hash = toHash(withPatch({ ...defaultState('en'), exp: 'wild' }, p.patch));
    expect(hash).toContain('ymdh=128&ymsc=0.083333&ymcap=50');
    expect(hash).not.toContain('query_pre_attn_scalar');
    const back = parseHash(hash, 'en');
    expect(back.issues).toEqual([]);
    const m = modelOfState(back.state);
    expect(m).toEqual({ from: 'link', dHead: 128, scale: 0.083333, softcap: 50 });
  });
  it('a saved config is one key', () => {
    const hash = toHash(withPatch({ ...defaultState('en'), exp: 'wild' }, { ym: 'kimi-k2' }));
    expect(hash).toContain('ym=kimi-k2');
    const m = modelOfState(parseHash(hash, 'en').state);
    expect(m?.from).toBe('saved');
    if (m?.from === 'saved') expect(m.result.scale).toBeCloseTo(192 ** -0.5 * (0.1 * Math.log(32) + 1) ** 2, 15);
  });
  it('bad values are refused at the URL boundary: an unknown saved id, a negative or huge d_head, a scale out of range', () => {
    const p = parseHash('#v=1&exp=wild&ym=my-model&ymdh=-4&ymsc=1e9&ymcap=NaN', 'en');
    expect(p.issues.map((i) => [i.key, i.kind])).toEqual([['ym', 'invalid'], ['ymdh', 'range'], ['ymsc', 'range'], ['ymcap', 'invalid']]);
    expect(modelOfState(p.state)).toBeNull();
  });
  it('a result beyond what the keys take is read but not put in the link', () => {
    const r = modelConfig({ head_dim: 128, attn_logit_softcapping: 5000 }) as ModelConfigResult;
    expect(pastedPatch(r)).toEqual({ ok: false, key: 'ymcap', value: 5000 });
  });
});

describe('Your model: the entropy request and the links', () => {
  it('asks for the entropy at L = wlen under c and the soft-cap, and under 1/√d_head', () => {
    const s = { ...defaultState('en'), exp: 'wild' as const, wlen: 1024, ym: 'gpt-oss-120b' as const };
    const m = modelOfState(s)!;
    const p = yourModelParams(s, m);
    expect(p.own).toMatchObject({ heads: 1, seqLen: 1024, dk: 64, gradients: false, spectral: false });
    expect(p.own.scale).toBeCloseTo(0.125 * (0.1 * Math.log(32) + 1) ** 2, 15);
    expect(p.ref).toMatchObject({ dk: 64, scale: 'inv_sqrt_dk' });
  });
  it('opens saturation with the scale as an explicit factor, long context and precision at d_head', () => {
    const m = modelOfState({ ...defaultState('en'), ym: 'deepseek-v3' })!;
    const [sat, lc, prec] = yourModelLinks(m);
    expect(sat.patch).toMatchObject({ exp: 'saturation', dk: 192, sscale: 0.135234, softcap: 0 });
    expect(lc.patch).toEqual({ exp: 'longctx', ldk: 192 });
    expect(prec.patch).toEqual({ exp: 'precision', pmode: 'random', pdk: 192, pscale: 'inv_sqrt_dk' });
    // d_head 512 is beyond the long-context view's 256: no link there, said beside it
    const big = yourModelLinks({ from: 'link', dHead: 512, scale: 0.05, softcap: 0 });
    expect(big.map((l) => l.patch === null)).toEqual([false, true, false]);
  });
});

describe('Scales in the wild: the catalogue gains the models of the saved configs it does not list', () => {
  it('DeepSeek-V3.2, Kimi K2 and Qwen3-Next as modelConfig reads them; Gemma 3, gpt-oss and DeepSeek-V3 stay the core\'s rows', async () => {
    const core = await loadCore({});
    const names = core.modelScales().map((m) => m.model);
    for (const name of ['Gemma 3 27B', 'DeepSeek-V3', 'gpt-oss-120b / 20b']) expect(names).toContain(name);
    const rows = configCatalogue();
    expect(rows.map((m) => m.model)).toEqual(['DeepSeek-V3.2-Exp', 'Kimi K2', 'Qwen3-Next 80B-A3B']);
    expect(rows.map((m) => m.model).filter((n) => names.includes(n))).toEqual([]);
    expect(CATALOGUE_CONFIGS.every((id) => savedConfig(id) !== undefined)).toBe(true);
    const [ds, kimi, qwen] = rows;
    // DeepSeek-V3.2-Exp keeps V3's MLA scale: 192^−½ · (0.1 ln 40 + 1)² = 0.1352338, its sparse top-k beside it
    expect(ds.dHead).toBe(192);
    expect(ds.scale).toBe(core.modelScales().find((m) => m.model === 'DeepSeek-V3')!.scale);
    expect(ds.scale).toBeCloseTo(192 ** -0.5 * (0.1 * Math.log(40) + 1) ** 2, 15);
    expect(ds.note).toMatch(/2048/);
    expect(ds.params).toContainEqual({ name: 'rope_scaling.factor', value: 40 });
    // Kimi K2: YaRN factor 32 → 192^−½ · (0.1 ln 32 + 1)² = 0.1308608
    expect(kimi.scale).toBeCloseTo(192 ** -0.5 * (0.1 * Math.log(32) + 1) ** 2, 15);
    expect(kimi.scale).toBeCloseTo(0.1308608, 7);
    // Qwen3-Next: 1/√256 with QK-norm, the output gate and partial rotary reported beside the scale
    expect([qwen.dHead, qwen.scale, qwen.qkNorm, qwen.invSqrtDHead]).toEqual([256, 0.0625, true, 0.0625]);
    expect(qwen.note).toMatch(/gate/i);
    for (const m of rows) expect(m.source).toMatch(/config\.json/);
  });
});
