// The service worker of the Progressive Web App (built by vite-plugin-pwa, scripts/pwa-config.ts):
// registers it, and when a new version of the site has been deployed and its service worker is
// installed and waiting, shows "update available — reload". The new version is never swapped in
// silently under a running experiment: only the user's click activates it and reloads the page.
import { Workbox } from 'workbox-window';
import { h } from '../dom.ts';
import type { T } from '../i18n/messages.ts';
import './notices.css';
import { opaqueOrigin } from '../worker/spawn.ts';
import { pageContext, siteRoot } from '../share/url.ts';

/**
 * Registers the site's one service worker (sw.js at the site's root, scope the root) from any page
 * of the site — the root or a share page p/<exp>/ — after the load event, with the prompt rule of
 * vite-plugin-pwa's registerSW: a worker waiting (or installed by another tab) calls onNeedRefresh.
 * Returns the function that lets the waiting worker take over.
 */
function registerAtRoot(o: { onNeedRefresh(): void; onRegisterError(e: unknown): void }): (reload: boolean) => Promise<void> {
  const root = siteRoot(location.href, pageContext(document.documentElement));
  const wb = new Workbox(new URL('sw.js', root).href, { scope: root });
  const prompt = () => o.onNeedRefresh();
  wb.addEventListener('waiting', prompt);
  wb.addEventListener('installed', (e) => { if (e.isUpdate === undefined && e.isExternal) prompt(); });
  wb.register({ immediate: false }).catch(o.onRegisterError);
  return async () => { wb.messageSkipWaiting(); };
}

/** How long a page waits for the waiting version's answer to how many pages of the site are open. */
const OPEN_PAGES_ANSWER_MS = 2000;

/** ms between the counts of the site's open pages when another page seems to hold the old version. */
const OPEN_PAGES_AGAIN_MS: readonly number[] = [500, 1500];

/** The pages of the site open now (this one included), as the service worker `sw` counts them (web/public/sw-keep.js); null when it does not answer. */
function openPages(sw: ServiceWorker): Promise<number | null> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    const timer = setTimeout(() => resolve(null), OPEN_PAGES_ANSWER_MS);
    ch.port1.onmessage = (ev: MessageEvent) => {
      clearTimeout(timer);
      const n = (ev.data as { count?: unknown } | null)?.count;
      resolve(typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null);
    };
    sw.postMessage({ type: 'SQRTDK_CLIENTS' }, [ch.port2]);
  });
}

/** ms the page waits for the waiting version to start activating after SKIP_WAITING, before each nudge (nudgeActivation). */
const ACTIVATE_NUDGE_MS: readonly number[] = [250, 1000, 2000];

/** Resolves true once `sw` leaves the state 'installed' (it activates), false after `ms` if it has not. */
function leavesWaiting(sw: ServiceWorker, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (sw.state !== 'installed') { resolve(true); return; }
    const done = (v: boolean) => { clearTimeout(timer); sw.removeEventListener('statechange', changed); resolve(v); };
    const changed = () => { if (sw.state !== 'installed') done(true); };
    const timer = setTimeout(() => done(sw.state !== 'installed'), ms);
    sw.addEventListener('statechange', changed);
  });
}

/**
 * Makes sure a waiting worker that was told to skip waiting takes over. Chromium activates it only
 * once the old worker is idle, and asks the old worker to stop when idle only if it is running when
 * skipWaiting is called (and again on each navigation in the scope). A reload leaves the old worker
 * without pages for a moment, so it is stopped and started again just as the reloaded page posts
 * SKIP_WAITING: the call came while it was not running, and the new version stayed waiting (still
 * after 44 s in the faults test; it would have waited for the browser's 5-minute limit). A hidden
 * frame of one of the site's files (sw-keep.js, precached, shown as text) is a navigation in the
 * scope: the browser checks again, and the new version takes over once the old worker is idle.
 */
async function nudgeActivation(sw: ServiceWorker, root: string): Promise<void> {
  let nudges = 0;
  for (const ms of ACTIVATE_NUDGE_MS) {
    if (await leavesWaiting(sw, ms)) return;
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.tabIndex = -1;
    frame.setAttribute('aria-hidden', 'true');
    frame.src = new URL('sw-keep.js', root).href;
    frame.addEventListener('load', () => frame.remove());
    document.body.append(frame);
    document.documentElement.dataset.updateNudges = String(++nudges);
  }
}

declare const __SQRTDK_BUILD__: string;

/** The build label of this page (SQRTDK_BUILD_ID at build time, else the package version). */
export const BUILD_ID: string = __SQRTDK_BUILD__;

