// Browser tests of the interview's drill and claim checker (issue 10, parts 4 and 5), on the built
// page (dist/). The drill: predict → reveal → score for a numeric and an option question, the live
// number equal to the core's own call in Node; progress across a reload and its reset; a
// question's link in a fresh context. The checker: for three seeds, every verdict equals the
// stated rule (written again here) applied to the live numbers; the numbers move with the seed;
// the panels' claim boxes show the same numbers and verdicts as the table.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite } from './browser.mjs';
import { loadCore } from '../../wasm/js/core.js';

let srv, browser, context, log, core;

useSuite('/drill/', (s) => ({ srv, browser, context, log } = s));
before(async () => {
  core = await loadCore({ kernel: 'simd' });
});

async function open(hash, ctx = context) {
  const page = await ctx.newPage();
  await page.goto(srv.url + hash);
  await page.waitForSelector('[data-drill-form][data-q]');
  return page;
}
const form = (page) => page.$eval('[data-drill-form]', (f) => ({ q: f.dataset.q, seed: Number(f.dataset.seed), text: f.querySelector('[data-drill-question]').textContent }));
async function reveal(page) {
  await page.click('[data-drill-reveal]');
  await page.waitForSelector('[data-drill-score]', { timeout: 30000 });
  return page.$eval('[data-drill-result]', (r) => ({
    score: Number(r.querySelector('[data-drill-score]').dataset.drillScore),
    live: Number(r.querySelector('[data-drill-live]').dataset.value),
    liveText: r.querySelector('[data-drill-live]').textContent,
    why: r.querySelector('[data-drill-why]').textContent,
    show: r.querySelector('[data-drill-show]').getAttribute('href'),
  }));
}
const progress = (page) => page.$eval('[data-drill-progress]', (p) => ({ answered: Number(p.dataset.answered), score: Number(p.dataset.score) }));
/** The score rule, written again: within full× → 1, within half× → ½, else 0. */
const score = (pred, live, full, half) => { const f = Math.max(pred / live, live / pred); return f <= full ? 1 : f <= half ? 0.5 : 0; };

