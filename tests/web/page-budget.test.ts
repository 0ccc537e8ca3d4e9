// The core's work budget (LIMITS.workSeconds, issue 12) against the page: every request the page
// sends within its own limits (web/src/compute.ts and the schema's ranges) at the default kernel
// is accepted, at the default state and at the sliders' extremes. Each state's requests are run
// through the worker's handler, as the page's worker runs them.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core } from '../../wasm/js/core.js';
import { run } from '../../web/src/worker/handler.ts';
import type { Request } from '../../web/src/worker/protocol.ts';
import { parseHash } from '../../web/src/state/state.ts';
import type { State } from '../../web/src/state/state.ts';
import { varianceSweepParams, variancePointParams, sweepParams, pointParams, articleParams, pointTooBig, logitRuleParams } from '../../web/src/requests/attention.ts';
import { precisionParams } from '../../web/src/requests/precision.ts';
import { longRequest, PANEL_METHODS } from '../../web/src/requests/longctx.ts';
import { gqaStatsParams } from '../../web/src/requests/gqa.ts';
import { LAYOUTS } from '../../web/src/requests/results.ts';
import { wildModelParams, wildReferenceParams } from '../../web/src/requests/wild.ts';

let core: Core;
beforeAll(async () => { core = await loadCore({ kernel: 'auto' }); });

type Call = { kind: Request['kind']; params: unknown };
function requestsOf(s: State): Call[] {
  switch (s.exp) {
    case 'variance':
      return [{ kind: 'scoreVariance', params: varianceSweepParams(s) }, { kind: 'scoreVariance', params: variancePointParams(s) }];
    case 'saturation': {
      const rule = logitRuleParams(s);
      const calls: Call[] = [{ kind: 'saturationSweep', params: { ...sweepParams(s), ...rule } }];
      if (pointTooBig(s) === null) {
        calls.push({ kind: 'attentionStats', params: { ...pointParams(s), ...rule, gradients: false } });  // saturation panel
        calls.push({ kind: 'attentionStats', params: pointParams(s) });                                   // gradient panel
      }
      return calls;
    }
    case 'article':
      return [{ kind: 'saturationSweep', params: articleParams(s) }];
    case 'precision':
      return [{ kind: 'precisionLab', params: precisionParams(s) }];
    case 'longctx':
      return [{ kind: 'longContext', params: longRequest(s, PANEL_METHODS) }];  // its largest: every method at once (a d_k change)
    case 'gqa':
      return LAYOUTS.map((l) => ({ kind: 'attentionStats' as const, params: gqaStatsParams(s, l, s.gdk) }));
    default:
      throw new Error(`no requests for panel ${s.exp}`);
  }
}

const STATES = [
  '#v=1&exp=saturation',                                   // the page's default state
  '#v=1&exp=saturation&heads=16&seqLen=1024&dk=4096',      // largest sweep (its first d_k), point refused by the page
  '#v=1&exp=saturation&heads=1&seqLen=512&dk=4096',        // the largest point the page sends
  '#v=1&exp=saturation&heads=16&seqLen=1024&dk=1&causal=1', // largest sweep, causal
  '#v=1&exp=variance',
  '#v=1&exp=variance&samples=20000&dk=4096',               // largest variance sweep and histogram
  '#v=1&exp=article',
  '#v=1&exp=precision&pmode=random&pdk=4096&pseqLen=1024&pblock=1',
  '#v=1&exp=longctx&ldk=256&ltrain=64',
  '#v=1&exp=gqa&hq=64&hkv=1&gdk=256&kvl=256',
];

describe('the page\'s requests fit the core\'s work budget', () => {
  for (const hash of STATES) {
    it(hash, () => {
      const parsed = parseHash(hash, 'en');
      expect(parsed.issues).toEqual([]);
      requestsOf(parsed.state).forEach((c, i) => {
        const r = run(core, { id: i, kind: c.kind, params: c.params } as Request);
        expect(r.ok ? 'ok' : `${r.error.name}: ${r.error.message}`).toBe('ok');
      });
    }, 60000);
  }
});

// "Scales in the wild" at its default L = 4096: every catalogue row's two requests (its own scale, with
// Gemma 2's and Grok-1's soft-caps, and 1/√d_head) fit the budget with either kernel. The entropy-only
// requests (spectral false) are not charged for the soft-capped Lanczos solve they do not run.
describe('Scales in the wild fits the budget at L = 4096', () => {
  for (const kernel of ['auto', 'scalar'] as const) {
    it(`every row, kernel ${kernel}`, () => {
      const parsed = parseHash(`#v=1&exp=wild&kernel=${kernel}`, 'en');
      expect(parsed.issues).toEqual([]);
      const s = parsed.state;
      expect(s.wlen).toBe(4096);
      const models = core.modelScales();
      expect(models.filter((m) => (m.softcap ?? 0) > 0).length).toBeGreaterThanOrEqual(2);
      for (const m of models) {
        for (const p of [wildModelParams(s, m), wildReferenceParams(s, m.dHead)]) {
          const est = core.cost('attentionStats', p);
          expect(est.fits ? 'fits' : `${m.model}: ${est.seconds.toFixed(1)} s`).toBe('fits');
        }
      }
    });
  }
  it('a soft-capped row runs at L = 4096 (Grok-1: cap 30)', () => {
    const s = parseHash('#v=1&exp=wild', 'en').state;
    const grok = core.modelScales().find((m) => m.model.startsWith('Grok-1'))!;
    const r = run(core, { id: 0, kind: 'attentionStats', params: wildModelParams(s, grok) } as Request);
    expect(r.ok ? 'ok' : `${r.error.name}: ${r.error.message}`).toBe('ok');
  }, 60000);
});
