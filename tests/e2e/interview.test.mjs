// Browser tests of the interview view (issue 10): it is the landing view; every live number is
// finite and equals the core's own call (made here in Node) for the same parameters; every "show
// me" link opens the named panel with the stated state, whose readouts show the same numbers;
// Copy answer gives the 30-second answer as Markdown; the print stylesheet gives an A4 cheat sheet
// (Chromium's page.pdf()) whose text holds the numbers; axe-core finds nothing in either language.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { useSuite } from './browser.mjs';
import { panelSettled } from './panel.mjs';
import { loadCore } from '../../wasm/js/core.js';
import ln from '@stdlib/math-base-special-ln';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const axeSource = createRequire(import.meta.url)('axe-core').source;
/** panels whose readouts appear only after the reader acts (or that have none) */
const NO_READOUTS = new Set(['followups', 'training', 'tensors', 'interview']);
/** panels with a seed key (long context and GQA use a fixed seed of their own) */
const SEEDED = new Set(['variance', 'saturation', 'gradient', 'article', 'precision']);

let srv, context, log, core;
const suite = useSuite('/lab/', (s) => ({ srv, context, log } = s));
before(async () => {
  core = await loadCore({ kernel: 'simd' });
});

function fmt(x, sig = 4) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e5 || a < 1e-4) return x.toExponential(sig - 1).replace('e+', 'e');
  return String(Number(x.toPrecision(sig)));
}

/** Opens a hash and waits until every live number of the interview view has arrived. */
async function openInterview(hash = '', ctx = context) {
  const page = await ctx.newPage();
  await page.goto(srv.url + hash);
  await page.waitForSelector('[data-panel="interview"]');
  await page.waitForFunction(() => document.querySelector('[data-panel="interview"]')?.dataset.liveDone === '1', null, { timeout: 60000, polling: 50 });
  return page;
}

/**
 * The view at seed 4 in one language, loaded once and shared by the tests that only read it (Copy
 * answer, print, axe-core): each load computes every live number and a training run.
 */
const sharedPages = new Map();
function sharedInterview(lang) {
  if (!sharedPages.has(lang)) sharedPages.set(lang, openInterview(`#v=1&iseed=4&lang=${lang}`));
  return sharedPages.get(lang);
}
after(async () => { for (const p of sharedPages.values()) await p.then((page) => page.close()).catch(() => {}); });

/** The view's live numbers as shown: id → { value, text } (each id once; every copy must agree). */
async function liveOf(page) {
  const spans = await page.$$eval('[data-live]', (els) => els.map((e) => ({ id: e.dataset.live, value: Number(e.dataset.value), text: e.textContent, pending: e.classList.contains('pending') })));
  const out = {};
  for (const s of spans) {
    assert.equal(s.pending, false, `${s.id} still pending`);
    if (out[s.id]) assert.deepEqual({ value: s.value, text: s.text }, out[s.id], `${s.id} reads the same everywhere`);
    out[s.id] = { value: s.value, text: s.text };
  }
  return out;
}

/** The core's own call in Node for one request of the view. */
function call(kind, params) {
  switch (kind) {
    case 'scoreVariance': return core.scoreVariance(params);
    case 'attentionStats': return core.attentionStats(params);
    case 'saturationSweep': return core.saturationSweep(params);
    case 'softmaxJacobian': return core.softmaxJacobian(params.logits, params.softcap ? { softcap: params.softcap } : undefined);
    case 'precisionLab': return core.precisionLab(params);
    case 'longContext': return core.longContext(params);
    case 'modelScales': return core.modelScales();
    case 'normalisers': return core.normalisers(params);
    case 'qkClip': return core.qkClip(params);
    case 'alibiEntropy': return alibiEntropy(params);
    case 'splitKv': return splitKv(params);
    default: throw new Error(`no Node call for ${kind}`);
  }
}
/**
 * web/src/worker/alibi.ts written again for the replay: the core's draws (streams 1–3 as float32), its causal attention
 * with alibi 'press' and without, each head's mean entropy of its last `tail` rows with @stdlib's ln (the page's).
 */
