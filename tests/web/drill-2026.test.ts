// The drill's questions on attention as 2026 models compute it (issue 27: the LSE merge, d_v ≠ d_k, QK-Clip, attention
// that does not sum to one, ALiBi), answered by the real core through the worker's handler with the request their
// "show me" link sends: the right answers and the numbers of their explanations.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core } from '../../wasm/js/core.js';
import { QUESTIONS_BY_ID, questionState, scoreNumber } from '../../web/src/interview/questions.ts';
import type { Question } from '../../web/src/interview/questions.ts';
import { run } from '../../web/src/worker/handler.ts';
import { defaultState } from '../../web/src/state/state.ts';
import { splitKvParams, alibiParams } from '../../web/src/requests/longctx.ts';
import { translator } from '../../web/src/i18n/messages.ts';
import type { MessageKey } from '../../web/src/i18n/messages.ts';

let core: Core;
beforeAll(async () => { core = await loadCore({}); });

/** The question at a seed whose parameters are `want` (the seeds are searched in order), its state, request and live result. */
function live(q: Question, want: Record<string, number>) {
  for (let seed = 0; seed < 500; seed++) {
    const p = q.params(seed);
    if (!Object.entries(want).every(([k, v]) => p[k] === v)) continue;
    const { state, request } = questionState(defaultState('en'), q, seed);
    const res = run(core, { id: 1, kind: request.kind, params: request.params } as never);
    if (!res.ok) throw new Error(`${q.id}: ${JSON.stringify(res)}`);
    return { seed, p, state, request, r: (res as { result: unknown }).result };
  }
  throw new Error(`${q.id}: no seed below 500 gives ${JSON.stringify(want)}`);
}

