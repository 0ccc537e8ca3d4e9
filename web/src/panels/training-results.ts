// The training lab's results: the live curves (loss, gradient norm, entropy, max logit, head scale, accuracy), the end-of-run table, and the trained logits against the iid N(0, 1) per layer — before a run, their empty axes and the rows of the runs Run will start.
import type { AttentionVariant } from '../../../wasm/js/core.js';
import { ChartBox } from '../charts/chartbox.ts';
import type { ChartPage } from '../charts/page.ts';
import { csvText } from '../charts/kit.ts';
import {
  buildTrainLoss, buildTrainGradNorm, buildTrainLayers, buildTrainAccuracy, buildTrainLogitHist, summaryRows, summaryCsv, VARIANT_COLOURS,
} from '../charts/training.ts';
import type { State } from '../state/state.ts';
import type { MessageKey, T } from '../i18n/messages.ts';
import { fmt, pct } from '../format.ts';
import { h, setText, download } from '../dom.ts';
import { scrollTable } from './kit.ts';
import type { RunSeries } from '../training/series.ts';
import { hasHeadScale } from '../training/series.ts';
import { ln } from '../portable-math.ts';
import type { KeyFigure } from '../requests/key-figures.ts';

function exportCsv(name: string, csv: { header: string[]; rows: (string | number)[][] }): void {
  const url = URL.createObjectURL(new Blob([csvText(csv)], { type: 'text/csv;charset=utf-8' }));
  download(`sqrtdk-${name}.csv`, url);
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function iidCsvOf(runs: RunSeries[]) {
  const rows: (string | number)[][] = [];
  for (const r of runs) r.analysis?.layers.forEach((a, l) => rows.push([r.variant, l + 1, a.scale, a.logitMoments.variance, a.qk.variance, a.iidQkVariance, a.entropy, a.maxAbsLogit]));
  return { header: ['variant', 'layer', 'scale_c', 'var_scaled_logit', 'var_qk', 'iid_var_qk', 'mean_entropy_nats', 'max_abs_logit'], rows };
}

export class TrainingResults {
  /** the results' box (the charts part: a charts-only embed has them too) */
  readonly el = h('div', { class: 'train-results', 'data-part': 'charts' });
  private charts: ChartBox[] = [];
  private chartLoss!: ChartBox;
  private chartGrad!: ChartBox;
  private chartEnt!: ChartBox;
  private chartLogit!: ChartBox;
  private chartScale!: ChartBox;
  private chartAcc!: ChartBox;
  private histCharts: ChartBox[] = [];
  /** the run table's key figures (drawTable): the poster reads them */
  tableFigures: KeyFigure[] = [];
  private readonly tableBody = h('tbody');
  private readonly iidBody = h('tbody');
  private readonly histWrap = h('div', { class: 'chart-pair' });
  private readonly analysisBox: HTMLElement;
  private readonly tableBox: HTMLElement;
  private lineNotes: HTMLElement[] = [];
  private readonly accNote: HTMLElement;

  /** `runsNow()` and `thrNow()`: the runs and the threshold the CSV buttons export when clicked. */
  constructor(private readonly page: ChartPage, private readonly t: T, runsNow: () => RunSeries[], thrNow: () => number) {
    const tableCsv = h('button', { type: 'button', class: 'mini', 'data-export': 'csv', text: t('common.csv') }) as HTMLButtonElement;
    const iidCsv = h('button', { type: 'button', class: 'mini', 'data-export': 'csv', text: t('common.csv') }) as HTMLButtonElement;
    this.analysisBox = h('div', { class: 'train-analysis', hidden: true },
      h('h3', { text: t('train.iid.title') }), h('p', { class: 'chart-note', text: t('train.iid.note') }), this.histWrap,
      h('figure', { class: 'chart table-box', 'data-table-box': 'training-iid' },
        h('div', { class: 'chart-head' }, h('h3', { class: 'chart-title', text: t('train.iid.table') }), h('div', { class: 'chart-tools' }, iidCsv)),
        scrollTable(h('table', { class: 'table' },
          h('thead', {}, h('tr', {}, ...(['variant', 'layer', 'scale', 'varLogit', 'varQk', 'iidQk', 'entropy'] as const).map((c) => h('th', { text: t(`train.iid.th.${c}`) })))),
          this.iidBody), t('train.iid.table'))));
    this.tableBox = h('figure', { class: 'chart table-box', 'data-table-box': 'training-table' },
      h('div', { class: 'chart-head' }, h('h3', { class: 'chart-title', 'data-train-table-title': '' }), h('div', { class: 'chart-tools' }, tableCsv)),
      scrollTable(h('table', { class: 'table train-table' },
        h('thead', {}, h('tr', {}, ...(['variant', 'steps', 'final', 'heldout', 'tokAcc', 'seqAcc', 'reach', 'nonfinite'] as const).map((c) => h('th', { text: t(`train.th.${c}`) })))),
        this.tableBody), t('train.title')));
    this.accNote = this.waitNote('train.plan.after');
    tableCsv.addEventListener('click', () => exportCsv('training-table', summaryCsv(summaryRows(runsNow(), thrNow()), thrNow())));
    iidCsv.addEventListener('click', () => exportCsv('training-iid', iidCsvOf(runsNow())));
  }

  /** A line over an empty chart's plot area: what it waits for. */
  private waitNote(key: MessageKey): HTMLElement { return h('p', { text: this.t(key) }); }

  private vname(v: AttentionVariant): string { return this.t(`train.v.${v}`); }

  /** The charts, made on the first draw. */
  private build(): void {
    if (this.charts.length) return;
    const { t, page } = this;
    this.chartLoss = new ChartBox(page, 'training-loss', t('train.chart.loss'), t, { height: 280 });
    this.chartGrad = new ChartBox(page, 'training-gradnorm', t('train.chart.gradNorm'), t, { height: 280 });
    this.chartEnt = new ChartBox(page, 'training-entropy', t('train.chart.entropy'), t, { height: 260 });
    this.chartLogit = new ChartBox(page, 'training-maxlogit', t('train.chart.maxLogit'), t, { height: 260 });
    this.chartScale = new ChartBox(page, 'training-headscale', t('train.chart.headScale'), t, { height: 240 });
    this.chartAcc = new ChartBox(page, 'training-accuracy', t('train.chart.accuracy'), t, { height: 240 });
    this.charts = [this.chartLoss, this.chartGrad, this.chartEnt, this.chartLogit, this.chartScale, this.chartAcc];
    this.el.append(h('div', { class: 'chart-pair' }, this.chartLoss.el, this.chartGrad.el), h('div', { class: 'chart-pair' }, this.chartEnt.el, this.chartLogit.el),
      h('div', { class: 'chart-pair' }, this.chartScale.el, this.chartAcc.el), this.tableBox, this.analysisBox);
    this.chartAcc.setNote(t('train.accNote'));
    this.lineNotes = [this.chartGrad, this.chartEnt, this.chartLogit, this.chartScale].map(() => this.waitNote('train.plan.curves'));
  }

  /**
   * Draws `runs` (with `planned`, the runs Run would start: no step yet, `plan` over the loss
   * chart's plot area) of configuration `cfg`, the table at threshold `thr`.
   */
  draw(runs: RunSeries[], cfg: State, thr: number, planned: boolean, plan: HTMLElement): void {
    const { t } = this;
    this.build();
    this.chartLoss.setOverlay(planned ? plan : null);
    [this.chartGrad, this.chartEnt, this.chartLogit, this.chartScale].forEach((c, i) => c.setOverlay(planned ? this.lineNotes[i] : null));
    this.chartLoss.set(buildTrainLoss(runs, t));
    this.chartGrad.set(buildTrainGradNorm(runs, t, cfg.trclip));
    this.chartEnt.set(buildTrainLayers(runs, 'entropy', t, ln(cfg.trlen)));
    this.chartLogit.set(buildTrainLayers(runs, 'maxAbsLogit', t));
    const scaled = runs.some((r) => hasHeadScale(r.variant));
    this.chartScale.el.hidden = !scaled;
    if (scaled) this.chartScale.set(buildTrainLayers(runs, 'headScale', t));
    // the held-out accuracy is measured when the runs end: its axes wait until then
    this.chartAcc.setOverlay(runs.some((r) => r.evaluation) ? null : this.accNote);
    this.chartAcc.set(buildTrainAccuracy(runs, t));
    this.drawTable(runs, thr);
    this.drawAnalysis(runs);
  }

  private drawTable(runs: RunSeries[], thr: number): void {
    const { t } = this;
    setText(this.tableBox.querySelector('[data-train-table-title]'), t('train.table', { thr: fmt(thr) }));
    const rows = summaryRows(runs, thr);
    // '–' where there is no number yet (no evaluation before the end); a NaN the core measured is shown as NaN
    const num = (x: number, f: (x: number) => string = (v) => fmt(v), have = true) => (have ? (Number.isNaN(x) ? 'NaN' : f(x)) : '–');
    // the table's key figures, row by row (the poster draws the first three): label "variant · column"
    const figs = (r: (typeof rows)[number]): KeyFigure[] => ([
      ['steps', 'steps', String(r.stepsDone)],
      ['final', 'final', num(r.finalLoss, undefined, r.stepsDone > 0)],
      ['heldout', 'heldout', num(r.heldoutLoss, undefined, r.evaluated)],
      ['acc', 'tokAcc', num(r.tokenAccuracy, pct, r.evaluated)],
      ['seqacc', 'seqAcc', num(r.sequenceAccuracy, pct, r.evaluated)],
      ['reach', 'reach', r.stepsDone === 0 ? '–' : r.stepsToThreshold === null ? t('train.never') : String(r.stepsToThreshold)],
      ['nonfinite', 'nonfinite', r.stepsDone === 0 ? '–' : r.firstNonfinite === null ? t('train.none') : t('train.atStep', { step: r.firstNonfinite })],
    ] as const).map(([id, th, value]) => ({ id: `train-${id}-${r.variant}`, label: `${this.vname(r.variant)} · ${t(`train.th.${th}`)}`, value }));
    this.tableFigures = rows.flatMap(figs);
    this.tableBody.replaceChildren(...rows.map((r) => h('tr', { 'data-variant': r.variant, 'data-status': r.firstNonfinite !== null ? 'diverged' : '' },
      h('th', { scope: 'row' }, h('span', { class: 'swatch', style: `background:${VARIANT_COLOURS[r.variant]}` }), this.vname(r.variant)),
      ...figs(r).map((f) => h('td', { 'data-readout': f.id, text: f.value })))));
  }

  /**
   * The trained logits against N(0, 1), per layer. Until the runs end (and before a run) each layer's
   * axes hold only the N(0, 1) density the iid argument predicts, and the table one row of '–'
   * per run and layer: the analysis is made on held-out data at the end.
   */
  private drawAnalysis(runs: RunSeries[]): void {
    const { t, histCharts } = this;
    const analysed = runs.filter((r) => r.analysis);
    this.analysisBox.hidden = runs.length === 0;
    if (!runs.length) return;
    const layers = analysed.length ? analysed[0].analysis!.layers.length : runs[0].layers;
    while (histCharts.length < layers) {
      const c = new ChartBox(this.page, `training-logits-l${histCharts.length + 1}`, t('train.chart.hist', { layer: histCharts.length + 1 }), t, { height: 240 });
      histCharts.push(c);
      this.histWrap.append(c.el);
    }
    while (histCharts.length > layers) { const c = histCharts.pop()!; c.destroy(); c.el.remove(); }
    histCharts.forEach((c, l) => { c.setOverlay(analysed.length ? null : this.waitNote('train.plan.after')); c.set(buildTrainLogitHist(analysed, l, t)); });
    if (!analysed.length) {
      this.iidBody.replaceChildren(...runs.flatMap((r) => Array.from({ length: r.layers }, (_, l) => h('tr', {},
        h('th', { scope: 'row', text: this.vname(r.variant) }), h('td', { text: String(l + 1) }), ...Array.from({ length: 5 }, () => h('td', { text: '–' }))))));
      return;
    }
    this.iidBody.replaceChildren(...analysed.flatMap((r) => r.analysis!.layers.map((a, l) => h('tr', {},
      h('th', { scope: 'row', text: this.vname(r.variant) }), h('td', { text: String(l + 1) }), h('td', { text: fmt(a.scale, 3) }),
      h('td', { 'data-readout': `train-varlogit-${r.variant}-${l + 1}`, text: fmt(a.logitMoments.variance, 3) }),
      h('td', { text: fmt(a.qk.variance, 3) }), h('td', { text: fmt(a.iidQkVariance, 3) }), h('td', { text: fmt(a.entropy, 3) })))));
  }

  destroy(): void {
    for (const c of [...this.charts, ...this.histCharts]) c.destroy();
  }
}
