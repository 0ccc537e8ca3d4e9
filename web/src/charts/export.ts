// A chart's exports: the picture with its title above and the panel's short link below (the PNG button; the poster draws its own link), a spec drawn once more at another size (the poster's layout), and the CSV file.
import { Chart } from 'chart.js';
import type { ChartConfiguration } from 'chart.js';
import type { ChartSpec } from './kit.ts';
import { csvText } from './kit.ts';
import { download } from '../dom.ts';
import { parseHash, panelHash } from '../state/state.ts';
import { chartColours } from '../theme.ts';
import type { ChartPage } from './page.ts';
import { themed, pagePlugins } from './setup.ts';

/**
 * `src` (a chart as drawn, at `dpr` device pixels per CSS px) on an opaque canvas: `title` in a
 * band above and, with `withLink`, the panel's short link below (only the keys the panel reads),
 * wrapped to the width.
 */
export function framedChart(src: HTMLCanvasElement, title: string, withLink: boolean, dpr: number): HTMLCanvasElement {
  const band = Math.round(28 * dpr);
  const link = `${location.origin}${location.pathname}${panelHash(parseHash(location.hash).state)}`;
  const scratch = document.createElement('canvas').getContext('2d')!;
  const linkFont = `${Math.round(11 * dpr)}px ${Chart.defaults.font.family}`;
  scratch.font = linkFont;
  const lines = withLink ? wrapChars(`√dk Lab · ${link}`, src.width - 16 * dpr, (x) => scratch.measureText(x).width) : [];
  const lineH = Math.round(15 * dpr);
  const foot = withLink ? Math.max(band, lines.length * lineH + Math.round(10 * dpr)) : Math.round(6 * dpr);
  const out = document.createElement('canvas');
  out.width = src.width;
  out.height = src.height + band + foot;
  const ctx = out.getContext('2d')!;
  const c = chartColours();
  ctx.fillStyle = c.background;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(src, 0, band);
  ctx.fillStyle = c.text;
  ctx.textBaseline = 'middle';
  ctx.font = `600 ${Math.round(14 * dpr)}px ${Chart.defaults.font.family}`;
  ctx.fillText(title, 8 * dpr, band / 2, out.width - 16 * dpr);
  ctx.font = linkFont;
  lines.forEach((line, i) => ctx.fillText(line, 8 * dpr, src.height + band + Math.round(5 * dpr) + lineH * (i + 0.5)));
  return out;
}

/**
 * `spec` drawn once more on a detached canvas of width × height CSS px at `scale` device pixels
 * per CSS px (the poster's layout, not the screen's), without animation.
 */
export function drawnAt(page: ChartPage, spec: ChartSpec, width: number, height: number, scale: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const src = spec.config as unknown as ChartConfiguration;
  // a copy of the config's top levels (the data arrays are shared, read only): the live chart keeps its own
  const cfg = themed(page, { ...src, data: { ...src.data, datasets: src.data.datasets.map((d) => ({ ...d })) }, options: { ...(src.options ?? {}) } } as ChartConfiguration);
  cfg.options = { ...(cfg.options ?? {}), responsive: false, maintainAspectRatio: false, animation: false, devicePixelRatio: scale };
  canvas.width = width;
  canvas.height = height;
  const chart = new Chart(canvas, { ...cfg, plugins: pagePlugins(page) });
  chart.draw();
  const out = document.createElement('canvas');
  out.width = canvas.width;
  out.height = canvas.height;
  out.getContext('2d')!.drawImage(canvas, 0, 0);
  chart.destroy();
  return out;
}

/** The text of the spec's CSV export (the engines test reads it from the page, as the download writes it). */
export function chartCsv(spec: ChartSpec): string {
  return csvText(spec.csv);
}

/** Downloads `text` (chartCsv's) as sqrtdk-<id>.csv. */
export function downloadCsv(text: string, id: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  download(`sqrtdk-${id}.csv`, url);
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** Cuts a string (a URL: no spaces to break at) into lines no wider than `width`. */
export function wrapChars(text: string, width: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const ch of text) {
    if (line !== '' && measure(line + ch) > width) { lines.push(line); line = ''; }
    line += ch;
  }
  if (line !== '') lines.push(line);
  return lines;
}
