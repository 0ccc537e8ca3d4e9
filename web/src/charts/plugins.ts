// The page's own Chart.js plugins that draw from a chart's options: the chosen-value line, the gap callout, the heatmap image, and the opaque background (so an exported PNG is not transparent).
import { Chart } from 'chart.js';
import type { Plugin } from 'chart.js';
import { chartColours } from '../theme.ts';

/** Draws a dashed vertical line at options.plugins.vline.x (the chosen d_k or gap). */
export const vline: Plugin = {
  id: 'vline',
  afterDatasetsDraw(chart, _args, opts: { x?: number }) {
    if (opts?.x === undefined) return;
    const sx = chart.scales.x;
    const { top, bottom, left, right } = chart.chartArea;
    const px = sx.getPixelForValue(opts.x);
    if (!(px >= left && px <= right)) return;
    const ctx = chart.ctx;
    ctx.save();
    ctx.strokeStyle = chartColours().marker;
    ctx.setLineDash([3, 3]);
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(px, top);
    ctx.lineTo(px, bottom);
    ctx.stroke();
    ctx.restore();
  },
};
/**
 * A callout of the gap between two values at one x (options.plugins.gapLabel, kit.ts
 * GapLabel): a bracket from y0 to y1 and its number beside it, so a reader of a small embed sees
 * the gap that two close curves hide (the 1/√d_k entropy under ln L).
 */
export const gapLabel: Plugin = {
  id: 'gapLabel',
  afterDatasetsDraw(chart, _args, opts: { x?: number; y0?: number; y1?: number; text?: string }) {
    if (opts?.x === undefined || opts.y0 === undefined || opts.y1 === undefined || !opts.text) return;
    const { left, right, top, bottom } = chart.chartArea;
    const px = chart.scales.x.getPixelForValue(opts.x);
    const p0 = chart.scales.y.getPixelForValue(opts.y0), p1 = chart.scales.y.getPixelForValue(opts.y1);
    if (!(px >= left && px <= right) || !(Math.min(p0, p1) >= top - 1 && Math.max(p0, p1) <= bottom + 1)) return;
    const ctx = chart.ctx;
    const c = chartColours();
    ctx.save();
    ctx.strokeStyle = c.text;
    ctx.fillStyle = c.text;
    ctx.lineWidth = 1.5;
    const bx = px + 6;
    ctx.beginPath();
    ctx.moveTo(bx - 3, p0); ctx.lineTo(bx, p0); ctx.lineTo(bx, p1); ctx.lineTo(bx - 3, p1);
    ctx.stroke();
    ctx.font = `600 12px ${Chart.defaults.font.family}`;
    const w = ctx.measureText(opts.text).width;
    // beside the bracket, on the side with room; below the lower value (inside the plot)
    const tx = bx + 6 + w <= right ? bx + 6 : Math.max(left + 2, px - 6 - w);
    const ty = Math.min(bottom - 8, Math.max(p0, p1) + 14);
    ctx.fillStyle = c.background;
    ctx.fillRect(tx - 2, ty - 9, w + 4, 16);
    ctx.fillStyle = c.text;
    ctx.textBaseline = 'middle';
    ctx.fillText(opts.text, tx, ty);
    ctx.restore();
  },
};
/** Paints a heatmap (options.plugins.heatmap: n×n RGBA cells) as one image over the plot area. */
export const heatmap: Plugin = {
  id: 'heatmap',
  beforeDatasetsDraw(chart, _args, opts: { n?: number; rgba?: Uint8ClampedArray }) {
    if (!opts?.n || !opts.rgba) return;
    const cache = chart as unknown as { $heat?: { src: Uint8ClampedArray; canvas: HTMLCanvasElement } };
    if (!cache.$heat || cache.$heat.src !== opts.rgba) {
      const c = document.createElement('canvas');
      c.width = opts.n;
      c.height = opts.n;
      c.getContext('2d')!.putImageData(new ImageData(new Uint8ClampedArray(opts.rgba), opts.n, opts.n), 0, 0);
      cache.$heat = { src: opts.rgba, canvas: c };
    }
    const { left, top, width, height } = chart.chartArea;
    const ctx = chart.ctx;
    ctx.save();
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(cache.$heat.canvas, left, top, width, height);
    ctx.restore();
  },
};
/** Paints the canvas with the scheme's background first, so an exported PNG is opaque. */
export const background: Plugin = {
  id: 'sqrtdkBackground',
  beforeDraw(chart) {
    const ctx = chart.ctx;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = chartColours().background;
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};
