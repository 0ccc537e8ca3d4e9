// "Does attention have to sum to one?" from the real core: the sources' closed forms through the view's own requests (n/(n + 1) at all-zero logits, 1.4366 for [2, 1, 0]), its key figures and charts, and QK-Clip's η per KV group (τ / the group's largest logit).
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core, NormalisersResult } from '../../wasm/js/core.js';
import { defaultState } from '../../web/src/state/state.ts';
import type { State } from '../../web/src/state/state.ts';
import { translator } from '../../web/src/i18n/messages.ts';
import { normalisersParams, normalisersRowParams, qkClipParams, qkClipHeadsKv, CHECK_ROWS } from '../../web/src/requests/normalisers.ts';
import { normaliserFigures, normaliserCheckFigures, qkClipFigures, figure } from '../../web/src/requests/key-figures.ts';
import { buildNormalisers, buildQkClip, NORMALISER_NAMES } from '../../web/src/charts/normalisers.ts';

const en = translator('en');
const zh = translator('zh-CN');
const at = (over: Partial<State> = {}): State => ({ ...defaultState('en'), exp: 'sumone', ...over });
const sumOf = (r: NormalisersResult, name: string) => r.rows.find((x) => x.name === name)!.rowSum!;

describe('does attention have to sum to one?', () => {
  let core: Core;
  beforeAll(async () => { core = await loadCore({ kernel: 'auto' }); });

  it('the closed-form rows: zeros over n keys give n/(n + 1) for sigmoid (b = −ln n) and off-by-one; [2, 1, 0] gives 1.4366', () => {
    const rows = Object.fromEntries(CHECK_ROWS.map((row) => [row.id, core.normalisers(normalisersRowParams(at(), row.logits))]));
    for (const [id, n] of [['zero4', 4], ['zero128', 128]] as const) {
      expect(sumOf(rows[id], 'sigmoid')).toBeCloseTo(n / (n + 1), 6);
      expect(sumOf(rows[id], 'offByOne')).toBeCloseTo(n / (n + 1), 6);
      expect(sumOf(rows[id], 'softmax')).toBeCloseTo(1, 6);
    }
    expect(sumOf(rows.zero4, 'sigmoid')).toBeCloseTo(0.8, 6);
    expect(sumOf(rows.zero128, 'offByOne')).toBeCloseTo(0.99225, 5);
    const exact = 1 / (1 + 3 * Math.exp(-2)) + 1 / (1 + 3 * Math.exp(-1)) + 0.25;
    expect(sumOf(rows.two10, 'sigmoid')).toBeCloseTo(exact, 6);
    expect(exact).toBeCloseTo(1.4366, 4);
    // the view prints them with six decimals
    expect(figure(normaliserCheckFigures('zero128', rows.zero128, en), 'sum-check-zero128-sigmoid').value).toBe('0.992248');
    expect(figure(normaliserCheckFigures('zero4', rows.zero4, en), 'sum-check-zero4-offByOne').value).toBe('0.800000');
    expect(figure(normaliserCheckFigures('two10', rows.two10, en), 'sum-check-two10-sigmoid').value).toBe('1.436601');
  });

  it('the drawn rows: each figure is its field; the differential sums to 1 − λ and its entropy is over the rows without a negative weight', () => {
    const s = at({ nlambda: 0.5, seed: 3 });
    const r = core.normalisers(normalisersParams(s));
    expect(r.rows.map((x) => x.name)).toEqual(NORMALISER_NAMES);
    const diff = r.rows.find((x) => x.name === 'differential')!;
    expect(diff.rowSum).toBeCloseTo(0.5, 5);
    expect(diff.negativeShare).toBeGreaterThan(0);
    expect(diff.entropyRows).toBeLessThan(diff.rows);
    const figs = normaliserFigures(r, en);
    expect(figure(figs, 'sum-sigmoid-rowSum').value).toBe(Number(sumOf(r, 'sigmoid').toPrecision(4)).toString());
    expect(figs[0].id).toBe('sum-sigmoid-rowSum');  // the poster's first number: a row that need not sum to one
    const spec = buildNormalisers(r, en);
    expect(spec.points).toBe(12);
    expect(spec.csv.rows).toHaveLength(6);
    expect(buildNormalisers(r, zh).config.data.labels).toContain('差分 p₁ − λp₂');
  });

  it('QK-Clip at the view’s default: η per KV group is τ over the group’s largest logit, and the group’s largest head lands on τ', () => {
    const s = at();
    const p = qkClipParams(s);
    expect(p.headsKv).toBe(qkClipHeadsKv(s));
    const r = core.qkClip(p);
    const per = 8 / r.groups;
    expect(r.clippedHeads).toBeGreaterThan(0);
    for (let g = 0; g < r.groups; g++) {
      const heads = Array.from({ length: per }, (_, i) => g * per + i);
      const m = Math.max(...heads.map((h) => r.maxLogit[h]));
      expect(r.groupMaxLogit[g]).toBe(m);
      for (const h of heads) expect(r.gamma[h]).toBeCloseTo(Math.min(1, s.qctau / m), 6);
      if (m > s.qctau) expect(Math.max(...heads.map((h) => r.clippedMax[h]))).toBeCloseTo(s.qctau, 2);
    }
    expect(figure(qkClipFigures(r, en), 'qc-clipped').value).toBe(`${r.clippedHeads} / 8`);
    expect(buildQkClip(r, en).points).toBe(16);
    // a key-head count that does not divide 8 is read as the nearest smaller divisor
    expect(qkClipHeadsKv(at({ qchkv: 3 }))).toBe(2);
  });
});
