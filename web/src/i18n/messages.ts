// Both message catalogues of the page, whole: the English (./messages.en.ts and the packs of the training
// lab, the interview view and the device panel) and the Simplified Chinese, at once — for Node (the share
// pages and first paints of the build, scripts/share-pages.ts) and the tests. The English catalogue gives
// MessageKey. The page itself loads the catalogue of its language in parts, when they are needed
// (./catalogue.ts), and imports only types from here.
import { enBase } from './messages.en.ts';
import { zhBase } from './messages.zh-CN.ts';
import { trainEn } from '../training/messages.ts';
import { trainZh } from '../training/messages.zh-CN.ts';
import { ivEn } from '../interview/messages.ts';
import { ivZh } from '../interview/messages.zh-CN.ts';
import { drillEn } from '../interview/messages-drill.ts';
import { drillZh } from '../interview/messages-drill.zh-CN.ts';
import { deviceEn } from '../device/messages.ts';
import { deviceZh } from '../device/messages.zh-CN.ts';
import { fill } from './translate.ts';
import type { T } from './translate.ts';

export const en = { ...enBase, ...trainEn, ...ivEn, ...deviceEn, ...drillEn } as const;
export type MessageKey = keyof typeof en;
export const zhCN: Record<MessageKey, string> = { ...zhBase, ...trainZh, ...ivZh, ...deviceZh, ...drillZh };
export type { T, Catalogue } from './translate.ts';

export const CATALOGUES = { en, 'zh-CN': zhCN } as const;
export type Lang = keyof typeof CATALOGUES;

/** A translator bound to one language (English where a key has no message in it). */
export function translator(lang: Lang): T {
  const cat = CATALOGUES[lang] ?? en;
  return (key, vars) => fill(cat, en, key, vars);
}
