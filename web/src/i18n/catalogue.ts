// The page's message catalogues, one language at a time: each is its own chunk (./messages.en.ts,
// ./messages.zh-CN.ts), loaded when the page first needs that language (at start, beside the first view's
// code; on a switch of language), so a page never downloads the language it does not show. The page builds
// nothing before its language is in (web/src/main.ts), so a Chinese page never flashes English. Node and the
// tests read both catalogues at once from ./messages.ts.
import type { Lang } from '../state/state.ts';
import type { Catalogue, T } from './translate.ts';
import { fill } from './translate.ts';

const LOADERS: Record<Lang, () => Promise<Catalogue>> = {
  en: () => import('./messages.en.ts').then((m) => m.en),
  'zh-CN': () => import('./messages.zh-CN.ts').then((m) => m.zhCN),
};
const loaded = new Map<Lang, Catalogue>();
const loading = new Map<Lang, Promise<void>>();

/** Whether the catalogue of `lang` is in (its messages can be shown synchronously). */
export function hasCatalogue(lang: Lang): boolean {
  return loaded.has(lang);
}

/**
 * Loads the catalogue of `lang` once. Rejects with the loader's error if its chunk cannot be
 * fetched (offline before the precache, a version gone from the site); a later call tries again.
 */
export function loadCatalogue(lang: Lang): Promise<void> {
  if (loaded.has(lang)) return Promise.resolve();
  let got = loading.get(lang);
  if (!got) {
    got = LOADERS[lang]().then((cat) => { loaded.set(lang, cat); });
    loading.set(lang, got);
    got.catch(() => { if (loading.get(lang) === got) loading.delete(lang); });
  }
  return got;
}

/**
 * A translator of `lang`. It reads the catalogue when called, so one made before the catalogue is
 * in works once it is; until then (or if it could not be loaded) it says each message in a
 * language that is in, else gives the key.
 */
export function translator(lang: Lang): T {
  return (key, vars) => fill(loaded.get(lang) ?? loaded.values().next().value, loaded.get('en'), key, vars);
}
