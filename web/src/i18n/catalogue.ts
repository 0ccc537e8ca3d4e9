// The page's message catalogues, one language at a time and in parts: the base (./messages.en.ts,
// ./messages.zh-CN.ts: the page's frame, the titles of every view and the strings of most views) and the
// packs of the views with many strings of their own (the interview view, the training lab, the device
// panel), each its own chunk, loaded with the code of a view that needs it (web/src/app/views.ts) or on a switch
// of language. So a page never downloads the language it does not show, nor the strings of views not
// opened. The page builds nothing before its language's parts are in, so a Chinese page never flashes
// English. Node and the tests read both whole catalogues at once from ./messages.ts.
import type { Lang, Panel } from '../state/state.ts';
import type { Catalogue, T } from './translate.ts';
import { fill } from './translate.ts';

type Part = Partial<Catalogue>;
const PACKS = {
  base: {
    en: () => import('./messages.en.ts').then((m) => m.enBase),
    'zh-CN': () => import('./messages.zh-CN.ts').then((m) => m.zhBase),
  },
  interview: {
    en: () => Promise.all([import('./packs/interview.ts'), import('./packs/drill.ts')]).then(([a, b]) => ({ ...a.ivEn, ...b.drillEn })),
    'zh-CN': () => Promise.all([import('./packs/interview.zh-CN.ts'), import('./packs/drill.zh-CN.ts')]).then(([a, b]) => ({ ...a.ivZh, ...b.drillZh })),
  },
  training: {
    en: () => import('./packs/training.ts').then((m) => m.trainEn),
    'zh-CN': () => import('./packs/training.zh-CN.ts').then((m) => m.trainZh),
  },
  device: {
    en: () => import('./packs/device.ts').then((m) => m.deviceEn),
    'zh-CN': () => import('./packs/device.zh-CN.ts').then((m) => m.deviceZh),
  },
} satisfies Record<string, Record<Lang, () => Promise<Part>>>;
export type Pack = keyof typeof PACKS;

/** The packs a view's strings need beside the base (the interview view runs the training lab's default run). */
export const VIEW_PACKS: Partial<Record<Panel, readonly Pack[]>> = {
  interview: ['interview', 'training'],
  training: ['training'],
  device: ['device'],
};
/** The parts of the catalogue a view needs (without a view: the base, what the page's frame and notices say). */
export function packsOf(view?: Panel): Pack[] {
  return ['base', ...(view ? VIEW_PACKS[view] ?? [] : [])];
}

/**
 * The catalogue's cache, the page's strings as they arrive: each language's messages loaded so far
 * (the parts merged), its parts in, and the loads under way. Keyed by language and part; bounded by
 * 2 languages × the parts of PACKS, nothing evicted (a part once in is the page's words until it
 * closes), a failed load dropped so the next call tries again.
 */
const messages: Record<Lang, Part> = { en: {}, 'zh-CN': {} };
const inParts: Record<Lang, Set<Pack>> = { en: new Set(), 'zh-CN': new Set() };
const loading = new Map<string, Promise<void>>();

/** Whether the parts of `lang` that `view` needs (or the base, without a view) are in: its messages can be shown synchronously. */
export function hasCatalogue(lang: Lang, view?: Panel): boolean {
  return packsOf(view).every((p) => inParts[lang].has(p));
}

/** Loads one part of a language once; a part that could not be fetched is tried again by the next call. */
function loadPart(lang: Lang, pack: Pack): Promise<void> {
  if (inParts[lang].has(pack)) return Promise.resolve();
  const id = `${lang}:${pack}`;
  let got = loading.get(id);
  if (!got) {
    got = PACKS[pack][lang]().then((part) => { Object.assign(messages[lang], part); inParts[lang].add(pack); });
    loading.set(id, got);
    got.catch(() => { if (loading.get(id) === got) loading.delete(id); });
  }
  return got;
}

/**
 * Loads the parts of the catalogue of `lang` that `view` needs (without a view: the base), each once.
 * Rejects with a loader's error if a chunk cannot be fetched (offline before the precache, a version gone
 * from the site); a later call tries again.
 */
export function loadCatalogue(lang: Lang, view?: Panel): Promise<void> {
  return Promise.all(packsOf(view).map((p) => loadPart(lang, p))).then(() => {});
}

/**
 * A translator of `lang`. It reads the catalogue when called, so one made before the parts are in works
 * once they are; until then (or if the base could not be loaded) it says each message in a language whose
 * base is in, else gives the key.
 */
export function translator(lang: Lang): T {
  return (key, vars) => {
    const cat = inParts[lang].has('base') ? messages[lang] : inParts.en.has('base') ? messages.en : messages['zh-CN'];
    return fill(cat as Catalogue, messages.en as Catalogue, key, vars);
  };
}
