// View "Scales in the wild": the scale factor real models compute (the core's modelScales(), each
// number computed by the core from the entry's parameters), its ratio to 1/√d_head, the mean row
// entropy it gives at L = 4096 on iid inputs beside 1/√d_head's, and a link opening the saturation
// panel with that explicit scale. Above them, "Your model" (panels/your-model.ts): a pasted or saved config.json read
// into its scale. Below, the bug museum: wrong-scale bugs from public reports at the
// shapes they hit, each with the entropy and max weight the core computes for the wrong and right scale.
import { wildModelFigures } from '../requests/key-figures.ts';
import type { AttentionStatsResult, ModelScale } from '../../../wasm/js/core.js';
import type { State, StateKey } from '../state/state.ts';
import { toHash, withPatch } from '../state/state.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { fmt } from '../format.ts';
import { h, setText } from '../dom.ts';
import { shell, scrollTable, busy } from './kit.ts';
import { ChartBox } from '../charts/chartbox.ts';
import { buildWildEntropy } from '../charts/wild.ts';
import type { WildBar } from '../charts/wild.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { CoreError } from '../compute.ts';
import { BUGS, bugParams, wildModelParams, wildReferenceParams, wildLinkPatch, bugLinkPatch } from '../requests/wild.ts';
import { stepSlider } from '../controls.ts';
import { WILD_LEN_STEPS } from '../state/schema.js';
import { yourModelSection } from './your-model.ts';
import { wildCatalogue } from '../requests/your-model.ts';
import './scales.css';

/** A promise that settles when p does and never rejects (p's own handlers report its failure). */
const settled = (p: Promise<unknown>): Promise<void> => p.then(() => undefined, () => undefined);

const MODEL_COLS = ['model', 'dHead', 'formula', 'scale', 'ratio', 'entropy', 'refEntropy', 'notes', 'source', 'link'] as const;
const BUG_COLS = ['bug', 'shape', 'wrong', 'right', 'entWrong', 'entRight', 'maxwWrong', 'maxwRight', 'source', 'link'] as const;

function headRow(t: PanelCtx['t'], cols: readonly string[], prefix: string, L: number): HTMLElement {
  return h('thead', {}, h('tr', {}, ...cols.map((c) => h('th', { scope: 'col', text: t(`${prefix}.${c}` as MessageKey, { L }) }))));
}

