// Strings of the progressive charts (a chart drawn from a first slice of the work, refining to the
// full result); merged into the one catalogue of web/src/i18n/messages.ts.
export const speedEn = {
  'common.refining': 'refining…',
  'common.refiningTitle': 'A first estimate from part of the work (fewer heads, samples or queries); the chart updates when the full result is in, and the readouts show only full results.',
} as const;

export const speedZh: Record<keyof typeof speedEn, string> = {
  'common.refining': '细化中……',
  'common.refiningTitle': '先用部分计算（更少的头、样本或查询）给出初步估计；完整结果算完后图表会更新，读数只显示完整结果。',
};
