// Both message catalogues of the page, whole: the English (./messages.en.ts and the packs of the training
// lab, the interview view and the device panel) and the Simplified Chinese, at once — for Node (the share
// pages and first paints of the build, scripts/share-pages.ts) and the tests. MessageKey (./keys.ts)
// is every key of the English catalogue. The page itself loads the catalogue of its language in parts, when they are needed
// (./catalogue.ts), and imports only types from here.
import { enBase } from './messages.en.ts';
import { zhBase } from './messages.zh-CN.ts';
import { trainEn } from './packs/training.ts';
import { trainZh } from './packs/training.zh-CN.ts';
import { ivEn } from './packs/interview.ts';
import { ivZh } from './packs/interview.zh-CN.ts';
import { drillEn } from './packs/drill.ts';
import { drillZh } from './packs/drill.zh-CN.ts';
import { deviceEn } from './packs/device.ts';
import { deviceZh } from './packs/device.zh-CN.ts';
import { fill } from './translate.ts';
import type { T } from './translate.ts';
import type { MessageKey } from './keys.ts';

export const en = { ...enBase, ...trainEn, ...ivEn, ...deviceEn, ...drillEn } as const;
export type { MessageKey };
export const zhCN: Record<MessageKey, string> = { ...zhBase, ...trainZh, ...ivZh, ...deviceZh, ...drillZh };
export type { T, Catalogue } from './translate.ts';

export const CATALOGUES = { en, 'zh-CN': zhCN } as const;
export type Lang = keyof typeof CATALOGUES;

/** A translator bound to one language (English where a key has no message in it). */
export function translator(lang: Lang): T {
  const cat = CATALOGUES[lang] ?? en;
  return (key, vars) => fill(cat, en, key, vars);
}
