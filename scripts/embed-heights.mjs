// Measures the content height of every panel's embed at column widths from 300 to 1200 px (both
// sides of each layout breakpoint), with every part and with the charts only, in each language
// (Chinese text wraps to other heights than English: a zh-CN frame gets its own), and writes them to
// web/src/embed/heights.ts: the points of the snippet's fallback height (web/src/embed/snippet.ts),
// which fits the frame at any width without embed.js. One page per panel and part set, resized
// in place (the numbers are computed once); a run of the training lab and of the device panel is
// waited for, and their height before it (empty axes and tables with the plan) measured too.
// Usage: npm run build && node scripts/embed-heights.mjs [panel,…] [--lang=en|zh-CN] [--dry] (named
// panels, in the named language or both, are measured again; the others kept)
import { fileURLToPath } from 'node:url';
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { launch } from '../tests/e2e/browser.mjs';
import { serve } from '../tests/e2e/server.mjs';
import { panelSettled } from '../tests/e2e/panel.mjs';
import { PANELS as VIEWS } from '../web/src/state/schema.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const ALL = VIEWS;  // every view, from the one list of views
const LANGS = ['en', 'zh-CN'];
const named = process.argv.slice(2).find((a) => !a.startsWith('--'));
const PANELS = named ? named.split(',') : ALL;
const langArg = process.argv.find((a) => a.startsWith('--lang='))?.slice('--lang='.length);
if (langArg !== undefined && !LANGS.includes(langArg)) throw new Error(`--lang=${langArg}: not one of ${LANGS.join(', ')}`);
const MEASURED = langArg ? [langArg] : LANGS;
const file = `${root}web/src/embed/heights.ts`;
/** The points in the file now, by language and panel (kept for the panels and languages not measured). */
function current() {
  const o = Object.fromEntries(LANGS.map((l) => [l, {}]));
  if (!existsSync(file)) return o;
  const text = readFileSync(file, 'utf8');
  for (const lang of LANGS) {
    const block = new RegExp(`^ {2}'${lang}': \\{\\n([\\s\\S]*?)^ {2}\\},$`, 'm').exec(text)?.[1] ?? '';
    for (const m of block.matchAll(/^ {4}(\w+): \{\n {6}all: (\[.*\]),\n {6}charts: (\[.*\]),/gm)) o[lang][m[1]] = { all: JSON.parse(m[2]), charts: JSON.parse(m[3]) };
  }
  return o;
}
/** Column widths: the issue's 358, 480 and 720, and both sides of the embed's breakpoints (640, 680, 820, 900 px). */
export const WIDTHS = [300, 358, 420, 480, 560, 639, 641, 679, 681, 720, 819, 821, 899, 901, 1000, 1200];
/** Headroom over the measured height: 3 % and 12 px (fonts and longer text in Chinese). */
const fit = (h) => Math.ceil(h * 1.03 + 12);

/** [width, fitted content height] of the page at every width of WIDTHS (resized in place). */
async function measure(page) {
  const pts = [];
  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w, height: 16000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 120)))));
    pts.push([w, fit(await page.evaluate(() => document.documentElement.getBoundingClientRect().height))]);
  }
  return pts;
}

const server = await serve(`${root}dist`);
const browser = await launch();
const out = current();
try {
  const ctx = await browser.newContext({ viewport: { width: 720, height: 16000 }, locale: 'en-US' });
  for (const lang of MEASURED) for (const p of PANELS) {
    out[lang][p] = {};
    for (const show of ['all', 'charts']) {
      const page = await ctx.newPage();
      // the training lab and the device panel: measured before their run (trauto=0: the plan over
      // empty axes) and after it, the frame taking the taller of the two at each width
      const runs = p === 'training' || p === 'device';
      await page.goto(`${server.url}#v=1&embed=1&exp=${p}&lang=${lang}${show === 'all' ? '' : '&show=charts'}${p === 'training' ? '&trauto=0' : ''}`);
      await page.waitForSelector(`[data-panel="${p}"]`);
      const before = runs ? await measure(page) : null;
      if (p === 'training') {
        await page.click('[data-action="train-run"]');
        await page.waitForFunction(() => document.querySelector('[data-panel="training"]').dataset.training === 'done', null, { timeout: 180000 });
      } else if (p === 'device') {
        // Run in the controls, or (charts only) the one over the chart's empty axes
        await page.click(show === 'all' ? '[data-action="device-run"]' : '[data-action="device-run-plan"]');
        await page.waitForFunction(() => document.querySelector('[data-panel="device"]').dataset.device === 'done', null, { timeout: 120000 });
      } else if (p === 'interview') await page.waitForFunction(() => document.querySelector('[data-panel="interview"]').dataset.liveDone === '1', null, { timeout: 120000 });
      else if (p !== 'followups') await panelSettled(page, p, 60000);
      const after = await measure(page);
      const pts = after.map(([w, hgt], i) => [w, Math.max(hgt, before?.[i][1] ?? 0)]);
      out[lang][p][show] = pts;
      await page.close();
    }
    console.log(lang, p, JSON.stringify(out[lang][p]));
  }
  await ctx.close();
} finally {
  await browser.close();
  await server.close();
}
if (!process.argv.includes('--dry')) {
  for (const lang of LANGS) {
    const missing = ALL.filter((p) => !out[lang][p]);
    // written all the same (measured a few panels at a time); the type check fails until every panel is in
    if (missing.length) console.warn(`${lang}: no heights for ${missing.join(', ')} (measure them: node scripts/embed-heights.mjs ${missing.join(',')} --lang=${lang})`);
  }
  const body = LANGS.map((lang) => `  '${lang}': {\n${ALL.filter((p) => out[lang][p]).map((p) => [p, out[lang][p]]).map(([p, v]) => `    ${p}: {\n      all: ${JSON.stringify(v.all)},\n      charts: ${JSON.stringify(v.charts)},\n    },`).join('\n')}\n  },`).join('\n');
  writeFileSync(file, `// Generated by \`node scripts/embed-heights.mjs\` from the built page, in each language (Chinese
// text wraps to other heights): for each panel's embed, with every part (all) and with the charts
// only, [column width, content height] in CSS px, the height with 3 % + 12 px of headroom. The
// snippet's fallback height interpolates the points of the frame's language (web/src/embed/snippet.ts);
// the e2e suite checks the fit at 358, 480 and 720 px.
import type { Lang, Panel } from '../state/state.ts';

export type FitPoints = readonly (readonly [number, number])[];

export const EMBED_FIT: Record<Lang, Record<Panel, { all: FitPoints; charts: FitPoints }>> = {
${body}
};
`);
  console.log('wrote web/src/embed/heights.ts');
}
