// A Chart.js config of the pure chart builders (web/src/charts/*.ts) drawn as a static SVG string:
// the same datasets, colours, dashes, axes (linear, logarithmic, category), tick rules
// (afterBuildTicks, ticks.callback) and legend filter the live chart uses, so the first paint of a
// page and its link card show the very series the live chart will draw. Pure: no DOM, no canvas;
// the build runs it under Node (scripts/share-pages.ts) and resvg turns it into the card's PNG.
import type { ChartConfig, Dataset, Point } from '../charts/kit.ts';

export interface SvgChartOptions {
  width: number;
  height: number;
  /** px of tick labels; axis titles and the legend use the same size */
  fontSize?: number;
  fontFamily?: string;
  /** colour of text and axes */
  ink?: string;
  grid?: string;
  /** draw the legend under the plot (default true) */
  legend?: boolean;
  /** id of the plot's clip path, unique in the document (default "plot") */
  id?: string;
  /** the legend's entries at most (the first ones, in dataset order) */
  legendMax?: number;
  /** a font for math signs, superscripts and curly quotes (√ · ÷ ⁻ ⁰ “ …) where the main font lacks them or draws them full-width */
  mathFont?: string;
}

// and the curly quotes, which Noto CJK sets full-width (the gap of CJK punctuation) in Latin text
const MATH_RUN = /[√·÷≈×±∞⁰¹²³⁴⁵⁶⁷⁸⁹⁻₀₁₂₃₄₅₆₇₈₉‖“”‘’]+/g;
const CJK = /[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]/;

/**
 * Text content for SVG: escaped, and with runs of math signs in `mathFont` (first, the main font
 * after it). resvg shapes a text chunk that holds any CJK character in the CJK font alone, whose √
 * stands apart from its radicand ("√‾ d_k"): given the text's baseline `y` (start-anchored text
 * only), each math run and the text after it start a chunk of their own (an absolute y starts a
 * chunk where the text stands; browsers draw it the same), so the radical is drawn whole in Chinese too.
 */
export function svgText(s: string, mathFont?: string, font?: string, y?: number): string {
  const e = xmlEscape(s);
  if (!mathFont) return e;
  const family = `font-family="${xmlEscape(mathFont + (font ? ', ' + font : ''))}"`;
  if (y === undefined || !CJK.test(s)) return e.replace(MATH_RUN, (m) => `<tspan ${family}>${m}</tspan>`);
  const at = `y="${y}"`;
  const out: string[] = [];
  let from = 0;
  for (const m of e.matchAll(MATH_RUN)) {
    const before = e.slice(from, m.index);
    if (before !== '') out.push(from === 0 ? before : `<tspan ${at}>${before}</tspan>`);
    out.push(`<tspan ${at} ${family}>${m[0]}</tspan>`);
    from = m.index! + m[0].length;
  }
  if (from < e.length) out.push(from === 0 ? e : `<tspan ${at}>${e.slice(from)}</tspan>`);
  return out.join('');
}

interface AxisOpts {
  type?: 'linear' | 'logarithmic' | 'category';
  min?: number; max?: number; suggestedMax?: number; suggestedMin?: number;
  title?: { display?: boolean; text?: string };
  afterBuildTicks?: (a: { ticks: { value: number }[] }) => void;
  ticks?: { callback?: (v: number | string, i?: number, ticks?: { value: number }[]) => string };
}

/** Escapes text for SVG/HTML content and attribute values. */
export function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const num = (x: number) => String(Math.round(x * 10) / 10);

/** Ticks 1, 2, 5 × 10^k covering [lo, hi], about `n` of them. */
export function niceTicks(lo: number, hi: number, n = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

function shortNumber(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e4 || a < 1e-3) return v.toExponential(0).replace('e+', 'e');
  return String(Number(v.toPrecision(3)));
}

interface Scale { map(v: number): number; ticks: { value: number; label: string }[] }

