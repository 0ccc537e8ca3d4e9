// The types of the page's build-time modules (the formulas KaTeX renders, the PWA's registration) and of its environment.
/// <reference types="vite-plugin-pwa/vanillajs" />
type FormulaKey = 'ivDerivation' | 'ivJacobian' | 'variance' | 'saturation' | 'gradient' | 'twoLogit' | 'article' | 'precision' | 'longctx' | 'gqa' | 'tensors' | 'training' | 'trainingOpt';
/** Build-time KaTeX HTML of every formula in English (vite.config.ts). */
declare module 'virtual:formulas/en' {
  const html: Record<FormulaKey, string>;
  export default html;
}
/** The same in Chinese (the formulas with words; the others as in English). */
declare module 'virtual:formulas/zh-CN' {
  const html: Record<FormulaKey, string>;
  export default html;
}
/** A Python file's text (Vite's ?raw import): the generator the exported scripts inline (web/src/reproduce/code.ts). */
declare module '*.py?raw' {
  const text: string;
  export default text;
}
