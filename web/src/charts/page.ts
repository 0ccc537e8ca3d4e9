// The page's charts as one object (ChartPage, a field of the app's state, handed to every view): the draw queue that spreads draws over short tasks, the observer that draws a chart only near the viewport, the charts held while they are made, and the page's first final draw.
import type { Chart, Plugin } from 'chart.js';
import { FIRST_FINAL_DRAW_EVENT } from './events.ts';

/** What the page asks of a chart widget (charts/chartbox.ts ChartBox). */
export interface Drawable {
  /** Draws (a stage of) the latest spec; true while a stage is left (called again, next task). */
  drawNow(): boolean;
  setVisible(v: boolean): void;
}

/** A chart's figure element, which knows its widget (the observer and the poster find it so). */
export type ChartFigure = HTMLElement & { sqrtdkChartBox?: Drawable };

/**
 * Chart draws wait here and run in the order asked (a chart asked again keeps its place and draws
 * its latest spec), in tasks of about DRAW_BUDGET_MS: quick updates of several charts share one
 * task, while a result that feeds three slow charts, or a first load that creates them, becomes
 * several shorter tasks, and input between them is handled at once. A MessageChannel message is a
 * task without setTimeout's 4 ms clamp.
 */
const DRAW_BUDGET_MS = 12;
/** The longest chart draws wait for the frame that shows a control's echo (ChartPage.paintFirst). */
const ECHO_WAIT_MS = 100;

export class ChartPage {
  /**
   * A chart is created in stages, each a task of its own (ChartBox.drawNow): Chart.js's first run of
   * its code (compiling it, the number formats, the fonts) made one task of 70–95 ms of a cold load,
   * 400 ms on a 4× slower phone. Until its last stage a chart is held: its draws are cancelled and
   * not recorded, so no half-made chart (axes without data) is ever shown or counted.
   */
  readonly held = new WeakSet<Chart>();
  /** true while `new Chart` of a held chart runs (its constructor's first update draws before it is in `held`). */
  creating = false;
  /**
   * The page's first Intl.NumberFormat loads the number formats of the locale (Chart.js formats its
   * ticks with one): 20–45 ms of a cold load, done in a task of its own before the first chart (the
   * task after the first chart box is built, or else the first chart's first stage). The compute
   * worker makes one as it starts (worker/worker.ts), which loads them for the whole renderer: this
   * one then takes under a millisecond, and stays for a page whose worker could not start.
   */
  intlWarm = false;
  /** the page language whose font stack the charts use (charts/themed.ts pageFont) */
  fontLang: string | null = null;
  /** the formulas' wait for the page's first drawn chart (panels/kit.ts afterFirstChart), made once */
  firstChart: Promise<void> | null = null;
  /** the page's first chart drawn from full results was told (FIRST_FINAL_DRAW_EVENT) */
  private firstFinalTold = false;
  private drawQueue = new Set<Drawable>();
  private drawPort: MessagePort | null = null;
  /** a draw message is on its way (one at a time) */
  private drawPosted = false;
  /** a control moved and its echo is not painted yet: queued draws wait for that frame (paintFirst) */
  private echoPending = false;
  /** the time (performance.now()) of the last frame seen by paintFirst, and the time between frames measured after it */
  private lastFrame = -Infinity;
  private frameMs = 1000 / 60;
  /** each chart's last draw (ms): whether its draw still fits before the echo's frame (fitsBeforeFrame) */
  private drawCost = new WeakMap<Drawable, number>();
  /**
   * Charts draw only when near the viewport: a chart far below the fold keeps its latest spec and
   * draws it when it scrolls into view (a d_k change would otherwise redraw ten charts per frame).
   */
  readonly observer = typeof IntersectionObserver === 'undefined' ? null : new IntersectionObserver((entries) => {
    for (const e of entries) (e.target as ChartFigure).sqrtdkChartBox?.setVisible(e.isIntersecting);
  }, { rootMargin: '400px 0px' });

  /** The chart is being made (held) and must not draw. */
  isHeld(chart: Chart): boolean { return this.creating || this.held.has(chart); }

  warmIntl(): void {
    if (this.intlWarm) return;
    this.intlWarm = true;
    new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(0.5);
  }

  /** Cancels the draws of a chart while it is held (the first plugin of each chart). */
  readonly hold: Plugin = {
    id: 'sqrtdkHold',
    beforeDraw: (chart) => (this.isHeld(chart) ? false : undefined),
  };