function alibiEntropy({ heads, dk, seqLens, tail, seed }) {
  const draws = (n, stream) => Float32Array.from(core.normalDraws({ n, seed, stream }).values);
  const ent = (w, L) => Array.from({ length: heads }, (_, h) => {
    let sum = 0;
    for (let i = L - tail; i < L; i++) {
      let e = 0;
      for (let j = 0; j <= i; j++) { const p = w[(h * L + i) * L + j]; if (p > 0) e -= p * ln(p); }
      sum += e;
    }
    return sum / tail;
  });
  const out = { alibi: Array.from({ length: heads }, () => []), plainMean: [] };
  for (const L of seqLens) {
    const n = heads * L * dk;
    const base = { q: draws(n, 1), k: draws(n, 2), v: draws(n, 3), heads, seqLen: L, dk, causal: true };
    ent(core.attention({ ...base, alibi: 'press' }).weights, L).forEach((e, h) => out.alibi[h].push(e));
    out.plainMean.push(ent(core.attention(base).weights, L).reduce((a, x) => a + x, 0) / heads);
  }
  return out;
}
/**
 * web/src/worker/split-kv.ts written again for the replay: one causal call's keys cut at `split` by masks, each chunk's
 * (output, lse) merged by the core's mergeAttention and held to the full call; the lse read in base 2; an empty chunk.
 */
function splitKv({ heads, seqLen: L, dk, split, seed }) {
  const n = heads * L * dk;
  const draws = (stream) => Float32Array.from(core.normalDraws({ n, seed, stream }).values);
  const base = { q: draws(1), k: draws(2), v: draws(3), heads, seqLen: L, dk, causal: true, weights: false, lse: true };
  const chunk = (lo, hi) => { const m = new Float32Array(L * L).fill(-Infinity); for (let i = 0; i < L; i++) m.fill(0, i * L + lo, i * L + hi); return m; };
  const full = core.attention(base), a = core.attention({ ...base, mask: chunk(0, split) }), b = core.attention({ ...base, mask: chunk(split, L) });
  const dims = { heads, seqLen: L, dv: dk };
  const maxDiff = (x, y) => x.reduce((m, v, i) => Math.max(m, Math.abs(v - y[i])), 0);
  const merged = core.mergeAttention({ a: { output: a.output, lse: a.lse }, b: { output: b.output, lse: b.lse }, ...dims });
  const b2 = (x) => Float32Array.from(x, (l) => l * Math.LOG2E);
  const misread = core.mergeAttention({ a: { output: a.output, lse: b2(a.lse) }, b: { output: b.output, lse: b2(b.lse) }, ...dims });
  const empty = core.mergeAttention({ a: { output: full.output, lse: full.lse }, b: { output: new Float32Array(n), lse: new Float32Array(heads * L).fill(-Infinity) }, ...dims });
  let lseMaxDiff = 0;
  full.lse.forEach((l, i) => { if (Number.isFinite(l)) lseMaxDiff = Math.max(lseMaxDiff, Math.abs(merged.lse[i] - l)); });
  return { maxDiff: maxDiff(merged.output, full.output), lseMaxDiff, base2MaxDiff: maxDiff(misread.output, full.output), emptyMaxDiff: maxDiff(empty.output, full.output) };
}
const readPath = (obj, path) => path.split('.').reduce((v, k) => v?.[k], obj);

