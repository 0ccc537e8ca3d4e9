// Panel 2, saturation (claims C2, C3, and the √d_model bug): mean entropy and mean max weight
// against d_k for every scale, the heatmap of head 0 and the readouts at the chosen setting.
import type { AttentionStatsResult, SaturationSweepResult } from '../../../wasm/js/core.js';
import { ChartBox } from '../charts/chartbox.ts';
import { buildSaturationLine, buildHeatmap } from '../charts/saturation.ts';
import { sweepAt, ALL_SCALES } from '../requests/results.ts';
import { stepSlider, intSlider, select, seedInput, sinkSlider } from '../controls.ts';
import type { Control } from '../controls.ts';
import { DK_STEPS, SEQ_STEPS, SCALES, SCHEMA } from '../state/schema.js';
import type { State, StateKey } from '../state/state.ts';
import type { Store } from '../state/store.ts';
import { fmt, pct } from '../format.ts';
import { h, setText } from '../dom.ts';
import { shell, readout, claimBox, refuse, KeyedRequest, showFigures } from './kit.ts';
import { saturationFigures } from '../requests/key-figures.ts';
import type { KeyFigure } from '../requests/key-figures.ts';
import { CLAIMS } from '../claims.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { sweepParams, pointTooBig, logitRuleParams, saturationPointParams, explicitSweepParams, sinkParams, POINT_LIMIT_SECONDS, HEATMAP_N } from '../requests/attention.ts';
import type { T } from '../i18n/messages.ts';
import { alibiScaleSection } from './alibi-section.ts';

// The causal-mask toggle (a checkbox) and the soft-cap field of this panel, with the markup of the
// shared controls (data-key, an error slot beside the input).
function causalToggle(store: Store, t: T): Control {
  const id = `c-causal-${Math.random().toString(36).slice(2, 8)}`;
  const input = h('input', { type: 'checkbox', id }) as HTMLInputElement;
  input.addEventListener('change', () => store.set({ causal: input.checked, exp: 'saturation' }, 'causal'));
  const el = h('div', { class: 'control', 'data-key': 'causal' },
    h('label', { for: id, text: t('sat.causal') }),
    // the box inside a label of its own, so the hint is part of the touch target (44 px on phones)
    h('div', { class: 'control-row' }, h('label', { class: 'check', for: id }, input, h('span', { class: 'hint', text: t('sat.causalHint') }))),
    h('span', { class: 'err', 'data-err-for': 'causal', role: 'alert' }));
  return { el, sync(st) { input.checked = st.causal; } };
}
// A number field of this panel (the soft-cap, the explicit scale): 0 or empty = off.
function numberInput(store: Store, t: T, key: 'softcap' | 'sscale'): Control {
  const spec = SCHEMA[key];
  const id = `c-${key}-${Math.random().toString(36).slice(2, 8)}`;
  const input = h('input', { type: 'number', id, min: spec.min, max: spec.max, step: spec.step, inputMode: 'decimal', class: 'seed' }) as HTMLInputElement;
  const el = h('div', { class: 'control', 'data-key': key },
    h('label', { for: id, text: t(`sat.${key}`) }),
    h('div', { class: 'control-row' }, input, h('span', { class: 'hint', text: t(`sat.${key}Hint`) })),
    h('span', { class: 'err', 'data-err-for': key, role: 'alert' }));
  const err = el.querySelector<HTMLElement>(`[data-err-for="${key}"]`)!;
  const places = String(spec.step).split('.')[1]?.length ?? 0;
  input.addEventListener('change', () => {
    const raw = input.value.trim();
    const x = raw === '' ? 0 : Number(raw);
    if (!Number.isFinite(x) || x < spec.min || x > spec.max) { setText(err, t(`sat.${key}Bad`, { raw: raw.slice(0, 20), max: spec.max })); return; }
    setText(err, '');
    store.set({ [key]: Number((Math.round(x / spec.step) * spec.step).toFixed(places)), exp: 'saturation' } as Partial<State>, key);
  });
  return { el, sync(st) { const v = String(st[key]); if (document.activeElement !== input && input.value !== v) input.value = v; } };
}

