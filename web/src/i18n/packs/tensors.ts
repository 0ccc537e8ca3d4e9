// Strings of the tensor reader added after the main catalogue in English (the Chinese in the .zh-CN.ts beside);
// merged into the English catalogue web/src/i18n/messages.en.ts (as the training lab's are).
export const tensorsEn = {
  // the scale control's echo: what the chosen scale does to the loaded pair's scores (d_k = {dk})
  'tens.scaleEcho.none': 'scores × 1',
  'tens.scaleEcho.inv_sqrt_dk': 'scores ÷ {root} (√{dk})',
  'tens.scaleEcho.inv_dk': 'scores ÷ {dk}',
  'tens.err.csvHeader': '{name}, line {line}: “{value}” is text, not numbers; only the first row may be a header of names.',
} as const;