function buildScale(o: AxisOpts, values: number[], from: number, to: number, labels?: string[]): Scale {
  if (o.type === 'category') {
    const n = labels?.length ?? 0;
    const band = (to - from) / Math.max(1, n);
    return { map: (i) => from + band * (i + 0.5), ticks: (labels ?? []).map((label, i) => ({ value: i, label })) };
  }
  const log = o.type === 'logarithmic';
  const finite = values.filter((v) => Number.isFinite(v) && (!log || v > 0));
  let lo = o.min ?? Math.min(...finite, ...(o.suggestedMin !== undefined ? [o.suggestedMin] : []));
  let hi = o.max ?? Math.max(...finite, ...(o.suggestedMax !== undefined ? [o.suggestedMax] : []));
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) { lo = log ? 1 : 0; hi = log ? 10 : 1; }
  if (hi === lo) { hi = log ? lo * 10 : lo + 1; }
  let ticks: { value: number }[];
  if (log) {
    if (o.min === undefined) lo = 10 ** Math.floor(Math.log10(lo) + 1e-9);
    if (o.max === undefined) hi = 10 ** Math.ceil(Math.log10(hi) - 1e-9);
    ticks = [];
    const e0 = Math.round(Math.log10(lo)), e1 = Math.round(Math.log10(hi));
    const stride = Math.max(1, Math.ceil((e1 - e0 + 1) / 6));
    for (let e = e0; e <= e1; e += stride) ticks.push({ value: 10 ** e });
  } else {
    const t = niceTicks(lo, hi);
    if (o.max === undefined && t[t.length - 1] < hi) t.push(t[t.length - 1] + (t[1] - t[0] || 1));
    if (o.max === undefined) hi = Math.max(hi, t[t.length - 1]);
    if (o.min === undefined) lo = Math.min(lo, t[0]);
    ticks = t.map((value) => ({ value }));
  }
  if (o.afterBuildTicks) { const a = { ticks }; o.afterBuildTicks(a); ticks = a.ticks; }
  ticks = ticks.filter((t) => t.value >= lo - 1e-12 * Math.abs(lo) && t.value <= hi * (1 + 1e-12) + 1e-12);
  const f = (v: number) => (log ? Math.log10(v) : v);
  const a = f(lo), b = f(hi);
  const map = (v: number) => from + ((f(v) - a) / (b - a)) * (to - from);
  const cb = o.ticks?.callback;
  return {
    map,
    ticks: ticks.map((t, i) => {
      const label = cb ? cb(t.value, i, ticks) : shortNumber(t.value);
      return { value: t.value, label: label === undefined || label === null ? '' : String(label) };
    }),
  };
}

const dashOf = (d: Dataset) => (Array.isArray(d.borderDash) && d.borderDash.length ? ` stroke-dasharray="${(d.borderDash as number[]).join(' ')}"` : '');
const colourOf = (c: unknown, i = 0): string => (Array.isArray(c) ? String(c[i % c.length]) : typeof c === 'string' ? c : '#2f6fb0');

/** The legend entries the live chart shows: its own filter (legend.labels.filter), named, non-empty series. */
function legendEntries(cfg: ChartConfig): { text: string; colour: string; dash: string; box: boolean }[] {
  const plugins = (cfg.options.plugins ?? {}) as { legend?: { display?: boolean; labels?: { filter?: (item: object, data: object) => boolean; generateLabels?: () => { text: string; fillStyle?: string; strokeStyle?: string; lineDash?: number[] }[] } } };
  const legend = plugins.legend;
  if (legend?.display === false) return [];
  if (legend?.labels?.generateLabels) {
    return legend.labels.generateLabels().map((l) => ({
      text: l.text, colour: l.fillStyle && l.fillStyle !== 'rgba(0,0,0,0)' ? l.fillStyle : (l.strokeStyle ?? '#888'),
      dash: l.lineDash?.length ? ` stroke-dasharray="${l.lineDash.join(' ')}"` : '', box: !(l.fillStyle === 'rgba(0,0,0,0)'),
    }));
  }
  const filter = legend?.labels?.filter;
  return cfg.data.datasets.flatMap((d, i) => {
    if (!d.label || d.hiddenLegend) return [];
    if (filter && !filter({ datasetIndex: i, text: d.label }, cfg.data)) return [];
    if (d.data.length === 0) return [];
    const bar = cfg.type === 'bar' && d.type !== 'line';
    return [{ text: d.label, colour: colourOf(d.borderColor ?? d.backgroundColor), dash: dashOf(d), box: bar || d.showLine === false }];
  });
}

