// The pure parts of the one-panel page: history entries, the keys an embed carries, the snippet,
// and the text alternative of a chart.
import { describe, it, expect } from 'vitest';
import { defaultState, parseHash, panelKeys, embedHash, withPatch } from '../../web/src/state/state.ts';
import { historyAction } from '../../web/src/state/url.ts';
import { embedSnippet, fallbackHeight, fitCss, heightAt } from '../../web/src/embed/snippet.ts';
import { EMBED_FIT } from '../../web/src/embed/heights.ts';
import { chartSummary } from '../../web/src/charts/summary.ts';
import { translator } from '../../web/src/i18n/messages.ts';
import { PANELS, SCHEMA } from '../../web/src/state/schema.js';
import { CORE_VERSION } from '../../wasm/js/version.js';

const t = translator('en');

describe('history', () => {
  it('a change of panel pushes an entry; a control, a language or an embed replaces it', () => {
    const s = defaultState('en');
    expect(historyAction(s, { ...s, exp: 'gqa' })).toBe('push');
    expect(historyAction(s, { ...s, dk: 512 })).toBe('replace');
    expect(historyAction(s, { ...s, lang: 'zh-CN' })).toBe('replace');
    expect(historyAction({ ...s, embed: true }, { ...s, embed: true, exp: 'gqa' })).toBe('replace');
  });
});

