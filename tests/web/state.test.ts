// State: parse ∘ serialise round trip, and a table of malformed hashes with what each must yield.
import { describe, it, expect } from 'vitest';
import { parseHash, toHash, defaultState, langFromNavigator, withPatch, sameState, MAX_HASH_LENGTH, issuesToShow } from '../../web/src/state/state.ts';
import type { ParseMeter } from '../../web/src/state/state.ts';
import type { State } from '../../web/src/state/state.ts';
import { SCHEMA, VERSION } from '../../web/src/state/schema.js';
import { CORE_VERSION } from '../../wasm/js/version.js';

describe('state round trip', () => {
  it('default state → hash → state is the identity', () => {
    const s = defaultState('en');
    const h = toHash(s);
    expect(h).toBe('#v=1&exp=interview&lang=en&kernel=auto&dk=64&samples=2000&seed=1&heads=4&seqLen=128&scale=inv_sqrt_dk&causal=0&salibi=0&softcap=0&sscale=0&sink=-inf&gq=jac&gap=2&aseed=0&iseed=1&dq=std&dseed=1&cseed=1'
      + '&plogits=100,90,80&pmode=logits&pdk=512&pseqLen=128&pscale=none&pq=24&pk=24,12,0&pkrep=1&pscaleat=scores&pblock=32&pacc=same&pmasked=nan&pseed=0&ldk=64&ltrain=512&lmsplit=0.5&lmlen=256&lalibi=0'
      + '&hq=32&hkv=8&gdk=128&gdv=0&kvl=32&kvctx=8192&kvdt=bf16&tex=structured&tscale=inv_sqrt_dk'
      + '&trtask=copy&trvocab=16&trlen=16&trlayers=2&trdm=64&trheads=4&trmlp=128&trnorm=pre&trinit=0.125&trlr=0.003&trwarm=0&trclip=1'
      + '&trsteps=200&trseed=0&trsm=safe&trcap=0&trvar=none,inv_sqrt_dk,inv_dk,learnable_temperature,qk_layernorm,qk_l2&trthr=0.01&rho=0.2&mpow=0.75&wlen=4096&nsink=1&nlambda=0.8&ngate=0&qcgain=30&qctau=100&qchkv=2&ym=none&ymdh=0&ymsc=0&ymcap=0&trauto=1'
      + `&cv=${CORE_VERSION}`);
    const p = parseHash(h, 'zh-CN');
    expect(p.issues).toEqual([]);
    expect(p.state).toEqual(s);
  });

  it('every non-default value survives the round trip', () => {
    const s: State = {
      exp: 'gradient', lang: 'zh-CN', theme: 'dark', kernel: 'scalar', dk: 1000, samples: 777, seed: 4294967295, heads: 16, seqLen: 2,
      scale: 'inv_sqrt_d_model', causal: true, salibi: true, softcap: 50.5, sscale: 0.135234, sink: [1.5], gq: 'grad', gap: -12.3, aseed: 42, iseed: 4294967295, dq: 'mqa', dseed: 7, cseed: 4294967295,
      plogits: [-1e6, 0.5, -Infinity, 1e-3, 1e6], pmode: 'qk', pdk: 7, pseqLen: 1024, pscale: 'inv_dk', pq: -3.5, pk: [1, -2, 0.5], pkrep: 16, pscaleat: 'query', pblock: 3, pacc: 'float32', pmasked: 'zero', pseed: 99,
      ldk: 256, ltrain: 16384, lmsplit: 0.125, lmlen: 1024, lalibi: true, hq: 40, hkv: 20, gdk: 1, gdv: 512, kvl: 256, kvctx: 4194304, kvdt: 'int4', tex: 'own', tscale: 'none',
      trtask: 'assoc_recall', trvocab: 256, trlen: 64, trlayers: 6, trdm: 96, trheads: 3, trmlp: 2048, trnorm: 'post', trinit: 0.02,
      trlr: 0.00001, trwarm: 20000, trclip: 0, trsteps: 20000, trseed: 4294967295, trsm: 'naive', trcap: 30, trvar: ['none', 'qk_l2'], trthr: 0.0001, rho: -0.35, mpow: 0.33, wlen: 2048, nsink: -2.5, nlambda: 0.35, ngate: 1.5, qcgain: 42, qctau: 250, qchkv: 4,
      ym: 'none', ymdh: 192, ymsc: 0.130861, ymcap: 30.5, trauto: false, // ym (a saved model) excludes ymdh/ymsc: its round trip is in the table
      embed: true, show: ['charts', 'text'], cv: '12.0.345',
    };
    const p = parseHash(toHash(s), 'en');
    expect(p.issues).toEqual([]);
    expect(sameState(p.state, s)).toBe(true);
    expect(p.state).toEqual(s);
  });

  it('embed and show are written only in embed mode', () => {
    const s = defaultState('en');
    expect(toHash(s)).not.toMatch(/embed|show/);
    expect(toHash({ ...s, embed: true })).toMatch(/&embed=1$/);
    expect(toHash({ ...s, embed: true, show: ['charts'] })).toMatch(/&embed=1&show=charts$/);
  });

  it('a hash without lang takes the browser language', () => {
    expect(parseHash('#v=1&dk=8', 'zh-CN').state.lang).toBe('zh-CN');
    expect(parseHash('#v=1&dk=8&lang=en', 'zh-CN').state.lang).toBe('en');
    expect(langFromNavigator(['zh-TW', 'en'])).toBe('zh-CN');
    expect(langFromNavigator(['fr-FR', 'en-GB'])).toBe('en');
    expect(langFromNavigator(['fr-FR'])).toBe('en');
    expect(langFromNavigator([])).toBe('en');
  });

  it('withPatch keeps heads_kv a divisor of heads_q', () => {
    expect(withPatch(defaultState(), { hq: 12 }).hkv).toBe(6);
    expect(withPatch(defaultState(), { hq: 1 }).hkv).toBe(1);
    expect(withPatch(defaultState(), { hq: 64, hkv: 64 }).hkv).toBe(64);
    expect(withPatch(defaultState(), { hkv: 5 }).hkv).toBe(4);
    expect(withPatch(defaultState(), { qchkv: 6 }).qchkv).toBe(4);
    expect(withPatch(defaultState(), { qchkv: 3 }).qchkv).toBe(2);
  });

  it('withPatch clamps control values to the schema', () => {
    const s = withPatch(defaultState(), { dk: 99999, heads: 0, gap: 3.14159 });
    expect(s.dk).toBe(SCHEMA.dk.max);
    expect(s.heads).toBe(SCHEMA.heads.min);
    expect(s.gap).toBeCloseTo(3.14159);
  });
});

