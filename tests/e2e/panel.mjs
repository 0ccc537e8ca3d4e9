// Waiting for one panel only (the lab panels' browser tests and bench:ui): every chart of the
// panel drawn with data and every readout of the panel holding a value — so a test of one panel
// does not wait on the others.

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
