// The interview's drill and claim checker, the pure parts: the score rule at its edges, the verdict
// rules of web/src/claims.ts at theirs, the questions' seeds and requests, the progress store, and
// a zh-CN translation for every string of the drill and the checker.
import { describe, it, expect } from 'vitest';
import {
  scoreNumber, scoreChoice, closeness, nearestInLog, rng, QUESTIONS, QUESTION_IDS, QUESTIONS_BY_ID, questionState,
  readProgress, writeProgress, clearProgress, recordAnswer, summarise, PROGRESS_KEY, PROGRESS_LIMITS, parseProgress,
} from '../../web/src/interview/questions.ts';
import type { StorageLike } from '../../web/src/interview/questions.ts';
import { CLAIMS, CLAIM_IDS, byParts, near, c9Verdict, c10Verdict } from '../../web/src/claims.ts';
import { drillEn } from '../../web/src/i18n/packs/drill.ts';
import { drillZh } from '../../web/src/i18n/packs/drill.zh-CN.ts';
import { en, zhCN, translator } from '../../web/src/i18n/messages.ts';
import type { MessageKey } from '../../web/src/i18n/messages.ts';
import { defaultState, toHash, parseHash } from '../../web/src/state/state.ts';
import { variancePointParams, sweepParams } from '../../web/src/requests/attention.ts';
import { SCHEMA } from '../../web/src/state/schema.js';

describe('the score rule of a numeric prediction', () => {
  const rule = { full: 2, half: 4 };
  it('full marks up to the factor full, on both sides of the live number', () => {
    expect(scoreNumber(10, 10, rule)).toBe(1);
    expect(scoreNumber(20, 10, rule)).toBe(1);   // exactly 2× above
    expect(scoreNumber(5, 10, rule)).toBe(1);    // exactly 2× below
    expect(scoreNumber(20.001, 10, rule)).toBe(0.5);
    expect(scoreNumber(4.999, 10, rule)).toBe(0.5);
  });
  it('half marks up to the factor half, none beyond', () => {
    expect(scoreNumber(40, 10, rule)).toBe(0.5);
    expect(scoreNumber(2.5, 10, rule)).toBe(0.5);
    expect(scoreNumber(40.01, 10, rule)).toBe(0);
    expect(scoreNumber(2.49, 10, rule)).toBe(0);
  });
  it('a prediction that is not a positive finite number scores nothing', () => {
    for (const p of [0, -10, NaN, Infinity]) expect(scoreNumber(p, 10, rule), String(p)).toBe(0);
    expect(closeness(0, 1)).toBe(Infinity);
  });
  it('the tight rules of the drill: 1.2 / 1.5 on the std of q·k', () => {
    const r = QUESTIONS_BY_ID.std.kind === 'number' ? QUESTIONS_BY_ID.std.rule : null;
    expect(r).toEqual({ full: 1.2, half: 1.5 });
    expect(scoreNumber(22.6 * 1.2, 22.6, r!)).toBe(1);
    expect(scoreNumber(22.6 * 1.21, 22.6, r!)).toBe(0.5);
    expect(scoreNumber(512, 22.6, r!)).toBe(0);  // d_k instead of √d_k
  });
  it('a choice scores 1 only for the option the live numbers pick', () => {
    expect(scoreChoice(2, 2)).toBe(1);
    expect(scoreChoice(1, 2)).toBe(0);
  });
  it('nearestInLog picks orders of magnitude', () => {
    expect(nearestInLog(1.1, [1 / 32, 1, 32])).toBe(1);
    expect(nearestInLog(0.04, [1 / 32, 1, 32])).toBe(0);
    expect(nearestInLog(20, [1 / 32, 1, 32])).toBe(2);
  });
});

