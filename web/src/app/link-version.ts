// The core version in links (`cv=`, web/src/state/schema.js): a link records which version of the
// core made its numbers. A link made by another version opens normally, with a short notice that
// its numbers may differ; from then on the page's own version is in the state, so every link it
// writes or copies names the core that computes what the page shows.
import { CORE_VERSION } from '../../../wasm/js/version.js';
import type { ParseResult } from '../state/state.ts';
import { translator, loadCatalogue, hasCatalogue } from '../i18n/catalogue.ts';
import { h } from '../dom.ts';
import './notices.css';

export { CORE_VERSION };

/** The version that made a link when it is not this core's, else null. Pure. */
export function otherCoreVersion(linkVersion: string, current: string = CORE_VERSION): string | null {
  return linkVersion === current ? null : linkVersion;
}

/** Counts the links read (the page's, in its AppState): a link's notice waiting for its catalogue is not shown once a newer link is read. */
export interface LinkReads { count: number }

/** The key of history.state under which a page leaving marks the hash it left in the address bar as its own. */
const OWN_ADDRESS = 'sqrtdkOwnAddress';

/**
 * Marks, as the page goes away (a reload among others), the address bar's hash as the page's own:
 * its history entry keeps the mark across the reload, so the next version of the page does not
 * flag the reader's own address as a link "made with core …" (the hash names the core of the
 * version that wrote it, which an update replaced).
 */
export function markOwnAddress(): void {
  window.addEventListener('pagehide', () => {
    try {
      const state = history.state !== null && typeof history.state === 'object' ? history.state as Record<string, unknown> : {};
      history.replaceState({ ...state, [OWN_ADDRESS]: location.hash }, '');
    } catch { /* the entry cannot be marked: the notice may show */ }
  });
}

/**
 * Whether the hash in the address bar is the one this tab's page left there, not a link: the
 * history entry the page wrote names its address (web/src/state/url.ts writes `address` into each
 * entry as it writes the address bar), or the page marked it as it left (markOwnAddress). The entry
 * is what a reload keeps in Chromium: a mark written at pagehide comes after the reload took the
 * entry's state (seen in the faults test: the reader's own address was flagged).
 */
export function isOwnAddress(): boolean {
  const state = history.state as Record<string, unknown> | null;
  return state !== null && typeof state === 'object' && (state[OWN_ADDRESS] === location.hash || (state.sqrtdk === 1 && state.address === location.hash));
}

/**
 * Reads the link's core version from a parse result: shows (or clears) the notice and puts this
 * core's version into the state. Returns the same parse result. `own`: the hash is the reader's
 * own address (isOwnAddress), written by an earlier version of this page: no notice.
 */
export function checkLinkVersion(parsed: ParseResult, reads: LinkReads, own = false): ParseResult {
  const made = own ? null : otherCoreVersion(parsed.state.cv);
  parsed.state.cv = CORE_VERSION;
  const read = ++reads.count;
  document.querySelector('[data-notice="core-version"]')?.remove();
  if (made !== null) {
    // in the link's language: at once when its catalogue is in, else once it is (only the newest link's)
    const lang = parsed.state.lang;
    const show = () => { if (read === reads.count) showMade(made, lang); };
    if (hasCatalogue(lang)) show(); else void loadCatalogue(lang).then(show, show);
  }
  return parsed;
}

/** The notice of a link made by core `made`, in `lang`, above the app. */
function showMade(made: string, lang: ParseResult['state']['lang']): void {
  document.querySelector('[data-notice="core-version"]')?.remove();
  const t = translator(lang);
  const box = h('div', { class: 'notice app-notice', role: 'status', 'data-notice': 'core-version', 'data-made': made },
    h('span', { text: t('notice.coreVersion', { made, current: CORE_VERSION }) + ' ' }),
    h('button', { type: 'button', class: 'mini', text: t('notice.dismiss'), onclick: () => box.remove() }));
  const app = document.getElementById('app');
  if (app) app.before(box);
  else document.body.prepend(box);
}
