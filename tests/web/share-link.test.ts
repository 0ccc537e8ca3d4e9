// Copy link's short link (issue 18): only the keys the view shown reads that differ from their
// defaults, plus v, exp and cv, and lang only when the reader chose one. Over every view and a
// sample of states, parse(short) gives the view exactly the requests parse(full) gives.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { defaultState, parseHash, toHash, shareHash, panelKeys, formatValue, STATE_KEYS } from '../../web/src/state/state.ts';
import type { State, StateKey } from '../../web/src/state/state.ts';
import { PANELS, SCHEMA } from '../../web/src/state/schema.js';
import type { KeySpec } from '../../web/src/state/schema.js';
import { sweepParams, pointParams, logitRuleParams, varianceSweepParams, variancePointParams, articleParams } from '../../web/src/requests/attention.ts';
import { precisionKey } from '../../web/src/requests/precision.ts';
import { longParams, METHODS } from '../../web/src/requests/longctx.ts';
import { gqaStatsParams } from '../../web/src/requests/gqa.ts';
import { liveRequests, trainingRequest } from '../../web/src/interview/live.ts';
import { claimState } from '../../web/src/panels/checker.ts';
import { CLAIMS, CLAIM_IDS } from '../../web/src/claims.ts';
import { trainingConfigs } from '../../web/src/training/config.ts';
import { CORE_VERSION } from '../../wasm/js/version.js';

/** What each view asks the core for in a state (the same request builders the panels call). */
function viewRequests(s: State): unknown {
  const page = { exp: s.exp, kernel: s.kernel, theme: s.theme, cv: s.cv };
  switch (s.exp) {
    case 'variance': return [page, varianceSweepParams(s), variancePointParams(s)];
    case 'saturation': return [page, { ...sweepParams(s), ...logitRuleParams(s) }, { ...pointParams(s), ...logitRuleParams(s) }];
    case 'gradient': return [page, sweepParams(s), pointParams(s), [s.gap, 0], s.gq];
    case 'article': return [page, articleParams(s)];
    // the request's key (its q/k tensors, up to 8192 × 4096 numbers, are built from the fields it names)
    case 'precision': return [page, precisionKey(s)];
    case 'longctx': return [page, METHODS.map((m) => longParams(s, m))];
    case 'gqa': return [page, (['mha', 'gqa', 'mqa'] as const).map((l) => gqaStatsParams(s, l, s.gdk)), [s.kvl, s.kvctx, s.kvdt]];
    case 'tensors': return [page, s.tex, s.tscale];
    case 'training': return [page, trainingConfigs(s), s.trthr, s.trauto];
    case 'interview': return [page, liveRequests(s), trainingRequest(s).configs, s.dq, s.dseed,
      CLAIM_IDS.map((id) => CLAIMS[id].requests(claimState(s, id, s.cseed)).map((r) => r.params))];
    default: return [page];
  }
}

/** A state with random values of every key (within the schema), for one view. */
const arbState = (exp: State['exp']) => fc.record(Object.fromEntries(STATE_KEYS.filter((k) => !['exp', 'cv', 'embed', 'show', 'lang'].includes(k)).map((k) => {
  const spec = SCHEMA[k] as KeySpec;
  const pick = (): fc.Arbitrary<unknown> => {
    switch (spec.type) {
      case 'int': return fc.oneof(fc.constant(spec.default), fc.integer({ min: spec.min, max: Math.min(spec.max, spec.min + 5000) }));
      case 'num': return fc.oneof(fc.constant(spec.default), fc.integer({ min: 0, max: 50 }).map((i) => Number(Math.min(spec.max, spec.min + i * spec.step * 7).toFixed(6))));
      case 'enum': return fc.constantFrom(...spec.values);
      case 'bool': return fc.boolean();
      case 'list': return fc.subarray([...spec.values], { minLength: 1 });
      case 'nums': return fc.oneof(fc.constant([...spec.default]), fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 6 }));
      default: return fc.constant(spec.default);
    }
  };
  return [k, pick()];
}))).map((patch) => ({ ...defaultState('en'), ...(patch as Partial<State>), exp }) as State);

describe('short links (Copy link)', () => {
  for (const exp of PANELS) {
    it(`${exp}: parse(short) gives the view the requests of parse(full), and the short link is a subset of the full one`, () => {
      fc.assert(fc.property(arbState(exp), fc.constantFrom('en', 'zh-CN'), fc.boolean(), (raw, lang, chosen) => {
        // the state as the page holds it: what its full hash parses to
        const s = parseHash(toHash({ ...raw, lang: lang as State['lang'] }), 'en').state;
        const full = parseHash(toHash(s), lang as State['lang']);
        const shortHash = shareHash(s, chosen);
        const short = parseHash(shortHash, lang as State['lang']);
        expect(short.issues).toEqual([]);
        expect(viewRequests(short.state)).toEqual(viewRequests(full.state));
        for (const k of panelKeys(exp)) expect(formatValue(k, short.state[k]), k).toBe(formatValue(k, full.state[k]));
        const fullParts = new Set(toHash(s).slice(1).split('&'));
        for (const part of shortHash.slice(1).split('&')) expect(fullParts.has(part), part).toBe(true);
      }), { numRuns: 60 });
    });
  }

  it('the defaults of a view give v, exp and cv only; lang only when chosen; theme and kernel when set', () => {
    const s = { ...defaultState('zh-CN'), exp: 'saturation' as const };
    expect(shareHash(s)).toBe(`#v=1&exp=saturation&cv=${CORE_VERSION}`);
    expect(shareHash(s, true)).toBe(`#v=1&exp=saturation&lang=zh-CN&cv=${CORE_VERSION}`);
    expect(shareHash({ ...s, dk: 512, trsteps: 40, aseed: 3, kernel: 'scalar', theme: 'dark' }))
      .toBe(`#v=1&exp=saturation&theme=dark&kernel=scalar&dk=512&cv=${CORE_VERSION}`);
  });

  it('is far shorter than the full state', () => {
    const s = { ...defaultState('en'), exp: 'training' as const, trsteps: 40, trseed: 3 };
    expect(toHash(s).length).toBeGreaterThan(500);
    expect(shareHash(s).length).toBeLessThan(60);
  });
});

void (null as unknown as StateKey);
