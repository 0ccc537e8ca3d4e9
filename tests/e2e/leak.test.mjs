// Issue 20: panels that let go. Leaving a view disposes its charts, listeners, observers and
// formula nodes, so 24 round trips between two views leave the DOM node and event-listener counts
// (CDP Memory.getDOMCounters, after a forced garbage collection) where one visit leaves them.
// The test keeps no element handle: Playwright's handles (page.waitForSelector returns one) are held
// by the DevTools session and would keep every closed panel alive — that, not the page, was the
// growth measured in issue 20.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { useSuite } from './browser.mjs';
import { panelSettled } from './panel.mjs';

const suite = useSuite('/leak/');

async function counters(cdp) {
  for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
  const c = await cdp.send('Memory.getDOMCounters');
  return { nodes: c.nodes, listeners: c.jsEventListeners };
}

test('24 round trips saturation ↔ gradient leave the node and listener counts of one visit', async (t) => {
  const page = await suite.context.newPage();
  const cdp = await suite.context.newCDPSession(page);
  await page.goto(`${suite.srv.url}#v=1&exp=saturation`);
  await panelSettled(page, 'saturation', 60000);
  // the tab, as a reader clicks it; no element handle is kept (a handle would hold the old panel)
  const open = async (panel) => {
    await page.click(`[data-nav="${panel}"]`);
    await panelSettled(page, panel, 60000);
  };
  const trip = async () => {
    await open('gradient');
    await open('saturation');
    await page.waitForTimeout(100);
  };
  await trip();
  const one = await counters(cdp);
  for (let i = 0; i < 24; i++) await trip();
  const many = await counters(cdp);
  t.diagnostic(`one visit: ${one.nodes} nodes, ${one.listeners} listeners; 25 visits: ${many.nodes} nodes, ${many.listeners} listeners`);
  // a few dozen nodes of slack: text nodes of readouts and the status line come and go
  assert.ok(many.nodes <= one.nodes * 1.05 + 50, `nodes after one visit ${one.nodes}, after 25: ${many.nodes}`);
  assert.ok(many.listeners <= one.listeners + 10, `listeners after one visit ${one.listeners}, after 25: ${many.listeners}`);
  await page.close();
});
