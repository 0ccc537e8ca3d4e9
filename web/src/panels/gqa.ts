// Panel 8, GQA / MQA (claim C7): the logit statistics of MHA, GQA and MQA at the same d_head
// (attentionStats with headsKv; Var of the logits via tensorStats on repeated K), entropy against
// d_head for the three layouts, the KV-cache calculator, and models whose scale is not 1/√d_head.
import type { AttentionStatsResult } from '../../../wasm/js/core.js';
import type { GroupedLogitsResult } from '../worker/protocol.ts';
import { ChartBox } from '../charts/chartbox.ts';
import { buildGqaEntropy, buildKvCache } from '../charts/gqa.ts';
import { LAYOUTS } from '../requests/results.ts';
import type { Layout } from '../requests/results.ts';
import { stepSlider, select, applyInteger } from '../controls.ts';
import type { Control } from '../controls.ts';
import { HEAD_DIM_STEPS, HEADS_Q_STEPS, CONTEXT_STEPS, SCHEMA } from '../state/schema.js';
import type { State, StateKey } from '../state/state.ts';
import { formatBytes } from '../kvcache.ts';
import { fmt } from '../format.ts';
import { tanh } from '../portable-math.ts';
import { h, setText } from '../dom.ts';
import { shell, claimBox, track, settle, scrollTable, showFigures } from './kit.ts';
import { gqaLayoutFigures, kvCacheOf } from '../requests/key-figures.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { CLAIMS } from '../claims.ts';
import { dvSection } from './dv-section.ts';
import { GQA_SEQ_LEN, GEMMA2_27B, GEMMA2_CAP_GAP, headsKvOf, gqaStatsParams } from '../requests/gqa.ts';
import type { SoftmaxJacobianResult } from '../../../wasm/js/core.js';

function divisors(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);
}
const ctxLabel = (n: number) => (n >= 1024 * 1024 ? `${n / (1024 * 1024)}M` : n >= 1024 ? `${n / 1024}K` : String(n));

