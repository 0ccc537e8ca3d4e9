// Where a refusal is shown (web/src/panels/refusal.ts): the parameter a core message names, mapped
// to the control of the panel that sets it. The messages come from the real core, through the
// worker's handler, for the requests the panels build (same parameter builders), with one
// parameter made bad, so a change of wording in the core that the page can no longer place fails here.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core } from '../../wasm/js/core.js';
import { run } from '../../web/src/worker/handler.ts';
import { namedParams, refusalSlot, slotOfMessage, PARAM_CONTROLS } from '../../web/src/panels/refusal.ts';
import { pointParams, variancePointParams, sweepParams, articleParams } from '../../web/src/requests/attention.ts';
import { precisionParams } from '../../web/src/requests/precision.ts';
import { longParams } from '../../web/src/requests/longctx.ts';
import { gqaStatsParams } from '../../web/src/requests/gqa.ts';
import { defaultState, STATE_KEYS } from '../../web/src/state/state.ts';
import type { Panel, StateKey } from '../../web/src/state/state.ts';

let core: Core;
beforeAll(async () => { core = await loadCore({ kernel: 'auto' }); });

/** The message the page receives for a request (the worker's error reply), or null if accepted. */
function refusal(kind: string, params: unknown): string {
  const r = run(core, { id: 1, kind, params });
  if (r.ok) throw new Error(`${kind} accepted ${JSON.stringify(params)}`);
  return r.error.message;
}
const all = () => true;

describe('namedParams', () => {
  it('finds whole identifiers in the order of their first mention', () => {
    expect(namedParams('attentionStats: headsKv = 3 does not divide heads = 8', ['heads', 'headsKv', 'dk'])).toEqual(['headsKv', 'heads']);
    expect(namedParams('too much work: seqLen = 8192 and heads = 64 (lower seqLen or heads)', ['heads', 'seqLen'])).toEqual(['seqLen', 'heads']);
  });
  it('an index names its list; a longer name is not a shorter one', () => {
    expect(namedParams('saturationSweep: scales[3] = 0 must be positive', ['scales', 'scale'])).toEqual(['scales']);
    expect(namedParams('longContext: seqLens is empty', ['seqLen'])).toEqual([]);
    expect(namedParams('scoreVariance: dks[2] = 0 is outside 1..16384', ['dk', 'dks'])).toEqual(['dks']);
    expect(namedParams('precisionLab: logits[1] = inf is not allowed', ['logits'])).toEqual(['logits']);
  });
  it('names nothing in a message without parameters', () => {
    expect(namedParams('attentionStats: this call would need 33848 MiB of memory', ['heads', 'seqLen', 'dk'])).toEqual([]);
  });
});

describe('refusalSlot', () => {
  it('the control just moved, when the refusal names it; else the first named control', () => {
    expect(refusalSlot('saturation', ['seqLen', 'heads', 'dk'], 'heads', all)).toBe('heads');
    expect(refusalSlot('saturation', ['seqLen', 'heads', 'dk'], 'seed', all)).toBe('seqLen');
    expect(refusalSlot('saturation', ['seqLen', 'heads', 'dk'], undefined, all)).toBe('seqLen');
  });
  it('stays where the same request\'s refusal stands while the reader moves a control it does not name', () => {
    expect(refusalSlot('saturation', ['seqLen', 'heads', 'dk'], 'scale', all, 'heads')).toBe('heads');
    expect(refusalSlot('saturation', ['seqLen', 'heads', 'dk'], 'seqLen', all, 'heads')).toBe('seqLen');
    // a slot the new refusal does not name is left
    expect(refusalSlot('saturation', ['seqLen', 'dk'], 'scale', all, 'heads')).toBe('seqLen');
    expect(refusalSlot('saturation', ['seqLen', 'dk'], 'scale', all, 'panel')).toBe('seqLen');
  });
  it('skips parameters whose control the panel does not show, and falls back to the panel slot', () => {
    // the gradient panel has no heads or seq_len control: its d_k slider
    expect(refusalSlot('gradient', ['seqLen', 'heads', 'dk'], undefined, all)).toBe('dk');
    // the precision lab's random-mode controls are hidden in logits mode
    expect(refusalSlot('precision', ['seqLen', 'blockSize'], 'pseqLen', (k) => k !== 'pseqLen')).toBe('pblock');
    // an embed without controls: every control hidden
    expect(refusalSlot('saturation', ['seqLen', 'heads'], 'heads', () => false)).toBe('panel');
    expect(refusalSlot('saturation', ['kernel'], 'dk', all)).toBe('panel');
    expect(refusalSlot('followups', ['dk'], undefined, all)).toBe('panel');
  });
  it('maps the core names to the panel keys (precision, long context, GQA)', () => {
    expect(refusalSlot('precision', ['rows'], undefined, all)).toBe('pseqLen');
    expect(refusalSlot('longctx', ['queries'], undefined, all)).toBe('ldk');
    expect(refusalSlot('gqa', ['headsKv', 'heads'], 'hq', all)).toBe('hq');
    expect(refusalSlot('gqa', ['headsKv', 'heads'], 'gdk', all)).toBe('hkv');
  });
  it('a name inherited from Object.prototype is no parameter', () => {
    expect(refusalSlot('saturation', ['constructor', 'toString'], undefined, all)).toBe('panel');
  });
  it('every mapped control is a state key', () => {
    for (const map of Object.values(PARAM_CONTROLS)) for (const k of Object.values(map!)) expect(STATE_KEYS).toContain(k);
  });
});

