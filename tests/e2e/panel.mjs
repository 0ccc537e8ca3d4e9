// Waiting for one panel only (the lab panels' browser tests and bench:ui): every chart of the
// panel drawn with data and every readout of the panel holding a value — so a test of one panel
// does not wait on the others; and a view as a reader first sees it (views.test.mjs).

/** Waits until every chart box and readout inside [data-panel=panel] is filled. */
export async function panelSettled(page, panel, timeout = 30000) {
  await page.waitForFunction((panel) => {
    const root = document.querySelector(`[data-panel="${panel}"]`);
    if (!root) return false;
    // the panel has taken the current state (its tab links to it) and has no work in flight
    if (root.dataset.pending !== undefined && root.dataset.pending !== '0') return false;
    const tab = document.querySelector(`[data-nav="${panel}"]`);
    if (tab && !document.body.classList.contains('embed') && new URL(tab.href).hash !== location.hash) return false;
    const boxes = [...root.querySelectorAll('[data-chart-box]')];
    if (boxes.length === 0) return false;
    const drawn = boxes.every((b) => !b.classList.contains('pending') && !b.classList.contains('refining') && Number(b.dataset.points) > 0);
    const ros = [...root.querySelectorAll('[data-readout]')];
    return drawn && ros.every((r) => r.textContent !== '–' && r.textContent !== '');
  }, panel, { timeout, polling: 50 });
}

/** The readouts of one panel, by id. */
export function panelReadouts(page, panel) {
  return page.evaluate((panel) => Object.fromEntries([...document.querySelectorAll(`[data-panel="${panel}"] [data-readout]`)].map((e) => [e.dataset.readout, e.textContent])), panel);
}

/**
 * Waits until a panel shows the outcome of the current state: none of its work in flight
 * (data-pending = "0", counted by the panels' requests), the address bar holding the state (the
 * panel's tab links to the same hash, unless embedded), and every readout filled or a refusal shown.
 */
export async function panelQuiet(page, panel, timeout = 60000) {
  await page.waitForFunction((panel) => {
    const root = document.querySelector(`[data-panel="${panel}"]`);
    if (!root || root.dataset.pending !== '0') return false;
    const tab = document.querySelector(`[data-nav="${panel}"]`);
    if (tab && new URL(tab.href).hash !== location.hash) return false;
    const refused = [...root.querySelectorAll('[data-err-for]')].some((e) => e.textContent !== '');
    return refused || [...root.querySelectorAll('[data-readout]')].every((r) => r.textContent !== '–' && r.textContent !== '');
  }, panel, { timeout, polling: 50 });
}

/** The refusals a panel shows: [slot, text] of every non-empty error slot (and a tensor file error). */
export function panelRefusals(page, panel) {
  return page.evaluate((panel) => {
    const root = document.querySelector(`[data-panel="${panel}"]`);
    if (!root) return [];
    const out = [...root.querySelectorAll('[data-err-for]')].filter((e) => e.textContent !== '').map((e) => [e.dataset.errFor, e.textContent]);
    const tensor = root.querySelector('[data-tensor-error][data-kind="error"]');
    if (tensor && tensor.textContent !== '') out.push(['tensor-file', tensor.textContent]);
    return out;
  }, panel);
}

// A view as a reader first sees it (tests/e2e/views.test.mjs): its charts drawn as they come on screen,
// and its heading and first chart in the first screen.

/** The views with no chart before the reader acts. */
export const CHARTLESS = new Set(['followups', 'training', 'device']);  // no chart before the reader acts
/** The first chart of a view (a table, the follow-up list or the training run bar where the panel opens with one). */
export const FIRST = '[data-chart-box] canvas, [data-table-box], .presets-list, .train-runbar, .device-runbar';

/** Waits until the panel's charts are computed and the charts on screen are drawn (charts below the fold draw when scrolled to). */
export async function settle(page, panel) {
  await page.waitForSelector(`[data-panel="${panel}"] h2`);
  if (!CHARTLESS.has(panel)) {
    await panelSettled(page, panel, 60000);
    await page.waitForFunction((p) => [...document.querySelectorAll(`[data-panel="${p}"] canvas[data-chart]`)].every((c) => {
      const r = c.getBoundingClientRect();
      return r.top > innerHeight || r.bottom < 0 || Number(c.dataset.renders ?? 0) >= 1;
    }), panel);
  }
}

/** Scrolls through the view as a reader does and checks that every chart has drawn. */
export async function allDrawn(page, panel) {
  for (const id of await page.$$eval(`[data-panel="${panel}"] [data-chart-box]`, (bs) => bs.map((b) => b.dataset.chartBox))) {
    // a chart the view shows only for some settings (the training lab's scale chart) may be hidden by the time it is reached
    if (await page.$eval(`[data-chart-box="${id}"]`, (b) => b.closest('[hidden]') !== null)) continue;
    await page.locator(`[data-chart-box="${id}"]`).scrollIntoViewIfNeeded();
    await page.waitForFunction((id) => Number(document.querySelector(`canvas[data-chart="${id}"]`)?.dataset.renders ?? 0) >= 1, id);
  }
}

/** The heading of the panel fully on screen and at least 120 px (or half) of its first chart. */
export async function inFirstScreen(page, panel) {
  return page.evaluate(([panel, FIRST]) => {
    const root = document.querySelector(`[data-panel="${panel}"]`);
    const hb = root.querySelector('h2').getBoundingClientRect();
    const first = root.querySelector(FIRST);
    const fb = first.getBoundingClientRect();
    const bar = document.querySelector('[data-bar]')?.getBoundingClientRect().bottom ?? 0;
    const visible = Math.min(fb.bottom, innerHeight) - Math.max(fb.top, bar);
    return { ok: hb.top >= bar - 1 && hb.bottom <= innerHeight && visible >= Math.min(120, fb.height / 2), heading: [hb.top, hb.bottom], first: [fb.top, fb.bottom], bar, height: innerHeight };
  }, [panel, FIRST]);
}
