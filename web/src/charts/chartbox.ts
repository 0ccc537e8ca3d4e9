// A chart with its title and its PNG / CSV export buttons. Chart.js is registered here with only
// the parts the page uses; live charts never animate and update with chart.update('none').
import {
  Chart, LineController, BarController, LineElement, PointElement, BarElement,
  LinearScale, LogarithmicScale, CategoryScale, Filler, Legend, Tooltip,
} from 'chart.js';
import type { ChartConfiguration, Plugin } from 'chart.js';
import type { ChartSpec } from './kit.ts';
import { csvText } from './kit.ts';
import type { T } from '../i18n/messages.ts';
import { h, setText, download } from '../dom.ts';
import { chartSummary } from './summary.ts';
import { parseHash, panelHash } from '../state/state.ts';
import { chartColours, reducedMotion, onThemeChange } from '../theme.ts';
import { FIRST_FINAL_DRAW_EVENT } from './events.ts';

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
const gapLabel: Plugin = {
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
/**
 * A chart is created in stages, each a task of its own (ChartBox.drawNow): Chart.js's first run of
 * its code (compiling it, the number formats, the fonts) made one task of 70–95 ms of a cold load,
 * 400 ms on a 4× slower phone. Until its last stage a chart is held: its draws are cancelled and
 * not recorded, so no half-made chart (axes without data) is ever shown or counted.
 */
const held = new WeakSet<Chart>();
/** true while `new Chart` of a held chart runs (its constructor's first update draws before it is in `held`). */
let creating = false;
const isHeld = (chart: Chart) => creating || held.has(chart);
const holdFirstDraw: Plugin = {
  id: 'sqrtdkHold',
  beforeDraw: (chart) => (isHeld(chart) ? false : undefined),
};
/**
 * The page's first Intl.NumberFormat loads the number formats of the locale (Chart.js formats its
 * ticks with one): 20–45 ms of a cold load, done in a task of its own before the first chart (the
 * task after the first chart box is built, or else the first chart's first stage). The compute
 * worker makes one as it starts (worker/worker.ts), which loads them for the whole renderer: this
 * one then takes under a millisecond, and stays for a page whose worker could not start.
 */
let intlWarm = false;
function warmIntl(): void {
  if (intlWarm) return;
  intlWarm = true;
  new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(0.5);
}
/** Paints the canvas with the scheme's background first, so an exported PNG is opaque. */
const background: Plugin = {
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
let firstFinalTold = false;
/** Records each completed draw (tests and bench:ui read data-renders and window.__sqrtdkPerf). */
const renderHook: Plugin = {
  id: 'sqrtdkRenderHook',
  afterRender(chart) {
    if (isHeld(chart)) return;
    const c = chart.canvas;
    c.dataset.renders = String(Number(c.dataset.renders ?? '0') + 1);
    // the plot area's height in CSS px (tests: an embed's chart is readable)
    c.dataset.plotH = String(Math.round(chart.chartArea.bottom - chart.chartArea.top));
    // where the plot area lies in its box: an overlay (ChartBox.setOverlay) is laid over it
    const a = chart.chartArea, box = c.parentElement;
    if (box) for (const [k, v] of [['--plot-t', a.top], ['--plot-l', a.left], ['--plot-w', a.right - a.left], ['--plot-h', a.bottom - a.top]] as const) box.style.setProperty(k, `${Math.round(v)}px`);
    const w = window as unknown as { __sqrtdkPerf?: { chart: string; t: number; final: boolean }[] };
    // final: drawn from full results (not a refining preview)
    const final = c.dataset.refining !== 'true';
    (w.__sqrtdkPerf ??= []).push({ chart: c.dataset.chart ?? '', t: performance.now(), final });
    if (w.__sqrtdkPerf.length > 2000) w.__sqrtdkPerf.splice(0, 1000);
    // the page's first chart drawn from full results: main.ts starts the deferred work then (the service worker)
    if (final && !firstFinalTold) { firstFinalTold = true; document.dispatchEvent(new Event(FIRST_FINAL_DRAW_EVENT)); }
  },
};

Chart.register(
  holdFirstDraw, LineController, BarController, LineElement, PointElement, BarElement,
  LinearScale, LogarithmicScale, CategoryScale, Filler, Legend, Tooltip, vline, gapLabel, heatmap, background, renderHook,
);
Chart.defaults.color = '#374151';
/**
 * The charts' text in the page's font stack (style.css --font-sans, a canvas does not inherit CSS):
 * the page language's, so a chart of the English page names no CJK family (each family the machine
 * lacks is a font lookup per size and weight) and a Chinese one has them. Read again after a
 * change of the page's language.
 */
let fontLang: string | null = null;
function pageFont(): void {
  if (typeof document === 'undefined') return;
  const lang = document.documentElement.lang;
  if (lang === fontLang) return;
  const stack = typeof getComputedStyle === 'function' ? getComputedStyle(document.documentElement).getPropertyValue('--font-sans').trim() : '';
  if (stack) fontLang = lang;  // before the stylesheet applies: asked again at the next chart
  Chart.defaults.font.family = stack || 'system-ui, sans-serif';
}
pageFont();

/** The config with the scheme's text and grid colours (a canvas does not inherit CSS), and no animation when asked for less motion. */
function themed(cfg: ChartConfiguration): ChartConfiguration {
  const c = chartColours();
  pageFont();
  const o = (cfg.options ??= {}) as Record<string, unknown> & { scales?: Record<string, Record<string, unknown>>; plugins?: Record<string, Record<string, unknown>> };
  Chart.defaults.color = c.text;
  for (const axis of Object.values(o.scales ?? {})) {
    const grid = (axis.grid ??= {}) as Record<string, unknown>;
    if (grid.display !== false) grid.color = c.grid;
    axis.ticks = { ...(axis.ticks as object ?? {}), color: c.text };
    if (axis.title) axis.title = { ...(axis.title as object), color: c.text };
  }
  const legend = o.plugins?.legend;
  // on a phone a long legend would squeeze the plot: smaller swatches, type and gaps
  const narrow = typeof matchMedia === 'function' && matchMedia('(max-width: 600px)').matches;
  if (legend) legend.labels = { ...(legend.labels as object ?? {}), color: c.text, ...(narrow ? { boxWidth: 9, boxHeight: 9, padding: 6, font: { size: 10 } } : {}) };
  if (reducedMotion()) o.animation = false;
  return cfg;
}

/**
 * Charts draw only when near the viewport: a chart far below the fold keeps its latest spec and
 * draws it when it scrolls into view (a d_k change would otherwise redraw ten charts per frame).
 */
const boxes = new WeakMap<Element, ChartBox>();
const observer = typeof IntersectionObserver === 'undefined' ? null : new IntersectionObserver((entries) => {
  for (const e of entries) boxes.get(e.target)?.setVisible(e.isIntersecting);
}, { rootMargin: '400px 0px' });

/**
 * Chart draws wait here and run in the order asked (a chart asked again keeps its place and draws
 * its latest spec), in tasks of about DRAW_BUDGET_MS: quick updates of several charts share one
 * task, while a result that feeds three slow charts, or a first load that creates them, becomes
 * several shorter tasks, and input between them is handled at once. A MessageChannel message is a
 * task without setTimeout's 4 ms clamp.
 */
const DRAW_BUDGET_MS = 12;
let drawQueue = new Set<ChartBox>();
let drawPort: MessagePort | null = null;
function drawNext(): void {
  const t0 = performance.now();
  while (drawQueue.size > 0 && performance.now() - t0 < DRAW_BUDGET_MS) {
    const box = drawQueue.values().next().value as ChartBox;
    drawQueue.delete(box);
    if (box.drawNow()) {
      // a chart being created: its next stage is first in line, in the next task
      drawQueue = new Set([box, ...drawQueue]);
      break;
    }
  }
  if (drawQueue.size > 0) drawPort!.postMessage(0);
}
function scheduleDraw(box: ChartBox): void {
  if (typeof MessageChannel === 'undefined') { while (box.drawNow()); return; }
  if (!drawPort) {
    const ch = new MessageChannel();
    ch.port1.onmessage = drawNext;
    drawPort = ch.port2;
  }
  const idle = drawQueue.size === 0;
  drawQueue.add(box);
  if (idle) drawPort.postMessage(0);
}

export class ChartBox {
  readonly el: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly titleEl: HTMLElement;
  private readonly noteEl: HTMLElement;
  private chart: Chart | null = null;
  /** the next stage of a chart being made (drawNow), null once it is drawn */
  private stage: 'build' | 'data' | 'draw' | null = null;
  private spec: ChartSpec | null = null;
  private visible = observer === null;
  private dirty = false;
  private destroyed = false;

  private readonly summaryEl: HTMLElement;
  private readonly canvasBox: HTMLElement;
  private overlay: HTMLElement | null = null;
  private readonly tableBtn: HTMLButtonElement;
  private readonly tableBox: HTMLElement;
  private title: string;
  private tableTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly unsubscribeTheme: () => void;

  constructor(readonly id: string, title: string, private readonly t: T, opts: { height?: number; square?: boolean } = {}) {
    this.title = title;
    const summaryId = `summary-${id}`;
    this.canvas = h('canvas', { 'data-chart': id, role: 'img', 'aria-label': title, 'aria-describedby': summaryId });
    this.titleEl = h('h3', { class: 'chart-title', text: title });
    this.noteEl = h('p', { class: 'chart-note' });
    this.summaryEl = h('p', { class: 'sr-only', id: summaryId, 'data-chart-summary': id });
    const wrap = h('div', { class: opts.square ? 'chart-canvas square' : 'chart-canvas' }, this.canvas);
    if (opts.height) wrap.style.setProperty('--chart-h', `${opts.height}px`);
    this.canvasBox = wrap;
    const tableId = `table-${id}`;
    this.tableBox = h('div', { class: 'data-table table-wrap', id: tableId, role: 'region', tabIndex: 0, hidden: true, 'data-table-for': id });
    this.tableBtn = h('button', { type: 'button', class: 'mini', 'data-export': 'table', 'aria-expanded': 'false', 'aria-controls': tableId, text: t('common.dataTable'), onclick: () => this.toggleTable() }) as HTMLButtonElement;
    const tools = h('div', { class: 'chart-tools' },
      this.tableBtn,
      h('button', { type: 'button', class: 'mini', 'data-export': 'png', text: t('common.png'), 'aria-label': t('common.pngOf', { title: id }), onclick: () => this.png() }),
      h('button', { type: 'button', class: 'mini', 'data-export': 'csv', text: t('common.csv'), 'aria-label': t('common.csvOf', { title: id }), onclick: () => this.csv() }),
    );
    this.el = h('figure', { class: 'chart', 'data-chart-box': id },
      h('div', { class: 'chart-head' }, this.titleEl, tools),
      wrap,
      h('p', { class: 'chart-pending', text: t('common.computing') }),
      h('p', { class: 'chart-refining', 'aria-hidden': 'true', title: t('common.refiningTitle'), text: t('common.refining') }),
      this.noteEl,
      this.summaryEl,
      this.tableBox);
    this.el.classList.add('pending');
    this.setToolLabels();
    // a change of the system colour scheme repaints the chart in the new colours
    this.unsubscribeTheme = onThemeChange(() => { if (this.spec) { this.dirty = true; if (this.visible) scheduleDraw(this); } });
    boxes.set(this.el, this);
    observer?.observe(this.el);
    // in the task after the one building the view, well before its first results come
    if (!intlWarm) setTimeout(warmIntl, 0);
  }

  private setToolLabels(): void {
    const name = this.title || this.id;
    this.tableBtn.setAttribute('aria-label', this.t('common.dataTableOf', { title: name }));
    this.tableBox.setAttribute('aria-label', this.t('common.dataTableOf', { title: name }));
    this.el.querySelector('[data-export="png"]')?.setAttribute('aria-label', this.t('common.pngOf', { title: name }));
    this.el.querySelector('[data-export="csv"]')?.setAttribute('aria-label', this.t('common.csvOf', { title: name }));
  }

  /** Shows or hides the data table: exactly the rows of the CSV export. */
  private toggleTable(): void {
    const open = this.tableBox.hidden;
    this.tableBox.hidden = !open;
    this.tableBtn.setAttribute('aria-expanded', String(open));
    if (open) this.fillTable();
  }
  private fillTable(): void {
    if (this.tableBox.hidden || !this.spec) return;
    const { header, rows } = this.spec.csv;
    const table = h('table', { class: 'table' },
      h('caption', { class: 'sr-only', text: this.title }),
      h('thead', {}, h('tr', {}, ...header.map((c) => h('th', { scope: 'col', text: c })))),
      h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c) => h('td', { text: String(c) }))))));
    this.tableBox.setAttribute('aria-label', this.t('common.dataTableOf', { title: this.title }));
    this.tableBox.replaceChildren(table);
  }

  setVisible(v: boolean): void {
    this.visible = v;
    if (v && this.dirty) scheduleDraw(this);
  }

  setTitle(title: string): void {
    this.title = title;
    setText(this.titleEl, title);
    this.canvas.setAttribute('aria-label', title);
    this.setToolLabels();
  }
  setNote(text: string): void { setText(this.noteEl, text); }

  /**
   * Lays `el` over the plot area (the axes stay visible around it): what empty axes are waiting
   * for, e.g. a run not started yet. null removes it. The figure carries data-overlay while one is shown.
   */
  setOverlay(el: HTMLElement | null): void {
    if (el === this.overlay) return;
    this.overlay?.remove();
    this.overlay = el;
    if (el) { el.classList.add('chart-overlay'); this.canvasBox.append(el); this.el.dataset.overlay = ''; } else delete this.el.dataset.overlay;
  }

  /**
   * Shows a built chart: the first call creates it, later ones swap data and options. `refining`:
   * the spec is a first estimate from part of the work (a subtle mark shows until a final one).
   */
  set(spec: ChartSpec, refining = false): void {
    this.spec = spec;
    this.el.classList.remove('pending');
    this.el.classList.toggle('refining', refining);
    this.canvas.dataset.refining = String(refining);
    this.el.dataset.points = String(spec.points);
    const scales = (spec.config.options as { scales?: Record<string, { title?: { text?: string } }> }).scales;
    setText(this.summaryEl, chartSummary(spec.csv, this.t, 6, { x: scales?.x?.title?.text, y: scales?.y?.title?.text }));
    // an open data table follows the chart once a drag settles (a 2304-row table per step would stall it)
    if (!this.tableBox.hidden) {
      clearTimeout(this.tableTimer);
      this.tableTimer = setTimeout(() => this.fillTable(), 300);
    }
    this.dirty = true;
    if (this.visible) scheduleDraw(this);
  }

  /**
   * Draws the latest spec (the draw queue calls it). A chart drawn for the first time (or of
   * another type) is made in four stages, one per call and so per task: the page is laid out
   * (Chart.js reads its canvas's size as it starts: in a cold load that layout of everything the
   * view added, its text and the font lookups for it, was 20–70 ms of the build's task), Chart.js
   * builds it with the spec's options and no data (scales, layout, legend: the first run of most of
   * its code), then takes the data (the dataset controllers and elements), then draws. Until the last stage
   * nothing is drawn (`held`): the canvas, sized by its box from the start, stays blank, then shows
   * the whole chart at once. Returns true while a stage is left (the queue calls again, next task).
   */
  drawNow(): boolean {
    const spec = this.spec;
    if (!spec || this.destroyed) return false;
    const chart = this.chart;
    if (chart && (this.stage === 'data' || this.stage === 'draw') && (chart.config as { type?: string }).type !== spec.config.type) {
      // the spec changed type while the chart was being made: start again
      held.delete(chart);
      chart.destroy();
      this.chart = null;
      this.stage = null;
      this.dirty = true;
    }
    if (this.stage === 'data') {
      const cfg = themed(spec.config as unknown as ChartConfiguration);
      this.dirty = false;
      this.chart!.data = cfg.data;
      this.chart!.options = cfg.options ?? {};
      this.chart!.update('none');
      this.stage = 'draw';
      return true;
    }
    if (this.stage === 'draw') {
      this.stage = null;
      held.delete(this.chart!);
      if (!this.dirty) { this.chart!.render(); return false; }
      // a newer spec came between the stages: drawn with it below
    }
    if (!this.dirty) return false;
    if (!this.chart || (this.chart.config as { type?: string }).type !== spec.config.type) {
      if (!intlWarm) { warmIntl(); return true; }
      if (this.stage !== 'build') {
        this.canvas.getBoundingClientRect();  // the layout, in a task of its own
        this.stage = 'build';
        return true;
      }
      this.chart?.destroy();
      const cfg = themed(spec.config as unknown as ChartConfiguration);
      creating = true;
      try {
        this.chart = new Chart(this.canvas, { ...cfg, data: { ...cfg.data, datasets: [] } });
      } finally {
        creating = false;
      }
      held.add(this.chart);
      this.stage = 'data';
      return true;
    }
    this.stage = null;  // laid out for a type the spec has left again: the chart shown takes it
    this.dirty = false;
    const cfg = themed(spec.config as unknown as ChartConfiguration);
    this.chart.data = cfg.data;
    this.chart.options = cfg.options ?? {};
    this.chart.update('none');
    return false;
  }

  get current(): ChartSpec | null { return this.spec; }

  /**
   * The chart as a PNG at the device pixel ratio, with its title above and below it a short link
   * to the panel with these numbers (only the keys the panel reads), wrapped to the width.
   */
  png(): void {
    const out = this.exportCanvas(true);
    if (out) download(`sqrtdk-${this.id}.png`, out.toDataURL('image/png'));
  }

  /**
   * The chart as shown, on an opaque canvas at the device pixel ratio: its title in a band above
   * and, with `withLink`, the panel's short link below (the PNG export; the poster of
   * share/poster.ts draws its own link and QR code). Null before the chart is drawn.
   */
  exportCanvas(withLink: boolean, size?: { width: number; height: number; scale: number }): HTMLCanvasElement | null {
    const src = size ? this.drawnAt(size.width, size.height, size.scale) : this.stage === null ? this.chart?.canvas : undefined;
    if (!src) return null;
    const dpr = size ? size.scale : src.width / Math.max(1, src.clientWidth || src.width);
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
    ctx.fillText(this.title, 8 * dpr, band / 2, out.width - 16 * dpr);
    ctx.font = linkFont;
    lines.forEach((line, i) => ctx.fillText(line, 8 * dpr, src.height + band + Math.round(5 * dpr) + lineH * (i + 0.5)));
    return out;
  }
  /**
   * The chart's current spec drawn once more on a detached canvas of width × height CSS px at
   * `scale` device pixels per CSS px (the poster's layout, not the screen's), without animation.
   */
  private drawnAt(width: number, height: number, scale: number): HTMLCanvasElement | null {
    if (!this.spec) return null;
    const canvas = document.createElement('canvas');
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    const src = this.spec.config as unknown as ChartConfiguration;
    // a copy of the config's top levels (the data arrays are shared, read only): the live chart keeps its own
    const cfg = themed({ ...src, data: { ...src.data, datasets: src.data.datasets.map((d) => ({ ...d })) }, options: { ...(src.options ?? {}) } } as ChartConfiguration);
    cfg.options = { ...(cfg.options ?? {}), responsive: false, maintainAspectRatio: false, animation: false, devicePixelRatio: scale };
    canvas.width = width;
    canvas.height = height;
    const chart = new Chart(canvas, cfg);
    chart.draw();
    const out = document.createElement('canvas');
    out.width = canvas.width;
    out.height = canvas.height;
    out.getContext('2d')!.drawImage(canvas, 0, 0);
    chart.destroy();
    return out;
  }

  csv(): void {
    if (!this.spec) return;
    const url = URL.createObjectURL(new Blob([csvText(this.spec.csv)], { type: 'text/csv;charset=utf-8' }));
    download(`sqrtdk-${this.id}.csv`, url);
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }
  destroy(): void {
    this.destroyed = true;
    drawQueue.delete(this);
    clearTimeout(this.tableTimer);
    this.unsubscribeTheme();
    observer?.unobserve(this.el);
    this.chart?.destroy();
    this.chart = null;
    this.stage = null;
  }
}

/** The ChartBox of a chart's figure element ([data-chart-box]), if it is one. */
export function chartBoxOf(el: Element): ChartBox | undefined {
  return boxes.get(el);
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
