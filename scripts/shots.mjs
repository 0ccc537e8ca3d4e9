// Screenshots of every panel as a reader sees it: desktop 1366×768 and phone 390×844 (touch), in
// English or Chinese, light or dark, the first screen of each view (reviews, and the README
// gallery: GALLERY=1 PHONE_DPR=1 node scripts/shots.mjs web/docs/screens '' en light).
// Usage: npm run build && node scripts/shots.mjs [outdir] [panels,…] [lang] [scheme]
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { launch } from '../tests/e2e/browser.mjs';
import { serve } from '../tests/e2e/server.mjs';
import { panelSettled } from '../tests/e2e/panel.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = process.argv[2] ?? '/tmp/shots';
const panels = (process.argv[3] || 'interview,variance,saturation,gradient,article,followups,precision,longctx,gqa,tensors,training').split(',');
const lang = process.argv[4] ?? 'en';
const scheme = process.argv[5] ?? 'light';
const full = process.env.FULL === '1';
mkdirSync(out, { recursive: true });
const server = await serve(`${root}dist`);
const browser = await launch();
const devices = {
  desktop: { viewport: { width: 1366, height: 768 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: Number(process.env.PHONE_DPR ?? 2) },
};
try {
  for (const [name, opts] of Object.entries(devices)) {
    const ctx = await browser.newContext({ ...opts, colorScheme: scheme, locale: lang === 'zh-CN' ? 'zh-CN' : 'en-US' });
    for (const p of panels) {
      const page = await ctx.newPage();
      await page.goto(`${server.url}#v=1&exp=${p}&lang=${lang}`);
      if (p === 'interview') await page.waitForFunction(() => document.querySelector('[data-panel="interview"]')?.dataset.liveDone === '1'
        && !document.querySelector('[data-chart-box="interview-entropy"]')?.classList.contains('refining'), null, { timeout: 60000 }).catch(() => {});
      else if (p === 'training') await page.waitForFunction(() => Number(document.querySelector('[data-chart-box="training-loss"]')?.dataset.points ?? 0) > 40, null, { timeout: 60000 }).catch(() => {});
      else if (p !== 'followups') await panelSettled(page, p, 60000).catch(() => {});
      else await page.waitForTimeout(800);
      await page.waitForTimeout(300);
      // GALLERY=1: the README gallery's names (web/docs/screens/<panel>-<device>.png)
      const file = process.env.GALLERY === '1' ? `${out}/${p}-${name}.png` : `${out}/${p}-${name}-${lang}-${scheme}.png`;
      await page.screenshot({ path: file, fullPage: full });
      console.log(file);
      await page.close();
    }
    await ctx.close();
  }
} finally {
  await browser.close();
  await server.close();
}