test('a numeric question: slide or type, reveal, the core’s own number, scored by the stated rule', async () => {
  const page = await open('#v=1&exp=interview&dq=std&dseed=5');
  const f = await form(page);
  assert.equal(f.q, 'std');
  const dk = Number(/d_k = (\d+)/.exec(f.text)[1]);
  // nothing is shown before the reader commits
  assert.equal(await page.$eval('[data-drill-result]', (r) => r.textContent), '');
  assert.match(await page.textContent('[data-drill-rule]'), /1\.2×.*1\.5×/);
  // the log slider writes the number field
  await page.$eval('[data-drill-slider]', (s) => { s.value = '1000'; s.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.equal(await page.inputValue('[data-drill-number]'), '10000');
  // an empty field is refused beside the button, nothing revealed
  await page.fill('[data-drill-number]', '');
  await page.click('[data-drill-reveal]');
  assert.match(await page.textContent('[data-drill-err]'), /above 0/);
  assert.equal(await page.$('[data-drill-score]'), null);
  const pred = Number((Math.sqrt(dk) * 1.3).toPrecision(3));
  await page.fill('[data-drill-number]', String(pred));
  const r = await reveal(page);
  // the core's own call in Node, with the request the page makes (the variance panel's point)
  const want = core.scoreVariance({ dks: [dk], samples: 2000, seed: 5, histDk: dk, bins: 60 }).rows[0].raw.std;
  assert.equal(r.live, want);
  assert.ok(Math.abs(want / Math.sqrt(dk) - 1) < 0.05, `std ≈ √d_k (${want})`);
  assert.equal(r.score, score(pred, want, 1.2, 1.5));
  assert.equal(r.score, 0.5, 'a 1.3× miss is half marks');
  assert.match(r.why, /Vaswani et al\. 2017/);
  assert.match(r.show, new RegExp(`exp=variance.*dk=${dk}&samples=2000&seed=5`));
  assert.ok(await page.$eval('[data-drill-result]', (x) => x.getAttribute('aria-live') === 'polite'));
  // the inputs are locked after the reveal
  assert.equal(await page.$eval('[data-drill-number]', (x) => x.disabled), true);
  await page.close();
});

test('an option question; progress survives a reload and the reset clears it', async () => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
  const page = await open('#v=1&exp=interview&dq=uniform&dseed=3', ctx);
  assert.equal((await form(page)).q, 'uniform');
  // ÷d_k leaves Var 1/d_k ≤ 1/64: every row lies within 5 % of ln L, option 2
  await page.click('[data-drill-reveal]');
  assert.match(await page.textContent('[data-drill-err]'), /Pick an option/);
  await page.check('[data-drill-option="2"]');
  const r = await reveal(page);
  assert.equal(r.live, 2);
  assert.equal(r.score, 1);
  const share = Number(/([\d.]+) %/.exec(r.why)[1]) / 100;
  assert.ok(share >= 0.95, `entropy share ${share}`);
  assert.deepEqual(await progress(page), { answered: 1, score: 1 });
  // a wrong option on another seed scores nothing
  await page.click('[data-drill-another]');
  await page.waitForFunction(() => document.querySelector('[data-drill-form]').dataset.seed !== '3' && !document.querySelector('[data-drill-score]'));
  await page.check('[data-drill-option="0"]');
  const w = await reveal(page);
  assert.equal(w.score, 0);
  assert.deepEqual(await progress(page), { answered: 2, score: 1 });
  // no horizontal scroll at 390 px
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'fits 390 px');
  await page.reload();
  await page.waitForSelector('[data-drill-progress][data-answered]');
  assert.deepEqual(await progress(page), { answered: 2, score: 1 });
  await page.click('[data-drill-reset]');
  assert.deepEqual(await progress(page), { answered: 2, score: 1 }, 'the reset asks first');
  await page.click('[data-drill-reset-yes]');
  assert.deepEqual(await progress(page), { answered: 0, score: 0 });
  await page.reload();
  await page.waitForSelector('[data-drill-progress][data-answered]');
  assert.deepEqual(await progress(page), { answered: 0, score: 0 });
  await ctx.close();
});

test('a question’s link reproduces the question and its numbers in a fresh context', async () => {
  const page = await open('#v=1&exp=interview&dq=gradmean&dseed=77');
  await page.click('[data-drill-another]');
  await page.waitForFunction(() => document.querySelector('[data-drill-form]').dataset.seed !== '77');
  const f = await form(page);
  const href = await page.getAttribute('[data-drill-link]', 'href');
  assert.match(href, new RegExp(`dq=gradmean&dseed=${f.seed}`));
  await page.check('[data-drill-option="1"]');
  const a = await reveal(page);
  const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const p2 = await open(href, fresh);
  assert.deepEqual(await form(p2), f);
  await p2.check('[data-drill-option="1"]');
  const b = await reveal(p2);
  assert.equal(b.live, a.live);
  assert.equal(b.liveText, a.liveText);
  assert.equal(b.why, a.why);
  await fresh.close();
  await page.close();
});

