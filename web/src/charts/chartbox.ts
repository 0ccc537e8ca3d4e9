// A chart with its title and its PNG / CSV export buttons. Chart.js is registered here with only
// the parts the page uses; live charts never animate and update with chart.update('none').
import {
  Chart, LineController, BarController, LineElement, PointElement, BarElement,
  LinearScale, LogarithmicScale, CategoryScale, Filler, Legend, Tooltip,
} from 'chart.js';
import type { ChartConfiguration, Plugin } from 'chart.js';
import type { ChartSpec } from './builders.ts';
import { csvText } from './builders.ts';
import type { T } from '../i18n/messages.ts';
import { h, setText, download } from '../dom.ts';

/** Draws a dashed vertical line at options.plugins.vline.x (the chosen d_k or gap). */
const vline: Plugin = {
  id: 'vline',
  afterDatasetsDraw(chart, _args, opts: { x?: number }) {
    if (opts?.x === undefined) return;
    const sx = chart.scales.x;
    const { top, bottom, left, right } = chart.chartArea;
    const px = sx.getPixelForValue(opts.x);
    if (!(px >= left && px <= right)) return;
    const ctx = chart.ctx;
    ctx.save();
    ctx.strokeStyle = 'rgba(17, 24, 39, 0.45)';
    ctx.setLineDash([3, 3]);
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(px, top);
    ctx.lineTo(px, bottom);
    ctx.stroke();
    ctx.restore();
  },
};
/** Paints a heatmap (options.plugins.heatmap: n×n RGBA cells) as one image over the plot area. */
const heatmap: Plugin = {
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
/** Paints the canvas white first, so an exported PNG is opaque. */
const background: Plugin = {
  id: 'sqrtdkBackground',
  beforeDraw(chart) {
    const ctx = chart.ctx;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};
/** Records each completed draw (tests and bench:ui read data-renders and window.__sqrtdkPerf). */
const renderHook: Plugin = {
  id: 'sqrtdkRenderHook',
  afterRender(chart) {
    const c = chart.canvas;
    c.dataset.renders = String(Number(c.dataset.renders ?? '0') + 1);
    const w = window as unknown as { __sqrtdkPerf?: { chart: string; t: number }[] };
    (w.__sqrtdkPerf ??= []).push({ chart: c.dataset.chart ?? '', t: performance.now() });
    if (w.__sqrtdkPerf.length > 2000) w.__sqrtdkPerf.splice(0, 1000);
  },
};

Chart.register(
  LineController, BarController, LineElement, PointElement, BarElement,
  LinearScale, LogarithmicScale, CategoryScale, Filler, Legend, Tooltip, vline, heatmap, background, renderHook,
);
Chart.defaults.font.family = getComputedStyle(document.documentElement).getPropertyValue('--font-sans') || 'system-ui, sans-serif';
Chart.defaults.color = '#374151';

/**
 * Charts draw only when near the viewport: a chart far below the fold keeps its latest spec and
 * draws it when it scrolls into view (a d_k change would otherwise redraw ten charts per frame).
 */
const boxes = new WeakMap<Element, ChartBox>();
const observer = typeof IntersectionObserver === 'undefined' ? null : new IntersectionObserver((entries) => {
  for (const e of entries) boxes.get(e.target)?.setVisible(e.isIntersecting);
}, { rootMargin: '400px 0px' });

export class ChartBox {
  readonly el: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly titleEl: HTMLElement;
  private readonly noteEl: HTMLElement;
  private chart: Chart | null = null;
  private spec: ChartSpec | null = null;
  private visible = observer === null;
  private dirty = false;

  constructor(readonly id: string, title: string, private readonly t: T, opts: { height?: number; square?: boolean } = {}) {
    this.canvas = h('canvas', { 'data-chart': id, role: 'img', 'aria-label': title });
    this.titleEl = h('h4', { class: 'chart-title', text: title });
    this.noteEl = h('p', { class: 'chart-note' });
    const wrap = h('div', { class: opts.square ? 'chart-canvas square' : 'chart-canvas' }, this.canvas);
    if (opts.height) wrap.style.height = `${opts.height}px`;
    const tools = h('div', { class: 'chart-tools' },
      h('button', { type: 'button', class: 'mini', 'data-export': 'png', text: t('common.png'), onclick: () => this.png() }),
      h('button', { type: 'button', class: 'mini', 'data-export': 'csv', text: t('common.csv'), onclick: () => this.csv() }),
    );
    this.el = h('figure', { class: 'chart', 'data-chart-box': id },
      h('div', { class: 'chart-head' }, this.titleEl, tools),
      wrap,
      h('p', { class: 'chart-pending', text: t('common.computing') }),
      this.noteEl);
    this.el.classList.add('pending');
    boxes.set(this.el, this);
    observer?.observe(this.el);
  }

  setVisible(v: boolean): void {
    this.visible = v;
    if (v && this.dirty) this.draw();
  }

  setTitle(title: string): void {
    setText(this.titleEl, title);
    this.canvas.setAttribute('aria-label', title);
  }
  setNote(text: string): void { setText(this.noteEl, text); }

  /** Shows a built chart: the first call creates it, later ones swap data and options. */
  set(spec: ChartSpec): void {
    this.spec = spec;
    this.el.classList.remove('pending');
    this.el.dataset.points = String(spec.points);
    this.dirty = true;
    if (this.visible) this.draw();
  }

  private draw(): void {
    const spec = this.spec;
    if (!spec) return;
    this.dirty = false;
    const cfg = spec.config as unknown as ChartConfiguration;
    if (!this.chart || (this.chart.config as { type?: string }).type !== spec.config.type) {
      this.chart?.destroy();
      this.chart = new Chart(this.canvas, cfg);
    } else {
      this.chart.data = cfg.data;
      this.chart.options = cfg.options ?? {};
      this.chart.update('none');
    }
  }

  get current(): ChartSpec | null { return this.spec; }

  png(): void {
    if (!this.chart) return;
    download(`sqrtdk-${this.id}.png`, this.chart.toBase64Image('image/png', 1));
  }
  csv(): void {
    if (!this.spec) return;
    const url = URL.createObjectURL(new Blob([csvText(this.spec.csv)], { type: 'text/csv;charset=utf-8' }));
    download(`sqrtdk-${this.id}.csv`, url);
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }
  destroy(): void {
    observer?.unobserve(this.el);
    this.chart?.destroy();
    this.chart = null;
  }
}
