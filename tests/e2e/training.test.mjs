// Browser test of the training lab (lean: one short run of three variants): start a run, see the
// curves grow, Cancel, start again; the share link reproduces the first loss values exactly; the
// other panels keep answering meanwhile; zero console errors, nothing fetched from other hosts.
// Run with `npm run test:e2e` after `npm run build`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { moveSlider, useSuite , openPanel } from './browser.mjs';

let srv, browser, context, log;
const HASH = '#v=1&exp=training&trsteps=40&trvar=none,inv_sqrt_dk,qk_l2&trseed=3';

useSuite('/sub/', (s) => ({ srv, browser, context, log } = s));

const lossPoints = (page) => page.evaluate(() => Number(document.querySelector('[data-chart-box="training-loss"]')?.dataset.points ?? 0));
const runs = (page) => page.evaluate(() => window.__sqrtdkTraining.session.runs.map((r) => ({ variant: r.variant, loss: r.loss, first: r.firstNonfinite, acc: r.evaluation?.tokenAccuracy ?? null })));
async function run(page) {
  await page.waitForSelector('[data-action="train-run"]:not([disabled])');
  await page.click('[data-action="train-run"]');
}
/** Opens the disclosure of every setting (the presets and Run stand in front of it). */
async function settings(page) {
  await page.waitForSelector('[data-panel="training"] [data-train-advanced]');
  await page.evaluate(() => { document.querySelector('[data-panel="training"] [data-train-advanced]').open = true; });
}

test('training lab: run, curves grow, cancel, run again, the link reproduces the losses', async () => {
  const page = await context.newPage();
  await page.goto(srv.url + HASH);
  await page.waitForSelector('[data-panel="training"]');
  // the link starts its run at once (trauto=1 by default): the curves come without a click
  await page.waitForFunction(() => Number(document.querySelector('[data-chart-box="training-loss"]')?.dataset.points ?? 0) > 0, null, { timeout: 30000 });
  await settings(page);
  // a size the core would refuse is refused beside its control, before any work
  await page.fill('[data-panel="training"] [data-key="trheads"] input', '5');
  await page.press('[data-panel="training"] [data-key="trheads"] input', 'Enter');
  await page.waitForFunction(() => /not divisible/.test(document.querySelector('[data-panel="training"] [data-err-for="trheads"]')?.textContent ?? ''));
  assert.equal(await page.isDisabled('[data-action="train-run"]'), true);
  await page.fill('[data-panel="training"] [data-key="trheads"] input', '4');
  await page.press('[data-panel="training"] [data-key="trheads"] input', 'Enter');
  // over the memory budget of a run: the core's refusal, beside the control just changed
  const set = async (key, v) => { await page.fill(`[data-panel="training"] [data-key="${key}"] input`, v); await page.press(`[data-panel="training"] [data-key="${key}"] input`, 'Enter'); };
  await set('trlayers', '6');
  await set('trdm', '512');
  await page.waitForFunction(() => /MiB/.test(document.querySelector('[data-panel="training"] [data-err-for="trdm"]')?.textContent ?? ''));
  assert.equal(await page.isDisabled('[data-action="train-run"]'), true);
  await set('trdm', '64');
  await set('trlayers', '2');
  await page.waitForFunction(() => document.querySelector('[data-panel="training"] [data-err-for="trdm"]')?.textContent === '');

  // start with many steps, watch the curves grow, cancel
  await page.fill('[data-panel="training"] [data-key="trsteps"] input', '2000');
  await page.press('[data-panel="training"] [data-key="trsteps"] input', 'Enter');
  await run(page);
  await page.waitForFunction(() => Number(document.querySelector('[data-chart-box="training-loss"]')?.dataset.points ?? 0) > 6);
  const p1 = await lossPoints(page);
  await page.waitForFunction((p) => Number(document.querySelector('[data-chart-box="training-loss"]').dataset.points) > p + 6, p1);
  // the other panels keep answering while the training worker is busy, and the run goes on
  // while the reader looks at another panel (one panel per view)
  await openPanel(page, 'variance');
  const before = await page.textContent('[data-readout="var-var"]');
  await moveSlider(page, 'variance', 'dk', 9);
  await page.waitForFunction((b) => document.querySelector('[data-readout="var-var"]').textContent !== b, before, { timeout: 5000 });
  const away = await page.evaluate(() => window.__sqrtdkTraining.session.runs.reduce((n, r) => n + r.stepsDone, 0));
  await page.goBack();
  await page.waitForSelector('[data-panel="training"]');
  await settings(page);  // the view was built again: its disclosure is closed
  await page.waitForFunction((a) => window.__sqrtdkTraining.session.runs.reduce((n, r) => n + r.stepsDone, 0) > a, away);
  assert.equal(await page.getAttribute('[data-panel="training"]', 'data-training'), 'running');
  await page.click('[data-action="train-cancel"]');
  await page.waitForFunction(() => document.querySelector('[data-panel="training"]')?.dataset.training === 'cancelled');
  // How fast Cancel stops is a speed goal (≤ 100 ms), measured by npm run bench:ui, not asserted
  // here: on a loaded 2-core machine a wall-clock bound would make this test flaky.
  const cancelMs = await page.evaluate(() => window.__sqrtdkTraining.controller.lastCancelMs);
  assert.equal(typeof cancelMs, 'number');
  const stopped = await page.evaluate(() => window.__sqrtdkTraining.session.runs.reduce((n, r) => n + r.stepsDone, 0));
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => window.__sqrtdkTraining.session.runs.reduce((n, r) => n + r.stepsDone, 0)), stopped, 'no step after Cancel');

  // again, to the end, at 40 steps
  await page.fill('[data-panel="training"] [data-key="trsteps"] input', '40');
  await page.press('[data-panel="training"] [data-key="trsteps"] input', 'Enter');
  await run(page);
  await page.waitForFunction(() => document.querySelector('[data-panel="training"]')?.dataset.training === 'done', null, { timeout: 60000 });
  const first = await runs(page);
  assert.deepEqual(first.map((r) => r.variant), ['none', 'inv_sqrt_dk', 'qk_l2']);
  for (const r of first) { assert.equal(r.loss.length, 40); assert.ok(r.acc !== null); }
  assert.ok(Number(await page.getAttribute('[data-chart-box="training-logits-l1"]', 'data-points')) > 0, 'logit histogram drawn');
  assert.ok(await page.textContent('[data-readout="train-final-inv_sqrt_dk"]'));
  assert.notEqual(await page.getAttribute('[data-claim="C10"]', 'data-verdict'), null);

  // the share link carries the configuration; opening it and pressing Run gives the same losses
  await page.click('[data-action="copy-link"]');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  for (const part of ['trsteps=40', 'trvar=none,inv_sqrt_dk,qk_l2', 'trseed=3']) assert.ok(link.includes(part), `${part} in ${link}`);
  const p2 = await context.newPage();
  await p2.goto(link);
  // no click: the link runs by itself
  await p2.waitForFunction(() => document.querySelector('[data-panel="training"]')?.dataset.training === 'done', null, { timeout: 60000 });
  const second = await runs(p2);
  assert.deepEqual(second.map((r) => r.loss.slice(0, 10)), first.map((r) => r.loss.slice(0, 10)), 'first loss values identical');
  assert.deepEqual(second, first, 'every loss identical');
  await p2.close();
  await page.close();

  // embed mode: this panel alone, its parts as asked, and it trains by itself
  const e = await context.newPage();
  await e.goto(srv.url + '#v=1&embed=1&exp=training&show=controls,charts&trsteps=5&trvar=inv_sqrt_dk');
  await e.waitForFunction(() => document.querySelector('[data-panel="training"]')?.dataset.training === 'done', null, { timeout: 60000 });
  assert.equal(await e.locator('[data-panel]').count(), 1);
  assert.equal(await e.locator('header.top, nav.nav').count(), 0);
  assert.equal(await e.isHidden('[data-panel="training"] [data-part="text"]'), true);
  assert.equal(Number(await e.getAttribute('[data-chart-box="training-loss"]', 'data-points')), 5);
  // a charts-only embed: the curves of the run it starts itself, Run and Cancel beside them
  await e.close();
  const c = await context.newPage();
  await c.goto(srv.url + '#v=1&embed=1&exp=training&show=charts&trsteps=6&trvar=none');
  await c.waitForFunction(() => document.querySelector('[data-panel="training"]')?.dataset.training === 'done', null, { timeout: 60000 });
  assert.equal(Number(await c.getAttribute('[data-chart-box="training-loss"]', 'data-points')), 6);
  assert.equal(await c.isVisible('[data-action="train-run"]'), true);
  assert.equal(await c.isHidden('[data-panel="training"] [data-part="controls"]'), true);
  await c.close();
  assert.deepEqual(log, { consoleErrors: [], pageErrors: [], dialogs: [], foreign: [] });
});