describe('malformed hashes', () => {
  type Row = { hash: string; expect: Partial<State>; issues: [string, string][] };
  const d = defaultState('en');
  const table: Row[] = [
    { hash: '', expect: {}, issues: [] },
    { hash: '#', expect: {}, issues: [] },
    { hash: '#v=1&dk=-5&seqLen=abc&exp=<img src=x onerror=alert(1)>&heads=1e9', expect: { dk: d.dk, seqLen: d.seqLen, exp: d.exp, heads: d.heads },
      issues: [['dk', 'range'], ['seqLen', 'invalid'], ['exp', 'invalid'], ['heads', 'range']] },
    { hash: '#v=1&exp=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E', expect: { exp: 'interview' }, issues: [['exp', 'invalid']] },
    { hash: '#v=1&dk=4097', expect: { dk: 64 }, issues: [['dk', 'range']] },
    { hash: '#v=1&dk=0', expect: { dk: 64 }, issues: [['dk', 'range']] },
    { hash: '#v=1&dk=12.6', expect: { dk: 13 }, issues: [['dk', 'rounded']] },
    { hash: '#v=1&dk=0x10', expect: { dk: 64 }, issues: [['dk', 'invalid']] },
    { hash: '#v=1&dk=', expect: { dk: 64 }, issues: [['dk', 'invalid']] },
    { hash: '#v=1&dk', expect: { dk: 64 }, issues: [['dk', 'invalid']] },
    { hash: '#v=1&dk=Infinity', expect: { dk: 64 }, issues: [['dk', 'invalid']] },
    { hash: '#v=1&dk=NaN', expect: { dk: 64 }, issues: [['dk', 'invalid']] },
    { hash: '#v=1&seed=-1', expect: { seed: 1 }, issues: [['seed', 'range']] },
    { hash: '#v=1&seed=4294967296', expect: { seed: 1 }, issues: [['seed', 'range']] },
    { hash: '#v=1&gap=3.14159', expect: { gap: 3.1 }, issues: [['gap', 'rounded']] },
    { hash: '#v=1&gap=-21', expect: { gap: 2 }, issues: [['gap', 'range']] },
    { hash: '#v=1&scale=sqrt', expect: { scale: 'inv_sqrt_dk' }, issues: [['scale', 'invalid']] },
    { hash: '#v=1&lang=zh-cn', expect: { lang: 'zh-CN' }, issues: [['lang', 'rounded']] },
    { hash: '#v=1&lang=fr', expect: { lang: 'en' }, issues: [['lang', 'invalid']] },
    { hash: '#v=1&kernel=gpu', expect: { kernel: 'auto' }, issues: [['kernel', 'invalid']] },
    { hash: '#v=1&embed=yes', expect: { embed: false }, issues: [['embed', 'invalid']] },
    // booleans and enums follow one rule: a word in any case is read and reported as corrected; other values fall back
    { hash: '#v=1&lalibi=TRUE&causal=False&salibi=true', expect: { lalibi: true, causal: false, salibi: true }, issues: [['lalibi', 'rounded'], ['causal', 'rounded'], ['salibi', 'rounded']] },
    { hash: '#v=1&dq=ALIBI&scale=INV_DK', expect: { dq: 'alibi', scale: 'inv_dk' }, issues: [['dq', 'rounded'], ['scale', 'rounded']] },
    { hash: '#v=1&lalibi=2&salibi=yes&causal=-1', expect: { lalibi: false, salibi: false, causal: false }, issues: [['lalibi', 'invalid'], ['salibi', 'invalid'], ['causal', 'invalid']] },
    { hash: '#v=1&embed=1&show=charts,nope', expect: { embed: true, show: ['charts'] }, issues: [['show', 'rounded']] },
    // another order of the same parts is read as it is, with no "corrected" notice (issue 18)
    { hash: '#v=1&embed=1&show=charts,controls', expect: { embed: true, show: ['controls', 'charts'] }, issues: [] },
    { hash: '#v=1&embed=1&show=charts,charts', expect: { embed: true, show: ['charts'] }, issues: [['show', 'rounded']] },
    { hash: '#v=1&embed=1&show=nope', expect: { embed: true, show: ['controls', 'charts', 'formula', 'text'] }, issues: [['show', 'invalid']] },
    { hash: '#v=1&foo=bar&__proto__=1&constructor=2', expect: {}, issues: [['foo', 'unknown'], ['__proto__', 'unknown'], ['constructor', 'unknown']] },
    { hash: '#v=2&dk=8', expect: { dk: 8 }, issues: [['v', 'version']] },
    { hash: '#v=1&dk=8&dk=16', expect: { dk: 16 }, issues: [['dk', 'duplicate']] },
    // the last value of a repeated key counts: what was said of an earlier one goes with it
    { hash: '#v=1&wlen=abc&wlen=2048', expect: { wlen: 2048 }, issues: [['wlen', 'duplicate']] },
    { hash: '#v=1&wlen=2048&wlen=abc', expect: { wlen: 4096 }, issues: [['wlen', 'invalid'], ['wlen', 'duplicate']] },
    { hash: '#v=1&embed=1&exp=bogus&exp=variance', expect: { embed: true, exp: 'variance' }, issues: [['exp', 'duplicate']] },
    { hash: '#v=2&v=1&dk=8', expect: { dk: 8 }, issues: [] },
    { hash: '#v=1&dk=%E0%A4%A', expect: { dk: 64 }, issues: [['dk', 'invalid']] },
    { hash: '#&&&dk=8&&', expect: { dk: 8 }, issues: [] },
    { hash: '#v=1&heads=+3', expect: { heads: 3 }, issues: [] },
    { hash: '#v=1&cv=0.0.9', expect: { cv: '0.0.9' }, issues: [] },
    { hash: '#v=1&cv=1.2', expect: { cv: CORE_VERSION }, issues: [['cv', 'invalid']] },
    { hash: '#v=1&cv=<b>1.0.0</b>', expect: { cv: CORE_VERSION }, issues: [['cv', 'invalid']] },
    // the new panels' keys
    { hash: '#v=1&exp=precision&plogits=10,0', expect: { exp: 'precision', plogits: [10, 0] }, issues: [] },
    { hash: '#v=1&plogits=-1e6,1e6,0.25', expect: { plogits: [-1e6, 1e6, 0.25] }, issues: [] },
    { hash: '#v=1&plogits=1,abc', expect: { plogits: [100, 90, 80] }, issues: [['plogits', 'invalid']] },
    { hash: '#v=1&plogits=', expect: { plogits: [100, 90, 80] }, issues: [['plogits', 'invalid']] },
    { hash: '#v=1&plogits=1,,2', expect: { plogits: [100, 90, 80] }, issues: [['plogits', 'invalid']] },
    { hash: '#v=1&plogits=1e7', expect: { plogits: [100, 90, 80] }, issues: [['plogits', 'range']] },
    { hash: '#v=1&plogits=Infinity', expect: { plogits: [100, 90, 80] }, issues: [['plogits', 'invalid']] },
    // issue #11: −∞ is a masked key; +∞ and NaN are refused
    { hash: '#v=1&plogits=-inf,0,5', expect: { plogits: [-Infinity, 0, 5] }, issues: [] },
    { hash: '#v=1&plogits=-Infinity,-inf', expect: { plogits: [-Infinity, -Infinity] }, issues: [] },
    { hash: '#v=1&plogits=%E2%88%92%E2%88%9E,1', expect: { plogits: [-Infinity, 1] }, issues: [] },
    { hash: '#v=1&plogits=inf,0', expect: { plogits: [100, 90, 80] }, issues: [['plogits', 'invalid']] },
    { hash: '#v=1&plogits=%2Binf,0', expect: { plogits: [100, 90, 80] }, issues: [['plogits', 'invalid']] },
    { hash: '#v=1&plogits=NaN', expect: { plogits: [100, 90, 80] }, issues: [['plogits', 'invalid']] },
    { hash: '#v=1&causal=1&softcap=50', expect: { causal: true, softcap: 50 }, issues: [] },
    { hash: '#v=1&softcap=-1', expect: { softcap: 0 }, issues: [['softcap', 'range']] },
    // wlen below the slider's first step (256) is refused like any out-of-range key: the default L 4096, with a notice
    { hash: '#v=1&wlen=64', expect: { wlen: 4096 }, issues: [['wlen', 'range']] },
    { hash: '#v=1&wlen=255', expect: { wlen: 4096 }, issues: [['wlen', 'range']] },
    { hash: '#v=1&wlen=256', expect: { wlen: 256 }, issues: [] },
    { hash: '#v=1&pacc=float32&pmasked=zero', expect: { pacc: 'float32', pmasked: 'zero' }, issues: [] },
    { hash: '#v=1&pacc=float16', expect: { pacc: 'same' }, issues: [['pacc', 'invalid']] },
    { hash: `#v=1&plogits=${Array(65).fill(1).join(',')}`, expect: { plogits: [100, 90, 80] }, issues: [['plogits', 'invalid']] },
    { hash: '#v=1&plogits=%3Cscript%3E', expect: { plogits: [100, 90, 80] }, issues: [['plogits', 'invalid']] },
    { hash: '#v=1&pmode=both', expect: { pmode: 'logits' }, issues: [['pmode', 'invalid']] },
    { hash: '#v=1&pblock=0', expect: { pblock: 32 }, issues: [['pblock', 'range']] },
    { hash: '#v=1&ldk=512', expect: { ldk: 64 }, issues: [['ldk', 'range']] },
    { hash: '#v=1&ltrain=1', expect: { ltrain: 512 }, issues: [['ltrain', 'range']] },
    { hash: '#v=1&hq=32&hkv=12', expect: { hq: 32, hkv: 8 }, issues: [['hkv', 'rounded']] },
    { hash: '#v=1&hq=12&hkv=8', expect: { hq: 12, hkv: 6 }, issues: [['hkv', 'rounded']] },
    { hash: '#v=1&hq=7&hkv=64', expect: { hq: 7, hkv: 7 }, issues: [['hkv', 'rounded']] },
    { hash: '#v=1&hq=40&hkv=8', expect: { hq: 40, hkv: 8 }, issues: [] },
    { hash: '#v=1&hq=0', expect: { hq: 32 }, issues: [['hq', 'range']] },
    // QK-Clip's key heads divide its 8 query heads: 3 → 2, 5, 6, 7 → 4 (the slider, its label and the core agree)
    { hash: '#v=1&qchkv=3', expect: { qchkv: 2 }, issues: [['qchkv', 'rounded']] },
    { hash: '#v=1&qchkv=7', expect: { qchkv: 4 }, issues: [['qchkv', 'rounded']] },
    { hash: '#v=1&qchkv=8', expect: { qchkv: 8 }, issues: [] },
    // Your model: a saved config or a pasted one's d_head and scale together, never half a set or both
    { hash: '#v=1&ym=none&ymdh=192&ymsc=0.135234', expect: { ymdh: 192, ymsc: 0.135234 }, issues: [] },
    { hash: '#v=1&ym=kimi-k2', expect: { ym: 'kimi-k2' }, issues: [] },
    { hash: '#v=1&ymdh=192', expect: { ymdh: 0 }, issues: [['ymdh', 'incomplete']] },
    { hash: '#v=1&ymsc=0.1&ymcap=50', expect: { ymsc: 0, ymcap: 0 }, issues: [['ymsc', 'incomplete'], ['ymcap', 'incomplete']] },
    { hash: '#v=1&ym=kimi-k2&ymdh=128&ymsc=0.2', expect: { ym: 'kimi-k2', ymdh: 0, ymsc: 0 }, issues: [['ymdh', 'conflict'], ['ymsc', 'conflict']] },
    { hash: '#v=1&kvdt=fp64', expect: { kvdt: 'bf16' }, issues: [['kvdt', 'invalid']] },
    { hash: '#v=1&kvctx=99999999', expect: { kvctx: 8192 }, issues: [['kvctx', 'range']] },
    { hash: '#v=1&tex=../../etc/passwd', expect: { tex: 'structured' }, issues: [['tex', 'invalid']] },
    { hash: '#v=1&tscale=inv_sqrt_d_model', expect: { tscale: 'inv_sqrt_dk' }, issues: [['tscale', 'invalid']] },
    // issue 31: a host's fragment after a second '#' (WordPress's "#?secret=…") is read as nothing
    { hash: '#v=1&exp=saturation&dk=256&embed=1#?secret=Ab3dE6gH9j', expect: { exp: 'saturation', dk: 256, embed: true }, issues: [['secret', 'unknown']] },
    { hash: '#v=1&dk=256#dk=8&exp=gradient', expect: { dk: 256 }, issues: [['dk', 'unknown'], ['exp', 'unknown']] },
    { hash: '#v=1&dk=8&dk=9&dk=16&dk=zz&dk=32', expect: { dk: 32 }, issues: [['dk', 'duplicate'], ['dk', 'duplicate'], ['dk', 'duplicate'], ['dk', 'duplicate']] },
    { hash: '#v=1&dk=8&v=2&dk=zz&v=3', expect: { dk: 64 }, issues: [['dk', 'invalid'], ['dk', 'duplicate'], ['v', 'version']] },
  ];
  for (const row of table) {
    it(`${row.hash || '(empty)'}`, () => {
      const p = parseHash(row.hash, 'en');
      expect(p.state).toEqual({ ...d, ...row.expect });
      expect(p.issues.map((i) => [i.key, i.kind])).toEqual(row.issues);
      // whatever came in, every key ends inside the schema
      for (const [k, spec] of Object.entries(SCHEMA)) {
        const v = (p.state as unknown as Record<string, unknown>)[k];
        if (spec.type === 'int' || spec.type === 'num') {
          expect(typeof v).toBe('number');
          expect(v as number).toBeGreaterThanOrEqual(spec.min);
          expect(v as number).toBeLessThanOrEqual(spec.max);
        } else if (spec.type === 'enum') expect(spec.values).toContain(v);
        else if (spec.type === 'nums') {
          expect(Array.isArray(v)).toBe(true);
          for (const x of (v as number[]).filter((y) => !(spec.negInf && y === -Infinity))) { expect(x).toBeGreaterThanOrEqual(spec.min); expect(x).toBeLessThanOrEqual(spec.max); }
        }
      }
      expect(p.state.hq % p.state.hkv).toBe(0);
      // and the canonical hash of the result parses cleanly
      expect(parseHash(toHash(p.state), 'en').issues).toEqual([]);
    });
  }

  it('parse is pure: same input, same output; VERSION is 1', () => {
    const h = '#v=1&dk=-5&seqLen=abc';
    expect(parseHash(h, 'en')).toEqual(parseHash(h, 'en'));
    expect(VERSION).toBe(1);
  });
});

