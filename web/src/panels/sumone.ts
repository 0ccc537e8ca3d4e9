// View "Does attention have to sum to one?": softmax, off-by-one, a sink, sigmoid attention (b = −ln n), an output gate and differential attention on the same draws (row sum, mass on the first key, entropy where defined, output norm; the sources' closed-form rows), and QK-Clip's per-head largest logit, η and the maximum after clipping.
import type { NormalisersResult, QkClipResult } from '../../../wasm/js/core.js';
import { ChartBox } from '../charts/chartbox.ts';
import { buildNormalisers, buildQkClip, normaliserLabel } from '../charts/normalisers.ts';
import { numSlider, stepSlider, intSlider, select, seedInput } from '../controls.ts';
import type { Control } from '../controls.ts';
import type { State, StateKey } from '../state/state.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { DK_STEPS, SEQ_STEPS, SCALES } from '../state/schema.js';
import { fmt, pct } from '../format.ts';
import { h, setText } from '../dom.ts';
import { shell, scrollTable, KeyedRequest, showFigures, readout } from './kit.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { normaliserFigures, normaliserCheckFigures, qkClipFigures, SUM_COLUMNS } from '../requests/key-figures.ts';
import type { KeyFigure } from '../requests/key-figures.ts';
import { normalisersParams, normalisersRowParams, normalisersShape, qkClipParams, CHECK_ROWS, NORMALISERS_MAX, QKCLIP_SHAPE } from '../requests/normalisers.ts';
import { NORMALISER_NAMES } from '../charts/normalisers.ts';