/**
 * Registers the service worker (where the browser has them and the page is a secure context) and
 * shows the update notice when a new version waits. `tr` gives the current translator; the
 * registration waits for `after` (and the load event), so that a first visit's precache download
 * (113 files) does not compete with the first view for the CPU: registered at the load event, it
 * made cold loads on two cores 65–95 ms slower to the first chart and put main-thread tasks over
 * 50 ms (bench:ui, paired runs with and without it).
 */
export function startPwa(tr: () => T, after: Promise<unknown> = Promise.resolve()): void {
  document.documentElement.dataset.build = BUILD_ID;
  // a sandboxed frame without allow-same-origin (an opaque origin) may not even read
  // navigator.serviceWorker: the embed runs online, without one
  if (opaqueOrigin() || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  let notice: HTMLElement | null = null;
  let reloading = false;
  let clicked = false;
  // The update was taken in another tab: the new service worker controls this page too, but this
  // page keeps running its own version (its files are kept: web/public/sw-keep.js) — say so.
  let controlled = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (clicked) { if (!reloading) { reloading = true; location.reload(); } return; }
    const was = controlled;
    controlled = true;
    if (!was) return;  // a first visit's service worker taking control: nothing changed
    showNotice('notice.updated');
  });
  // A new version installed and waiting since an earlier visit: a waiting service worker takes
  // over only once no page of the old version is left, which a reload never achieves (the page
  // reloading is one), so three reloads stayed on the old version. Taken now when this page is the
  // only page of the site open — the page reloads into it; else the notice says how many other
  // pages hold the old version.
  // The page a reload replaces may still be counted for a moment: counted again after each of
  // OPEN_PAGES_AGAIN_MS before the notice says other pages hold the old version (<html
  // data-update-counts> keeps the counts, for tests).
  let others = 0;
  const root = siteRoot(location.href, pageContext(document.documentElement));
  void navigator.serviceWorker.getRegistration(root).then(async (reg) => {
    const waiting = reg?.waiting;
    if (!waiting || !navigator.serviceWorker.controller) return;
    const counts: (number | null)[] = [];
    for (let i = 0; i <= OPEN_PAGES_AGAIN_MS.length; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, OPEN_PAGES_AGAIN_MS[i - 1]));
      const n = await openPages(waiting);
      counts.push(n);
      document.documentElement.dataset.updateCounts = counts.join(',');
      if (n === null || reg?.waiting !== waiting) return;
      if (n <= 1) {
        // the page reloads into the new version once it is active (its controllerchange may not
        // come: a page the new worker does not claim)
        clicked = true;
        waiting.addEventListener('statechange', () => {
          if (waiting.state === 'activated' && !reloading) { reloading = true; location.reload(); }
        });
        waiting.postMessage({ type: 'SKIP_WAITING' });
        await nudgeActivation(waiting, root);
        return;
      }
      others = n - 1;
    }
    if (notice?.isConnected && notice.dataset.kind === 'waiting') showNotice('notice.update');
  }, () => {});
  function showNotice(key: 'notice.update' | 'notice.updated'): void {
    notice?.remove();
    const t = tr();
    const button = h('button', { type: 'button', class: 'button', 'data-action': 'reload-update', text: t('notice.update.reload') }) as HTMLButtonElement;
    button.addEventListener('click', () => {
      button.disabled = true;
      clicked = true;
      // the waiting worker takes over, then the page reloads into the new version (workbox-window
      // reloads only when this page was already controlled when it registered, not on a first
      // visit); when another tab took the update already, nothing waits: reload now
      void navigator.serviceWorker.getRegistration().then((r) => {
        if (r?.waiting) void updateSW(true);
        else if (!reloading) { reloading = true; location.reload(); }
      });
    });
    notice = h('div', { class: 'notice update-notice', role: 'status', 'data-notice': 'update', 'data-kind': key === 'notice.update' ? 'waiting' : 'taken' },
      h('p', { text: key === 'notice.update' && others > 0 ? t('notice.update.others', { n: others }) : t(key) }), button);
    if (key === 'notice.update') notice.dataset.others = String(others);
    document.body.append(notice);
  }
  let updateSW: (reload: boolean) => Promise<void> = async () => {};
  // after `after` and the page's load event: the first visit's precache download does not compete with them
  void after.then(() => { updateSW = registerAtRoot({
    onNeedRefresh() {
      if (notice?.isConnected) return;
      showNotice('notice.update');
    },
    onRegisterError(error: unknown) {
      // the page works without it (online only); say why in the console, not in the page
      console.warn('√dk Lab: the service worker could not be registered; the page will need the network.', error);
    },
  }); });
}
