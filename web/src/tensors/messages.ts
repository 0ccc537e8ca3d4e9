// Strings of the tensor reader added after the main catalogue, English and Simplified Chinese;
// merged into the one catalogue of web/src/i18n/messages.ts (as the training lab's are).
export const tensorsEn = {
  'tens.err.csvHeader': '{name}, line {line}: “{value}” is text, not numbers; only the first row may be a header of names.',
} as const;

export const tensorsZh: Record<keyof typeof tensorsEn, string> = {
  'tens.err.csvHeader': '{name} 第 {line} 行：“{value}”是文字而不是数字；只有第一行可以是列名表头。',
};
