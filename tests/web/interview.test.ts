// The interview view without a browser: its catalogue in both languages (every string translated,
// the same live numbers in each), its links (a short link reopens exactly the state its numbers
// were computed for), and its sentences checked against the live numbers of several seeds — the
// words around a number must stay true for any seed.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core } from '../../wasm/js/core.js';
import { run } from '../../web/src/worker/handler.ts';
import type { Request } from '../../web/src/worker/protocol.ts';
import { ivEn } from '../../web/src/i18n/packs/interview.ts';
import { ivZh } from '../../web/src/i18n/packs/interview.zh-CN.ts';
import { en, zhCN } from '../../web/src/i18n/messages.ts';
import type { MessageKey } from '../../web/src/i18n/messages.ts';
import { defaultState, parseHash, panelKeys, formatValue } from '../../web/src/state/state.ts';
import type { StateKey } from '../../web/src/state/state.ts';
import { LINKS, NUMBERS, liveRequests, liveNumbers, linkState, shortHash, trainingRequest } from '../../web/src/interview/live.ts';
import type { LinkId, NumberId } from '../../web/src/interview/live.ts';
import { POINTS_30S, TWO_MINUTES, FOLLOWUPS, WRONG, DEEP } from '../../web/src/panels/interview.ts';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const HAN = /[\u4e00-\u9fff]/;