export function saturationPanel(ctx: PanelCtx): PanelView {
  const { t, store, compute, charts } = ctx;
  const s = shell('saturation', 2, t('sat.title'), t('sat.lede'), ['saturation'], t, charts);
  const controls: Control[] = [
    stepSlider(store, 'saturation', 'dk', t('common.dk'), DK_STEPS),
    stepSlider(store, 'saturation', 'seqLen', t('common.seqLen'), SEQ_STEPS),
    intSlider(store, 'saturation', 'heads', t('common.heads')),
    select(store, 'saturation', 'scale', t('common.scale'), SCALES.map((v) => ({ value: v, label: t(`scale.${v}`) }))),
    seedInput(store, 'saturation', 'seed', t('common.seed'), t('common.reroll')),
    causalToggle(store, t),
    numberInput(store, t, 'softcap'),
    numberInput(store, t, 'sscale'),
    sinkSlider(store, 'saturation', t('sat.sink'), t('sat.sinkOff')),
  ];
  for (const c of controls) s.controls.append(c.el);

  const ent = new ChartBox(charts, 'saturation-entropy', '', t, { height: 280 });
  const maxw = new ChartBox(charts, 'saturation-maxweight', t('sat.chart.maxw'), t, { height: 280 });
  const heat = new ChartBox(charts, 'saturation-heatmap', '', t, { square: true });
  s.charts.append(h('div', { class: 'chart-pair' }, ent.el, maxw.el), h('div', { class: 'chart-pair heat-row' }, heat.el, s.readouts));
  // the readouts of the key figures (requests/key-figures.ts saturationFigures writes them)
  for (const [id, key] of [['sat-entropy', 'sat.ro.entropy'], ['sat-lnL', 'sat.ro.lnL'], ['sat-ratio', 'sat.ro.ratio'], ['sat-maxw', 'sat.ro.maxw'],
    ['sat-share', 'sat.ro.share'], ['sat-c', 'sat.ro.c'], ['sat-maxlogit', 'sat.ro.maxLogit'], ['sat-sink', 'sat.ro.sink']] as const) readout(s.readouts, id, t(key));
  const compare = h('p', { class: 'explain' });
  s.text.after(compare);
  // does ALiBi need the 1/√d_k? (key salibi; off: nothing asked)
  const alibi = alibiScaleSection(s.el, ctx);
  s.charts.append(alibi.el);
  const c2 = claimBox(s.claims, 'C2', t('sat.claim2'), t);
  const c3 = claimBox(s.claims, 'C3', t('sat.claim3'), t);

  let sweep: SaturationSweepResult | null = null;
  let sweepDks: number[] = [];
  let point: AttentionStatsResult | null = null;
  let figures: KeyFigure[] = [];
  const sweepReq = new KeyedRequest<SaturationSweepResult>(s.el, 'sat:sweep', t);
  const pointReq = new KeyedRequest<AttentionStatsResult>(s.el, 'sat:point', t);
  let state = store.state;
  // false while the chart shows a first estimate (worker/plan.ts) of the sweep or of the point
  let sweepFinal = true;
  let pointFinal = true;

  const scaleName = () => (state.sscale > 0 ? t('sat.series.explicit', { c: fmt(state.sscale, 6) }) : t(`scale.${state.scale}`));
  const drawSweep = () => {
    if (!sweep) return;
    const refining = !sweepFinal || !pointFinal;
    ent.setTitle(t('sat.chart.entropy', { heads: state.heads, seqLen: state.seqLen }));
    ent.set(buildSaturationLine(sweep, sweepDks, ALL_SCALES, 'entropy', point, state, t), refining);
    maxw.set(buildSaturationLine(sweep, sweepDks, ALL_SCALES, 'maxWeight', point, state, t), refining);
    const last = sweepDks[sweepDks.length - 1];
    ent.setNote(last < 4096 ? t('common.sweepSkipped', { dk: last }) : '');
    if (!sweepFinal) return;  // the comparison and the claims quote full results only
    const at = (sc: (typeof ALL_SCALES)[number]) => sweepAt(sweep!, sweepDks, ALL_SCALES, sc, state.dk);
    const none = at('none'), sq = at('inv_sqrt_dk'), inv = at('inv_dk'), bug = at('inv_sqrt_d_model');
    if (none && sq && inv && bug) {
      const lnL = sweep.logSeqLen;
      setText(compare, t('sat.compare', {
        dk: state.dk, none: fmt(none.entropy.mean), noneMax: fmt(none.maxWeight.mean), sqrt: fmt(sq.entropy.mean), sqrtMax: fmt(sq.maxWeight.mean),
        inv: fmt(inv.entropy.mean), lnL: fmt(lnL), heads: state.heads, bug: fmt(bug.entropy.mean), bugMax: fmt(bug.maxWeight.mean),
      }));
      // the rules of web/src/claims.ts
      const l2 = CLAIMS.C2.extract([sweep], state), l3 = CLAIMS.C3b.extract([sweep], state);
      c2.set(t('sat.live2', { dk: state.dk, shareNone: pct(l2.noneShare), shareSqrt: pct(l2.sqrtShare) }), CLAIMS.C2.verdict(l2), undefined, l2);
      c3.set(t('sat.live3', { dk: state.dk, inv: fmt(l3.inv), lnL: fmt(l3.lnL), gap: fmt(l3.gap) }), CLAIMS.C3b.verdict(l3), undefined, l3);
    } else {
      setText(compare, '');
    }
  };
  const drawPoint = () => {
    if (!point) return;
    const hm = buildHeatmap(point, HEATMAP_N, t);
    heat.setTitle(t('sat.chart.heatmap', { n: Math.min(HEATMAP_N, point.heatmapSize), scale: scaleName(), dk: state.dk }));
    heat.set(hm, !pointFinal);
    heat.setNote(t('sat.heatmapNote', { max: fmt(hm.max, 3) }));
    s.readouts.classList.toggle('refining', !pointFinal);
    if (!pointFinal) return;  // readouts show full results only
    const sm = point.summary;
    figures = saturationFigures(point, t);
    showFigures(s.readouts, figures);
    const rule = [state.causal ? t('sat.textCausal', { ratio: fmt(sm.entropyRatio.mean) }) : '',
      state.softcap > 0 ? t('sat.textSoftcap', { cap: state.softcap, maxLogit: fmt(sm.maxAbsLogit) }) : '',
      sm.sinkMass ? t('sat.textSink', { S: state.sink[0], mass: fmt(sm.sinkMass.mean), maxw: fmt(sm.maxWeight.mean) }) : ''].filter((x) => x !== '').join(' ');
    setText(s.text, `${t('sat.text', {
      scale: scaleName(), dk: state.dk, heads: state.heads, seqLen: state.seqLen,
      entropy: fmt(sm.entropy.mean), lnL: fmt(point.logSeqLen), maxw: fmt(sm.maxWeight.mean), share: pct(sm.shareAbove),
    })}${rule ? ' ' + rule : ''}`);
  };

  return {
    id: 'saturation',
    el: s.el,
    keyFigures: () => figures,
    update(next: State, changed: Set<StateKey> | null, source?: StateKey) {
      state = next;
      for (const c of controls) c.sync(next);
      alibi.update(next, changed, source);
      const sp = { ...sweepParams(next), ...explicitSweepParams(next), ...logitRuleParams(next), ...sinkParams(next) };
      sweepReq.ask(JSON.stringify(sp), (step) => compute.get('sweep', 'saturationSweep', sp, 'sat:sweep', undefined, step), source, (r, final) => {
        sweep = r;
        sweepDks = sp.dks;
        sweepFinal = final;
        drawSweep();
      });
      const big = pointTooBig(next);
      if (big) {
        // beside the control of a driver of the cost (the one just moved, if it is one); after a
        // refusal even the last good state asks again (a cache hit), so its success clears it
        refuse(s.el, 'sat:point', ['seqLen', 'heads', 'dk'], source, t('common.tooMuch', { seconds: big, limit: POINT_LIMIT_SECONDS }));
        pointReq.forget();
        return;
      }
      const pp = saturationPointParams(next);  // the readouts need no backward pass and no ‖J‖₂
      const asked = pointReq.ask(JSON.stringify(pp), (step) => compute.get('live', 'attentionStats', pp, 'sat:point', undefined, step), source, (r, final) => {
        point = r;
        pointFinal = final;
        drawSweep();
        drawPoint();
      });
      if (!asked && (changed === null || changed.has('lang'))) {
        drawSweep();
        drawPoint();
      }
    },
    destroy() { ent.destroy(); maxw.destroy(); heat.destroy(); alibi.destroy(); },
  };
}