describe('the questions', () => {
  it('at least 10, numeric and choice, one per schema value of dq', () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(10);
    expect(QUESTIONS.map((q) => q.id)).toEqual([...QUESTION_IDS]);
    expect([...SCHEMA.dq.values]).toEqual([...QUESTION_IDS]);
    expect(QUESTIONS.filter((q) => q.kind === 'number').length).toBeGreaterThanOrEqual(3);
    expect(QUESTIONS.filter((q) => q.kind === 'choice').length).toBeGreaterThanOrEqual(3);
  });
  it('the same seed gives the same parameters; seeds spread over the choices', () => {
    for (const q of QUESTIONS) {
      expect(q.params(12345)).toEqual(q.params(12345));
      const seen = new Set(Array.from({ length: 64 }, (_, i) => JSON.stringify(q.params(i))));
      expect(seen.size, q.id).toBeGreaterThan(1);
    }
    const r = rng(7), a = [r(), r(), r()];
    const s = rng(7);
    expect([s(), s(), s()]).toEqual(a);
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
  });
  it('every question text is filled by its parameters, in both languages', () => {
    for (const lang of ['en', 'zh-CN'] as const) {
      const t = translator(lang);
      for (const q of QUESTIONS) {
        for (const seed of [0, 1, 2, 3, 99]) {
          const text = t(`drill.q.${q.id}` as MessageKey, Object.fromEntries(Object.entries(q.params(seed)).map(([k, v]) => [k, String(v)])));
          expect(text, `${lang} ${q.id}`).not.toMatch(/\{\w+\}/);
        }
      }
    }
  });
  it('the request is the one the "show me" panel sends for the same state', () => {
    const base = defaultState('en');
    const { state, request, params } = questionState(base, QUESTIONS_BY_ID.std, 99);
    expect(state.exp).toBe('variance');
    expect(state.dk).toBe(params.dk);
    expect(state.seed).toBe(99);
    expect(request).toEqual({ worker: 'live', kind: 'scoreVariance', params: variancePointParams(state) });
    const g = questionState(base, QUESTIONS_BY_ID.gradmean, 5);
    expect(g.request.params).toEqual(sweepParams(g.state));
    // the link round-trips: the same state, so the same request
    expect(parseHash(toHash(state)).state.seed).toBe(99);
  });
});

describe('progress in localStorage', () => {
  class Mem implements StorageLike {
    m = new Map<string, string>();
    getItem(k: string) { return this.m.get(k) ?? null; }
    setItem(k: string, v: string) { this.m.set(k, v); }
    removeItem(k: string) { this.m.delete(k); }
  }
  it('records the first answer of a question at a seed once, sums, and resets', () => {
    const st = new Mem();
    let p = readProgress(st);
    expect(summarise(p)).toEqual({ answered: 0, score: 0 });
    let r = recordAnswer(p, 'std:1', 1); expect(r.counted).toBe(true); p = r.progress;
    r = recordAnswer(p, 'jac:3', 0.5); p = r.progress;
    r = recordAnswer(p, 'std:1', 0); expect(r.counted).toBe(false); p = r.progress;
    writeProgress(st, p);
    expect(summarise(readProgress(st))).toEqual({ answered: 2, score: 1.5 });
    clearProgress(st);
    expect(st.getItem(PROGRESS_KEY)).toBeNull();
    expect(summarise(readProgress(st))).toEqual({ answered: 0, score: 0 });
  });
  it('a broken entry reads as empty, bad scores are dropped', () => {
    const st = new Mem();
    st.setItem(PROGRESS_KEY, '{not json');
    expect(summarise(readProgress(st))).toEqual({ answered: 0, score: 0 });
    st.setItem(PROGRESS_KEY, JSON.stringify({ answered: { 'std:1': 1, 'jac:2': 7, 'mqa:3': 0.5 } }));
    expect(summarise(readProgress(st))).toEqual({ answered: 2, score: 1.5 });
  });
  it('only question:seed keys of this drill count (10,000 foreign keys read as none); a store over 256 KiB is not parsed', () => {
    const st = new Mem();
    const store = (foreign: number) => {
      const answered: Record<string, number> = { 'std:0': 1, 'yarn:4294967295': 0.5 };
      for (let i = 0; i < foreign; i++) answered[`k${i}`] = 1;
      Object.assign(answered, { 'std:4294967296': 1, 'std:01': 1, 'nope:1': 1, 'std:-1': 1, '__proto__:1': 1 });
      return JSON.stringify({ answered });
    };
    st.setItem(PROGRESS_KEY, store(10000));
    expect(readProgress(st).answered).toEqual({ 'std:0': 1, 'yarn:4294967295': 0.5 });
    expect(parseProgress(store(10000)).ignored).toBe(false);
    // 200,000 foreign keys (any page of a shared origin can write them) are past PROGRESS_LIMITS.chars: unread, said
    const big = store(200000);
    expect(big.length).toBeGreaterThan(PROGRESS_LIMITS.chars);
    expect(parseProgress(big)).toEqual({ progress: { answered: {} }, ignored: true });
  });
});