describe('the interview catalogue', () => {
  it('every string of the view has a Chinese translation with the same placeholders', () => {
    const keys = Object.keys(ivEn) as (keyof typeof ivEn)[];
    expect(keys.length).toBeGreaterThan(80);
    for (const k of keys) {
      expect(typeof ivZh[k], k).toBe('string');
      expect(ivZh[k].trim(), k).not.toBe('');
      expect(ivZh[k], k).not.toBe(ivEn[k]);
      expect(HAN.test(ivZh[k]), `${k} is written in Chinese`).toBe(true);
      expect(placeholders(ivZh[k]), k).toEqual(placeholders(ivEn[k]));
      // merged into the one catalogue
      expect(en[k as MessageKey]).toBe(ivEn[k]);
      expect(zhCN[k as MessageKey]).toBe(ivZh[k]);
    }
  });

  it('the view uses the standard Chinese terms', () => {
    const all = Object.values(ivZh).join('\n');
    for (const term of ['注意力', '缩放', '方差', '熵', '梯度', '饱和']) expect(all, term).toContain(term);
  });

  it('every live number appears in a sentence of the view, and every placeholder is a live number', () => {
    const calc = new Set(['sqrt512']);
    const keys = new Set<MessageKey>();
    const zero = liveNumbers({});
    const big = Object.fromEntries(Object.keys(zero).map((k) => [k, 1])) as Record<NumberId, number>;
    const small = Object.fromEntries(Object.keys(zero).map((k) => [k, 0])) as Record<NumberId, number>;
    for (const item of [...POINTS_30S, ...TWO_MINUTES, ...FOLLOWUPS, ...WRONG]) {
      keys.add(item.text(big)); keys.add(item.text({ ...small, gqMeanNone512: 2 }));
      if (item.q) keys.add(item.q);
      if (item.print) keys.add(item.print);
    }
    keys.add('iv.a2.live');
    const used = new Set<string>();
    for (const k of keys) {
      for (const p of placeholders(en[k])) {
        expect(p in NUMBERS || calc.has(p), `${k}: {${p}}`).toBe(true);
        used.add(p);
      }
    }
    for (const id of Object.keys(NUMBERS)) expect(used.has(id), id).toBe(true);
    expect(FOLLOWUPS.length).toBeGreaterThanOrEqual(12);
    expect(WRONG.length).toBeGreaterThanOrEqual(6);
    expect(POINTS_30S.length).toBeGreaterThanOrEqual(3);
    expect(POINTS_30S.length).toBeLessThanOrEqual(4);
    for (const p of DEEP) expect(en[`iv.deep.${p}` as MessageKey], p).toBeTruthy();
  });

  it('a lazy request (asked after the load) feeds only the sections a reader opens, never the answer shown at load nor a key figure', () => {
    const big = Object.fromEntries(Object.keys(liveNumbers({})).map((k) => [k, 1])) as Record<NumberId, number>;
    const small = Object.fromEntries(Object.keys(liveNumbers({})).map((k) => [k, 0])) as Record<NumberId, number>;
    const reqs = liveRequests({ ...defaultState('en'), iseed: 3 });
    const lazy = new Set(reqs.filter((r) => r.lazy).map((r) => r.id));
    expect([...lazy].sort()).toEqual(['alibi', 'splitkv']);
    const numbersOf = (items: typeof POINTS_30S) => new Set(items.flatMap((item) => [item.text(big), item.text({ ...small, gqMeanNone512: 2 }), ...(item.print ? [item.print] : [])])
      .flatMap((k) => [...placeholders(en[k]), ...placeholders(zhCN[k])]));
    const atLoad = numbersOf([...POINTS_30S, ...TWO_MINUTES]);
    for (const p of placeholders(en['iv.a2.live'])) atLoad.add(p);
    for (const id of ['std512', 'entNone512', 'entSqrt512']) atLoad.add(id);  // the share poster's key figures
    const opened = numbersOf([...FOLLOWUPS, ...WRONG]);
    for (const [id, [req]] of Object.entries(NUMBERS)) {
      if (!lazy.has(req)) continue;
      expect(atLoad.has(id), `${id} (request ${req}) is shown at load`).toBe(false);
      expect(opened.has(id), `${id} (request ${req}) is in a follow-up or wrong answer`).toBe(true);
    }
  });

  it('the printed sheet holds every follow-up and wrong answer; a shorter printed text keeps the live numbers of its item', () => {
    for (const item of [...FOLLOWUPS, ...WRONG]) expect(item.screenOnly, item.id).toBeFalsy();
    const withPrint = [...FOLLOWUPS, ...WRONG].filter((f) => f.print);
    expect(withPrint.map((f) => f.id)).toEqual(['sigma', 'causal', 'long', 'alt', 'softcap', 'init', 'tail', 'cbrt', 'wqwk', 'mup', 't5', 'sink', 'mla', 'sumone', 'qkclip', 'lse', 'alibi', 'overflow', 'trained', 'lnL', 'mupalways', 'heads', 'sumone', 'qkcap', 'alibiscale']);
    const big = Object.fromEntries(Object.keys(liveNumbers({})).map((k) => [k, 1])) as Record<NumberId, number>;
    for (const f of withPrint) {
      for (const dict of [en, zhCN]) {
        const full = dict[f.text(big)], short = dict[f.print!];
        expect(short.length, `${f.id}: shorter on paper`).toBeLessThan(0.85 * full.length);
        // the same live numbers, on paper as on screen
        expect([...new Set(placeholders(short))], f.id).toEqual([...new Set(placeholders(full))]);
      }
    }
  });

  it('every formula or claim from a paper names it: author, year (and section where the view quotes one)', () => {
    for (const k of ['iv.a30.p4', 'iv.a2.derive', 'iv.fu.long.a', 'iv.fu.softcap.a', 'iv.fu.gqa.a', 'iv.fu.alt.a'] as const) {
      expect(ivEn[k], k).toMatch(/(et al\.|Team|Shazeer|Lee, Lee & Song|Chiang & Cholak) (19|20)\d\d/);
      expect(ivZh[k], k).toMatch(/(et al\.|Team|Shazeer|Lee, Lee & Song|Chiang & Cholak) (19|20)\d\d/);
    }
  });
});

