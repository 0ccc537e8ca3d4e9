// Takes the README's screenshot (web/docs/screenshot.png) of the built page in headless Chromium.
// Usage: npm run build && node scripts/screenshot.mjs [hash] [out.png] [width] [height]
import { fileURLToPath } from 'node:url';
import { launch, settled } from '../tests/e2e/browser.mjs';
import { serve } from '../tests/e2e/server.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const hash = process.argv[2] ?? '#v=1&exp=saturation&dk=256&lang=en';
const out = process.argv[3] ?? `${root}web/docs/screenshot.png`;
const width = Number(process.argv[4] ?? 1280);
const height = Number(process.argv[5] ?? 900);

const server = await serve(`${root}dist`);
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
  await page.goto(server.url + hash);
  await settled(page);  // one panel per view: the link opens at the top, nothing to scroll
  await page.waitForTimeout(300);
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.close();
}
