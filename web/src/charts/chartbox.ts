// A chart widget: its title, the canvas drawn in stages through the page's draw queue (charts/page.ts), a summary for screen readers, the data table, and the PNG / CSV export buttons. Live charts never animate and update with chart.update('none').
import { Chart } from 'chart.js';
import type { ChartConfiguration } from 'chart.js';
import type { ChartSpec } from './kit.ts';
import type { T } from '../i18n/messages.ts';
import { h, setText, download } from '../dom.ts';
import { chartSummary } from './summary.ts';
import { onThemeChange } from '../theme.ts';
import type { ChartPage, ChartFigure, Drawable } from './page.ts';
import { themed, pagePlugins } from './setup.ts';
import { framedChart, drawnAt, downloadCsv, chartCsv } from './export.ts';

export class ChartBox implements Drawable {
  readonly el: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly titleEl: HTMLElement;
  private readonly noteEl: HTMLElement;
  private chart: Chart | null = null;
  /** the next stage of a chart being made (drawNow), null once it is drawn */
  private stage: 'build' | 'data' | 'draw' | null = null;
  private spec: ChartSpec | null = null;
  private visible: boolean;
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

  constructor(private readonly page: ChartPage, readonly id: string, title: string, private readonly t: T, opts: { height?: number; square?: boolean } = {}) {
    this.title = title;
    this.visible = page.observer === null;
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
    this.unsubscribeTheme = onThemeChange(() => { if (this.spec) { this.dirty = true; if (this.visible) page.scheduleDraw(this); } });
    (this.el as ChartFigure).sqrtdkChartBox = this;
    page.observer?.observe(this.el);
    // in the task after the one building the view, well before its first results come
    if (!page.intlWarm) setTimeout(() => page.warmIntl(), 0);
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
    if (v && this.dirty) this.page.scheduleDraw(this);
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
    if (this.visible) this.page.scheduleDraw(this);
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
    const page = this.page;
    if (!spec || this.destroyed) return false;
    const chart = this.chart;
    if (chart && (this.stage === 'data' || this.stage === 'draw') && (chart.config as { type?: string }).type !== spec.config.type) {
      // the spec changed type while the chart was being made: start again
      page.held.delete(chart);
      chart.destroy();
      this.chart = null;
      this.stage = null;
      this.dirty = true;
    }
    if (this.stage === 'data') {
      const cfg = themed(page, spec.config as unknown as ChartConfiguration);
      this.dirty = false;
      this.chart!.data = cfg.data;
      this.chart!.options = cfg.options ?? {};
      this.chart!.update('none');
      this.stage = 'draw';
      return true;
    }
    if (this.stage === 'draw') {
      this.stage = null;
      page.held.delete(this.chart!);
      if (!this.dirty) { this.chart!.render(); return false; }
      // a newer spec came between the stages: drawn with it below
    }
    if (!this.dirty) return false;
    if (!this.chart || (this.chart.config as { type?: string }).type !== spec.config.type) {
      if (!page.intlWarm) { page.warmIntl(); return true; }
      if (this.stage !== 'build') {
        this.canvas.getBoundingClientRect();  // the layout, in a task of its own
        this.stage = 'build';
        return true;
      }
      this.chart?.destroy();
      const cfg = themed(page, spec.config as unknown as ChartConfiguration);
      page.creating = true;
      try {
        this.chart = new Chart(this.canvas, { ...cfg, data: { ...cfg.data, datasets: [] }, plugins: pagePlugins(page) });
      } finally {
        page.creating = false;
      }
      page.held.add(this.chart);
      this.stage = 'data';
      return true;
    }
    this.stage = null;  // laid out for a type the spec has left again: the chart shown takes it
    this.dirty = false;
    const cfg = themed(page, spec.config as unknown as ChartConfiguration);
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
    const src = size ? (this.spec ? drawnAt(this.page, this.spec, size.width, size.height, size.scale) : null) : this.stage === null ? this.chart?.canvas : undefined;
    if (!src) return null;
    const dpr = size ? size.scale : src.width / Math.max(1, src.clientWidth || src.width);
    return framedChart(src, this.title, withLink, dpr);
  }

  /** The text the CSV button downloads, or null before the chart has data. */
  csvText(): string | null {
    return this.spec ? chartCsv(this.spec) : null;
  }
  csv(): void {
    const text = this.csvText();
    if (text !== null) downloadCsv(text, this.id);
  }
  destroy(): void {
    this.destroyed = true;
    this.page.unschedule(this);
    clearTimeout(this.tableTimer);
    this.unsubscribeTheme();
    this.page.observer?.unobserve(this.el);
    this.chart?.destroy();
    this.chart = null;
    this.stage = null;
  }
}

/** The ChartBox of a chart's figure element ([data-chart-box]), if it is one. */
export function chartBoxOf(el: Element): ChartBox | undefined {
  const box = (el as ChartFigure).sqrtdkChartBox;
  return box instanceof ChartBox ? box : undefined;
}
