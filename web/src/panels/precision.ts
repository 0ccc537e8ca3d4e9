// Panel 6, the precision lab (claims C8 "online softmax handles the numeric range" and C11):
// softmax in float64 / float32 / bfloat16 / float16 (emulated exactly by the core) with the naive,
// safe and online algorithms, on a typed-in logit vector or on random attention rows.
import { precisionFigures } from '../requests/key-figures.ts';
import type { KeyFigure } from '../requests/key-figures.ts';
import type { PrecisionLabResult } from '../../../wasm/js/core.js';
import { ChartBox } from '../charts/chartbox.ts';
import { buildPrecisionProbs, buildPrecisionJacobian, precisionCsv } from '../charts/precision.ts';
import { cellOf, FORMATS, ALGORITHMS } from '../requests/results.ts';
import { csvText } from '../charts/kit.ts';
import { stepSlider, select, seedInput } from '../controls.ts';
import type { Control } from '../controls.ts';
import { DK_STEPS, SEQ_STEPS, BLOCK_STEPS, SCALES, SCHEMA } from '../state/schema.js';
import { parseNums } from '../state/state.ts';
import type { State, StateKey } from '../state/state.ts';
import type { Store } from '../state/store.ts';
import { fmt, pct } from '../format.ts';
import { h, setText, download } from '../dom.ts';
import { shell, readout, claimBox, track, scrollTable, showFigures } from './kit.ts';
import { precisionKey, LOGIT_PRESETS, C11_SHAPE, precisionParams, cellText, cellBroken, CAUSE_SIGNS, parseLogitField, rowSumText, QK_PRESET, STALL_PRESET } from '../requests/precision.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { CLAIMS } from '../claims.ts';

const showLogit = (x: number) => (x === -Infinity ? '-inf' : String(x));

function logitsInput(store: Store, label: string, errorText: (raw: string) => string) {
  const id = `c-plogits-${Math.random().toString(36).slice(2, 8)}`;
  const input = h('input', { type: 'text', id, class: 'nums', spellcheck: false, autocomplete: 'off' }) as HTMLInputElement;
  const el = h('div', { class: 'control', 'data-key': 'plogits' },
    h('label', { for: id, text: label }),
    h('div', { class: 'control-row' }, input),
    h('span', { class: 'err', 'data-err-for': 'plogits', role: 'alert' }));
  const err = el.querySelector<HTMLElement>('[data-err-for="plogits"]')!;
  input.addEventListener('change', () => {
    const xs = parseLogitField(input.value);
    if (xs === null) { setText(err, errorText(input.value)); return; }
    setText(err, '');
    store.set({ plogits: xs, exp: 'precision' }, 'plogits');
  });
  return {
    el,
    sync(st: State) { const v = st.plogits.map(showLogit).join(', '); if (document.activeElement !== input && input.value !== v) input.value = v; },
  };
}

// A number field of the q/k mode (pq), and the key list (pk): a bad value is shown beside the field and kept out of the state.
function numField(store: Store, key: 'pq', label: string, bad: string): Control {
  const spec = SCHEMA[key];
  const id = `c-${key}-${Math.random().toString(36).slice(2, 8)}`;
  const input = h('input', { type: 'number', id, min: spec.min, max: spec.max, step: spec.step, inputMode: 'decimal', class: 'seed' }) as HTMLInputElement;
  const err = h('span', { class: 'err', 'data-err-for': key, role: 'alert' });
  input.addEventListener('change', () => {
    const x = Number(input.value.trim());
    if (input.value.trim() === '' || !Number.isFinite(x) || x < spec.min || x > spec.max) { setText(err, bad); return; }
    setText(err, '');
    store.set({ [key]: Math.round(x / spec.step) * spec.step, exp: 'precision' } as Partial<State>, key);
  });
  return {
    el: h('div', { class: 'control', 'data-key': key }, h('label', { for: id, text: label }), h('div', { class: 'control-row' }, input), err),
    sync(st) { const v = String(st[key]); if (document.activeElement !== input && input.value !== v) input.value = v; },
  };
}
function numsField(store: Store, key: 'pk', label: string, bad: string): Control {
  const spec = SCHEMA[key];
  const id = `c-${key}-${Math.random().toString(36).slice(2, 8)}`;
  const input = h('input', { type: 'text', id, inputMode: 'decimal', spellcheck: false, autocomplete: 'off' }) as HTMLInputElement;
  const err = h('span', { class: 'err', 'data-err-for': key, role: 'alert' });
  input.addEventListener('change', () => {
    const xs = parseNums(input.value.replace(/[[\]]+/g, ' ').trim(), false, /[\s,;]+/);
    if (xs === null || xs.length === 0 || xs.length > spec.maxLength || xs.some((x) => x < spec.min || x > spec.max)) { setText(err, bad); return; }
    setText(err, '');
    store.set({ [key]: xs, exp: 'precision' } as Partial<State>, key);
  });
  return {
    el: h('div', { class: 'control', 'data-key': key }, h('label', { for: id, text: label }), h('div', { class: 'control-row' }, input), err),
    sync(st) { const v = st[key].join(', '); if (document.activeElement !== input && input.value !== v) input.value = v; },
  };
}