export function sumonePanel({ t, store, compute, charts }: PanelCtx): PanelView {
  const s = shell('sumone', 14, t('sum.title'), t('sum.lede'), [], t, charts);
  s.readouts.remove();
  const controls: Control[] = [
    stepSlider(store, 'sumone', 'dk', t('common.dk'), DK_STEPS.filter((d) => d <= NORMALISERS_MAX.dk)),
    stepSlider(store, 'sumone', 'seqLen', t('common.seqLen'), SEQ_STEPS.filter((l) => l <= NORMALISERS_MAX.seqLen)),
    intSlider(store, 'sumone', 'heads', t('common.heads')),
    select(store, 'sumone', 'scale', t('common.scale'), SCALES.map((v) => ({ value: v, label: t(`scale.${v}`) }))),
    seedInput(store, 'sumone', 'seed', t('common.seed'), t('common.reroll')),
    numSlider(store, 'sumone', 'nsink', t('sum.sink')),
    numSlider(store, 'sumone', 'nlambda', t('sum.lambda')),
    numSlider(store, 'sumone', 'ngate', t('sum.gate')),
  ];
  for (const c of controls) s.controls.append(c.el);

  // the normalisers: chart and table
  const chart = new ChartBox(charts, 'sumone-normalisers', '', t, { height: 320 });
  const table = h('table', { class: 'table', 'data-sum-table': '' });
  const headCells = [h('th', { scope: 'col', text: t('sum.th.name') }), ...SUM_COLUMNS.map((c) => h('th', { scope: 'col', text: t(`sum.th.${c}` as MessageKey) }))];
  const body = h('tbody');
  const nameCells = new Map<string, HTMLElement>();
  for (const name of NORMALISER_NAMES) {
    const th = h('th', { scope: 'row', text: normaliserLabel(t, name) });
    nameCells.set(name, th);
    body.append(h('tr', { 'data-sum-row': name }, th, ...SUM_COLUMNS.map((c) => h('td', { 'data-readout': `sum-${name}-${c}`, text: '–' }))));
  }
  table.append(h('thead', {}, h('tr', {}, ...headCells)), body);
  const capped = h('p', { class: 'note' });

  // the sources' closed-form rows
  const checks = h('table', { class: 'table', 'data-sum-checks': '' });
  const cbody = h('tbody');
  for (const row of CHECK_ROWS) {
    cbody.append(h('tr', {}, h('th', { scope: 'row', text: t(`sum.check.${row.id}` as MessageKey) }),
      ...(['sigmoid', 'offByOne', 'softmax'] as const).map((n) => h('td', { 'data-readout': `sum-check-${row.id}-${n}`, text: '–' }))));
  }
  checks.append(h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('sum.checks.th.row') }),
    ...(['sigmoid', 'offByOne', 'softmax'] as const).map((n) => h('th', { scope: 'col', text: normaliserLabel(t, n) })))), cbody);

  // QK-Clip
  const qcControls: Control[] = [
    numSlider(store, 'sumone', 'qcgain', t('sum.qcgain')),
    numSlider(store, 'sumone', 'qctau', t('sum.qctau')),
    stepSlider(store, 'sumone', 'qchkv', t('sum.qchkv'), [1, 2, 4, 8]),
  ];
  const qcBox = h('div', { class: 'controls' }, ...qcControls.map((c) => c.el));
  const qcChart = new ChartBox(charts, 'sumone-qkclip', '', t, { height: 280 });
  const qcTable = h('table', { class: 'table', 'data-qc-table': '' });
  const qcBody = h('tbody');
  for (let hd = 0; hd < QKCLIP_SHAPE.heads; hd++) {
    qcBody.append(h('tr', {}, h('th', { scope: 'row', text: `${t('sum.qc.head')} ${hd}` }),
      ...['max', 'gamma', 'after'].map((c) => h('td', { 'data-readout': `qc-${c}-${hd}`, text: '–' }))));
  }
  qcTable.append(h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('sum.qc.head') }),
    h('th', { scope: 'col', text: t('sum.qc.before') }), h('th', { scope: 'col', text: 'η' }), h('th', { scope: 'col', text: t('sum.qc.after') }))), qcBody);
  const qcText = h('p', { class: 'explain', 'data-qc-text': '' });
  const qcReadouts = h('dl', { class: 'readouts' });
  readout(qcReadouts, 'qc-clipped', t('sum.qc.clippedHeads'));

  s.charts.append(chart.el, scrollTable(table, t('sum.table')), capped,
    h('h3', { text: t('sum.h.checks') }), h('p', { class: 'note', text: t('sum.checksNote') }), scrollTable(checks, t('sum.h.checks')),
    h('h3', { text: t('sum.h.qk') }), h('p', { class: 'note', text: t('sum.qkNote') }), qcBox, qcChart.el, qcReadouts, scrollTable(qcTable, t('sum.qc.table')), qcText);

  let state = store.state;
  let main: NormalisersResult | null = null;
  let clip: QkClipResult | null = null;
  const rowResults = new Map<string, NormalisersResult>();
  const mainReq = new KeyedRequest<NormalisersResult>(s.el, 'sum:main', t);
  const clipReq = new KeyedRequest<QkClipResult>(s.el, 'sum:clip', t);
  const rowReqs = CHECK_ROWS.map((row) => new KeyedRequest<NormalisersResult>(s.el, `sum:row:${row.id}`, t));
  /** every figure shown, by id: the table's, the checks' and QK-Clip's */
  const figures = new Map<string, KeyFigure>();
  const put = (figs: KeyFigure[], root: HTMLElement) => { for (const f of figs) figures.set(f.id, f); showFigures(root, figs); };

  const drawMain = () => {
    if (!main) return;
    const shape = normalisersShape(state);
    chart.setTitle(t('sum.chart', { heads: state.heads, seqLen: shape.seqLen, dk: shape.dk }));
    chart.set(buildNormalisers(main, t), false);
    put(normaliserFigures(main, t), table);
    setText(capped, shape.dk !== state.dk || shape.seqLen !== state.seqLen ? t('sum.capped', { dk: state.dk, seqLen: state.seqLen }) : '');
    const row = (n: string) => main!.rows.find((x) => x.name === n)!;
    const v = (x: number | null) => (x === null ? t('sum.na') : fmt(x));
    const diff = row('differential');
    setText(s.text, t('sum.text', {
      softmax: v(row('softmax').rowSum), offByOne: v(row('offByOne').rowSum), sink: fmt(state.nsink), sinkSum: v(row('sink').rowSum),
      bias: fmt(main.sigmoidBias), sigmoid: v(row('sigmoid').rowSum), sigmoidMin: v(row('sigmoid').rowSumMin), sigmoidMax: v(row('sigmoid').rowSumMax),
      gated: v(row('gated').rowSum), differential: v(diff.rowSum), negative: diff.negativeShare === null ? t('sum.na') : pct(diff.negativeShare),
      entRows: diff.entropyRows, rows: diff.rows,
    }));
  };
  const drawClip = () => {
    if (!clip) return;
    qcChart.setTitle(t('sum.qc.chart', { tau: fmt(state.qctau) }));
    qcChart.set(buildQkClip(clip, t), false);
    put(qkClipFigures(clip, t), s.charts);
    const top = clip.row.head;
    setText(qcText, t('sum.qc.text', { clipped: clip.clippedHeads, tau: fmt(state.qctau), groups: clip.groups,
      before: fmt(clip.entropyBefore[top]), after: fmt(clip.entropyAfter[top]) }));
  };
  const drawChecks = () => {
    for (const row of CHECK_ROWS) {
      const r = rowResults.get(row.id);
      if (r) put(normaliserCheckFigures(row.id, r, t), checks);
    }
  };

  return {
    id: 'sumone',
    // the normalisers that do not sum to one first, then the sources' checks and QK-Clip
    keyFigures: () => [...figures.values()],
    el: s.el,
    update(next: State, changed: Set<StateKey> | null, source?: StateKey) {
      state = next;
      for (const c of [...controls, ...qcControls]) c.sync(next);
      const p = normalisersParams(next);
      const a = mainReq.ask(JSON.stringify(p), (step) => compute.get('live', 'normalisers', p, 'sum:main', undefined, step), source, (r) => { main = r; drawMain(); });
      CHECK_ROWS.forEach((row, i) => {
        const rp = normalisersRowParams(next, row.logits);
        rowReqs[i].ask(JSON.stringify(rp), (step) => compute.get('live', 'normalisers', rp, `sum:row:${row.id}`, undefined, step), source, (r) => { rowResults.set(row.id, r); drawChecks(); });
      });
      const cp = qkClipParams(next);
      const b = clipReq.ask(JSON.stringify(cp), (step) => compute.get('live', 'qkClip', cp, 'sum:clip', undefined, step), source, (r) => { clip = r; drawClip(); });
      if (changed === null || changed.has('lang')) {
        if (!a) drawMain();
        if (!b) drawClip();
        drawChecks();
      }
    },
    destroy() { chart.destroy(); qcChart.destroy(); },
  };
}
