// Both message catalogues of the page, English (./messages.en.ts) and Simplified Chinese
// (./messages.zh-CN.ts), at once: for Node (the share pages and first paints of the build,
// scripts/share-pages.ts) and the tests. The page itself loads only the catalogue of its language, when it is
// needed (./catalogue.ts), and imports only types from here.
import { en } from './messages.en.ts';
import { zhCN } from './messages.zh-CN.ts';
import { fill } from './translate.ts';
import type { T } from './translate.ts';

export { en, zhCN };
export type { MessageKey } from './messages.en.ts';
export type { T, Catalogue } from './translate.ts';

export const CATALOGUES = { en, 'zh-CN': zhCN } as const;
export type Lang = keyof typeof CATALOGUES;

/** A translator bound to one language (English where a key has no message in it). */
export function translator(lang: Lang): T {
  const cat = CATALOGUES[lang] ?? en;
  return (key, vars) => fill(cat, en, key, vars);
}