describe('embed links', () => {
  it('every panel reads at least one key of its own, and every key but the page-wide ones belongs to a panel', () => {
    for (const p of PANELS.filter((x) => x !== 'followups' && x !== 'device')) expect(panelKeys(p).length, p).toBeGreaterThan(0);
    const owned = new Set(PANELS.flatMap((p) => panelKeys(p)));
    const pageWide = Object.entries(SCHEMA).filter(([, v]) => v.panels === 'all' || v.panels === 'embed').map(([k]) => k);
    expect(Object.keys(SCHEMA).filter((k) => !owned.has(k as never) && !pageWide.includes(k))).toEqual([]);
  });

  it('carries only the keys its panel reads, and reproduces the panel’s state', () => {
    const s = withPatch(defaultState('en'), { exp: 'saturation', dk: 256, seed: 9, heads: 6, hq: 12, trsteps: 40, aseed: 5 });
    const hash = embedHash(s);
    expect(hash).toBe(`#v=1&exp=saturation&lang=en&dk=256&seed=9&heads=6&seqLen=128&scale=inv_sqrt_dk&causal=0&salibi=0&softcap=0&sscale=0&sink=-inf&cv=${CORE_VERSION}&embed=1`);
    const back = parseHash(hash, 'en');
    expect(back.issues).toEqual([]);
    for (const k of panelKeys('saturation')) expect(back.state[k], k).toEqual(s[k]);
    expect(back.state.embed).toBe(true);
  });

  it('names kernel, theme and show only where they differ from the defaults, and always the language and the core version', () => {
    const s = { ...defaultState('en'), exp: 'article' as const, lang: 'zh-CN' as const, kernel: 'scalar' as const, theme: 'dark' as const, show: ['charts' as const] };
    expect(embedHash(s)).toBe(`#v=1&exp=article&lang=zh-CN&theme=dark&kernel=scalar&aseed=0&cv=${CORE_VERSION}&embed=1&show=charts`);
  });

  it('the snippet: an iframe in an inline-size container, its fallback height a function of its width, and the site’s embed script', () => {
    const s = { ...defaultState('en'), exp: 'variance' as const, show: ['charts' as const] };
    const code = embedSnippet(s, 'https://example.org/lab/index.html', '√dk Lab — Variance law');
    const h720 = Math.ceil(heightAt(EMBED_FIT.en.variance.charts, 720));
    expect(code).toBe(`<div style="container-type:inline-size"><iframe src="https://example.org/lab/index.html#v=1&amp;exp=variance&amp;lang=en&amp;dk=64&amp;samples=2000&amp;seed=1&amp;cv=${CORE_VERSION}&amp;embed=1&amp;show=charts" title="√dk Lab — Variance law" width="100%" height="${h720}" style="border:0;width:100%;height:${fitCss(EMBED_FIT.en.variance.charts)}" loading="lazy" data-sqrtdk-embed></iframe></div>\n`
      + '<script src="https://example.org/lab/embed.js" async></script>');
    expect(fallbackHeight({ ...s, show: ['charts', 'text'] })).toBe(Math.ceil(heightAt(EMBED_FIT.en.variance.all, 720)));
    expect(embedSnippet({ ...s, exp: 'gqa' }, 'http://x/"><script>', 'a"b')).not.toMatch(/"><script>/);
  });

  it('the fallback CSS is the interpolation of the measured points, steps included', () => {
    const pts = [[300, 2000], [639, 1500], [641, 900], [720, 850], [1200, 700]] as const;
    const css = fitCss(pts);
    // evaluate the CSS expression at a width (100cqw = w px) as a browser does
    const at = (w: number) => Function(`return ${css.replace(/calc/g, '').replace(/(-?[\d.]+)cqw/g, (_, x) => `(${x}*${w}/100)`).replace(/px/g, '').replace(/max\(/g, 'Math.max(').replace(/min\(/g, 'Math.min(')}`)() as number;
    for (const w of [250, 300, 358, 480, 600, 639, 641, 700, 720, 900, 1200, 1600]) expect(at(w), String(w)).toBeCloseTo(heightAt(pts, w), 0);
    expect(at(640.5)).toBeLessThanOrEqual(1500);
    // a height that grows with the width is lifted, so no width cuts the frame
    expect(Function(`return ${fitCss([[300, 500], [720, 600]]).replace(/calc/g, '').replace(/(-?[\d.]+)cqw/g, (_, x) => `(${x}*300/100)`).replace(/px/g, '').replace(/max\(/g, 'Math.max(').replace(/min\(/g, 'Math.min(')}`)()).toBeGreaterThanOrEqual(600);
  });
});

describe('short panel links (PNG footers)', () => {
  it('carry the panel’s keys, the core version and a non-default language only', async () => {
    const { panelHash } = await import('../../web/src/state/state.ts');
    const s = withPatch(defaultState('en'), { exp: 'gradient', dk: 512, gap: 10, hq: 12 });
    expect(panelHash(s)).toBe(`#v=1&exp=gradient&dk=512&seed=1&heads=4&seqLen=128&scale=inv_sqrt_dk&gq=jac&gap=10&cv=${CORE_VERSION}`);
    expect(panelHash({ ...s, lang: 'zh-CN' })).toMatch(/^#v=1&exp=gradient&lang=zh-CN&/);
    const back = parseHash(panelHash(s), 'en').state;
    for (const k of panelKeys('gradient')) expect(back[k], k).toEqual(s[k]);
  });
});

describe('chart text alternative', () => {
  it('one sentence per series of a long-form CSV, with its range', () => {
    const text = chartSummary({ header: ['series', 'd_k', 'variance'], rows: [['raw', 1, 1.02], ['raw', 64, 61.5], ['raw', 4096, 4100], ['theory', 64, 64]] }, t);
    expect(text).toBe('raw: 3 points, d_k 1 to 4096; variance from 1.02 to 4100 (min 1.02, max 4100). theory: d_k 64, variance 64.');
  });
  it('uses the words of the UI: the chart’s axis titles, in both languages (no field names such as jacFro)', () => {
    const csv = { header: ['series', 'd_k', 'jacFro'], rows: [['no scaling', 64, 0.01], ['no scaling', 512, 0.001]] };
    expect(chartSummary(csv, t, 6, { x: 'd_k', y: '‖J‖_F per row' })).toBe('no scaling: 2 points, d_k 64 to 512; ‖J‖_F per row from 0.01 to 0.001 (min 0.001, max 0.01).');
    const zh = translator('zh-CN');
    const text = chartSummary({ header: ['query_row', 'key', 'weight'], rows: [[0, 0, 0.5], [1, 1, 0.25]] }, zh);
    expect(text).toContain('注意力权重');
    expect(text).not.toMatch(/query_row|weight/);
  });
  it('a table: row count and each numeric column’s range; series past the limit are counted', () => {
    expect(chartSummary({ header: ['query_row', 'key', 'weight'], rows: [[0, 0, 0.5], [0, 1, 0.25], [1, 0, 1e-6]] }, t))
      .toBe('3 rows: query row 0 to 1; key 0 to 1; attention weight 1.000e-6 to 0.5.');
    const many = { header: ['series', 'x', 'y'], rows: Array.from({ length: 8 }, (_, i) => [`s${i}`, i, i] as (string | number)[]) };
    expect(chartSummary(many, t, 6)).toMatch(/And 2 more series \(see the data table\)\.$/);
    expect(chartSummary({ header: ['a'], rows: [] }, t)).toBe('No data yet.');
  });
});

import { logTick, pow2Ticks, pow10Label } from '../../web/src/charts/kit.ts';

describe('axis ticks: one number format per axis', () => {
  const ticks = (lo: number, hi: number) => Array.from({ length: hi - lo + 1 }, (_, i) => ({ value: 10 ** (lo + i) }));
  it('decimals while the axis stays within [0.001, 10⁴], powers of ten beyond; only powers of ten labelled', () => {
    const narrow = ticks(-3, 3);
    expect(narrow.map((x, i) => logTick(x.value, i, narrow))).toEqual(['0.001', '0.01', '0.1', '1', '10', '100', '1000']);
    const wide = ticks(-12, 0);
    expect(logTick(1e-12, 0, wide)).toBe('10⁻¹²');
    expect(logTick(1, 12, wide)).toBe('10⁰');
    expect(logTick(5, 0, narrow)).toBe('');
    expect(pow10Label(-30)).toBe('10⁻³⁰');
  });
  it('powers of two for d_k, every other one on a wide axis, never skipped', () => {
    const spec = pow2Ticks(1, 4096) as { afterBuildTicks: (a: { ticks: { value: number }[] }) => void; ticks: { callback: (v: number) => string; autoSkip: boolean } };
    const a = { ticks: [] as { value: number }[] };
    spec.afterBuildTicks(a);
    expect(a.ticks.map((x) => x.value)).toEqual([1, 4, 16, 64, 256, 1024, 4096]);
    expect(a.ticks.map((x) => spec.ticks.callback(x.value))).toEqual(['1', '4', '16', '64', '256', '1024', '4096']);
    expect(spec.ticks.autoSkip).toBe(false);
    const lc = pow2Ticks(64, 16384, 6) as typeof spec;
    lc.afterBuildTicks(a);
    expect(a.ticks.map((x) => x.value)).toEqual([64, 256, 1024, 4096, 16384]);
  });
});

import { CATALOGUES } from '../../web/src/i18n/messages.ts';

describe('Chinese wording (issue 18)', () => {
  it('one word for the core (核心) and one for the kernel (内核), each only where the English says so', () => {
    const en = CATALOGUES.en as Record<string, string>, zh = CATALOGUES['zh-CN'] as Record<string, string>;
    const bad: string[] = [];
    for (const k of Object.keys(en)) {
      const e = en[k].replace(/\{kernel\}/g, ''), z = zh[k] ?? '';
      if (/内核/.test(z) && !/\bkernels?\b/i.test(e)) bad.push(`${k}: 内核 for “${e.slice(0, 60)}”`);
      if (/核心/.test(z) && !/\bcore\b/i.test(e)) bad.push(`${k}: 核心 for “${e.slice(0, 60)}”`);
      if (/\bkernels?\b/i.test(e) && !/内核/.test(z)) bad.push(`${k}: “kernel” without 内核`);
    }
    expect(bad).toEqual([]);
    // a CPU core is neither
    expect(zh['dev.status.idle']).not.toMatch(/核心|内核/);
  });
});