describe('the verdict rules of the claims', () => {
  const v = (id: keyof typeof CLAIMS, live: Record<string, number>) => CLAIMS[id].verdict(live);
  it('byParts: all → agree, none → disagree, some → partly', () => {
    expect(byParts(true, true)).toBe('agree');
    expect(byParts(false, false)).toBe('disagree');
    expect(byParts(true, false, true)).toBe('partly');
    expect(near(1.0499, 1, 0.05)).toBe(true);
    expect(near(1.0501, 1, 0.05)).toBe(false);
  });
  it('C1: within 5 % of 22.6 holds, within 15 % partly', () => {
    expect(v('C1', { std: 22.6 * 1.0499 })).toBe('agree');
    expect(v('C1', { std: 22.6 * 0.9501 })).toBe('agree');
    expect(v('C1', { std: 22.6 * 1.0501 })).toBe('partly');
    expect(v('C1', { std: 22.6 * 0.8501 })).toBe('partly');
    expect(v('C1', { std: 22.6 * 0.8499 })).toBe('disagree');
  });
  it('C2: near one-hot unscaled and smooth scaled', () => {
    expect(v('C2', { noneMaxW: 0.51, sqrtShare: 0.01 })).toBe('agree');
    expect(v('C2', { noneMaxW: 0.5, sqrtShare: 0.01 })).toBe('partly');
    expect(v('C2', { noneMaxW: 0.9, sqrtShare: 0.011 })).toBe('partly');
    expect(v('C2', { noneMaxW: 0.4, sqrtShare: 0.2 })).toBe('disagree');
  });
  it('C3: the variance 0.002 (15 % / 50 %) and the entropy near ln L (5 % / 15 %)', () => {
    expect(v('C3a', { v: 1 / 512 })).toBe('agree');
    expect(v('C3a', { v: 0.0023 })).toBe('agree');
    expect(v('C3a', { v: 0.0029 })).toBe('partly');
    expect(v('C3a', { v: 0.0031 })).toBe('disagree');
    const lnL = Math.log(128);
    expect(v('C3b', { lnL, gap: 0.049 * lnL })).toBe('agree');
    expect(v('C3b', { lnL, gap: 0.05 * lnL })).toBe('partly');
    expect(v('C3b', { lnL, gap: 0.15 * lnL })).toBe('disagree');
  });
  it('C4: ln L − ½ with ÷√d_k is not 4.85 (partly); both parts hold only near 4.85', () => {
    expect(v('C4', { none: 0.1, sqrt: Math.log(128) - 0.5 })).toBe('partly');
    expect(v('C4', { none: 0.1, sqrt: 4.85 * 1.0199 })).toBe('agree');
    expect(v('C4', { none: 0.6, sqrt: 4.3 })).toBe('disagree');
  });
  it('C5: each half within 25 %; the exact two-logit values give partly', () => {
    const j = (g: number) => { const p = 1 / (1 + Math.exp(-g)); return 2 * p * (1 - p); };
    expect(v('C5', { j10: j(10), j6: j(6) })).toBe('partly');
    expect(v('C5', { j10: 0.000125, j6: 0.375 })).toBe('agree');
    expect(v('C5', { j10: 0.0002, j6: 0.1 })).toBe('disagree');
  });
  it('C6, C7, C8, C8-online, C11 at their edges', () => {
    const lnL = Math.log(128);
    expect(v('C6', { ratio: 2.199, none512: 0.2, none1024: 0.1, sqrt512: 4.3, sqrt1024: 4.3 + 0.019 * lnL, lnL })).toBe('agree');
    expect(v('C6', { ratio: 2.201, none512: 0.2, none1024: 0.1, sqrt512: 4.3, sqrt1024: 4.3, lnL })).toBe('partly');
    expect(v('C6', { ratio: 1.5, none512: 0.1, none1024: 0.2, sqrt512: 4.3, sqrt1024: 4.5, lnL })).toBe('disagree');
    expect(v('C7', { spread: 0.049, vm: 1.19, vg: 0.81, vq: 1 })).toBe('agree');
    expect(v('C7', { spread: 0.05, vm: 1, vg: 1, vq: 1 })).toBe('partly');
    expect(v('C7', { spread: 0.1, vm: 1.2001, vg: 1, vq: 1 })).toBe('disagree');
    expect(v('C8', { ratio: 1.5 })).toBe('agree');
    expect(v('C8', { ratio: 1.51 })).toBe('partly');
    expect(v('C8', { ratio: 3 })).toBe('partly');
    expect(v('C8', { ratio: 3.01 })).toBe('disagree');
    expect(v('C8-online', { online: 0, jOnline: 0.2, js: 1 })).toBe('agree');
    expect(v('C8-online', { online: 0, jOnline: 0.19, js: 1 })).toBe('partly');
    expect(v('C8-online', { online: 0.01, jOnline: 0.01, js: 1 })).toBe('disagree');
    expect(v('C11', { j64: 0.1, j32: 0.1049, js: 0.51 })).toBe('agree');
    expect(v('C11', { j64: 0.1, j32: 0.1051, js: 0.51 })).toBe('partly');
    expect(v('C11', { j64: 0.1, j32: 0.2, js: 0.5 })).toBe('disagree');
  });
  it('C9 and C10, decided in the training lab', () => {
    expect(c10Verdict(9)).toBe('agree');
    expect(c10Verdict(10)).toBe('disagree');
    expect(c10Verdict(null)).toBe('disagree');
    expect(c9Verdict([{ finite: true, accuracy: 0.9 }], 0.92)).toBe('agree');
    expect(c9Verdict([{ finite: true, accuracy: 0.8999 }], 0.92)).toBe('disagree');
    expect(c9Verdict([{ finite: false, accuracy: 1 }], null)).toBe('disagree');
    expect(c9Verdict([{ finite: true, accuracy: 0.5 }], null)).toBe('agree');
  });
  it('C9 and C10 are not decided on the page; every other claim names its requests', () => {
    const s = defaultState('en');
    for (const id of CLAIM_IDS) {
      const d = CLAIMS[id];
      const at = { ...s, ...d.patch(3) };
      if (id === 'C9' || id === 'C10') { expect(d.verdict({}), id).toBeNull(); continue; }
      expect(d.requests(at).length, id).toBeGreaterThan(0);
      expect(at.exp, id).toBe(d.panel);
    }
  });
});

