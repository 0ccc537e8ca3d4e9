// Browser test of the core version in links (web/src/app/link-version.ts): a link made by another core
// version opens normally with a notice naming both versions, the copied link names this core,
// and a link of this core (or without cv) shows no notice. Run after `npm run build`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite } from './browser.mjs';
import { panelSettled, panelReadouts } from './panel.mjs';
import { CORE_VERSION } from '../../wasm/js/version.js';

const suite = useSuite('/v/');

test('a link made with another core version: it opens, with the notice; the copied link names this core', async () => {
  const { context, srv, log } = suite;
  const page = await context.newPage();
  await page.goto(srv.url + '#v=1&cv=0.0.7&exp=saturation&dk=128&seed=9');
  await page.waitForSelector('[data-notice="core-version"]');
  assert.equal(await page.textContent('[data-notice="core-version"] span'),
    `This link was made with core 0.0.7; this is core ${CORE_VERSION}: numbers may differ. `);
  // it opened normally: the link's state is used, the panel computes
  await panelSettled(page, 'saturation');
  assert.equal(await page.inputValue('[data-panel="saturation"] [data-key="seed"] input'), '9');
  assert.equal(await page.$('[data-notice="parse"]'), null, 'not a parse problem');
  await page.click('[data-action="copy-link"]');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(link.includes(`&cv=${CORE_VERSION}`) && !link.includes('cv=0.0.7'), link);
  assert.ok(link.includes('seed=9') && link.includes('dk=128'), link);
  // the notice goes when dismissed, and a link of this core has none
  await page.click('[data-notice="core-version"] button');
  assert.equal(await page.$('[data-notice="core-version"]'), null);
  const same = await context.newPage();
  await same.goto(link);
  await panelSettled(same, 'saturation');
  assert.equal(await same.$('[data-notice="core-version"]'), null);
  assert.deepEqual(await panelReadouts(same, 'saturation'), await panelReadouts(page, 'saturation'));
  // in Chinese, inside an embed, and on a hash change too
  const embed = await context.newPage();
  await embed.goto(srv.url + '#v=1&cv=9.0.0&embed=1&exp=variance&lang=zh-CN');
  await embed.waitForSelector('[data-notice="core-version"]');
  assert.match(await embed.textContent('[data-notice="core-version"]'), new RegExp(`核心 9\\.0\\.0.*核心 ${CORE_VERSION.replaceAll('.', '\\.')}`));
  await same.evaluate(() => { location.hash = '#v=1&cv=0.0.8&exp=saturation&dk=128&seed=9'; });
  await same.waitForSelector('[data-notice="core-version"][data-made="0.0.8"]');
  assert.deepEqual(log.consoleErrors, []);
  assert.deepEqual(log.pageErrors, []);
  assert.deepEqual(log.foreign, []);
});
