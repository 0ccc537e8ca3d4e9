// The Simplified Chinese of ./messages.ts (its keys), in its own module so a page in one language
// loads only its own strings (web/src/i18n/catalogue.ts).
import type { tensorsEn } from './tensors.ts';

export const tensorsZh: Record<keyof typeof tensorsEn, string> = {
  'tens.scaleEcho.none': '分数 × 1',
  'tens.scaleEcho.inv_sqrt_dk': '分数 ÷ {root}（√{dk}）',
  'tens.scaleEcho.inv_dk': '分数 ÷ {dk}',
  'tens.err.csvHeader': '{name} 第 {line} 行：“{value}”是文字而不是数字；只有第一行可以是列名表头。',
};