describe('zh-CN', () => {
  it('every drill and checker string has a Chinese translation that is not the English', () => {
    const keys = Object.keys(drillEn) as (keyof typeof drillEn)[];
    expect(keys.length).toBeGreaterThan(100);
    for (const k of keys) {
      expect(drillZh[k], k).toBeTypeOf('string');
      expect(drillZh[k].trim(), k).not.toBe('');
      if (/[a-z]{4}/i.test(drillEn[k].replace(/\{\w+\}|d_k|d_head|d_model|ln|log-n|YaRN|MQA|GQA|MHA|float\d+|randn|one-hot|softmax|Var|L_train|NaN|Jacobian/g, ''))) {
        expect(drillZh[k], k).not.toBe(drillEn[k]);
        expect(drillZh[k], k).toMatch(/[\u4e00-\u9fff]/);
      }
      // the same placeholders in both languages
      const ph = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(ph(drillZh[k]), k).toEqual(ph(drillEn[k]));
      // merged into the one catalogue
      expect((en as Record<string, string>)[k], k).toBe(drillEn[k]);
      expect((zhCN as Record<string, string>)[k], k).toBe(drillZh[k]);
    }
  });
  it('every question, option and claim row has its strings', () => {
    for (const q of QUESTIONS) {
      for (const k of [`drill.q.${q.id}`, `drill.why.${q.id}`, `drill.qname.${q.id}`]) expect(k in drillEn, k).toBe(true);
      if (q.kind === 'choice') for (let i = 0; i < q.options; i++) expect(`drill.o.${q.id}.${i}` in drillEn).toBe(true);
    }
    for (const id of CLAIM_IDS) for (const f of ['claim', 'article', 'live', 'rule']) expect(`chk.${id}.${f}` in drillEn, `${id}.${f}`).toBe(true);
  });
});