export function gqaPanel(ctx: PanelCtx): PanelView {
  const { t, store, compute, charts } = ctx;
  const s = shell('gqa', 8, t('gqa.title'), t('gqa.lede'), ['gqa'], t, charts);
  const layoutLabel = (l: Layout, st: State) => t(`gqa.layout.${l}`, { kv: headsKvOf(l, st) });
  const kvl = h('input', { type: 'number', id: 'gqa-kvl', min: SCHEMA.kvl.min, max: SCHEMA.kvl.max, step: 1, class: 'seed', inputMode: 'numeric' }) as HTMLInputElement;
  kvl.addEventListener('change', () => applyInteger(store, 'gqa', 'kvl', kvl, SCHEMA.kvl.min, SCHEMA.kvl.max));
  const kvlCtl: Control = {
    el: h('div', { class: 'control', 'data-key': 'kvl' }, h('label', { for: 'gqa-kvl', text: t('gqa.layers') }), h('div', { class: 'control-row' }, kvl), h('span', { class: 'err', 'data-err-for': 'kvl', role: 'alert' })),
    sync(st) { const v = String(st.kvl); if (kvl.value !== v && document.activeElement !== kvl) kvl.value = v; },
  };
  const controls: Control[] = [
    select(store, 'gqa', 'hq', t('gqa.hq'), HEADS_Q_STEPS.map((n) => ({ value: String(n), label: String(n) }))),
    select(store, 'gqa', 'hkv', t('gqa.hkv'), [], (st) => divisors(st.hq).map((d) => ({ value: String(d), label: String(d) }))),
    stepSlider(store, 'gqa', 'gdk', t('gqa.dhead'), HEAD_DIM_STEPS),
    kvlCtl,
    stepSlider(store, 'gqa', 'kvctx', t('gqa.ctx'), CONTEXT_STEPS, ctxLabel),
    select(store, 'gqa', 'kvdt', t('gqa.dtype'), (['fp32', 'bf16', 'fp8', 'int4'] as const).map((d) => ({ value: d, label: t(`gqa.dtype.${d}`) }))),
  ];
  const preset = h('div', { class: 'presets', 'data-key': 'gqa-presets' },
    h('button', { type: 'button', class: 'mini', 'data-preset': 'gemma2-27b', text: t('gqa.preset.gemma'),
      onclick: () => store.set({ hq: GEMMA2_27B.hq, hkv: GEMMA2_27B.hkv, gdk: GEMMA2_27B.gdk, kvl: GEMMA2_27B.kvl, exp: 'gqa' }, 'hq') }));
  for (const c of controls) s.controls.append(c.el);
  s.controls.append(preset);

  const entChart = new ChartBox(charts, 'gqa-entropy', '', t, { height: 280 });
  const kvChart = new ChartBox(charts, 'gqa-kvcache', '', t, { height: 280 });
  const table = h('table', { class: 'table' });
  const cols = ['kv', 'entropy', 'maxw', 'var', 'jac', 'perToken', 'total'] as const;
  table.append(h('thead', {}, h('tr', {}, h('th', { text: t('gqa.th.layout') }), ...cols.map((c) => h('th', { text: t(`gqa.th.${c}`) })))));
  const rowLabel: Record<string, HTMLElement> = {};
  const tbody = h('tbody');
  for (const l of LAYOUTS) {
    rowLabel[l] = h('th', { scope: 'row' });
    tbody.append(h('tr', {}, rowLabel[l], ...cols.map((c) => h('td', { 'data-readout': `gqa-${l}-${c}`, text: '–' }))));
  }
  table.append(tbody);
  s.charts.append(h('div', { class: 'chart-pair' }, entChart.el, kvChart.el), scrollTable(table, t('gqa.title'), { 'data-part': 'charts' }));
  s.readouts.remove();
  const notes = h('div', { class: 'notes', 'data-notes': 'scales' }, h('h4', { text: t('gqa.notes.title') }),
    h('ul', {}, ...(['gemma', 'gemmaCap', 't5', 'mup'] as const).map((n) => h('li', { 'data-note': n }))));
  const c7 = claimBox(s.claims, 'C7', t('gqa.claim'), t);
  s.claims.after(notes);
  // d_v ≠ d_k (MLA): below the table
  const dv = dvSection(s.el, ctx);
  s.charts.append(dv.el);

  const dims = [...HEAD_DIM_STEPS];
  const sweep: Record<Layout, (AttentionStatsResult | null)[]> = { mha: dims.map(() => null), gqa: dims.map(() => null), mqa: dims.map(() => null) };
  const raw: Record<Layout, (AttentionStatsResult | null)[]> = { mha: dims.map(() => null), gqa: dims.map(() => null), mqa: dims.map(() => null) };
  const point: Partial<Record<Layout, AttentionStatsResult>> = {};
  const vars: Partial<Record<Layout, GroupedLogitsResult>> = {};
  const keys: Record<string, string> = {};
  let state = store.state;
  // the Gemma 2 note computes with its soft-cap: the softmax Jacobian of [gap, 0] with and without it
  let capped: SoftmaxJacobianResult | null = null;
  let uncapped: SoftmaxJacobianResult | null = null;
  const askCap = () => {
    const logits = [GEMMA2_CAP_GAP, 0];
    Promise.all([compute.get('live', 'softmaxJacobian', { logits, softcap: GEMMA2_27B.attnLogitSoftcap }), compute.get('live', 'softmaxJacobian', { logits })])
      .then(([c, u]) => { capped = c; uncapped = u; drawNotes(); }, () => {});
  };

  const kv = (st: State) => Object.fromEntries(LAYOUTS.map((l) => [l, kvCacheOf(l, st)])) as Record<Layout, { perToken: number; total: number }>;
  /** the table's key figures, row by row (requests/key-figures.ts) */
  const figures = () => LAYOUTS.flatMap((l) => gqaLayoutFigures(l, state, point[l], vars[l], t));

  const drawNotes = () => {
    const g = GEMMA2_27B;
    const [gemma, gemmaCap, t5, mup] = notes.querySelectorAll('li');
    setText(gemma, t('gqa.note.gemma', { s: g.queryPreAttnScalar, d: g.gdk, dModel: g.dModel, hq: g.hq, c: fmt(1 / Math.sqrt(g.queryPreAttnScalar), 4), c0: fmt(1 / Math.sqrt(g.gdk), 4), ratio: fmt(Math.sqrt(g.gdk / g.queryPreAttnScalar), 3) }));
    if (capped && uncapped) {
      setText(gemmaCap, t('gqa.note.gemmaCap', { gap: GEMMA2_CAP_GAP, capped: fmt(g.attnLogitSoftcap * tanh(GEMMA2_CAP_GAP / g.attnLogitSoftcap), 4), jc: fmt(capped.frobenius, 3), ju: fmt(uncapped.frobenius, 3) }));
    }
    setText(t5, t('gqa.note.t5'));
    setText(mup, t('gqa.note.mup'));
  };

  const drawKv = () => {
    const sizes = kv(state);
    const labels = { mha: layoutLabel('mha', state), gqa: layoutLabel('gqa', state), mqa: layoutLabel('mqa', state) };
    kvChart.setTitle(t('gqa.chart.kv', { ctx: ctxLabel(state.kvctx), layers: state.kvl, dtype: t(`gqa.dtype.${state.kvdt}`) }));
    kvChart.set(buildKvCache({ mha: sizes.mha.total, gqa: sizes.gqa.total, mqa: sizes.mqa.total }, labels, t));
    for (const l of LAYOUTS) {
      setText(rowLabel[l], labels[l]);
    }
    showFigures(table, figures());
  };

  const drawStats = () => {
    const labels = { mha: layoutLabel('mha', state), gqa: layoutLabel('gqa', state), mqa: layoutLabel('mqa', state) };
    if (LAYOUTS.some((l) => sweep[l].some((r) => r))) {
      entChart.setTitle(t('gqa.chart.entropy', { hq: state.hq, L: GQA_SEQ_LEN }));
      entChart.set(buildGqaEntropy(sweep, raw, dims, labels, state.gdk, t));
    }
    showFigures(table, figures());
    const [m, g, q] = LAYOUTS.map((l) => point[l]);
    const [vm, vg, vq] = LAYOUTS.map((l) => vars[l]);
    if (m && g && q && vm && vg && vq) {
      const sizes = kv(state);
      const tv = {
        hq: state.hq, hkv: state.hkv, d: state.gdk, L: GQA_SEQ_LEN,
        em: fmt(m.summary.entropy.mean), eg: fmt(g.summary.entropy.mean), eq: fmt(q.summary.entropy.mean),
        vm: fmt(vm.scaledVariance), vg: fmt(vg.scaledVariance), vq: fmt(vq.scaledVariance),
        km: formatBytes(sizes.mha.perToken), kg: formatBytes(sizes.gqa.perToken), kq: formatBytes(sizes.mqa.perToken),
        tg: formatBytes(sizes.gqa.total), ctx: ctxLabel(state.kvctx), save: fmt(state.hq / state.hkv, 3),
      };
      setText(s.text, t('gqa.text', tv));
      const l7 = CLAIMS.C7.extract([m, g, q, vm, vg, vq], state);  // the rule of web/src/claims.ts
      c7.set(t('gqa.live', tv), CLAIMS.C7.verdict(l7), t('gqa.why'), l7);
    }
  };

  return {
    id: 'gqa',
    keyFigures: figures,
    el: s.el,
    update(next: State, changed: Set<StateKey> | null, source?: StateKey) {
      state = next;
      for (const c of controls) c.sync(next);
      dv.update(next, changed, source);
      if (changed === null) { drawNotes(); if (!capped) askCap(); }
      // the sweep against d_head (sweep worker), then the point at the chosen d_head (live worker, same cache entries)
      for (const l of LAYOUTS) {
        dims.forEach((dk, i) => {
          const p = gqaStatsParams(next, l, dk);
          const k = JSON.stringify(p);
          const id = `sweep-${l}-${i}`;
          if (keys[id] === k) return;
          keys[id] = k;
          const worker = dk === next.gdk ? 'live' : 'sweep';
          track(s.el, `gqa:${id}`, compute.get(worker, 'attentionStats', p, `gqa:${id}`), source, t, (r) => {
            if (keys[id] !== k) return;
            sweep[l][i] = r;
            if (dk === state.gdk) point[l] = r;
            drawStats();
          });
        });
        dims.forEach((dk, i) => {  // the same without scaling: the entropy falls with d_head, whatever the grouping
          const p = gqaStatsParams(next, l, dk, 'none');
          const k = JSON.stringify(p);
          const id = `raw-${l}-${i}`;
          if (keys[id] === k) return;
          keys[id] = k;
          track(s.el, `gqa:${id}`, compute.get('sweep', 'attentionStats', p, `gqa:${id}`), source, t, (r) => {
            if (keys[id] !== k) return;
            raw[l][i] = r;
            drawStats();
          });
        });
        const pp = gqaStatsParams(next, l, next.gdk);
        const pk = JSON.stringify(pp);
        if (keys[`point-${l}`] !== pk) {
          keys[`point-${l}`] = pk;
          if (!dims.includes(next.gdk)) {
            track(s.el, `gqa:point-${l}`, compute.get('live', 'attentionStats', pp, `gqa:point-${l}`), source, t, (r) => {
              if (keys[`point-${l}`] !== pk) return;
              point[l] = r;
              drawStats();
            });
          } else {
            settle(s.el, `gqa:point-${l}`);  // the sweep's request at this d_head stands for the point
            const hit = sweep[l][dims.indexOf(next.gdk)];
            if (hit && JSON.stringify(gqaStatsParams(next, l, next.gdk)) === keys[`sweep-${l}-${dims.indexOf(next.gdk)}`]) point[l] = hit;
          }
        }
        const vp = { heads: next.hq, headsKv: headsKvOf(l, next), seqLen: GQA_SEQ_LEN, dk: next.gdk, seed: 0 };
        const vk = JSON.stringify(vp);
        if (keys[`var-${l}`] !== vk) {
          keys[`var-${l}`] = vk;
          track(s.el, `gqa:var-${l}`, compute.get('live', 'groupedLogits', vp, `gqa:var-${l}`), source, t, (r) => {
            if (keys[`var-${l}`] !== vk) return;
            vars[l] = r;
            drawStats();
          });
        }
      }
      drawKv();
      drawStats();
    },
    destroy() { entChart.destroy(); kvChart.destroy(); },
  };
}
