// Waiting for one panel only (the lab panels' browser tests and bench:ui): every chart of the
// panel drawn with data and every readout of the panel holding a value — so a test of one panel
// does not wait on the others.

/** Waits until every chart box and readout inside [data-panel=panel] is filled. */
export async function panelSettled(page, panel, timeout = 30000) {
  await page.waitForFunction((panel) => {
    const root = document.querySelector(`[data-panel="${panel}"]`);
    if (!root) return false;
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
