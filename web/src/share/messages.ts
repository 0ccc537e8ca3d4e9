// Strings of the share pages, their link cards and the first paint before the app runs (issue 17,
// issue 18); merged into the one catalogue of web/src/i18n/messages.ts. The titles and ledes of the
// pages are the views' own ({prefix}.title, {prefix}.lede).
export const shareEn = {
  'share.computing': 'Computing in your browser…',
  'share.static': 'The chart at the default settings, computed when the site was built; the live chart replaces it.',
  'share.noscript': 'The live experiment needs JavaScript and WebAssembly; the picture above was computed when the site was built.',
  'share.card.live': 'Live, reproducible numbers, computed in your browser',
  'share.card.alt': '{title}: {number}',
  'share.num.at': '{what}, {scale}, d_k = {dk}',
  'share.pair': '{a}, {b}',
  'share.fu.ratio': 'Var(q·k) at d_k = 1024 over d_k = 512, unscaled',
  'share.fu.bars': 'Var(q·k) without scaling',
  'share.dev.flops': 'FLOP per attention call on [8, 128, 64], timed on your device',
  'share.train.steps': 'loss after {steps} steps, {variant}',
  'share.tens.note': 'structured example pair, {scale}',
  'share.mup.at': '{what}, {scale}, d_k = {dk}, {rho}',
  'share.wild.bars': 'effective scale × √d_head (1 = 1/√d_head)',
  'share.wild.model': '{model}: effective scale (× 1/√d_head)',
} as const;

export const shareZh: Record<keyof typeof shareEn, string> = {
  'share.computing': '正在你的浏览器中计算……',
  'share.static': '默认设置下的图表，在构建网站时算出；实时图表算好后会替换它。',
  'share.noscript': '实时实验需要 JavaScript 和 WebAssembly；上面的图是在构建网站时算出的。',
  'share.card.live': '在你的浏览器中实时计算，数字可复现',
  'share.card.alt': '{title}：{number}',
  'share.num.at': '{what}，{scale}，d_k = {dk}',
  'share.pair': '{a}，{b}',
  'share.fu.ratio': '不缩放时 d_k = 1024 与 d_k = 512 的 Var(q·k) 之比',
  'share.fu.bars': '不缩放的 Var(q·k)',
  'share.dev.flops': '[8, 128, 64] 上一次注意力调用的浮点运算数，在你的设备上计时',
  'share.train.steps': '{variant}：{steps} 步后的损失',
  'share.tens.note': '结构化示例张量，{scale}',
  'share.mup.at': '{what}，{scale}，d_k = {dk}，{rho}',
  'share.wild.bars': '有效缩放 × √d_head（1 即 1/√d_head）',
  'share.wild.model': '{model}：有效缩放（× 1/√d_head）',
};
