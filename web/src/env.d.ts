declare module 'virtual:formulas' {
  const html: Record<'variance' | 'saturation' | 'gradient' | 'twoLogit' | 'article', string>;
  export default html;
}
