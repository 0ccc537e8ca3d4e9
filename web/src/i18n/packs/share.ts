// Strings of the share pages, their link cards and the first paint before the app runs (issue 17,
// issue 18); merged into the English catalogue web/src/i18n/messages.en.ts. The titles and ledes of the
// pages are the views' own ({prefix}.title, {prefix}.lede).
export const shareEn = {
  'share.computing': 'Computing in your browser…',
  'share.static': 'The chart at the default settings, computed when the site was built; the live chart replaces it.',
  'share.noscript': 'The live experiment needs JavaScript and WebAssembly; the picture above was computed when the site was built.',
  'share.card.live': 'Live, reproducible numbers, computed in your browser',
  'share.card.alt': '{title}: {number}',
  'share.num.at': '{what}, {scale}, d_k = {dk}',
  'share.pair': '{a}, {b}',
  'share.labelled': '{a}: {b}',
  'share.fu.ratio': 'Var(q·k) at d_k = 1024 over d_k = 512, unscaled',
  'share.fu.bars': 'Var(q·k) without scaling',
  'share.dev.flops': 'FLOP of one attention call on [8, 128, 64]: a count, not a speed (the view times it on your own device)',
  'share.train.steps': 'loss after {steps} steps, {variant}',
  'share.tens.note': 'structured example pair, {scale}',
  'share.mup.at': '{what}, {scale}, d_k = {dk}, {rho}',
  'share.wild.bars': 'effective scale × √d_head (1 = 1/√d_head)',
  'share.wild.model': '{model}: effective scale (× 1/√d_head)',
} as const;
