// Panel 7, long context (claim C8): mean entropy, entropy / ln L and mean max weight against the
// sequence length for the fixed 1/√d_k, log-length scaling, YaRN's temperature, the article's
// T = √d_k · (L_train / L)^0.5, Llama 4's query temperature and SSMax. One request for every method
// whose curves changed (requests/longctx.ts longMethodsToAsk / longRequest: one core call forms q·k once
// for all of them), cached; the fixed scale, Llama 4 and SSMax do not depend on L_train, so moving
// L_train asks for three methods in one request and draws the three charts once with their results
// (a first estimate before them only where the core's estimate says the call is long, worker/plan.ts).
import type { LongContextScheme, LongContextResult } from '../../../wasm/js/core.js';
import { ChartBox } from '../charts/chartbox.ts';
import { buildLongContext } from '../charts/longctx.ts';
import type { LongField } from '../charts/longctx.ts';
import { stepSlider, sinkSlider } from '../controls.ts';
import type { Control } from '../controls.ts';
import { LONG_DK_STEPS, TRAIN_LEN_STEPS } from '../state/schema.js';
import type { State, StateKey } from '../state/state.ts';
import { fmt } from '../format.ts';
import { ln } from '../portable-math.ts';
import { h, setText } from '../dom.ts';
import { shell, readout, claimBox, track, showFigures } from './kit.ts';
import { longContextFigures } from '../requests/key-figures.ts';
import type { KeyFigure } from '../requests/key-figures.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { CLAIMS } from '../claims.ts';
import { splitKvSection } from './split-kv.ts';
import { alibiSection } from './alibi-section.ts';
import { PANEL_METHODS as METHODS, QUOTE_L, longQueries, longKeys, longMethodsToAsk, longRequest, longResultOf, longWorker } from '../requests/longctx.ts';

