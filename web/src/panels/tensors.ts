// Panel 9, your own tensors: Q and K (and optionally V) from .npy or CSV files, read in this tab
// and sent only to the page's own worker; the diagnostics of the random panels (Var(q·k), per-row
// entropy and max weight, ‖J‖_F under each scale) beside what iid N(0, 1) vectors of the same
// shape give. The file contents are not in the URL; the example choice and the scale are.
import type { TensorStatsResult, AttentionStatsResult } from '../../../wasm/js/core.js';
import { ChartBox } from '../charts/chartbox.ts';
import { buildTensorJacobian, buildRowHistogram, TENSOR_SCALES } from '../charts/tensors.ts';
import type { TensorScale } from '../charts/tensors.ts';
import { select } from '../controls.ts';
import type { Control } from '../controls.ts';
import type { State, StateKey } from '../state/state.ts';
import { fmt, pct } from '../format.ts';
import { h, setText } from '../dom.ts';
import type { T } from '../i18n/messages.ts';
import { readTensorFile, pairTensors, TensorFileError, TENSOR_LIMITS } from '../tensors/read.ts';
import { readTensorOffThread } from '../tensors/off-thread.ts';
import type { Tensor, TensorPair } from '../tensors/read.ts';
import { EXAMPLE_PAIRS } from '../tensors/examples.js';
import { pageContext, siteRoot } from '../share/url.ts';
import { shell, readout, track, busy, showFigures } from './kit.ts';
import { tensorFigures } from '../requests/key-figures.ts';
import type { KeyFigure } from '../requests/key-figures.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { kernelParam } from '../requests/attention.ts';

type Slot = 'q' | 'k' | 'v';
const SLOTS: readonly Slot[] = ['q', 'k', 'v'];

/** The message of a failed read, in the page's language. */
export function tensorErrorText(e: unknown, t: T): string {
  if (e instanceof TensorFileError) return t(`tens.err.${e.code}`, e.vars);
  return t('tens.err.other', { message: e instanceof Error ? e.message : String(e) });
}

/** What was loaded outlives a re-render of the page (a language switch rebuilds every panel): kept by the app (PanelCtx.keep). */
interface Loaded { files: Partial<Record<Slot, Tensor>>; source: string }

function shapeText(x: Tensor): string {
  return x.rank === 2 ? `[${x.seqLen}, ${x.dk}]` : `[${x.heads}, ${x.seqLen}, ${x.dk}]`;
}

