// The page's side of the core: its own instance for the cost model (the first part, then the full core in idle time or when a view needs it), and the workers' info on the engine.
import { CoreError } from '../compute.ts';
import { pageCore } from '../worker/boot.ts';
import { useCostCore, warmCost } from '../worker/cost.ts';
import type { AppState } from './state.ts';
import { showStatus, markEngine } from './status.ts';
import { showEmbedFailure } from './embed.ts';

/** ms after the first view is in the page before the full core is loaded in idle time (its charts come first). */
const FULL_CORE_AFTER_MS = 500;

/**
 * The page's own instance of the core for the cost model, once: tried again when the workers'
 * core loads after a failure (recovered()), so requests are sized again once the lab can compute.
 */
export function costCore(app: AppState): Promise<void> {
  if (app.costCoreLoaded) return Promise.resolve();
  return pageCore(app.costOnFull ? app.coreSource.full() : app.coreSource.get()).then((c) => {
    app.costCoreLoaded = true;
    if (!(app.costOnFull && c.part === 'first')) useCostCore(c);
    setTimeout(warmCost, 0);
  }, (e: unknown) => console.warn('the core did not load on the page:', e instanceof Error ? e.message : e));
}

/**
 * The full core for the page's cost model (and so, through coreSource, for the workers): once a
 * view beyond the first part opens, or the page is idle after its first view. Never rejects: where
 * it cannot load, the first part's calls keep their estimates and the others are not sized.
 */
function fullCostCore(app: AppState): Promise<void> {
  app.costOnFull ??= pageCore(app.coreSource.full()).then((c) => { app.costCoreLoaded = true; useCostCore(c); }, (e: unknown) => {
    app.costOnFull = null;
    console.warn('the full core did not load on the page:', e instanceof Error ? e.message : e);
  });
  return app.costOnFull;
}

/**
 * The views waiting for the full core (viewReady on a page that started on the first part): while
 * one does, the status bar says the core is loading, with its download's progress (a slow network
 * left the reader on the old view under the new tab, with no word of what it waited for).
 */
export function waitForFull(app: AppState): Promise<void> {
  app.waitingFull++;
  showStatus(app);
  return fullCostCore(app).finally(() => {
    app.waitingFull--;
    if (app.waitingFull === 0 && app.info) app.download = null;
    showStatus(app);
  });
}

/**
 * After the first view (on the first part), the full core is fetched and compiled (off the main
 * thread) in the page's idle time and handed to the workers, so another view opens at once; the
 * page's own instance of it (the cost model: a 50 ms instantiation on this thread) waits until a
 * view needs it (viewReady).
 */
export function loadFullWhenIdle(app: AppState): void {
  if (app.fullSoon) return;
  app.fullSoon = true;
  setTimeout(() => whenIdle(() => void app.coreSource.full()), FULL_CORE_AFTER_MS);
}

/** Runs `f` in the page's idle time (at the latest after 5 s). */
export function whenIdle(f: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(f, { timeout: 5000 }); else setTimeout(f, 0);
}

/** Asks the workers what engine computes (the status bar, the device panel, <html data-engine>). */
export function requestInfo(app: AppState): void {
  app.compute.call('live', 'info', {}).then((i) => { app.info = i; app.download = null; app.engine.set(i); markEngine(app); showStatus(app); }, (e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    app.engine.set(null, message);
    if (app.store.state.embed) showEmbedFailure(app, message);
    if (e instanceof CoreError && e.kind === 'unavailable') return;  // the notice says it
    app.infoError = message;
    showStatus(app);
  });
}
