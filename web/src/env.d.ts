declare module 'virtual:formulas' {
  type FormulaKey = 'variance' | 'saturation' | 'gradient' | 'twoLogit' | 'article' | 'precision' | 'longctx' | 'gqa' | 'tensors' | 'training' | 'trainingOpt';
  /** Build-time KaTeX HTML of each formula, per language, in display mode and in inline (wrapping) mode. */
  const html: Record<'en' | 'zh-CN', Record<FormulaKey, { display: string; inline: string }>>;
  export default html;
}