export function wildPanel(ctx: PanelCtx): PanelView {
  const { t, store, compute, charts } = ctx;
  const s = shell('wild', 13, t('wild.title'), t('wild.lede'), [], t, charts);
  s.readouts.remove();
  const lenControl = stepSlider(store, 'wild', 'wlen', t('wild.len'), WILD_LEN_STEPS);
  s.controls.append(lenControl.el);
  setText(s.text, t('wild.text'));
  const models = h('table', { class: 'table wild-table', 'data-wild-table': '' });
  const mbody = h('tbody');
  const mhead = h('thead');
  models.append(mhead, mbody);
  const status = h('p', { class: 'note', 'data-wild-status': '', role: 'status' });
  const bugs = h('table', { class: 'table wild-table', 'data-bug-table': '' });
  const bbody = h('tbody');
  bugs.append(headRow(t, BUG_COLS, 'wild.bth', 0), bbody);
  const chart = new ChartBox(charts, 'wild-entropy', '', t, { height: 420 });
  const modelsNote = h('p', { class: 'note' });
  const yours = yourModelSection(ctx, s.el);
  s.charts.append(
    yours.el,
    h('h3', { text: t('wild.h.models') }),
    chart.el,
    modelsNote,
    scrollTable(models, t('wild.h.models'), { class: 'table-wrap wild-wrap' }), status,
    h('h3', { text: t('wild.h.bugs') }),
    h('p', { class: 'note', text: t('wild.bugsNote') }),
    scrollTable(bugs, t('wild.h.bugs'), { class: 'table-wrap wild-wrap' }));

  let state = store.state;
  let catalogue: ModelScale[] | null = null;
  let key = '';
  let gen = 0;
  const links: { a: HTMLAnchorElement; patch: () => Partial<State> | null }[] = [];
  const setLinks = () => {
    for (const { a, patch } of links) {
      const p = patch();
      if (p) a.href = toHash(withPatch({ ...state, embed: false }, p));
      if (state.embed) { a.target = '_blank'; a.rel = 'noopener'; }
    }
  };
  // a computed cell shows … (read as "computing…") until its number or failure arrives, not the – of "none"
  const pending = (td: HTMLElement) => {
    td.textContent = '…';
    td.setAttribute('aria-label', t('wild.pending'));
    return td;
  };
  const put = (td: HTMLElement, text: string) => {
    td.removeAttribute('aria-label');
    setText(td, text);
  };
  const failed = (e: unknown, td: HTMLElement) => {
    if (e instanceof CoreError && e.kind === 'superseded') return;
    put(td, '!');
    td.title = e instanceof Error ? e.message : String(e);
  };

  /** a catalogue row's two entropies and how many of its two requests have answered (a number or a refusal) */
  let bars: (WildBar & { answers: number })[] = [];
  let lnL = NaN;
  const drawChart = () => {
    // every row answered (a number, or a refusal: its bar is left out, its row says why)
    if (bars.length === 0 || !bars.every((b) => b.answers === 2)) return;
    const drawn = bars.filter((b) => Number.isFinite(b.own) && Number.isFinite(b.ref));
    if (drawn.length > 0) chart.set(buildWildEntropy(drawn, lnL, t), false);
  };
  const fillModels = (my: number) => {
    if (!catalogue) return;
    const L = state.wlen;
    chart.setTitle(t('wild.chart', { L }));
    setText(modelsNote, t('wild.modelsNote', { L }));
    mhead.replaceWith(headRow(t, MODEL_COLS, 'wild.th', L));
    mbody.replaceChildren();
    bars = catalogue.map((m) => ({ model: m.model, own: NaN, ref: NaN, answers: 0 }));
    links.length = 0;
    catalogue.forEach((m, i) => {
      const cell = (c: string, text = '–') => h('td', { 'data-col': c, 'data-label': t(`wild.th.${c}` as MessageKey, { L }), text });
      const notes = [m.softcap ? t('wild.note.cap', { cap: m.softcap }) : '', m.qkNorm ? t('wild.note.qkNorm') : '', m.sinks ? t('wild.note.sinks') : '']
        .filter((x) => x !== '').join(' · ');
      const ratio = cell('ratio', `${fmt(m.scale / m.invSqrtDHead, 4)}×`), ent = pending(cell('entropy')), ref = pending(cell('refEntropy'));
      const a = h('a', { 'data-wild-link': String(i), text: t('wild.open') }) as HTMLAnchorElement;
      links.push({ a, patch: () => wildLinkPatch(m) });
      const tr = h('tr', { 'data-wild-row': m.model },
        h('th', { scope: 'row', 'data-col': 'model', text: m.model }),
        cell('dHead', String(m.dHead)), cell('formula', m.formula),
        h('td', { 'data-col': 'scale', 'data-label': t('wild.th.scale'), 'data-readout': `wild-scale-${i}`, text: fmt(m.scale, 6) }),
        ratio, ent, ref, cell('notes', notes || '–'),
        // the core's note and source are English (code paths and config names): folded, and marked as English
        h('td', { 'data-col': 'source', 'data-label': t('wild.th.source'), class: 'rule' },
          h('details', {}, h('summary', { text: t('wild.sourceSummary') }),
            h('p', { lang: 'en', text: m.note }), h('p', { lang: 'en', class: 'src', text: m.source }))),
        h('td', { 'data-col': 'link', 'data-label': t('wild.th.link') }, a));
      ent.dataset.readout = `wild-entropy-${i}`;
      ref.dataset.readout = `wild-ref-${i}`;
      mbody.append(tr);
      const own = compute.get('sweep', 'attentionStats', wildModelParams(state, m), `wild:m:${i}`);
      const base = compute.get('sweep', 'attentionStats', wildReferenceParams(state, m.dHead), `wild:ref:${i}`);
      busy(s.el, settled(own));
      busy(s.el, settled(base));
      const answered = () => { bars[i].answers += 1; drawChart(); };
      own.then((r: AttentionStatsResult) => { if (my === gen) { put(ent, fmt(r.summary.entropy.mean)); bars[i].own = r.summary.entropy.mean; answered(); } }, (e) => { failed(e, ent); if (my === gen) answered(); });
      base.then((r: AttentionStatsResult) => { if (my === gen) { put(ref, fmt(r.summary.entropy.mean)); bars[i].ref = r.summary.entropy.mean; lnL = r.logSeqLen; answered(); } }, (e) => { failed(e, ref); if (my === gen) answered(); });
    });
    setLinks();
  };

  const fillBugs = (my: number) => {
    bbody.replaceChildren();
    for (const b of BUGS) {
      const cell = (c: string, text = '–') => h('td', { 'data-col': c, 'data-label': t(`wild.bth.${c}` as MessageKey), text });
      const [wrong, right, ew, er, mw, mr] = (['wrong', 'right', 'entWrong', 'entRight', 'maxwWrong', 'maxwRight'] as const).map((c) => pending(cell(c)));
      ew.dataset.readout = `bug-ent-wrong-${b.id}`;
      mw.dataset.readout = `bug-maxw-wrong-${b.id}`;
      let wrongC: number | null = null;
      const a = h('a', { 'data-bug-link': b.id, text: t('wild.open') }) as HTMLAnchorElement;
      links.push({ a, patch: () => (wrongC === null ? null : bugLinkPatch(b, wrongC)) });
      bbody.append(h('tr', { 'data-bug-row': b.id },
        h('th', { scope: 'row', 'data-col': 'bug', text: t(`wild.bug.${b.id}` as MessageKey) }),
        cell('shape', t('wild.shape', { heads: b.heads, dk: b.dk, seqLen: b.seqLen })),
        wrong, right, ew, er, mw, mr,
        h('td', { 'data-col': 'source', 'data-label': t('wild.bth.source'), class: 'rule', text: b.source }),
        h('td', { 'data-col': 'link', 'data-label': t('wild.bth.link') }, a)));
      const get = (which: 'wrong' | 'right') => {
        const p = compute.get('live', 'attentionStats', bugParams(state, b, which), `wild:bug:${b.id}:${which}`);
        busy(s.el, settled(p));
        return p;
      };
      get('wrong').then((r: AttentionStatsResult) => {
        if (my !== bugGen) return;
        wrongC = r.summary.scale;
        put(wrong, fmt(r.summary.scale, 4)); put(ew, fmt(r.summary.entropy.mean)); put(mw, fmt(r.summary.maxWeight.mean));
        setLinks();
      }, (e) => failed(e, ew));
      get('right').then((r: AttentionStatsResult) => {
        if (my !== bugGen) return;
        put(right, fmt(r.summary.scale, 4)); put(er, fmt(r.summary.entropy.mean)); put(mr, fmt(r.summary.maxWeight.mean));
      }, (e) => failed(e, er));
    }
  };

  let bugGen = 0;
  const run = (all: boolean) => {
    const my = ++gen;
    if (all) { links.length = 0; bugGen = my; fillBugs(my); }
    if (catalogue && !all) {
      const bugLinks = links.filter((l) => l.a.dataset.bugLink !== undefined);
      fillModels(my);
      links.push(...bugLinks);
      setLinks();
      return;
    }
    setText(status, t('wild.loading'));
    const cat = compute.get('live', 'modelScales', {}, 'wild:catalogue');
    busy(s.el, settled(cat));
    cat.then((r) => {
      if (my !== gen) return;
      // the core's catalogue, then the models of the saved configs it does not list, read by modelConfig
      catalogue = wildCatalogue(r);
      setText(status, t('wild.count', { n: r.length, read: catalogue.length - r.length }));
      const bugLinks = links.splice(0);
      fillModels(my);
      links.push(...bugLinks);
      setLinks();
    }, (e: unknown) => {
      if (my !== gen || (e instanceof CoreError && e.kind === 'superseded')) return;
      setText(status, t('wild.failed', { message: e instanceof Error ? e.message : String(e) }));
    });
  };

  return {
    id: 'wild',
    keyFigures: () => (catalogue ? catalogue.flatMap((m, i) => wildModelFigures(i, m, bars[i]?.own ?? NaN, bars[i]?.ref ?? NaN, state.wlen, t)) : []),
    el: s.el,
    update(next: State, changed: Set<StateKey> | null) {
      state = next;
      lenControl.sync(next);
      yours.update(next);
      const k = `${next.kernel}:${next.wlen}`;
      if (k !== key) { const kernelChanged = key.split(':')[0] !== next.kernel; key = k; run(kernelChanged); return; }
      if (changed === null || changed.has('lang') || changed.has('embed')) setLinks();
    },
    destroy() { gen++; yours.destroy(); chart.destroy(); },
  };
}