  /** Records each completed draw (tests and bench:ui read data-renders and window.__sqrtdkPerf). */
  readonly renderHook: Plugin = {
    id: 'sqrtdkRenderHook',
    afterRender: (chart) => {
      if (this.isHeld(chart)) return;
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
      // the page's first chart drawn from full results: app/boot.ts starts the deferred work then (the service worker)
      if (final && !this.firstFinalTold) { this.firstFinalTold = true; document.dispatchEvent(new Event(FIRST_FINAL_DRAW_EVENT)); }
    },
  };

  /**
   * A control moved: what the page shows of it at once (its readout, its field) paints in the next
   * frame, and the chart draws wait until that frame is out. A draw task of up to DRAW_BUDGET_MS
   * that started before the frame (a first estimate from a worker answers within a few ms) held the
   * echo back by as long (bench:ui's trace: 8–14 ms); queued right after the frame instead, it
   * runs in the time to the next one — unless it fits before that frame (fitsBeforeFrame: a quick
   * chart's final answer then shows in the echo's own frame, not one later). The frame is awaited
   * at most ECHO_WAIT_MS (a frame out of view may get no animation frames).
   */
  paintFirst(): void {
    if (this.echoPending || typeof requestAnimationFrame === 'undefined') return;
    this.echoPending = true;
    const release = (frameAt?: number) => {
      if (!this.echoPending) return;
      this.echoPending = false;
      clearTimeout(timer);
      if (frameAt !== undefined) {
        this.lastFrame = frameAt;
        // the display's frame interval (60 Hz, 120 Hz, …): the shortest seen from this frame to the next
        // (a busy frame only lengthens it; a longer interval than the display's would mispredict the frame)
        requestAnimationFrame((next) => { if (next - frameAt >= 4) this.frameMs = Math.min(this.frameMs, next - frameAt); });
      }
      this.postDraw();  // from the frame's callbacks: a task after the frame
    };
    const timer = setTimeout(release, ECHO_WAIT_MS);
    requestAnimationFrame(release);
  }

  /**
   * While an echo waits for its frame: whether every queued draw (each chart's last draw time, with
   * a quarter and 2 ms to spare) ends before that frame is due — frames come every frameMs from the
   * last one seen (within a second). A chart not drawn yet, or no recent frame: no.
   */
  private fitsBeforeFrame(): boolean {
    const now = performance.now();
    if (now - this.lastFrame > 1000) return false;
    const due = this.lastFrame + Math.ceil((now - this.lastFrame) / this.frameMs) * this.frameMs;
    let cost = 0;
    for (const box of this.drawQueue) {
      const c = this.drawCost.get(box);
      if (c === undefined) return false;
      cost += c;
    }
    return now + cost * 1.25 + 2 <= due;
  }

  /** Queues a draw of `box` (DRAW_BUDGET_MS above). */
  scheduleDraw(box: Drawable): void {
    if (typeof MessageChannel === 'undefined') { while (box.drawNow()); return; }
    this.drawQueue.add(box);
    this.postDraw();
  }

  private postDraw(): void {
    if (this.drawPosted || this.drawQueue.size === 0 || (this.echoPending && !this.fitsBeforeFrame())) return;
    if (!this.drawPort) {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { this.drawPosted = false; this.drawNext(); };
      this.drawPort = ch.port2;
    }
    this.drawPosted = true;
    this.drawPort.postMessage(0);
  }

  /** A destroyed chart leaves the queue. */
  unschedule(box: Drawable): void { this.drawQueue.delete(box); }

  private drawNext(): void {
    if (this.echoPending && !this.fitsBeforeFrame()) return;  // the frame's callback posts again
    const t0 = performance.now();
    while (this.drawQueue.size > 0 && performance.now() - t0 < DRAW_BUDGET_MS && (!this.echoPending || this.fitsBeforeFrame())) {
      const box = this.drawQueue.values().next().value as Drawable;
      this.drawQueue.delete(box);
      const b0 = performance.now();
      const more = box.drawNow();
      this.drawCost.set(box, performance.now() - b0);
      if (more) {
        // a chart being created: its next stage is first in line, in the next task
        this.drawQueue = new Set([box, ...this.drawQueue]);
        break;
      }
    }
    this.postDraw();
  }
}
