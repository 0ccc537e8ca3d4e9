// The link card of a share page (1200×630 SVG, rendered to PNG by the build with resvg) and the
// first paint of every page's HTML before the app runs (issue 18): the view's heading, its lede,
// the static picture of its key chart at the default state and a "computing in your browser…"
// line. Pure string builders; the numbers and the chart come from web/src/share/figures.ts.
import type { ChartSpec } from '../charts/kit.ts';
import type { FigureNumber } from './figures.ts';
import { chartSvg, textWidth, xmlEscape, svgText } from './svgchart.ts';
import { CARD } from './meta.ts';
import { wrapText } from './wrap.ts';

/** Fonts of the card: Noto Sans CJK (the build loads it into resvg) has Latin, Greek, math signs and CJK. */
export const CARD_FONT = 'Noto Sans CJK SC';
/** DejaVu Sans draws √, ·, ÷ and superscripts at Latin width (Noto CJK draws some full-width and lacks ⁰ ⁻). */
export const CARD_MATH_FONT = 'DejaVu Sans';
/** A card's text at baseline `y` (start-anchored), its math signs in the math font and its radical whole in Chinese (svgText). */
const ct = (s: string, y: number) => svgText(s, CARD_MATH_FONT, CARD_FONT, y);
const ACCENT = '#2f6fb0';
const INK = '#111827';
const MUTED = '#4b5563';

/** Lines of at most `width` px at `size` (estimated widths), at most `maxLines`, the last one ending in "…" when cut (share/wrap.ts). */
const wrapAt = (text: string, width: number, size: number, maxLines: number) => wrapText(text, width, (s) => textWidth(s, size), maxLines);

/**
 * The sentence as it fits `maxLines` lines: whole, else its first clauses (cut after a full stop,
 * a question mark or a dash), else cut with "…".
 */
export function fitSentence(text: string, width: number, size: number, maxLines: number): string {
  const fits = (s: string) => !wrapAt(s, width, size, maxLines).some((l) => l.endsWith('…'));
  if (fits(text)) return text;
  const pieces = text.split(/(?<=[.?!。？！])\s+|(?<=[。？！])|\s+—\s+|——/).filter((p) => p.trim() !== '');
  let best = '';
  for (let i = 1; i <= pieces.length; i++) {
    const cand = pieces.slice(0, i).join(/[\u2E80-\u9FFF]/.test(text) ? '' : ' ').trim();
    if (!fits(cand)) break;
    best = cand;
  }
  if (best === '') return text;
  return /[.?!。？！]$/.test(best) ? best : best + (/[\u2E80-\u9FFF]$/.test(best) ? '。' : '.');
}

export interface CardInput {
  /** the view's number in the tabs (0 = none) */
  num: number;
  title: string;
  sentence: string;
  numbers: FigureNumber[];
  chart: ChartSpec | null;
  /** "√dk Lab" */
  brand: string;
  /** the footer line: "Live, reproducible numbers, computed in your browser" */
  tagline: string;
  /** the site's address as text (host and path), or '' */
  site: string;
}

function textLines(lines: string[], x: number, y: number, size: number, lineHeight: number, attrs: string): string {
  return lines.map((l, i) => { const ly = Math.round(y + i * lineHeight); return `<text x="${x}" y="${ly}" font-size="${size}" ${attrs}>${ct(l, ly)}</text>`; }).join('');
}

/**
 * The card: the brand and the view's number on top, the title (up to two lines, bold, ≥ 52 px: a
 * phone thumbnail of 400 px keeps it at ≥ 17 px), the sentence, one or two live numbers large, and
 * the chart on the right; a view without a chart gets its numbers large over the whole width.
 */