describe("the core's refusals of the panels' own requests land beside the control that sets the parameter", () => {
  const s = defaultState('en');
  const cases: [Panel, string, string, unknown, StateKey | undefined, StateKey | 'panel'][] = [
    ['saturation', 'seqLen', 'attentionStats', { ...pointParams(s), seqLen: 100000 }, 'seqLen', 'seqLen'],
    ['saturation', 'heads (source elsewhere)', 'attentionStats', { ...pointParams(s), heads: 0 }, 'seed', 'heads'],
    ['saturation', 'softcap', 'attentionStats', { ...pointParams(s), softcap: -1 }, 'softcap', 'softcap'],
    ['saturation', 'a sweep d_k', 'saturationSweep', { ...sweepParams(s), dks: [1, 0] }, undefined, 'dk'],
    // the memory refusal names heads, seqLen and dk: beside the one just moved
    ['saturation', 'memory (heads, seqLen, dk named; d_k moved)', 'attentionStats', { ...pointParams(s), heads: 64, seqLen: 8192, dk: 4096 }, 'dk', 'dk'],
    ['saturation', 'kernel (a page-level control)', 'attentionStats', { ...pointParams(s), kernel: 'gpu' }, 'dk', 'panel'],
    ['variance', 'samples', 'scoreVariance', { ...variancePointParams(s), samples: 1 }, undefined, 'samples'],
    ['variance', 'histogram d_k', 'scoreVariance', { ...variancePointParams(s), histDk: 0 }, 'seed', 'dk'],
    ['article', 'seed', 'saturationSweep', { ...articleParams(s), seed: -1 }, undefined, 'aseed'],
    ['precision', 'block size', 'precisionLab', { ...precisionParams(s), blockSize: 0 }, undefined, 'pblock'],
    ['precision', 'a logit', 'precisionLab', { ...precisionParams(s), logits: [1, Infinity] }, 'pblock', 'plogits'],
    ['precision', 'rows (from seq_len)', 'precisionLab', { ...precisionParams({ ...s, pmode: 'random' }), rows: 0 }, undefined, 'pseqLen'],
    ['longctx', 'training length', 'longContext', { ...longParams(s, 'logn'), trainLen: 1 }, undefined, 'ltrain'],
    ['longctx', 'queries (from d_k)', 'longContext', { ...longParams(s, 'logn'), queries: 0 }, undefined, 'ldk'],
    ['gqa', 'K/V heads', 'attentionStats', { ...gqaStatsParams(s, 'gqa', 64), heads: 8, headsKv: 3 }, undefined, 'hkv'],
    ['gqa', 'K/V heads, query heads just moved', 'attentionStats', { ...gqaStatsParams(s, 'gqa', 64), heads: 8, headsKv: 3 }, 'hq', 'hq'],
    ['gqa', 'grouped logits d_head', 'groupedLogits', { heads: 8, headsKv: 8, seqLen: 32, dk: 0, seed: 0 }, undefined, 'gdk'],
  ];
  const training = (cfg: Record<string, unknown>): string => {
    try { core.createTrainingRun(cfg).dispose(); } catch (e) { return (e as Error).message; }
    throw new Error(`createTrainingRun accepted ${JSON.stringify(cfg)}`);
  };
  it('training: the context length → trlen; d_model and heads → the one just moved', () => {
    expect(slotOfMessage('training', training({ seqLen: 99 }), undefined, all)).toBe('trlen');
    const msg = training({ dModel: 64, heads: 3 });
    expect(slotOfMessage('training', msg, 'trheads', all), msg).toBe('trheads');
    expect(slotOfMessage('training', msg, undefined, all), msg).toBe('trdm');
    // the message names warmup only: beside it, whatever moved
    expect(slotOfMessage('training', training({ warmup: 300, steps: 200 }), 'trsteps', all)).toBe('trwarm');
  });
  it('training: a memory refusal names the sizes; the first is d_model', () => {
    const msg = training({ dModel: 512, mlp: 2048, layers: 6, seqLen: 64, vocab: 256, batch: 256 });
    expect(msg).toMatch(/MiB/);
    expect(slotOfMessage('training', msg, undefined, all), msg).toBe('trdm');
    expect(slotOfMessage('training', msg, 'trlayers', all), msg).toBe('trlayers');
  });
  for (const [panel, what, kind, params, source, expected] of cases) {
    it(`${panel}: ${what} → ${expected}`, () => {
      const msg = refusal(kind, params);
      expect(slotOfMessage(panel, msg, source, all), msg).toBe(expected);
    });
  }
});