describe('the interview links', () => {
  it('a short link reopens exactly the state of its numbers (every key the panel reads) (every link, both languages, a kernel)', () => {
    for (const lang of ['en', 'zh-CN'] as const) {
      for (const kernel of ['auto', 'scalar'] as const) {
        const base = { ...defaultState(lang), iseed: 12345, kernel };
        for (const id of Object.keys(LINKS) as LinkId[]) {
          const s = linkState(base, id);
          const parsed = parseHash(shortHash(s), 'en');
          expect(parsed.issues, id).toEqual([]);
          // the keys the opened panel reads, and the view's own frame (other panels' seed keys are not read there)
          for (const k of ['exp', 'lang', 'kernel', ...panelKeys(s.exp)] as StateKey[]) expect(formatValue(k, parsed.state[k]), `${id}: ${k}`).toBe(formatValue(k, s[k]));
        }
      }
    }
  });

  it('links carry the interview seed into the panels’ seed keys and nothing of the rest of the page', () => {
    const page = { ...defaultState('en'), iseed: 9, dk: 8, heads: 2, trsteps: 5 };
    expect(shortHash(linkState(page, 'satNone512'))).toBe('#v=1&exp=saturation&lang=en&dk=512&seed=9&scale=none');
    expect(shortHash(linkState(page, 'article'))).toBe('#v=1&exp=article&lang=en&aseed=9');
    expect(shortHash(linkState(page, 'precNone'), false)).toBe('#v=1&exp=precision&pmode=random&pseed=9');
    expect(shortHash(linkState(page, 'interview'))).toBe('#v=1&exp=interview&lang=en&iseed=9');
  });
});