/** Checks every live number against the core in Node; returns the numbers. */
async function checkAgainstCore(page, seed) {
  const { requests, training, numbers } = await page.evaluate(() => window.__sqrtdkInterview.debug());
  const shown = await liveOf(page);
  assert.deepEqual(Object.keys(shown).sort(), Object.keys(numbers).sort(), 'every number of the catalogue is on the view, and no other');
  // the requests carry the seed of the link, and the settings the text names
  const req = Object.fromEntries(requests.map((r) => [r.id, r]));
  assert.deepEqual([req.var512.params.dks, req.var512.params.seed, req.var512.params.samples], [[512], seed, 2000]);
  assert.deepEqual([req.satNone512.params.dk, req.satNone512.params.scale, req.satNone512.params.seqLen, req.satNone512.params.seed], [512, 'none', 128, seed]);
  assert.deepEqual([req.satModel64.params.dk, req.satModel64.params.heads, req.satModel64.params.scale], [64, 8, 'inv_sqrt_d_model']);
  assert.equal(req.varSigma.params.variance, 4);
  assert.equal(req.satCap512.params.softcap, 50);
  assert.equal(req.satCausal64.params.causal, true);
  assert.deepEqual(req.jac10.params.logits, [10, 0]);
  assert.equal(req.article.params.seed, seed);
  assert.equal(req.precNone.params.seed, seed);
  const results = {};
  for (const r of requests) results[r.id] = call(r.kind, r.params);
  // the training run: the training lab's config for its link (one variant), run to the end in Node
  assert.equal(training.length, 1);
  assert.deepEqual([training[0].attention, training[0].seed, training[0].steps, training[0].layers], ['inv_sqrt_dk', seed, 150, 1]);
  const run = core.createTrainingRun(training[0]);
  try {
    run.step(training[0].steps);
    results.train = { analysis: run.analysis(48), evaluation: run.evaluate() };
  } finally { run.dispose(); }
  for (const [id, [rq, path]] of Object.entries(numbers)) {
    const want = readPath(results[rq], path);
    assert.ok(Number.isFinite(want), `${id}: the core gives a finite number`);
    assert.ok(Number.isFinite(shown[id].value), `${id}: finite on the page`);
    assert.equal(shown[id].value, want, `${id} (${rq} ${path}) equals the core's own call`);
  }
  return shown;
}

test('a link without exp lands on the interview view; a link naming a panel opens it as before', async () => {
  const page = await context.newPage();
  await page.goto(srv.url);
  await page.waitForSelector('[data-panel="interview"]');
  assert.equal(await page.getAttribute('[data-nav="interview"]', 'aria-current'), 'page');
  assert.deepEqual(await page.$$eval('[data-nav]', (as) => as.map((a) => a.dataset.nav)).then((x) => x[0]), 'interview', 'first tab');
  assert.equal(await page.textContent('[data-nav="interview"]'), 'Interview');
  assert.equal(await page.textContent('[data-nav="variance"]'), '1 Variance', 'the labs keep their numbers (a short label)');
  assert.equal(await page.getAttribute('[data-nav="variance"]', 'title'), '1 Variance law', 'the full title in the tooltip');
  await page.goto(srv.url + '#v=1&exp=variance&dk=128');
  await page.waitForSelector('[data-panel="variance"]');
  assert.equal(await page.$('[data-panel="interview"]'), null);
  assert.equal(await page.textContent('[data-panel="variance"] [data-key="dk"] output'), '128');
  await page.close();
});

test('every live number is finite and equals the core’s own call, for two seeds; the seed is shown and in the link', async () => {
  const page = await openInterview();
  const one = await checkAgainstCore(page, 1);
  assert.equal(await page.inputValue('[data-key="iseed"] input'), '1');
  const other = await openInterview('#v=1&iseed=7');
  const seven = await checkAgainstCore(other, 7);
  assert.equal(await other.inputValue('[data-key="iseed"] input'), '7');
  assert.match(await other.textContent('.iv-seed-note'), /seed 7/);
  assert.notEqual(seven.std512.value, one.std512.value, 'another seed, other numbers');
  assert.equal(seven.jac10.value, one.jac10.value, 'a fixed input does not depend on the seed');
  // typing a seed recomputes and writes it into the link
  await other.fill('[data-key="iseed"] input', '3');
  await other.press('[data-key="iseed"] input', 'Enter');
  await other.waitForFunction(() => location.hash.includes('iseed=3'));
  await other.waitForFunction(() => document.querySelector('[data-panel="interview"]')?.dataset.liveDone === '1');
  await checkAgainstCore(other, 3);
  await Promise.all([page.close(), other.close()]);
});