describe('links that cannot keep the page busy (issue 31)', () => {
  /** The work a parse of `hash` counts (characters and parts read, issues kept). */
  const work = (hash: string) => { const m: ParseMeter = { steps: 0 }; parseHash(hash, 'en', m); return m.steps; };
  const repeated = (block: string, n: number) => '#v=1&' + block.repeat(n);

  it('parsing is linear in the hash\'s length, whatever it repeats: the work per character stays bounded', () => {
    // just under the limit: repeated known keys (the quadratic case of old), unknown keys, invalid values, one long value
    const n = Math.floor((MAX_HASH_LENGTH - 10) / 'dk=64&'.length);
    const shapes = [(k: number) => repeated('dk=64&', k), (k: number) => repeated('zz=1&', k), (k: number) => repeated('dk=x&', k),
      (k: number) => repeated('exp=variance&dk=8&', k), (k: number) => `#v=1&plogits=${Array(k).fill(1).join(',')}`];
    for (const shape of shapes) {
      for (const k of [10, 100, Math.floor(n / 3)]) {
        const hash = shape(k);
        if (hash.length - 1 > MAX_HASH_LENGTH) continue;
        expect(work(hash)).toBeLessThanOrEqual(2 * hash.length + 10);
      }
    }
    // ten times the repeats is about ten times the work (not a hundred)
    const small = work(repeated('dk=64&', 100)), big = work(repeated('dk=64&', 1000));
    expect(big / small).toBeLessThan(11);
  });

  it('the last of many repeats counts, with one duplicate issue per repeat, in order', () => {
    const p = parseHash(repeated('dk=64&', 1000) + 'dk=128', 'en');
    expect(p.state.dk).toBe(128);
    expect(p.present).toContain('dk');
    expect(p.issues.length).toBe(1000);
    expect(p.issues.every((i) => i.key === 'dk' && i.kind === 'duplicate')).toBe(true);
  });

  it('a hash over the limit is refused unread: the defaults and one issue naming its length', () => {
    const at = '#v=1&' + 'x'.repeat(MAX_HASH_LENGTH - 4);
    expect(at.length - 1).toBe(MAX_HASH_LENGTH);
    expect(parseHash(at, 'en').issues.map((i) => i.kind)).toEqual(['unknown']);
    const huge = repeated('dk=64&', 350_000);  // 2.1 MB of repeated keys
    const m: ParseMeter = { steps: 0 };
    const p = parseHash(huge, 'zh-CN', m);
    expect(m.steps).toBe(1);
    expect(p.state).toEqual(defaultState('zh-CN'));
    expect(p.present).toEqual([]);
    expect(p.issues).toEqual([{ key: '#', kind: 'toolong', raw: (huge.length - 1).toLocaleString('en-US'), used: MAX_HASH_LENGTH.toLocaleString('en-US') }]);
    // an embed refuses in its frame: embed=1 is the one thing looked for
    const embed = parseHash('#v=1&exp=variance&embed=1&' + 'dk=64&'.repeat(2000), 'en');
    expect(embed.state.embed).toBe(true);
    expect(embed.state.exp).toBe('interview');
    expect(embed.issues.map((i) => i.kind)).toEqual(['toolong']);
  });

  it('an embed\'s notice leaves out the keys a host appended; the page\'s keeps them', () => {
    const wp = parseHash('#v=1&exp=article&embed=1&utm_source=feed&dk=zz#?secret=Ab3dE6gH9j', 'en');
    expect(wp.issues.map((i) => i.key)).toEqual(['utm_source', 'dk', 'secret']);
    expect(issuesToShow(wp).map((i) => [i.key, i.kind])).toEqual([['dk', 'invalid']]);
    const page = parseHash('#v=1&exp=article&utm_source=feed', 'en');
    expect(issuesToShow(page).map((i) => i.key)).toEqual(['utm_source']);
  });
});
