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

/**
 * Reads the link's core version from a parse result: shows (or clears) the notice and puts this
 * core's version into the state. Returns the same parse result.
 */
export function checkLinkVersion(parsed: ParseResult, reads: LinkReads): ParseResult {
  const made = otherCoreVersion(parsed.state.cv);
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
