/// <reference types="vite-plugin-pwa/vanillajs" />
declare module 'virtual:formulas' {
  const html: Record<'variance' | 'saturation' | 'gradient' | 'twoLogit' | 'article' | 'precision' | 'longctx' | 'gqa' | 'tensors' | 'training' | 'trainingOpt', string>;
  export default html;
}