// ---- the claim checker ----
/** The stated rules (the “Rule” column), written again from their text. */
const within = (x, c, r) => Math.abs(x - c) <= r * Math.abs(c);
const parts = (...ps) => (ps.every(Boolean) ? 'agree' : ps.some(Boolean) ? 'partly' : 'disagree');
const RULES = {
  C1: (l) => (within(l.std, 22.6, 0.05) ? 'agree' : within(l.std, 22.6, 0.15) ? 'partly' : 'disagree'),
  C2: (l) => parts(l.noneMaxW > 0.5, l.sqrtShare <= 0.01),
  C3a: (l) => (within(l.v, 0.002, 0.15) ? 'agree' : within(l.v, 0.002, 0.5) ? 'partly' : 'disagree'),
  C3b: (l) => (l.gap < 0.05 * l.lnL ? 'agree' : l.gap < 0.15 * l.lnL ? 'partly' : 'disagree'),
  C4: (l) => parts(l.none < 0.5, within(l.sqrt, 4.85, 0.02)),
  C5: (l) => parts(within(l.j10, 0.0001, 0.25), within(l.j6, 0.5, 0.25)),
  C6: (l) => parts(within(l.ratio, 2, 0.1), l.none1024 < l.none512, Math.abs(l.sqrt1024 - l.sqrt512) < 0.02 * l.lnL),
  C7: (l) => parts(l.spread < 0.05, [l.vm, l.vg, l.vq].every((v) => Math.abs(v - 1) < 0.2)),
  C8: (l) => (l.ratio <= 1.5 ? 'agree' : l.ratio <= 3 ? 'partly' : 'disagree'),
  'C8-online': (l) => parts(l.online === 0, l.jOnline >= 0.2 * l.js),
  C11: (l) => parts(Math.abs(l.j64 - l.j32) <= 0.05 * l.j64, l.j64 < 0.2 * l.js),
};

async function checkerRows(page) {
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('[data-claim-row]')];
    return rows.length >= 11 && rows.every((r) => r.dataset.verdict && r.dataset.verdict !== 'pending');
  }, null, { timeout: 60000, polling: 100 });
  return page.$$eval('[data-claim-row]', (rows) => Object.fromEntries(rows.map((r) => [r.dataset.claimRow, {
    verdict: r.dataset.verdict, values: r.querySelector('[data-col=live]').dataset.values ? JSON.parse(r.querySelector('[data-col=live]').dataset.values) : null,
    href: r.querySelector('[data-claim-link]').getAttribute('href'), panel: r.dataset.panelOf, rule: r.querySelector('[data-col=rule]').textContent,
  }])));
}

test('claim checker: for three seeds every verdict is the stated rule applied to the live numbers', async () => {
  const page = await open('#v=1&exp=interview&cseed=1');
  const seen = {};
  for (const seed of [1, 2, 3]) {
    if (seed !== 1) {
      await page.fill('[data-checker-seed]', String(seed));
      await page.press('[data-checker-seed]', 'Enter');
      await page.waitForFunction((s) => location.hash.includes(`cseed=${s}`), seed);
    }
    const rows = await checkerRows(page);
    for (const [id, rule] of Object.entries(RULES)) {
      assert.ok(rows[id]?.values, `${id} has live numbers (seed ${seed})`);
      for (const [k, v] of Object.entries(rows[id].values)) assert.ok(Number.isFinite(v), `${id}.${k} finite`);
      assert.equal(rows[id].verdict, rule(rows[id].values), `${id} at seed ${seed}: ${JSON.stringify(rows[id].values)}`);
    }
    assert.equal(rows.C9.verdict, 'manual');
    assert.equal(rows.C10.verdict, 'manual');
    assert.match(rows.C1.href, new RegExp(`exp=variance.*seed=${seed}`));
    seen[seed] = rows;
  }
  // the numbers move with the seed; the verdicts follow the rules (and here stay put)
  for (const id of ['C1', 'C2', 'C3a', 'C3b', 'C4', 'C6']) {
    assert.notDeepEqual(seen[1][id].values, seen[2][id].values, `${id} moves with the seed`);
    assert.notDeepEqual(seen[2][id].values, seen[3][id].values, `${id} moves with the seed`);
  }
  for (const id of Object.keys(RULES)) assert.equal(seen[1][id].verdict, seen[3][id].verdict, `${id} verdict stays put`);
  // the C1 std at seed 2 is the core's own number
  const want = core.scoreVariance({ dks: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096], samples: 2000, seed: 2, bins: 4 }).rows.find((r) => r.dk === 512).raw.std;
  assert.equal(seen[2].C1.values.std, want);
  assert.equal(seen[2].C4.verdict, 'partly', 'ln 128 − ½, not 4.85');

  // the panels' claim boxes, opened through the table's links, show the same numbers and verdicts
  for (const [id, row] of Object.entries(seen[3])) {
    if (!RULES[id] || id === 'C6') continue;  // C6 has no box on its panel
    await page.goto(srv.url + row.href);
    const boxId = id.replace(/^C3[ab]$/, 'C3');  // C3 has a box on the variance panel (C3a) and one on the saturation panel (C3b)
    await page.waitForFunction((id) => { const b = document.querySelector(`[data-claim="${id}"]`); return b && b.dataset.verdict && b.dataset.values; }, boxId, { timeout: 60000 });
    const box = await page.$eval(`[data-claim="${boxId}"]`, (b) => ({ verdict: b.dataset.verdict, values: JSON.parse(b.dataset.values), panel: b.closest('[data-panel]').dataset.panel }));
    assert.equal(box.panel, row.panel, id);
    assert.equal(box.verdict, row.verdict, `${id}: box and table agree`);
    assert.deepEqual(box.values, row.values, `${id}: the same live numbers`);
  }
  await page.close();
  assert.deepEqual(log.pageErrors, []);
  assert.deepEqual(log.foreign, []);
});

