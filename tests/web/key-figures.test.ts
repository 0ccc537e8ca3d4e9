// The key figures of the views (web/src/requests/key-figures.ts) from the real core: each value is
// the result's field as the page prints it, read here independently of the module, and the poster's
// numbers (share/poster.ts) are the view's key figures, its chosen ones first.
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core, AttentionStatsResult, ScoreVarianceResult, SaturationSweepResult } from '../../wasm/js/core.js';
import { defaultState } from '../../web/src/state/state.ts';
import type { Panel, State } from '../../web/src/state/state.ts';
import { translator } from '../../web/src/i18n/messages.ts';
import { saturationFigures, varianceFigures, articleFigures, sweepEntropyFigures, figure } from '../../web/src/requests/key-figures.ts';
import { saturationPointParams, variancePointParams, articleParams, sweepParams } from '../../web/src/requests/attention.ts';
import { posterNumbers } from '../../web/src/share/poster.ts';
import { renderFigure, figureData } from '../../web/src/share/figures.ts';

const en = translator('en');
const at = (over: Partial<State>): State => ({ ...defaultState('en'), ...over });

describe('key figures from the real core, at non-default links', () => {
  let core: Core;
  beforeAll(async () => { core = await loadCore({ kernel: 'auto' }); });

  it('saturation at d_k 256, 1/d_k, seed 3: each readout is its field of the attentionStats point; the poster takes entropy, max weight, share', () => {
    const s = at({ exp: 'saturation', dk: 256, scale: 'inv_dk', seed: 3 });
    const r = core.attentionStats(saturationPointParams(s)) as AttentionStatsResult;
    const figs = saturationFigures(r, en);
    expect(figure(figs, 'sat-entropy').value).toBe(Number(r.summary.entropy.mean.toPrecision(4)).toString());
    expect(figure(figs, 'sat-maxw').value).toBe(Number(r.summary.maxWeight.mean.toPrecision(4)).toString());
    expect(figure(figs, 'sat-lnL').value).toBe(Math.log(s.seqLen).toPrecision(4));
    expect(figure(figs, 'sat-sink').value).toBe('0');
    expect(posterNumbers(figs, 'saturation').map((n) => n.id)).toEqual(['sat-entropy', 'sat-maxw', 'sat-share']);
    expect(posterNumbers(figs, 'saturation')[0].label).toBe(en('sat.ro.entropy'));
  });

  it('variance at d_k 128, seed 2: Var(q·k) near d_k, std its root, the scaled variance near 1', () => {
    const s = at({ exp: 'variance', dk: 128, seed: 2 });
    const row = (core.scoreVariance(variancePointParams(s)) as ScoreVarianceResult).rows[0];
    const figs = varianceFigures(row, en);
    const v = Number(figure(figs, 'var-var').value), sd = Number(figure(figs, 'var-std').value);
    expect(v).toBeGreaterThan(100);
    expect(v).toBeLessThan(160);
    expect(Math.abs(sd * sd - v) / v).toBeLessThan(2e-3);
    expect(Math.abs(Number(figure(figs, 'var-sqrt').value) - v / 128)).toBeLessThan(2e-3 * v / 128 + 1e-4);
    expect(posterNumbers(figs, 'variance').map((n) => n.value)).toEqual(figs.slice(0, 3).map((f) => f.value));
  });

  it('the article at seed 5: the table\'s entropies first, the card\'s numbers are the same figures', async () => {
    const s = at({ exp: 'article', aseed: 5 });
    const sw = core.saturationSweep(articleParams(s)) as SaturationSweepResult;
    const figs = articleFigures(sw, en);
    expect(figs.slice(0, 3).map((f) => f.id)).toEqual(['art-entropy-none', 'art-entropy-inv_sqrt_dk', 'art-entropy-inv_dk']);
    // unscaled rows at d_k = 512 are near one-hot; 1/√d_k keeps them near ln 128
    expect(Number(figs[0].value)).toBeLessThan(0.5);
    expect(Number(figs[1].value)).toBeGreaterThan(4);
    const card = renderFigure('article', await figureData('article', core, s, () => new ArrayBuffer(0)), s, en);
    expect(card.numbers[0].value).toBe(`${figs[1].value} (ln 128 = ${Math.log(128).toPrecision(4)})`);
    expect(card.numbers[1].value).toBe(figs[0].value);
  });

  it('the saturation card quotes the sweep\'s figures at the state\'s d_k', async () => {
    const s = at({ exp: 'saturation', dk: 128 });
    const sw = core.saturationSweep(sweepParams(s)) as SaturationSweepResult;
    const figs = sweepEntropyFigures(sw, sweepParams(s).dks, 128, en);
    const card = renderFigure('saturation', await figureData('saturation' as Panel, core, s, () => new ArrayBuffer(0)), s, en);
    expect(card.numbers).toEqual(figs.map(({ label, value }) => ({ label, value })));
  });
});
