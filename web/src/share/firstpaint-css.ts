// The style of the first paint (web/src/share/card.ts firstPaintHtml), inlined into every page's
// <head> by the build: the heading, the lede and the chart picture show as soon as the HTML is in,
// before the app's stylesheet (moved after #app, so it no longer blocks this first paint) and its
// script. Only fp-* classes and the body's margin and colours (the same values as style.css), so
// the stylesheet's arrival moves nothing.
export const FIRST_PAINT_CSS = [
  // body and #app as style.css has them (its @media (max-width: 680px) padding included)
  // the scrollbar's gutter kept from the start: the app, taller than the first paint, adds no scrollbar that narrows the page
  'html{scrollbar-gutter:stable}body{margin:0;background:#f6f7f9}#app{box-sizing:border-box;max-width:1180px;margin:0 auto;padding:20px 20px 40px}',
  '@media (max-width:680px){#app{padding:10px 12px 28px}}',
  '.first-paint,.first-paint *{box-sizing:border-box}',
  // the font stacks of style.css (--font-sans): the system font for Latin text, CJK families only for Chinese
  '.first-paint{margin:0;padding:0;font:15px/1.5 system-ui,sans-serif;color:#1f2937}',
  // and style.css's face for "·" and "√" in Chinese text (a Latin platform font, as in English)
  '@font-face{font-family:"sqrtdk-latin-signs";src:local("Segoe UI"),local("Helvetica Neue"),local("Roboto"),local("DejaVu Sans"),local("Arial");unicode-range:U+00B7,U+221A}',
  '.first-paint:lang(zh){font-family:"sqrtdk-latin-signs",system-ui,"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif}',
  '.fp-site{margin:0;font-weight:700;font-size:18px}',
  '.fp-tagline{margin:2px 0 12px;color:#4b5563;font-size:14px}',
  '.fp-panel{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:16px 20px}',
  '.fp-head{display:flex;gap:12px;align-items:flex-start}',
  '.fp-num{flex:none;display:inline-flex;align-items:center;justify-content:center;width:30px;height:30px;border-radius:50%;background:#2f6fb0;color:#fff;font-weight:700;margin-top:2px}',
  '.fp-title{margin:0 0 4px;font-size:22px;line-height:1.25}',
  '.fp-lede{margin:0 0 8px;color:#374151}',
  '.fp-status{display:flex;align-items:center;gap:8px;margin:8px 0;color:#2f6fb0;font-weight:600}',
  '.fp-spinner{width:14px;height:14px;border-radius:50%;border:2px solid #bcd0e6;border-top-color:#2f6fb0;animation:fp-spin 1s linear infinite}',
  '@keyframes fp-spin{to{transform:rotate(360deg)}}',
  '@media (prefers-reduced-motion:reduce){.fp-spinner{animation:none}}',
  '.fp-figure{margin:0;max-width:680px}',
  '.fp-svg{display:block;width:100%;height:auto;aspect-ratio:600/320}.fp-svg.fp-narrow{display:none;aspect-ratio:360/300;max-width:480px}',
  '@media (max-width:520px){.first-paint .fp-svg.fp-wide{display:none}.first-paint .fp-svg.fp-narrow{display:block}}',
  '.fp-numbers{margin:8px 0;display:flex;flex-wrap:wrap;gap:8px 24px}.fp-numbers dt{color:#4b5563;font-size:13px}.fp-numbers dd{margin:0;font-size:28px;font-weight:700;color:#2f6fb0}',
  '.fp-figure figcaption{font-size:12px;color:#6b7280;margin-top:4px}',
  '.fp-noscript{max-width:1100px;margin:0 auto;padding:8px 16px;font:15px/1.5 system-ui,sans-serif;color:#1f2937}',
  // the picture laid over the first live chart until it draws (web/src/share/firstpaint.ts)
  '.fp-overlay{position:absolute;inset:0;display:flex;flex-direction:column;background:var(--card,#fff);z-index:1}',
  '.fp-overlay .fp-svg{display:block;flex:1;min-height:0;width:100%;height:100%;max-width:none;aspect-ratio:auto}',
  '.fp-overlay .fp-status{position:absolute;top:0;right:4px;margin:0;font-size:13px;background:var(--card,#fff);padding:0 4px}',
  '@media (prefers-color-scheme:dark){body{background:#0d1117}.first-paint,.fp-noscript{color:#e6edf3}.fp-panel{background:#161b22;border-color:#30363d}.fp-tagline,.fp-lede,.fp-numbers dt{color:#9aa4b2}.fp-svg{background:#f8fafc;border-radius:6px}}',
].join('');