export function precisionPanel({ t, store, compute, charts }: PanelCtx): PanelView {
  const s = shell('precision', 6, t('prec.title'), t('prec.lede'), ['precision'], t, charts);
  const mode = select(store, 'precision', 'pmode', t('prec.mode'), [{ value: 'logits', label: t('prec.mode.logits') }, { value: 'random', label: t('prec.mode.random') }, { value: 'qk', label: t('prec.mode.qk') }]);
  const logits = logitsInput(store, t('prec.logits'), (raw) => t('prec.logitsBad', { raw: raw.slice(0, 40) }));
  const presets = h('div', { class: 'presets', 'data-key': 'plogits-presets' },
    ...LOGIT_PRESETS.map((p) => h('button', { type: 'button', class: 'mini', 'data-preset': p.join(','), text: `[${p.join(', ')}]`,
      onclick: () => store.set({ plogits: [...p], pmode: 'logits', exp: 'precision' }, 'plogits') })));
  logits.el.querySelector('.control-row')?.append(presets);
  const randomControls: Control[] = [
    stepSlider(store, 'precision', 'pdk', t('common.dk'), DK_STEPS),
    stepSlider(store, 'precision', 'pseqLen', t('common.seqLen'), SEQ_STEPS),
    select(store, 'precision', 'pscale', t('common.scale'), SCALES.map((v) => ({ value: v, label: t(`scale.${v}`) }))),
    seedInput(store, 'precision', 'pseed', t('common.seed'), t('common.reroll')),
  ];
  const block = stepSlider(store, 'precision', 'pblock', t('prec.block'), BLOCK_STEPS);
  const acc = select(store, 'precision', 'pacc', t('prec.acc'), (['same', 'float32'] as const).map((v) => ({ value: v, label: t(`prec.acc.${v}`) })));
  const masked = select(store, 'precision', 'pmasked', t('prec.masked'), (['nan', 'zero'] as const).map((v) => ({ value: v, label: t(`prec.masked.${v}`) })));
  // q/k mode: d_k (the random rows' slider), q = pq·𝟏, keys pk_j·𝟏, the scale and where it is applied
  const qkControls: Control[] = [
    numField(store, 'pq', t('prec.pq'), t('prec.pqBad')),
    numsField(store, 'pk', t('prec.pk'), t('prec.pkBad')),
    select(store, 'precision', 'pkrep', t('prec.pkrep'), [1, 16, 256, 1024, 2048, 4096].map((n) => ({ value: String(n), label: `× ${n}` }))),
    select(store, 'precision', 'pscaleat', t('prec.scaleAt'), (['scores', 'query', 'both'] as const).map((v) => ({ value: v, label: t(`prec.scaleAt.${v}`) }))),
  ];
  const qkPreset = h('button', { type: 'button', class: 'mini', 'data-preset': 'qk-fp16', text: t('prec.qkPreset'),
    onclick: () => store.set({ ...QK_PRESET, pk: [...QK_PRESET.pk], exp: 'precision' }, 'pmode') });
  const stallPreset = h('button', { type: 'button', class: 'mini', 'data-preset': 'qk-stall', text: t('prec.stallPreset'),
    onclick: () => store.set({ ...STALL_PRESET, pk: [...STALL_PRESET.pk], exp: 'precision' }, 'pmode') });
  qkControls[0].el.querySelector('.control-row')?.append(qkPreset, stallPreset);
  const controls: Control[] = [mode, logits, ...randomControls, ...qkControls, block, acc, masked];
  for (const c of controls) s.controls.append(c.el);

  // the table: formats × algorithms, each cell a readout
  const table = h('table', { class: 'table prec-table' });
  // fixed column widths (style.css): the cells' words, coming with the numbers, do not re-divide the width
  table.append(h('colgroup', {}, h('col', { class: 'prec-col-format' }), ...ALGORITHMS.map(() => h('col', { class: 'prec-col-alg' })), h('col', { class: 'prec-col-ovs' }), h('col', { class: 'prec-col-sum' })));
  const cells = new Map<string, HTMLElement>();
  table.append(h('thead', {}, h('tr', {}, h('th', { text: t('prec.th.format') }), ...ALGORITHMS.map((a) => h('th', { text: t(`prec.alg.${a}`) })), h('th', { text: t('prec.th.ovs') }), h('th', { text: t('prec.th.rowSum') }))));
  const tbody = h('tbody');
  for (const f of FORMATS) {
    // data-label: the column's name, shown beside the cell where a phone lays each format out as a card
    const tds = ALGORITHMS.map((a) => { const td = h('td', { 'data-readout': `prec-${f}-${a}`, 'data-label': t(`prec.alg.${a}`), text: '–' }); cells.set(`${f}-${a}`, td); return td; });
    const ovs = h('td', { 'data-readout': `prec-ovs-${f}`, 'data-label': t('prec.th.ovs'), text: '–' });
    cells.set(`ovs-${f}`, ovs);
    const sum = h('td', { 'data-readout': `prec-rowsum-${f}`, 'data-label': t('prec.th.rowSum'), text: '–' });
    cells.set(`sum-${f}`, sum);
    tbody.append(h('tr', {}, h('th', { scope: 'row', text: f }), ...tds, ovs, sum));
  }
  table.append(tbody);
  const tableCsv = h('button', { type: 'button', class: 'mini', 'data-export': 'csv', text: t('common.csv') }) as HTMLButtonElement;
  const tableBox = h('figure', { class: 'chart table-box', 'data-table-box': 'precision-table' },
    h('div', { class: 'chart-head' }, h('h3', { class: 'chart-title', text: t('prec.table') }), h('div', { class: 'chart-tools' }, tableCsv)),
    scrollTable(table, t('prec.table')),
    h('p', { class: 'chart-note', text: t('prec.tableNote') }),
    h('p', { class: 'chart-note', 'data-online-note': '' }),
    h('div', { class: 'notes', 'data-legend': 'precision-causes' }, h('h4', { text: t('prec.legend.title') }),
      h('ul', {},
        h('li', { 'data-sign': 'nonfinite', text: t('prec.legend.nonfinite') }),
        ...CAUSE_SIGNS.map(([k]) => h('li', { 'data-sign': k, text: t(k === 'nan' ? 'prec.legend.nanCause' : `prec.legend.${k}`) })),
        h('li', { 'data-sign': 'delta', text: t('prec.legend.delta') }))));
  const probs = new ChartBox(charts, 'precision-probs', '', t, { height: 260 });
  const jac = new ChartBox(charts, 'precision-jacobian', t('prec.chart.jac'), t, { height: 260 });
  s.charts.append(tableBox, h('div', { class: 'chart-pair' }, probs.el, jac.el), s.readouts);
  // the readouts of the key figures (requests/key-figures.ts precisionFigures writes them)
  for (const [id, key] of [['prec-maxlogit', 'sat.ro.maxLogit'], ['prec-c', 'sat.ro.c'], ['prec-rows', 'prec.ro.rows'], ['prec-jac64', 'prec.ro.jac64']] as const) readout(s.readouts, id, t(key));
  let figures: KeyFigure[] = [];
  const c8 = claimBox(s.claims, 'C8-online', t('prec.claim8'), t);
  const c11 = claimBox(s.claims, 'C11', t('prec.claim11'), t);

  let result: PrecisionLabResult | null = null;
  let key = '';
  let state = store.state;
  let claimsAsked = false;
  tableCsv.addEventListener('click', () => {
    if (!result) return;
    const url = URL.createObjectURL(new Blob([csvText(precisionCsv(result))], { type: 'text/csv;charset=utf-8' }));
    download('sqrtdk-precision-table.csv', url);
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  });

  const syncVisibility = (next: State) => {
    logits.el.hidden = next.pmode !== 'logits';
    // d_k and the scale serve both the random rows and q/k; seqLen and the seed only the random rows
    randomControls.forEach((c, i) => { c.el.hidden = !(next.pmode === 'random' || (next.pmode === 'qk' && (i === 0 || i === 2))); });
    for (const c of qkControls) c.el.hidden = next.pmode !== 'qk';
  };

  // what reads the state only, laid out as the view is built: update() comes once the page's core
  // can size the view's requests, seconds later on a slow connection, and hiding the other modes'
  // controls then moved the controls and the table under the reader's eyes (CLS 0.23 on a cold load)
  const syncLayout = (next: State) => {
    syncVisibility(next);
    // the note reads the state only: written before the numbers come, so their arrival moves nothing under the table
    setText(tableBox.querySelector<HTMLElement>('[data-online-note]')!, t(next.pacc === 'float32' ? 'prec.onlineFA' : 'prec.onlineSame'));
  };
  syncLayout(store.state);

  const draw = () => {
    const r = result;
    if (!r) return;
    for (const f of FORMATS) {
      for (const a of ALGORITHMS) {
        const c = cellOf(r, f, a);
        const td = cells.get(`${f}-${a}`)!;
        setText(td, cellText(c));
        td.dataset.status = !cellBroken(c) ? 'ok' : c.causes.underflow > 0 && c.shareNonfinite === 0 ? 'underflow' : 'overflow';
      }
      setText(cells.get(`ovs-${f}`)!, fmt(r.onlineVsSafe[FORMATS.indexOf(f)], 2));
      setText(cells.get(`sum-${f}`)!, rowSumText(cellOf(r, f, 'safe')));
    }
    const input = state.pmode === 'logits' ? `[${state.plogits.map(showLogit).join(', ')}]`
      : state.pmode === 'qk' ? t('prec.inputQk', { dk: state.pdk, q: state.pq, keys: state.pkrep > 1 ? `${state.pk.join(', ')} × ${state.pkrep}` : state.pk.join(', '), scale: t(`scale.${state.pscale}`), at: t(`prec.scaleAt.${state.pscaleat}`) })
        : t('prec.inputRandom', { rows: r.rows, seqLen: r.seqLen, dk: state.pdk, scale: t(`scale.${state.pscale}`) });
    probs.setTitle(t('prec.chart.probs', { input: state.pmode === 'random' ? t('prec.firstRow') : input }));
    probs.set(buildPrecisionProbs(r, t));
    probs.setNote(t('prec.probsNote'));
    jac.set(buildPrecisionJacobian(r, t));
    figures = precisionFigures(r, t);
    showFigures(s.readouts, figures);
    // what breaks, in words, from the live cells
    const broken = (pred: (c: PrecisionLabResult['cells'][number]) => boolean) =>
      FORMATS.flatMap((f) => ALGORITHMS.filter((a) => pred(cellOf(r, f, a))).map((a) => `${f} ${t(`prec.alg.${a}`)}`));
    const nonfinite = broken((c) => c.shareNonfinite > 0);
    const under = broken((c) => c.causes.underflow > 0);
    const none = t('prec.none');
    const f32 = cellOf(r, 'float32', 'safe').jacFroMedian;
    setText(s.text, t('prec.text', {
      input, nonfinite: nonfinite.length ? nonfinite.join(', ') : none, underflow: under.length ? under.join(', ') : none,
      ovs16: fmt(r.onlineVsSafe[3], 2), ovs32: fmt(r.onlineVsSafe[1], 2), block: state.pblock,
      j64: fmt(r.jacFroMedianF64), j32: fmt(f32), j16: fmt(cellOf(r, 'float16', 'safe').jacFroMedian),
    }));
  };

  const askClaims = () => {
    const base = { ...C11_SHAPE };
    const get = (scale: 'none' | 'inv_sqrt_dk') => compute.get('live', 'precisionLab', { ...base, scale }, undefined);
    Promise.all([get('none'), get('inv_sqrt_dk')]).then((rs) => {
      // the rules of web/src/claims.ts, on the requests the claim checker sends
      const l11 = CLAIMS.C11.extract(rs, state), l8 = CLAIMS['C8-online'].extract(rs, state);
      c11.set(t('prec.live11', { dk: base.dk, seqLen: base.seqLen, j64: fmt(l11.j64), j32: fmt(l11.j32), jb: fmt(l11.jb), js: fmt(l11.js), ratio: fmt(l11.ratio, 3) }),
        CLAIMS.C11.verdict(l11), undefined, l11);
      c8.set(t('prec.live8', { naive16: pct(l8.naive16), online: pct(l8.online), jOnline: fmt(l8.jOnline), js: fmt(l8.js), dk: base.dk }),
        CLAIMS['C8-online'].verdict(l8), t('prec.why8'), l8);
    }, () => {});
  };

  return {
    id: 'precision',
    keyFigures: () => figures,
    el: s.el,
    update(next: State, changed: Set<StateKey> | null, source?: StateKey) {
      state = next;
      for (const c of controls) c.sync(next);
      syncLayout(next);
      if (!claimsAsked || changed === null) { claimsAsked = true; askClaims(); }
      // the Σp column reads the row sums, which the core gives by default
      const k = precisionKey(next);
      if (k !== key) {
        key = k;
        track(s.el, 'prec:main', compute.get('live', 'precisionLab', precisionParams(next), 'prec:main', k), source, t, (r) => {
          if (k !== key) return;
          result = r;
          draw();
        });
      } else if (changed === null || changed.has('lang')) draw();
    },
    destroy() { probs.destroy(); jac.destroy(); },
  };
}