describe('drill questions of 2026 attention', () => {
  it('lse2: a base-2 LSE read as nats is visibly off (option 2); converted, the merge is rounding', () => {
    const q = QUESTIONS_BY_ID.lse2;
    const { state, request, r, p } = live(q, { L: 256, dk: 64 });
    expect(state.exp).toBe('longctx');
    expect(request).toEqual({ worker: 'live', kind: 'splitKv', params: splitKvParams(state) });
    expect(q.kind === 'choice' && q.correct(r, p)).toBe(2);
    const f = q.facts(r, p);
    expect(f.base2).toBeGreaterThan(0.02);
    expect(f.nats).toBeLessThan(2e-6);
  });

  it('dvscale: 1/√d_k from the core (0.0721688 at 192/128); 1/√d_v scores nothing', () => {
    const q = QUESTIONS_BY_ID.dvscale;
    for (const [dk, dv] of [[192, 128], [128, 64], [256, 128], [96, 64]]) {
      const { r, p, state } = live(q, { dk, dv });
      expect(state.gdk).toBe(dk);
      expect(state.gdv).toBe(dv);
      if (q.kind !== 'number') throw new Error('dvscale is numeric');
      const answer = q.answer(r, p);
      expect(answer).toBe(1 / Math.sqrt(dk));
      expect(scoreNumber(1 / Math.sqrt(dk), answer, q.rule)).toBe(1);
      expect(scoreNumber(1 / Math.sqrt(dv), answer, q.rule), `${dk}/${dv}`).toBe(0);
      const f = q.facts(r, p);
      expect(f.entWrong).toBeLessThan(f.ent);
    }
    expect(live(q, { dk: 192, dv: 128 }).r).toMatchObject({ scale: 1 / Math.sqrt(192) });
    expect(1 / Math.sqrt(192)).toBeCloseTo(0.0721688, 7);
  });

  it('qkclip: q × 30 or 50 runs past τ and the head lands exactly on τ (option 0); q × 5 is not clipped (option 2)', () => {
    const q = QUESTIONS_BY_ID.qkclip;
    if (q.kind !== 'choice') throw new Error('qkclip is a choice');
    for (const tau of [50, 100]) {
      for (const gain of [30, 50]) {
        const { r, p } = live(q, { gain, tau });
        const f = q.facts(r, p);
        expect(f.before, `${gain}/${tau}`).toBeGreaterThan(tau);
        expect(f.eta).toBeCloseTo(tau / f.before, 12);
        expect(f.after).toBeCloseTo(tau, 3);
        expect(q.correct(r, p)).toBe(0);
      }
      const { r, p } = live(q, { gain: 5, tau });
      const f = q.facts(r, p);
      expect(f.before).toBeLessThan(tau);
      expect(f.eta).toBe(1);
      expect(f.after).toBe(f.before);
      expect(q.correct(r, p)).toBe(2);
    }
  });

  it('sigsum: sigmoid with bias −ln n on zero logits sums to n/(n + 1) (0.8 at n = 4, 0.99225 at n = 128), option 1', () => {
    const q = QUESTIONS_BY_ID.sigsum;
    if (q.kind !== 'choice') throw new Error('sigsum is a choice');
    for (const n of [4, 8, 32, 128]) {
      const { r, p } = live(q, { n });
      const f = q.facts(r, p);
      expect(f.sum).toBeCloseTo(n / (n + 1), 6);
      expect(q.correct(r, p)).toBe(1);
    }
    expect(q.facts(live(q, { n: 4 }).r, { n: 4 }).sum).toBeCloseTo(0.8, 6);
    expect(q.facts(live(q, { n: 128 }).r, { n: 128 }).sum).toBeCloseTo(0.99225, 5);
  });

  it('alibi: heads 1 and 2 stay flat from L = 64 to 1024 (option 1), head 8 keeps growing (option 0)', () => {
    const q = QUESTIONS_BY_ID.alibi;
    if (q.kind !== 'choice') throw new Error('alibi is a choice');
    const one = live(q, { head: 1, dk: 64 });
    expect(one.state.lalibi).toBe(true);
    expect(one.request).toEqual({ worker: 'sweep', kind: 'alibiEntropy', params: alibiParams(one.state) });
    expect(q.correct(one.r, one.p)).toBe(1);
    const f1 = q.facts(one.r, one.p);
    expect(f1.m).toBe(0.5);
    expect(Math.abs(f1.share)).toBeLessThan(0.1);
    expect(f1.plain1024 - f1.plain64).toBeGreaterThan(0.8 * Math.log(16));
    for (const dk of [32]) {
      const two = live(q, { head: 2, dk });
      expect(q.correct(two.r, two.p), `head 2, d_k ${dk}`).toBe(1);
      const eight = live(q, { head: 8, dk });
      expect(q.correct(eight.r, eight.p), `head 8, d_k ${dk}`).toBe(0);
      expect(q.facts(eight.r, eight.p).share).toBeGreaterThan(0.5);
    }
  }, 60_000);

  it('every new question, option and explanation has both languages, all placeholders filled', () => {
    for (const id of ['lse2', 'dvscale', 'qkclip', 'sigsum', 'alibi'] as const) {
      const q = QUESTIONS_BY_ID[id];
      const keys = [`drill.qname.${id}`, `drill.q.${id}`, `drill.why.${id}`, ...(q.kind === 'choice' ? Array.from({ length: q.options }, (_, i) => `drill.o.${id}.${i}`) : [])];
      const vars = { ...Object.fromEntries(Object.keys(q.params(0)).map((k) => [k, '1'])), answer: '1' } as Record<string, string>;
      const facts = ['base2', 'nats', 'wrong', 'ent', 'entWrong', 'before', 'eta', 'after', 'clipped', 'sum', 'ratio', 'm', 'e64', 'e1024', 'plain64', 'plain1024', 'share', 'gain', 'tau'];
      for (const k of facts) vars[k] = '1';
      for (const lang of ['en', 'zh-CN'] as const) {
        const t = translator(lang);
        for (const k of keys) {
          const text = t(k as MessageKey, vars);
          expect(text, `${lang} ${k}`).not.toBe(k);
          expect(text, `${lang} ${k}`).not.toMatch(/\{[a-zA-Z0-9]+\}/);
        }
      }
    }
  });
});