export function tensorsPanel({ t, store, compute, charts, keep, spawnWorker }: PanelCtx): PanelView {
  const memory = keep<Loaded>('tensors', () => ({ files: {}, source: '' }));
  const s = shell('tensors', 9, t('tens.title'), t('tens.lede'), ['tensors'], t, charts);
  const message = h('p', { class: 'tensor-msg', role: 'alert', 'data-tensor-error': '' });
  const exampleButtons = h('div', { class: 'presets', 'data-key': 'tex' },
    h('span', { class: 'muted', text: t('tens.examples') }),
    ...(['structured', 'iid'] as const).map((ex) => h('button', { type: 'button', class: 'mini', 'data-example': ex, text: t(`tens.example.${ex}`),
      onclick: () => { if (store.state.tex === ex) busy(s.el, loadExample(ex)); else store.set({ tex: ex, exp: 'tensors' }, 'tex'); } })));
  const status: Record<Slot, HTMLElement> = { q: h('span'), k: h('span'), v: h('span') };
  const slots = SLOTS.map((slot) => {
    const input = h('input', { type: 'file', accept: '.npy,.csv,text/csv,text/plain', 'data-slot': slot, class: 'file' }) as HTMLInputElement;
    input.addEventListener('change', () => { const f = input.files?.[0]; if (f) void onFile(slot, f); input.value = ''; });
    const zone = h('label', { class: 'drop', 'data-drop': slot },
      h('strong', { text: t(`tens.slot.${slot}`) }), h('span', { class: 'muted', text: t('tens.dropHint') }), input, status[slot]);
    zone.addEventListener('dragover', (ev) => { ev.preventDefault(); zone.classList.add('over'); });
    zone.addEventListener('dragleave', () => zone.classList.remove('over'));
    zone.addEventListener('drop', (ev) => {
      ev.preventDefault();
      zone.classList.remove('over');
      const f = ev.dataTransfer?.files?.[0];
      if (f) void onFile(slot, f);
    });
    return zone;
  });
  const scaleCtl: Control = select(store, 'tensors', 'tscale', t('tens.scale'), TENSOR_SCALES.map((v) => ({ value: v, label: t(`scale.${v}`) })));
  // the scale's echo beside the select: what it does to the loaded pair's scores, shown as the
  // select changes (the histogram redraws after it; bench:ui's first visual change)
  const scaleEcho = h('output', { class: 'value', 'data-scale-echo': '' });
  scaleCtl.el.querySelector('.control-row')?.append(scaleEcho);
  const L = TENSOR_LIMITS;
  s.controls.append(
    h('div', { class: 'tensor-inputs' },
      exampleButtons,
      h('div', { class: 'drops' }, ...slots),
      h('p', { class: 'privacy', 'data-privacy': '', text: t('tens.privacy') }),
      h('details', { class: 'limits' }, h('summary', { text: t('tens.limitsTitle') }),
        h('p', { class: 'muted small', text: t('tens.limits', { mb: L.fileBytes / 2 ** 20, heads: L.maxHeads, minL: L.minSeqLen, maxL: L.maxSeqLen, dk: L.maxDk, gmac: (L.maxMacs / 1e9).toFixed(1) }) })),
      message),
    scaleCtl.el);

  const jacChart = new ChartBox(charts, 'tensors-jacobian', t('tens.chart.jac'), t, { height: 280 });
  const entChart = new ChartBox(charts, 'tensors-entropy', '', t, { height: 280 });
  s.charts.append(h('div', { class: 'chart-pair' }, jacChart.el, entChart.el), s.readouts);
  // the readouts of the key figures (requests/key-figures.ts tensorFigures writes them)
  for (const [id, key] of [['tens-shape', 'tens.ro.shape'], ['tens-var', 'tens.ro.var'], ['tens-var-iid', 'tens.ro.varIid'], ['tens-var-n01', 'tens.ro.varN01'],
    ['tens-entropy', 'tens.ro.entropy'], ['tens-entropy-iid', 'tens.ro.entropyIid'], ['tens-maxw', 'tens.ro.maxw'], ['tens-maxw-iid', 'tens.ro.maxwIid']] as const) readout(s.readouts, id, t(key));
  let figures: KeyFigure[] = [];
  const linkNote = h('p', { class: 'muted small', 'data-link-note': '', text: t('tens.linkNote') });
  s.claims.append(linkNote);

  const files = memory.files;
  let source = memory.source;
  let pair: TensorPair | null = null;
  let pairId = 0;
  let own: Partial<Record<TensorScale, TensorStatsResult>> = {};
  let iid: Partial<Record<TensorScale, AttentionStatsResult>> = {};
  let state = store.state;
  let loadedExample = '';

  const showSlots = () => {
    for (const slot of SLOTS) {
      const x = files[slot];
      setText(status[slot], x ? `${x.name} · ${x.dtype} · ${shapeText(x)}` : slot === 'v' ? t('tens.slot.optional') : t('tens.slot.empty'));
    }
  };
  const fail = (e: unknown) => { setText(message, tensorErrorText(e, t)); message.dataset.kind = 'error'; };

  async function loadExample(ex: 'structured' | 'iid'): Promise<void> {
    loadedExample = ex;
    try {
      const names = EXAMPLE_PAIRS[ex];
      const read = async (name: string) => {
        // the site's root, also from a share page (p/tensors/)
        const res = await fetch(new URL(`examples/${name}`, siteRoot(location.href, pageContext(document.documentElement))));
        if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
        return readTensorFile(name, await res.arrayBuffer());
      };
      const [q, k] = await Promise.all([read(names.q), read(names.k)]);
      if (loadedExample !== ex) return;
      files.q = q; files.k = k; delete files.v;
      source = memory.source = ex;
      setText(message, '');
      tryPair();
    } catch (e) { fail(e); }
  }

  async function onFile(slot: Slot, f: File): Promise<void> {
    try {
      if (f.size > L.fileBytes) throw new TensorFileError('tooBig', { name: f.name, mb: L.fileBytes / 2 ** 20 });
      // read and parsed off this thread (a 5 MiB CSV parsed here blocked the page for 1.24 s)
      const tensor = await readTensorOffThread(f, spawnWorker);
      if (source !== 'own') { delete files.q; delete files.k; delete files.v; }  // an example pair is replaced, not mixed
      files[slot] = tensor;
      source = memory.source = 'own';
      loadedExample = '';
      setText(message, '');
      if (store.state.tex !== 'own') store.set({ tex: 'own', exp: 'tensors' }, 'tex');
      showSlots();
      if (files.q && files.k) tryPair();
      else { setText(message, t(files.q ? 'tens.needK' : 'tens.needQ')); message.dataset.kind = 'info'; }
    } catch (e) { fail(e); showSlots(); }
  }

  function tryPair(): void {
    showSlots();
    try {
      pair = pairTensors(files.q!, files.k!, files.v ?? null);
    } catch (e) { fail(e); return; }
    pairId += 1;
    own = {};
    iid = {};
    request();
  }

  function request(): void {
    const p = pair;
    if (!p) return;
    const id = pairId;
    const kernel = kernelParam(state);
    for (const scale of TENSOR_SCALES) {
      const params = { q: p.q, k: p.k, ...(p.v ? { v: p.v } : {}), heads: p.heads, seqLen: p.seqLen, dk: p.dk, scale, seed: 0, ...kernel };
      track(s.el, `tens:own:${scale}`, compute.get('live', 'tensorStats', params, `tens:own:${scale}`, `pair${id}:${scale}:${kernel.kernel ?? 'auto'}`), undefined, t, (r) => {
        if (id !== pairId) return;
        own[scale] = r;
        draw();
      });
      const ip = { heads: p.heads, seqLen: p.seqLen, dk: p.dk, scale, seed: 0, perRow: true, heatmapSize: 1, ...kernel };
      track(s.el, `tens:iid:${scale}`, compute.get('sweep', 'attentionStats', ip, `tens:iid:${scale}`), undefined, t, (r) => {
        if (id !== pairId) return;
        iid[scale] = r;
        draw();
      });
    }
  }

  function echoScale(): void {
    const sc = state.tscale, dk = pair?.dk;
    setText(scaleEcho, dk === undefined ? '' : t(`tens.scaleEcho.${sc}`, { dk, root: fmt(Math.sqrt(dk)) }));
  }

  /** Draws the charts and figures of the chosen scale; `scaleOnly`: only the scale changed (the Jacobian chart shows every scale, unchanged). */
  function draw(scaleOnly = false): void {
    echoScale();
    const p = pair;
    if (!p || TENSOR_SCALES.some((sc) => !own[sc] || !iid[sc])) return;
    const o = own as Record<TensorScale, TensorStatsResult>;
    const i = iid as Record<TensorScale, AttentionStatsResult>;
    const sc = state.tscale;
    if (!scaleOnly) jacChart.set(buildTensorJacobian(o, i, t));
    const lnL = o[sc].logSeqLen;
    entChart.setTitle(t('tens.chart.entropy', { scale: t(`scale.${sc}`) }));
    entChart.set(buildRowHistogram(o[sc].rows.entropy, i[sc].rows.entropy, 0, Math.max(lnL, 0.01) * 1.02, t('sat.axis.entropy'), lnL, t));
    entChart.setNote(t('tens.entropyNote', { lnL: fmt(lnL) }));
    const r = o[sc];
    const q2 = r.qComponent.variance + r.qComponent.mean * r.qComponent.mean;
    const k2 = r.kComponent.variance + r.kComponent.mean * r.kComponent.mean;
    const iidVar = p.dk * q2 * k2;
    figures = tensorFigures(p, r, i[sc], t);
    showFigures(s.readouts, figures);
    setText(s.text, t('tens.text', {
      source: source === 'own' ? t('tens.yourFiles') : t(source === 'iid' ? 'tens.example.iid' : 'tens.example.structured'), q: shapeText(files.q!), k: shapeText(files.k!), kv: p.headsKv < p.heads ? t('tens.grouped', { kv: p.headsKv, h: p.heads }) : '',
      var: fmt(r.qk.variance), dk: p.dk, q2: fmt(q2, 3), k2: fmt(k2, 3), iidVar: fmt(iidVar), ratio: fmt(r.qk.variance / iidVar, 3),
      scale: t(`scale.${sc}`), ent: fmt(r.summary.entropy.mean), entIid: fmt(i[sc].summary.entropy.mean), lnL: fmt(lnL),
      maxw: fmt(r.summary.maxWeight.mean), maxwIid: fmt(i[sc].summary.maxWeight.mean), share: pct(r.summary.shareAbove), shareIid: pct(i[sc].summary.shareAbove),
      jac: fmt(r.summary.jacFro.median), jacIid: fmt(i[sc].summary.jacFro.median),
    }));
  }

  showSlots();
  return {
    id: 'tensors',
    keyFigures: () => figures,
    el: s.el,
    update(next: State, changed: Set<StateKey> | null) {
      const prevKernel = state.kernel;
      state = next;
      scaleCtl.sync(next);
      if (next.tex !== 'own' && (changed === null ? loadedExample !== next.tex : changed.has('tex'))) busy(s.el, loadExample(next.tex));
      else if (next.tex === 'own' && changed === null && !pair) {
        if (memory.source === 'own' && files.q && files.k) tryPair();
        else { setText(message, t('tens.ownMissing')); message.dataset.kind = 'info'; }
      }
      if (changed?.has('kernel') && next.kernel !== prevKernel) { own = {}; iid = {}; request(); }
      else if (changed === null || changed.has('lang')) draw();
      else if (changed.has('tscale')) draw(true);
    },
    destroy() { jacChart.destroy(); entChart.destroy(); },
  };
}
