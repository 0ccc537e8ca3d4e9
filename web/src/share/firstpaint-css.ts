// The style of the first paint (web/src/share/card.ts firstPaintHtml), inlined into every page's
// <head> by the build, so the heading, the lede and the chart picture show before any stylesheet
// or script arrives, and laid out like the panel the app then draws in its place.
export const FIRST_PAINT_CSS = [
  '.first-paint{max-width:1100px;margin:0 auto;padding:12px 16px;font:16px/1.45 system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif;color:#1f2937}',
  '.first-paint .site-name{margin:0;font-weight:700;font-size:1.15rem}',
  '.first-paint .tagline{margin:2px 0 10px;color:#4b5563;font-size:.9rem}',
  '.first-paint h2{margin:6px 0 4px;font-size:1.5rem;line-height:1.2}',
  '.first-paint .lede{margin:0 0 10px;color:#374151}',
  '.fp-status{display:flex;align-items:center;gap:8px;margin:6px 0;color:#2f6fb0;font-weight:600}',
  '.fp-spinner{width:14px;height:14px;border-radius:50%;border:2px solid #bcd0e6;border-top-color:#2f6fb0;animation:fp-spin 1s linear infinite}',
  '@keyframes fp-spin{to{transform:rotate(360deg)}}',
  '@media (prefers-reduced-motion:reduce){.fp-spinner{animation:none}}',
  '.fp-figure{margin:0;max-width:720px}',
  '.fp-svg{display:block;width:100%;height:auto;aspect-ratio:640/300;background:#fff;border-radius:6px}',
  '.fp-figure figcaption{font-size:.8rem;color:#6b7280;margin-top:4px}',
  '.fp-overlay{position:absolute;inset:0;display:flex;flex-direction:column;background:var(--card,#fff);z-index:1}',
  '.fp-overlay .fp-svg{flex:1;min-height:0;width:100%;height:100%;aspect-ratio:auto;background:transparent}',
  '.fp-overlay .fp-status{position:absolute;top:4px;right:8px;margin:0;font-size:.85rem;background:var(--card,#fff);padding:0 4px}',
  '@media (prefers-color-scheme:dark){.first-paint{color:#e5e7eb}.first-paint .tagline,.first-paint .lede{color:#cbd5e1}.fp-svg{background:#f8fafc}}',
].join('');