test('the drill and the checker in Chinese', async () => {
  const page = await open('#v=1&exp=interview&lang=zh-CN&dq=mqa&dseed=4');
  assert.match(await page.textContent('[data-drill]'), /先预测，再揭晓/);
  assert.match(await page.textContent('[data-drill-question]'), /查询头/);
  await page.check('[data-drill-option="1"]');
  const r = await reveal(page);
  assert.equal(r.live, 1, 'Var(q·k/√d_head) ≈ 1 under MQA');
  assert.match(r.why, /每个头的维度/);
  const rows = await checkerRows(page);
  assert.match(await page.textContent('[data-claim-row="C1"] [data-col=verdict]'), /成立/);
  assert.ok(rows.C1.rule.includes('22.6'));
  await page.close();
});

test('axe-core finds no violation in the drill and the checker (both languages, both schemes), and the drill works by keyboard', async () => {
  const { createRequire } = await import('node:module');
  const axeSource = createRequire(import.meta.url)('axe-core').source;
  // one load per language; the page follows prefers-color-scheme live (theme.ts): both schemes are checked in place
  for (const lang of ['en', 'zh-CN']) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const page = await open(`#v=1&exp=interview&lang=${lang}&dq=scale&dseed=2`, ctx);
    await checkerRows(page);
    // keyboard only: focus the first option, arrow to the second, Enter submits the form
    await page.focus('[data-drill-option="0"]');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.$eval('[data-drill-option="1"]', (x) => x.checked), true);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-drill-score]');
    await page.evaluate(axeSource);
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
      const r = await page.evaluate(() => window.axe.run({ include: [['[data-slot="drill"]'], ['[data-slot="claims"]']] }, { resultTypes: ['violations'] }));
      assert.deepEqual(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`), [], `${scheme} ${lang}`);
    }
    await ctx.close();
  }
});

test('every question reveals its live number and its why, with nothing left unfilled, in both languages', async () => {
  const ids = ['std', 'sigma', 'invdk', 'entropy', 'jac', 'double', 'yarn', 'gradmean', 'scale', 'uniform', 'fp64', 'mqa'];
  for (const [lang, seed] of [['en', 11], ['zh-CN', 12]]) {
    const page = await open(`#v=1&exp=interview&lang=${lang}&dq=std&dseed=${seed}`);
    for (const id of ids) {
      await page.selectOption('[data-drill-pick]', id);
      await page.waitForSelector(`[data-drill-form][data-q="${id}"]`);
      if (await page.$('[data-drill-number]')) await page.fill('[data-drill-number]', '1');
      else await page.check('[data-drill-option="0"]');
      const r = await reveal(page);
      assert.ok(Number.isFinite(r.live), `${lang} ${id} live`);
      const all = (await page.textContent('[data-drill]'));
      assert.doesNotMatch(all, /\{\w+\}|NaN|undefined/, `${lang} ${id}`);
      assert.match(r.show, /^#v=1&/);
    }
    await page.close();
  }
});
