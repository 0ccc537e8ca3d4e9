// The interview view's strings (web/src/panels/interview.ts), English and Simplified Chinese; merged
// into the one catalogue of web/src/i18n/messages.ts. No number is written here: every {placeholder}
// is filled from a live call of the core, and the sentences stay true for any seed.
export const ivEn = {
  'iv.title': 'Interview',
  'iv.lede': '“Why does attention divide by √d_k?” The answer in 30 seconds, in 2 minutes and in depth, the follow-ups and the wrong answers — every number computed live in your browser.',
  'iv.drill.title': 'Drill: predict, then reveal',
  'iv.claims.title': 'The article’s claims, checked',
} as const;

export type IvMessageKey = keyof typeof ivEn;

export const ivZh: Record<IvMessageKey, string> = {
  'iv.title': '面试',
  'iv.lede': '“注意力为什么要除以 √d_k？”30 秒版、2 分钟版和深入版的回答，面试官会追问什么，哪些答案听着对其实错——所有数字都在你的浏览器里现算。',
  'iv.drill.title': '自测：先预测，再揭晓',
  'iv.claims.title': '逐条检验文章的说法',
};