describe('the interview sentences hold for any seed', () => {
  let core: Core;
  beforeAll(async () => { core = await loadCore({}); }, 60000);
  const numbersFor = (seed: number): Record<NumberId, number> => {
    const results: Record<string, unknown> = {};
    const [cfg] = trainingRequest({ ...defaultState('en'), iseed: seed }).configs;
    const tr = core.createTrainingRun(cfg);
    try {
      tr.step(cfg.steps);
      results.train = { analysis: tr.analysis(48), evaluation: tr.evaluate() };
    } finally { tr.dispose(); }
    liveRequests({ ...defaultState('en'), iseed: seed }).forEach((r, i) => {
      const res = run(core, { id: i, kind: r.kind, params: r.params } as Request);
      if (!res.ok) throw new Error(`${r.id}: ${res.error.message}`);
      results[r.id] = res.result;
    });
    return liveNumbers(results);
  };

  for (const seed of [0, 1, 2, 3, 4294967295]) {
    it(`seed ${seed}`, () => {
      const n = numbersFor(seed);
      for (const [id, x] of Object.entries(n)) expect(Number.isFinite(x), id).toBe(true);
      // 30 s: std near √512; unscaled near one-hot, scaled below the ceiling ln L; the typical gradient starved
      expect(Math.abs(n.std512 - Math.sqrt(512)) / Math.sqrt(512)).toBeLessThan(0.1);
      expect(n.maxwNone512).toBeGreaterThan(0.5);
      expect(n.entNone512).toBeLessThan(n.entSqrt512);
      expect(n.entSqrt512).toBeLessThan(n.lnL128);
      expect(n.jacMedNone512).toBeLessThan(0.2 * n.jacMedSqrt512);
      expect(Math.abs(n.sqrtVar512 - 1)).toBeLessThan(0.15);
      // 2 min and follow-ups: 1/d_k flat, √d_model flatter, σ⁴ law, the tail above the median
      expect(n.lnL128 - n.entInv512).toBeLessThan(0.01);
      expect(n.maxwInv512).toBeLessThan(0.05);
      expect(n.entModel64).toBeGreaterThan(n.entSqrt64h8);
      expect(Math.abs(n.var1024 / n.var512 - 2)).toBeLessThan(0.3);
      expect(Math.abs(n.sqrtVar1024 - 1)).toBeLessThan(0.15);
      expect(Math.abs(n.varSigma / n.varSigmaTheory - 1)).toBeLessThan(0.15);
      expect(n.varSigmaTheory).toBe(64 * 16);
      expect(n.gqMeanNone512).toBeGreaterThan(n.gqMedNone512);
      expect(n.gqP90None512).toBeGreaterThan(n.gqMedNone512);
      expect(n.jacP10None512).toBeLessThan(n.jacMedNone512);
      // QK-Clip (q × 30, τ 100): head 0 is clipped, every logit × η, so its largest lands at S_max·η ≤ τ
      expect(n.qcGamma0).toBeLessThan(1);
      expect(Math.abs(n.qcAfter0 / (n.qcMax0 * n.qcGamma0) - 1)).toBeLessThan(1e-4);
      expect(n.qcAfter0).toBeLessThanOrEqual(100 * (1 + 1e-5));
      // the split-KV merge: equal to the full call up to float32 rounding; a base-2 lse read as nats visibly off; an empty chunk neutral
      expect(n.lmDiff).toBeLessThan(1e-5);
      expect(n.lmLse).toBeLessThan(1e-5);
      expect(n.lmBase2).toBeGreaterThan(1e3 * n.lmDiff);
      expect(n.lmEmpty).toBe(0);
      // ALiBi: 1/√d_k alone grows with L (most of ln 16), the m = ½ head stays flat, the m = 1/256 head stays below 1/√d_k alone
      expect(n.alPlain1024 - n.alPlain64).toBeGreaterThan(0.8 * Math.log(16));
      expect(Math.abs(n.alSteep1024 - n.alSteep64)).toBeLessThan(0.1 * Math.log(16));
      expect(n.alGentle1024).toBeLessThan(n.alPlain1024);
      expect(n.alGentle1024).toBeGreaterThan(n.alSteep1024 + 2);
      expect(n.jacMedNone512).toBeLessThan(n.jacP90None512);
      // wrong answers: no overflow in the safe softmax; float64 saturates like float32; scaled logits are not cosines
      expect(n.precBad32None).toBe(0);
      expect(n.precJac64None).toBeLessThan(0.2 * n.precJac64Sqrt);
      expect(Math.abs(n.precJac32None / n.precJac64None - 1)).toBeLessThan(0.05);
      expect(n.maxLogitSqrt512).toBeGreaterThan(1);
      expect(n.cModel64).toBeCloseTo(1 / Math.sqrt(512), 12);
      expect(n.artSqrt).toBeLessThan(n.artLnL - 0.2);
      expect(n.artLnL - n.artInv).toBeLessThan(0.01);
      expect(n.artNone).toBeLessThan(n.artSqrt);
      // the soft-cap bounds the logits; a causal mask lowers the entropy; long context: log-n and YaRN sharpen
      expect(n.maxLogitCap512).toBeLessThanOrEqual(50);
      expect(n.maxLogitNone512).toBeGreaterThan(n.maxLogitCap512);
      expect(n.entCausal64).toBeLessThan(n.entSqrt64);
      expect(n.lcLogn).toBeLessThan(n.lcFixed);
      expect(n.lcYarn).toBeLessThan(n.lcFixed);
      expect(n.lcLognM).toBeCloseTo(Math.log(8192) / Math.log(512), 6);
      expect(n.lcYarnM).toBeCloseTo((0.1 * Math.log(8192 / 512) + 1) ** 2, 6);
      // GQA: the same per-head logits, entropies equal up to sampling
      expect(Math.abs(n.gqaGqa - n.gqaMha) / n.gqaMha).toBeLessThan(0.03);
      expect(Math.abs(n.gqaMqa - n.gqaMha) / n.gqaMha).toBeLessThan(0.03);
      // trained: the model learned its task, and its scaled logits are far from variance 1
      expect(n.trainAcc).toBeGreaterThan(0.9);
      expect(n.trainVar).toBeGreaterThan(2);
      expect(n.trainQk).toBeGreaterThan(n.trainIid);
      // two logits: the bound 1/2 at g = 0; p₁ rounds to 0.99995 at 6 digits
      expect(n.jac0).toBeCloseTo(0.5, 12);
      expect(n.jac10).toBeLessThan(1e-3);
    }, 120000);  // a training run and 24 core calls: seconds on a loaded machine
  }
});