test('every “show me” link opens the named panel with the stated state, and its readouts show the same numbers', async () => {
  const page = await openInterview('#v=1&iseed=5');
  const shown = await liveOf(page);
  const links = await page.$$eval('a[data-show], a[data-deep]', (as) => as.map((a) => ({ href: a.getAttribute('href'), target: a.dataset.target ?? a.dataset.deep, expect: a.dataset.expect ? JSON.parse(a.dataset.expect) : null })));
  const unique = [...new Map(links.map((l) => [l.href, l])).values()];
  assert.ok(unique.length >= 20, `${unique.length} distinct links`);
  const p = await context.newPage();
  for (const l of unique) {
    await p.goto(srv.url + l.href);
    await p.waitForSelector(`[data-panel="${l.target}"]`);
    // the URL holds the link's state (the address bar's short form: the link's keys; its lang, the
    // browser's own here, is the page's language rather than a key of the address, issue 31)
    await p.waitForFunction((href) => {
      const want = href.slice(1).split('&').filter((kv) => !kv.startsWith('v='));
      const have = new Set(location.hash.slice(1).split('&'));
      return want.every((kv) => have.has(kv) || kv === `lang=${document.documentElement.lang}`);
    }, l.href);
    if (l.target !== 'interview' && !NO_READOUTS.has(l.target)) await panelSettled(p, l.target, 60000);
    if (SEEDED.has(l.target)) assert.match(l.href, /[&?](seed|aseed|pseed)=5(&|$)/, `${l.href}: carries the seed`);
    if (l.expect) {
      for (const [ro, id] of Object.entries(l.expect)) {
        const text = await p.textContent(`[data-panel="${l.target}"] [data-readout="${ro}"]`);
        assert.equal(text, shown[id].text, `${l.href}: readout ${ro} = ${id}`);
      }
    }
  }
  await Promise.all([p.close(), page.close()]);
});

test('a follow-up and a wrong answer, followed as a reader does: click, the panel, the numbers', async () => {
  const page = await openInterview('#v=1&iseed=2');
  for (const item of ['fu-dk1024', 'w-invdk']) {
    await page.waitForSelector('[data-panel="interview"]');
    await page.waitForFunction(() => document.querySelector('[data-panel="interview"]')?.dataset.liveDone === '1');
    // the follow-ups and the wrong answers are sections one opens (issue 18)
    await page.click(`details[data-more="${item.startsWith('fu') ? 'followups' : 'wrong'}"] > summary`);
    const inItem = await page.$$eval(`[data-item="${item}"] [data-live]`, (els) => Object.fromEntries(els.map((e) => [e.dataset.live, e.textContent])));
    const link = await page.$eval(`[data-item="${item}"] a[data-show]`, (a) => ({ target: a.dataset.target, expect: JSON.parse(a.dataset.expect) }));
    await page.click(`[data-item="${item}"] a[data-show]`);
    await panelSettled(page, link.target, 60000);
    let checked = 0;
    for (const [ro, id] of Object.entries(link.expect)) {
      if (!(id in inItem)) continue;
      assert.equal(await page.textContent(`[data-readout="${ro}"]`), inItem[id], `${item}: ${ro}`);
      checked++;
    }
    assert.ok(checked >= 1, `${item}: at least one of its numbers is a readout of the panel`);
    await page.goBack();
  }
  await page.close();
});

test('Copy answer: the 30-second answer with its live numbers and the share link, as Markdown, in both languages', async () => {
  for (const lang of ['en', 'zh-CN']) {
    const page = await sharedInterview(lang);
    const shown = await liveOf(page);
    await page.click('.iv-controls [data-action="copy-answer"]');
    const text = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(text, await page.getAttribute('[data-panel="interview"]', 'data-copied'));
    const points = await page.$$eval('.iv-30s [data-live]', (els) => [...new Set(els.map((e) => e.dataset.live))]);
    assert.ok(points.length >= 8);
    for (const id of points) assert.ok(text.includes(shown[id].text), `${lang}: ${id} = ${shown[id].text} in the Markdown`);
    assert.match(text, /^\*\*.+\*\*\n\n1\. /);
    assert.equal(text.split('\n').filter((l) => /^\d\. /.test(l)).length, 4, 'four points');
    assert.ok(!text.includes('\u2060'), 'no invisible word joiner in the copied text');
    // share pages (the language in the path), with the core version, as Copy link gives them
    const dir = lang === 'zh-CN' ? 'zh-CN/' : '';
    assert.match(text, new RegExp(`${srv.url.replace(/[.]/g, '\\.')}${dir}p/interview/#v=1&exp=interview&iseed=4&cv=\\d+\\.\\d+\\.\\d+(\\s|$)`), 'the share link');
    assert.match(text, new RegExp(`\\(\\[.+\\]\\(http://127\\.0\\.0\\.1:\\d+/lab/${dir}p/variance/#v=1&exp=variance&dk=512&seed=4&cv=\\d+\\.\\d+\\.\\d+\\)\\)`), 'a show-me link');
    console.log(`Copy answer (${lang}):\n${text}\n`);
  }
});

