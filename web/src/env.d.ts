declare module 'virtual:formulas' {
  type FormulaKey = 'variance' | 'saturation' | 'gradient' | 'twoLogit' | 'article' | 'precision' | 'longctx' | 'gqa' | 'tensors' | 'training' | 'trainingOpt';
  /** Build-time KaTeX HTML of each formula: every one in English, the ones with words in Chinese too. */
  const html: { en: Record<FormulaKey, string>; 'zh-CN': Partial<Record<FormulaKey, string>> };
  export default html;
}