export function cardSvg(c: CardInput): string {
  const { width: W, height: H } = CARD;
  const pad = 56;
  const hasChart = c.chart !== null;
  const colW = hasChart ? 500 : W - 2 * pad;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${CARD_FONT}">`);
  out.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
  out.push(`<rect width="${W}" height="12" fill="${ACCENT}"/>`);
  // brand line
  const brand = c.num > 0 ? `${c.brand} · ${c.num}` : c.brand;
  out.push(`<text x="${pad}" y="74" font-size="30" font-weight="700" fill="${ACCENT}">${ct(brand, 74)}</text>`);
  // title: as large as fits in two lines
  let ts = 60, title = wrapAt(c.title, colW, ts, 2);
  while (ts > 44 && (title.length > 1 && hasChart || title.some((l) => l.endsWith('…')))) { ts -= 4; title = wrapAt(c.title, colW, ts, 2); if (title.length === 1) break; }
  let y = 74 + 30 + ts;
  out.push(textLines(title, pad, y, ts, ts * 1.18, `font-weight="700" fill="${INK}"`));
  y += (title.length - 1) * ts * 1.18 + 22;
  // the numbers: value large, label under it
  const rowH = hasChart ? 92 : 130;
  const numbersH = c.numbers.length * rowH;
  const footY = H - 40;
  const sentenceRoom = footY - 36 - numbersH - (y + 8);
  const ss = 26;
  const maxLines = Math.max(1, Math.min(4, Math.floor(sentenceRoom / (ss * 1.35))));
  const sentence = wrapAt(fitSentence(c.sentence, colW, ss, maxLines), colW, ss, maxLines);
  out.push(textLines(sentence, pad, y + ss, ss, ss * 1.35, `fill="${MUTED}"`));
  let ny = footY - 36 - numbersH + (hasChart ? 50 : 86);
  for (const n of c.numbers) {
    const big = hasChart ? 46 : 84;
    const vs = textWidth(n.value, big) > colW ? Math.round(big * 0.78) : big;
    out.push(`<text x="${pad}" y="${Math.round(ny)}" font-size="${vs}" font-weight="700" fill="${ACCENT}">${ct(n.value, Math.round(ny))}</text>`);
    // the label on one line: smaller type before it is cut
    let ls = 21;
    while (ls > 16 && textWidth(n.label, ls) > colW) ls -= 1;
    out.push(textLines(wrapAt(n.label, colW, ls, 1), pad, ny + (hasChart ? 30 : 40), ls, 24, `fill="${MUTED}"`));
    ny += rowH;
  }
  // footer
  out.push(`<line x1="${pad}" x2="${W - pad}" y1="${footY - 30}" y2="${footY - 30}" stroke="#e5e7eb" stroke-width="2"/>`);
  out.push(`<text x="${pad}" y="${footY}" font-size="22" fill="${MUTED}">${ct(c.tagline, footY)}</text>`);
  if (c.site) out.push(`<text x="${W - pad}" y="${footY}" font-size="22" fill="${ACCENT}" text-anchor="end">${xmlEscape(c.site)}</text>`);
  if (c.chart) {
    const cw = W - pad - (pad + colW + 28), ch = footY - 50 - 96;
    const inner = chartSvg(c.chart.config, { width: cw, height: ch, fontSize: 19, fontFamily: CARD_FONT, mathFont: CARD_MATH_FONT, legendMax: 5 })
      .replace(/^<svg /, `<svg x="${pad + colW + 28}" y="96" `);
    out.push(inner);
  }
  out.push('</svg>');
  return out.join('');
}

export interface FirstPaintInput {
  exp: string;
  num: number;
  title: string;
  lede: string;
  brand: string;
  tagline: string;
  chart: ChartSpec | null;
  numbers: FigureNumber[];
  computing: string;
  note: string;
}

/**
 * The HTML inside <div id="app"> before the app runs: the site's brand line, the view's heading and
 * lede as the panel shows them, the chart at the default state as inline SVG (or the card's
 * numbers for a view without one), and the "computing in your browser…" status. The app replaces
 * it when it mounts; the picture stays over the first live chart until that chart draws
 * (web/src/share/firstpaint.ts).
 */
export function firstPaintHtml(f: FirstPaintInput): string {
  // two drawings of the chart: a wide one, and a narrow one with larger type for phones (CSS shows one)
  // the picture's text in the first paint's font (FIRST_PAINT_CSS: the page language's stack)
  const draw = (kind: 'wide' | 'narrow', width: number, height: number, fontSize: number) => chartSvg(f.chart!.config, { width, height, fontSize, fontFamily: 'inherit', id: `fp-plot-${kind}` })
    .replace('<svg ', `<svg role="img" aria-label="${xmlEscape(f.title)}" class="fp-svg fp-${kind}" preserveAspectRatio="xMidYMid meet" `);
  const svg = f.chart ? draw('wide', 600, 320, 13) + draw('narrow', 360, 300, 12) : '';
  const nums = f.numbers.map((n) => `<div><dt>${xmlEscape(n.label)}</dt><dd>${xmlEscape(n.value)}</dd></div>`).join('');
  // only fp-* classes, styled by the page's inline FIRST_PAINT_CSS: the app's stylesheet, arriving
  // later, changes nothing here (no layout shift); the app replaces it all when it mounts
  return `<div class="first-paint" data-first-paint="${xmlEscape(f.exp)}">`
    + `<header class="fp-top"><p class="fp-site">${xmlEscape(f.brand)}</p><p class="fp-tagline">${xmlEscape(f.tagline)}</p></header>`
    + `<section class="fp-panel"><header class="fp-head">${f.num > 0 ? `<span class="fp-num">${f.num}</span>` : ''}<div><h2 class="fp-title">${xmlEscape(f.title)}</h2><p class="fp-lede">${xmlEscape(f.lede)}</p></div></header>`
    + `<p class="fp-status" role="status"><span class="fp-spinner" aria-hidden="true"></span>${xmlEscape(f.computing)}</p>`
    + `<figure class="fp-figure" data-first-paint-figure>${svg}${nums ? `<dl class="fp-numbers">${nums}</dl>` : ''}<figcaption>${xmlEscape(f.note)}</figcaption></figure>`
    + `</section></div>`;
}