export function longctxPanel(ctx: PanelCtx): PanelView {
  const { t, store, compute, charts } = ctx;
  const s = shell('longctx', 7, t('lc.title'), t('lc.lede'), ['longctx'], t, charts);
  const controls: Control[] = [
    stepSlider(store, 'longctx', 'ldk', t('common.dk'), LONG_DK_STEPS),
    stepSlider(store, 'longctx', 'ltrain', t('lc.trainLen'), TRAIN_LEN_STEPS),
    sinkSlider(store, 'longctx', t('sat.sink'), t('sat.sinkOff')),
  ];
  for (const c of controls) s.controls.append(c.el);
  const ent = new ChartBox(charts, 'longctx-entropy', '', t, { height: 300 });
  const ratio = new ChartBox(charts, 'longctx-ratio', t('lc.chart.ratio'), t, { height: 260 });
  const maxw = new ChartBox(charts, 'longctx-maxweight', t('lc.chart.maxw'), t, { height: 260 });
  s.charts.append(ent.el, h('div', { class: 'chart-pair' }, ratio.el, maxw.el), s.readouts);
  const ro: Record<LongContextScheme, HTMLElement> = {
    fixed: readout(s.readouts, 'lc-fixed', t('lc.ro.at', { method: t('lc.method.fixed'), L: QUOTE_L })),
    logn: readout(s.readouts, 'lc-logn', t('lc.ro.at', { method: t('lc.method.logn'), L: QUOTE_L })),
    yarn: readout(s.readouts, 'lc-yarn', t('lc.ro.at', { method: t('lc.method.yarn'), L: QUOTE_L })),
    article: readout(s.readouts, 'lc-article', t('lc.ro.at', { method: t('lc.method.article'), L: QUOTE_L })),
    llama4: readout(s.readouts, 'lc-llama4', t('lc.ro.at', { method: t('lc.method.llama4'), L: QUOTE_L })),
    ssmax: readout(s.readouts, 'lc-ssmax', t('lc.ro.at', { method: t('lc.method.ssmax'), L: QUOTE_L })),
  };
  const roLn = readout(s.readouts, 'lc-lnL', `ln ${QUOTE_L}`);
  const roSink = readout(s.readouts, 'lc-sink', t('lc.ro.sink', { L: QUOTE_L }));
  const methodsText = h('ul', { class: 'explain methods' },
    ...METHODS.map((m) => h('li', { 'data-method': m }, h('strong', { text: `${t(`lc.method.${m}`)}: ` }), t(`lc.about.${m}`))));
  s.text.before(methodsText);
  const c8 = claimBox(s.claims, 'C8', t('lc.claim'), t);
  // merging partial attentions by their log-sum-exp (split-KV decoding, ring attention), below the charts
  const merge = splitKvSection(s.el, ctx);
  s.charts.append(merge.el);
  // ALiBi's bias per head against 1/√d_k alone (key lalibi; off: nothing asked)
  const alibi = alibiSection(s.el, ctx);
  s.charts.append(alibi.el);

  const results: Partial<Record<LongContextScheme, LongContextResult>> = {};
  /** the key (longKeys) of each method's final result on screen */
  const shown: Partial<Record<LongContextScheme, string>> = {};
  /** false while results[m] is a first estimate from fewer queries (worker/plan.ts) */
  const final: Partial<Record<LongContextScheme, boolean>> = {};
  /** each method's last final result (its key is shown[m]): what a first estimate of a request given up on gives way to */
  const finals: Partial<Record<LongContextScheme, LongContextResult>> = {};
  /** the request asked last (its params as a string): its answers are the only ones drawn */
  let asked = '';
  let state = store.state;
  /** the key figure of each method on screen: its last final number */
  const shownFigures = new Map<LongContextScheme, KeyFigure>();

  const at = (m: LongContextScheme, L = QUOTE_L) => results[m]?.points[0].find((p) => p.seqLen === L) ?? null;

  const draw = () => {
    const have = METHODS.filter((m) => results[m]);
    if (have.length === 0) return;
    ent.setTitle(t('lc.chart.entropy', { dk: state.ldk, train: state.ltrain, queries: longQueries(state.ldk) }));
    const charts: [ChartBox, LongField][] = [[ent, 'entropy'], [ratio, 'entropyRatio'], [maxw, 'maxWeight']];
    const refining = have.some((m) => !final[m]);
    for (const [box, field] of charts) box.set(buildLongContext(results, have, field, state.ltrain, t), refining);
    ent.setNote(t('lc.note', { train: state.ltrain }));
    // readouts show full results only: a method still refining keeps its last full number
    for (const m of METHODS) { const p = at(m); if (!p) { setText(ro[m], '–'); shownFigures.delete(m); } }
    for (const f of longContextFigures(results, METHODS.filter((m) => final[m]), t)) shownFigures.set(f.id.slice('lc-'.length) as LongContextScheme, f);
    showFigures(s.readouts, [...shownFigures.values()]);
    s.readouts.classList.toggle('refining', refining);
    setText(roLn, fmt(ln(QUOTE_L)));
    const fixedAt = at('fixed');
    setText(roSink, fixedAt?.sinkMass !== undefined ? fmt(fixedAt.sinkMass) : '0');  // no sink: none of the mass
    if (have.length < METHODS.length || refining) return;
    const [f, l, y, a, l4, ss] = METHODS.map((m) => at(m)!);
    const vars = {
      L: QUOTE_L, train: state.ltrain, dk: state.ldk, lnL: fmt(ln(QUOTE_L)),
      fixed: fmt(f.entropy), fixedR: fmt(f.entropyRatio, 3), fixedMax: fmt(f.maxWeight, 3),
      logn: fmt(l.entropy), lognM: fmt(l.multiplier, 3), lognMax: fmt(l.maxWeight, 3),
      yarn: fmt(y.entropy), yarnM: fmt(y.multiplier, 3), yarnMax: fmt(y.maxWeight, 3),
      article: fmt(a.entropy), articleM: fmt(a.multiplier, 3), articleMax: fmt(a.maxWeight, 3), articleR: fmt(a.entropyRatio, 3),
    };
    setText(s.text, `${t('lc.text', vars)} ${t('lc.text2', {
      L: QUOTE_L, llama4: fmt(l4.entropy), llama4M: fmt(l4.multiplier, 4), llama4Max: fmt(l4.maxWeight, 3),
      ssmax: fmt(ss.entropy), ssmaxM: fmt(ss.multiplier, 3), ssmaxMax: fmt(ss.maxWeight, 3),
    })}`);
    // the article's temperature against the published ones at L = 8192: a far larger factor
    const strongest = Math.max(l.multiplier, y.multiplier);
    // the rule of web/src/claims.ts, on the result of its one request for logn, YaRN and the article
    const l8 = CLAIMS.C8.extract([{ points: [results.logn!, results.yarn!, results.article!].map((r) => r.points[0]) }], state);
    c8.set(t('lc.live', vars), CLAIMS.C8.verdict(l8), t(a.multiplier > 1.5 * strongest ? 'lc.why.strong' : 'lc.why.mild', { ratio: fmt(a.multiplier / strongest, 3), articleMax: vars.articleMax, fixedMax: vars.fixedMax }), l8);
  };

  return {
    id: 'longctx',
    el: s.el,
    keyFigures: () => METHODS.flatMap((m) => shownFigures.get(m) ?? []),
    update(next: State, changed: Set<StateKey> | null, source?: StateKey) {
      state = next;
      for (const c of controls) c.sync(next);
      merge.update(next, changed, source);
      alibi.update(next, changed, source);
      const ask = longMethodsToAsk(next, shown);
      // a method not asked again whose curve is a first estimate of a request given up on (the
      // state went back to its final result before that request's own came): its final result again
      let restored = false;
      for (const m of METHODS) {
        if (ask.includes(m) || final[m] !== false || !finals[m]) continue;
        results[m] = finals[m];
        final[m] = true;
        restored = true;
      }
      if (ask.length === 0) {
        asked = '';
        if (restored || changed === null || changed.has('lang')) draw();
        return;
      }
      const p = longRequest(next, ask);
      const k = JSON.stringify(p);
      if (k === asked) return;  // on its way
      asked = k;
      const keys = longKeys(next);
      const got = (isFinal: boolean) => (r: LongContextResult) => {
        if (k !== asked) return;
        for (const m of ask) {
          results[m] = longResultOf(r, ask, m);
          final[m] = isFinal;
          if (isFinal) { shown[m] = keys[m]; finals[m] = results[m]; }
        }
        if (isFinal) asked = '';
        draw();
      };
      track(s.el, 'lc', compute.get(longWorker(ask), 'longContext', p, 'lc', undefined, got(false)), source, t, got(true));
    },
    destroy() { ent.destroy(); ratio.destroy(); maxw.destroy(); alibi.destroy(); },
  };
}
