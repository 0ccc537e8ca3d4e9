// Measures the content height of every panel's embed in a 720 px wide column, with every part and
// with the charts only — the numbers behind the snippet's fallback heights (web/src/embed/snippet.ts).
// Usage: npm run build && node scripts/embed-heights.mjs [width]
import { fileURLToPath } from 'node:url';
import { launch } from '../tests/e2e/browser.mjs';
import { serve } from '../tests/e2e/server.mjs';
import { panelSettled } from '../tests/e2e/panel.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const width = Number(process.argv[2] ?? 720);
const PANELS = ['variance', 'saturation', 'gradient', 'article', 'followups', 'precision', 'longctx', 'gqa', 'tensors', 'training', 'device', 'mup', 'wild'];
const server = await serve(`${root}dist`);
const browser = await launch();
const out = {};
try {
  const ctx = await browser.newContext({ viewport: { width, height: 600 } });
  for (const p of PANELS) {
    out[p] = {};
    for (const show of ['all', 'charts']) {
      const page = await ctx.newPage();
      await page.goto(`${server.url}#v=1&embed=1&exp=${p}${show === 'all' ? '' : '&show=charts'}`);
      await page.waitForSelector(`[data-panel="${p}"]`);
      if (p !== 'followups' && p !== 'training' && p !== 'device') await panelSettled(page, p, 60000);
      await page.waitForTimeout(300);
      out[p][show] = await page.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
      await page.close();
    }
    console.log(p, JSON.stringify(out[p]));
  }
} finally {
  await browser.close();
  await server.close();
}