test('print: an A4 cheat sheet of at most two pages whose text holds the live numbers; nothing is cut across a page', async () => {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  for (const lang of ['en', 'zh-CN']) {
    const page = await sharedInterview(lang);
    await page.waitForFunction(() => !document.querySelector('[data-panel="interview"] .formula[aria-busy]'));
    const shown = await liveOf(page);
    await page.emulateMedia({ media: 'print' });
    // the formulas are rendered, the page chrome is gone, the links show their short URLs
    assert.ok(await page.$$eval('[data-panel="interview"] .katex', (k) => k.length) >= 2, 'KaTeX formulas');
    assert.equal(await page.isVisible('[data-bar]'), false);
    const after = await page.$eval('[data-item="30s-p1"] a[data-show]', (a) => getComputedStyle(a, '::after').content);
    assert.match(after, /^" #exp=variance&dk=512&seed=4"$/, 'a link prints as its short URL (the base is printed once)');
    assert.match(await page.textContent('.iv-print-base'), /127\.0\.0\.1:\d+\/lab\//);
    const breaks = await page.$$eval('[data-panel="interview"] canvas, [data-panel="interview"] [data-chart-box], [data-panel="interview"] .katex-block, [data-panel="interview"] .iv-item',
      (els) => els.map((e) => getComputedStyle(e).breakInside));
    assert.ok(breaks.length > 0 && breaks.every((b) => b === 'avoid'), 'charts, formulas and items are never split across pages');
    const pdf = await page.pdf({ format: 'A4', printBackground: false, preferCSSPageSize: true });
    const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false }).promise;
    assert.ok(doc.numPages >= 1 && doc.numPages <= 2, `${lang}: ${doc.numPages} A4 pages`);
    const first = await doc.getPage(1);
    const [, , w, h] = first.view;
    assert.ok(Math.abs(w - 595.3) < 2 && Math.abs(h - 841.9) < 2, `A4 (${w} × ${h} pt)`);
    let text = '';
    for (let i = 1; i <= doc.numPages; i++) text += (await (await doc.getPage(i)).getTextContent()).items.map((it) => it.str).join('') + '\n';
    const flat = text.replace(/\s+/g, '');
    // the items marked on screen only (.iv-screen-only) are left out of the sheet; every other number is printed
    const printed = new Set(await page.$$eval('[data-live]', (els) => els.filter((e) => !e.closest('.iv-screen-only')).map((e) => e.dataset.live)));
    assert.ok(printed.size >= 40, `${printed.size} numbers on the sheet`);
    for (const [id, { text: num }] of Object.entries(shown)) if (printed.has(id)) assert.ok(flat.includes(num.replace(/\s+/g, '')), `${lang}: ${id} = ${num} in the PDF text`);
    await page.emulateMedia({ media: 'screen' });
  }
});

test('a 360 px phone: no sideways scroll in either language; every link has a touch-sized target', async () => {
  const { browser } = suite;
  for (const lang of ['en', 'zh-CN']) {
    const ctx = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const page = await openInterview(`#v=1&lang=${lang}`, ctx);
    const m = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
    assert.ok(m.sw <= m.cw, `${lang}: page ${m.sw} px wide in a ${m.cw} px screen`);
    const small = await page.$$eval('a[data-show], a[data-deep]', (as) => as.filter((a) => { const r = a.getBoundingClientRect(); return r.height < 24; }).length);
    assert.equal(small, 0, `${lang}: links at least 24 px high`);
    await ctx.close();
  }
});

test('axe-core finds no violation on the interview view, in both languages and colour schemes', async () => {
  // the view each language's earlier tests loaded; the page follows prefers-color-scheme live
  // (theme.ts): both schemes are checked in place
  for (const lang of ['en', 'zh-CN']) {
    const page = await sharedInterview(lang);
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.evaluate(axeSource);
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
      const r = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
      assert.deepEqual(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`), [], `${scheme} ${lang}`);
    }
  }
  assert.deepEqual([...log.pageErrors, ...log.consoleErrors], []);
});