/** Width of a text in px at `size`: CJK and full-width signs 1 em, the rest ≈ 0.56 em (an estimate for layout). */
export function textWidth(s: string, size: number): number {
  let w = 0;
  for (const ch of s) w += /[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]/.test(ch) ? 1 : /[ilI.,:;'|!·]/.test(ch) ? 0.3 : /[mwMW—]/.test(ch) ? 0.85 : 0.56;
  return w * size;
}

/**
 * The SVG of one chart config, `width` × `height` px (a viewBox of that size, so it scales).
 * Draws lines (with dashes and point markers), dot series (showLine false), filled bands between
 * two series (fill: index), bars (one per label, per-bar colours) and line overlays in bar charts,
 * both axes with their titles and the legend. Non-finite points break a line.
 */
export function chartSvg(cfg: ChartConfig, opts: SvgChartOptions): string {
  const fs = opts.fontSize ?? 12;
  const ink = opts.ink ?? '#1f2937';
  const grid = opts.grid ?? '#e5e7eb';
  const font = opts.fontFamily ?? 'system-ui, sans-serif';
  const tx = (text: string) => svgText(text, opts.mathFont, font);
  const clipId = opts.id ?? 'plot';
  const scales = (cfg.options.scales ?? {}) as { x?: AxisOpts; y?: AxisOpts };
  const xo = scales.x ?? {}, yo = scales.y ?? {};
  const isBar = cfg.type === 'bar';
  const entries = opts.legend === false ? [] : legendEntries(cfg).slice(0, opts.legendMax ?? 8);
  // legend rows: entries flow left to right, wrapping
  const legendRows: { text: string; colour: string; dash: string; box: boolean; x: number }[][] = [];
  let row: (typeof legendRows)[number] = [], rx = 0;
  for (const e of entries) {
    const w = fs * 1.6 + textWidth(e.text, fs) + fs * 1.2;
    if (rx + w > opts.width - 8 && row.length) { legendRows.push(row); row = []; rx = 0; }
    row.push({ ...e, x: rx });
    rx += w;
  }
  if (row.length) legendRows.push(row);
  const legendH = legendRows.length * fs * 1.5;
  const xTitle = xo.title?.display !== false && xo.title?.text ? xo.title.text : '';
  const yTitle = yo.title?.display !== false && yo.title?.text ? yo.title.text : '';
  const left = (yTitle ? fs * 1.6 : 0) + fs * 3.4;
  const right = fs * 2.4;
  const top = fs * 0.8;
  const bottom = fs * 1.8 + (xTitle ? fs * 1.4 : 0) + (legendH ? legendH + fs * 0.6 : 0);
  const x0 = left, x1 = opts.width - right, y0 = top, y1 = opts.height - bottom;

  const pts = (d: Dataset): Point[] => d.data.map((p, i) => (typeof p === 'number' ? { x: i, y: p } : p));
  const allX = cfg.data.datasets.flatMap((d) => pts(d).map((p) => p.x));
  const allY = cfg.data.datasets.flatMap((d) => pts(d).map((p) => p.y));
  if (isBar && (yo.type ?? 'linear') === 'linear' && yo.min === undefined) allY.push(0);
  const xs = buildScale({ ...xo, type: isBar ? 'category' : xo.type }, allX, x0, x1, cfg.data.labels);
  const ys = buildScale(yo, allY, y1, y0);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${opts.width} ${opts.height}" width="${opts.width}" height="${opts.height}" font-family="${xmlEscape(font)}" font-size="${fs}" fill="${ink}">`);
  out.push(`<defs><clipPath id="${clipId}"><rect x="${num(x0)}" y="${num(y0 - 4)}" width="${num(x1 - x0)}" height="${num(y1 - y0 + 8)}"/></clipPath></defs>`);
  // grid and tick labels
  for (const t of ys.ticks) {
    const y = ys.map(t.value);
    out.push(`<line x1="${num(x0)}" x2="${num(x1)}" y1="${num(y)}" y2="${num(y)}" stroke="${grid}" stroke-width="1"/>`);
    if (t.label) out.push(`<text x="${num(x0 - fs * 0.4)}" y="${num(y + fs * 0.35)}" text-anchor="end">${tx(t.label)}</text>`);
  }
  for (const t of xs.ticks) {
    const x = xs.map(t.value);
    if (!isBar) out.push(`<line x1="${num(x)}" x2="${num(x)}" y1="${num(y0)}" y2="${num(y1)}" stroke="${grid}" stroke-width="1"/>`);
    if (t.label) out.push(`<text x="${num(x)}" y="${num(y1 + fs * 1.3)}" text-anchor="middle">${tx(t.label)}</text>`);
  }
  out.push(`<line x1="${num(x0)}" x2="${num(x1)}" y1="${num(y1)}" y2="${num(y1)}" stroke="${ink}" stroke-opacity="0.5"/>`);
  out.push(`<line x1="${num(x0)}" x2="${num(x0)}" y1="${num(y0)}" y2="${num(y1)}" stroke="${ink}" stroke-opacity="0.5"/>`);
  if (xTitle) out.push(`<text x="${num((x0 + x1) / 2)}" y="${num(y1 + fs * 2.9)}" text-anchor="middle">${tx(xTitle)}</text>`);
  if (yTitle) out.push(`<text transform="translate(${num(fs * 1.1)} ${num((y0 + y1) / 2)}) rotate(-90)" text-anchor="middle">${tx(yTitle)}</text>`);

  const ok = (p: Point) => Number.isFinite(p.x) && Number.isFinite(p.y) && (xo.type !== 'logarithmic' || p.x > 0) && (yo.type !== 'logarithmic' || p.y > 0);
  const path = (ps: Point[]) => {
    let d = '', pen = false;
    for (const p of ps) {
      if (!ok(p)) { pen = false; continue; }
      d += `${pen ? 'L' : 'M'}${num(xs.map(p.x))} ${num(ys.map(p.y))}`;
      pen = true;
    }
    return d;
  };
  out.push(`<g clip-path="url(#${clipId})">`);
  const datasets = cfg.data.datasets;
  // bands first (a dataset with fill: index fills down to that dataset)
  datasets.forEach((d) => {
    if (typeof d.fill !== 'number') return;
    const lo = datasets[d.fill];
    if (!lo) return;
    const a = pts(d).filter(ok), b = pts(lo).filter(ok).reverse();
    if (a.length < 2 || b.length < 2) return;
    out.push(`<path d="${path(a)}${path(b).replace(/^M/, 'L')}Z" fill="${colourOf(d.backgroundColor)}" stroke="none"/>`);
  });
  if (isBar) {
    const bars = datasets.filter((d) => d.type !== 'line');
    const n = cfg.data.labels?.length ?? 0;
    const band = (x1 - x0) / Math.max(1, n);
    const bw = (band * 0.7) / Math.max(1, bars.length);
    const base = ys.map(Math.max(0, (yo.min as number | undefined) ?? 0));
    bars.forEach((d, di) => {
      (d.data as (number | Point)[]).forEach((v, i) => {
        const y = typeof v === 'number' ? v : v.y;
        if (!Number.isFinite(y)) return;
        const top = ys.map(y);
        const x = x0 + band * i + band * 0.15 + bw * di;
        out.push(`<rect x="${num(x)}" y="${num(Math.min(top, base))}" width="${num(bw)}" height="${num(Math.abs(base - top))}" fill="${colourOf(d.backgroundColor, i)}"/>`);
      });
    });
    for (const d of datasets.filter((x) => x.type === 'line')) {
      const ps = (d.data as number[]).map((v, i) => ({ x: i, y: v }));
      const first = ps[0], last = ps[ps.length - 1];
      if (!first || !ok(first)) continue;
      // a reference level across the whole plot (as Chart.js draws it from the first to the last category)
      out.push(`<line x1="${num(x0 + band * 0.1)}" x2="${num(x1 - band * 0.1)}" y1="${num(ys.map(first.y))}" y2="${num(ys.map(last.y))}" stroke="${colourOf(d.borderColor)}" stroke-width="${Number(d.borderWidth ?? 2)}"${dashOf(d)}/>`);
    }
  } else {
    for (const d of datasets) {
      if (d.band || (typeof d.fill === 'number') || Number(d.borderWidth ?? 2) === 0) continue;
      const ps = pts(d);
      if (d.showLine !== false) {
        const p = path(ps);
        if (p) out.push(`<path d="${p}" fill="none" stroke="${colourOf(d.borderColor)}" stroke-width="${Number(d.borderWidth ?? 2) * (fs / 12)}" stroke-linejoin="round"${dashOf(d)}/>`);
      }
      const r = Number(d.pointRadius ?? 0) * (fs / 12);
      if (r > 0) {
        for (const p of ps.filter(ok)) {
          const cx = xs.map(p.x), cy = ys.map(p.y);
          if (d.pointStyle === 'rectRot') {
            out.push(`<path d="M${num(cx)} ${num(cy - r)}L${num(cx + r)} ${num(cy)}L${num(cx)} ${num(cy + r)}L${num(cx - r)} ${num(cy)}Z" fill="${colourOf(d.backgroundColor)}" stroke="${colourOf(d.borderColor)}" stroke-width="2"/>`);
          } else {
            out.push(`<circle cx="${num(cx)}" cy="${num(cy)}" r="${num(r)}" fill="${colourOf(d.backgroundColor ?? d.borderColor)}"/>`);
          }
        }
      }
    }
  }
  out.push('</g>');
  // legend
  legendRows.forEach((r, ri) => {
    const w = r.length ? r[r.length - 1].x + fs * 1.6 + textWidth(r[r.length - 1].text, fs) : 0;
    const ox = Math.max(0, (opts.width - w) / 2);
    const y = opts.height - legendH + ri * fs * 1.5 + fs;
    for (const e of r) {
      const x = ox + e.x;
      out.push(e.box
        ? `<rect x="${num(x)}" y="${num(y - fs * 0.8)}" width="${num(fs)}" height="${num(fs * 0.8)}" fill="${e.colour}"/>`
        : `<line x1="${num(x)}" x2="${num(x + fs * 1.2)}" y1="${num(y - fs * 0.4)}" y2="${num(y - fs * 0.4)}" stroke="${e.colour}" stroke-width="${num(fs / 5)}"${e.dash}/>`);
      out.push(`<text x="${num(x + fs * 1.6)}" y="${num(y)}">${svgText(e.text, opts.mathFont, font, Number(num(y)))}</text>`);
    }
  });
  out.push('</svg>');
  return out.join('');
}
