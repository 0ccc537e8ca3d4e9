// The Simplified Chinese of ./speed.ts (its keys), in its own module so a page in one language
// loads only its own strings (web/src/i18n/catalogue.ts).
import type { speedEn } from './speed.ts';

export const speedZh: Record<keyof typeof speedEn, string> = {
  'common.refining': '细化中……',
  'common.refiningTitle': '先用部分计算（更少的头、样本或查询）给出初步估计；完整结果算完后图表会更新，读数只显示完整结果。',
};
