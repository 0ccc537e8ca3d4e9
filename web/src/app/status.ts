// The status bar under the header: the core's start in plain words (its download, the retries, why it failed) while it is not ready, and the engine's mark on <html>.
import { setText } from '../dom.ts';
import type { AppState } from './state.ts';

/**
 * The core's start in plain words while it is not ready — its download, the retries, why it failed —
 * in the bar under the header; nothing once it computes (the device panel names the engine).
 */
function statusText(app: AppState): { text: string; title: string } {
  const { t, start, info, download, waitingFull } = app;
  if (start.state === 'unavailable') return { text: t('app.status.unavailable'), title: start.error };
  if (start.state === 'retrying') return { text: t('app.status.retrying', { attempt: start.attempt, attempts: start.attempts, s: Math.max(1, Math.round(start.inMs / 1000)) }), title: start.error };
  if (app.infoError) return { text: t('app.status.failed', { message: app.infoError }), title: '' };
  if ((!info || waitingFull > 0) && download && download.loaded > 0) {
    const mb = (b: number) => (b / 1048576).toFixed(1);
    return { text: download.total ? t('app.status.download', { loaded: mb(download.loaded), total: mb(download.total) }) : t('app.status.downloadSome', { loaded: mb(download.loaded) }), title: '' };
  }
  if (!info || waitingFull > 0) return { text: t('app.status.loading'), title: '' };
  // loaded: nothing to say here (the device panel names the engine, its version and build)
  return { text: '', title: '' };
}

export function showStatus(app: AppState): void {
  const { chrome, start } = app;
  if (!chrome) return;
  const s = statusText(app);
  chrome.status.dataset.state = start.state === 'unavailable' || app.infoError ? 'failed' : start.state === 'retrying' ? 'retrying' : app.info && app.waitingFull === 0 ? 'ready' : 'loading';
  setText(chrome.status, s.text);
  chrome.status.hidden = s.text === '';
  if (s.title) chrome.status.title = s.title; else chrome.status.removeAttribute('title');
}

/** The engine's state on the page: the kernel that computes, for tests and styles (the device panel shows it in words). */
export function markEngine(app: AppState): void {
  const k = app.engine.effectiveKernel(app.store.state.kernel);
  if (k) document.documentElement.dataset.engine = k;
}