test('training lab: the soft-cap beside the variants caps every logit, and its link carries it (issue #11)', async () => {
  const page = await context.newPage();
  await page.goto(srv.url + '#v=1&exp=training&trsteps=5&trvar=none,qk_l2&trseed=3&trauto=0');
  await settings(page);
  await page.waitForSelector('[data-panel="training"] [data-key="trcap"] input');
  await page.fill('[data-panel="training"] [data-key="trcap"] input', '2');
  await page.press('[data-panel="training"] [data-key="trcap"] input', 'Enter');
  await page.waitForFunction(() => location.hash.includes('trcap=2'));
  await run(page);
  await page.waitForFunction(() => document.querySelector('[data-panel="training"]')?.dataset.training === 'done', null, { timeout: 60000 });
  const series = await page.evaluate(() => window.__sqrtdkTraining.session.runs.map((r) => ({ variant: r.variant, max: r.maxAbsLogit.flat(), loss: r.loss })));
  assert.deepEqual(series.map((r) => r.variant), ['none', 'qk_l2']);
  for (const r of series) {
    assert.ok(r.max.every((x) => x <= 2 && x > 0.5), `${r.variant}: ${r.max}`);
    assert.ok(r.loss.every(Number.isFinite));
  }
  // a negative cap is refused beside the control
  await page.fill('[data-panel="training"] [data-key="trcap"] input', '-1');
  await page.press('[data-panel="training"] [data-key="trcap"] input', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-panel="training"] [data-err-for="trcap"]').textContent !== '');
  assert.ok((await page.evaluate(() => location.hash)).includes('trcap=2'));
  await page.close();
  assert.deepEqual(log, { consoleErrors: [], pageErrors: [], dialogs: [], foreign: [] });
});
