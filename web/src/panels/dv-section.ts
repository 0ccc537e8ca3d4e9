// The GQA view's section "d_v ≠ d_k" (DeepSeek's MLA, Kimi K2: q/k heads of 192, v heads of 128): the weights unchanged, the scale from d_k, the entropy a port taking d_v would give, and the KV cache per token expanded and as MLA's latent (worker/dv-check.ts).
import { select } from '../controls.ts';
import type { Control } from '../controls.ts';
import type { State, StateKey } from '../state/state.ts';
import { DV_STEPS, KV_DTYPE_BYTES } from '../state/schema.js';
import { fmt } from '../format.ts';
import { h, setText } from '../dom.ts';
import { KeyedRequest, readout } from './kit.ts';
import type { PanelCtx } from './kit.ts';
import { dvCheckParams, dvOf, KIMI_K2_MLA, headsKvOf } from '../requests/gqa.ts';
import { formatBytes, kvCacheBytes, mlaLatentBytesPerToken } from '../kvcache.ts';
import type { DvCheckResult } from '../worker/dv-check.ts';

export interface Section { el: HTMLElement; update(next: State, changed: Set<StateKey> | null, source?: StateKey): void }

export function dvSection(root: HTMLElement, { t, store, compute }: PanelCtx): Section {
  const control: Control = select(store, 'gqa', 'gdv', t('dv.label'), DV_STEPS.map((d) => ({ value: String(d), label: d === 0 ? t('dv.same') : String(d) })));
  const preset = h('button', { type: 'button', class: 'mini', 'data-preset': 'mla-kimi-k2', text: t('dv.preset'),
    onclick: () => store.set({ hq: KIMI_K2_MLA.hq, hkv: KIMI_K2_MLA.hkv, gdk: KIMI_K2_MLA.gdk, gdv: KIMI_K2_MLA.gdv, kvl: KIMI_K2_MLA.kvl, exp: 'gqa' }, 'gdv') });
  const ro = h('dl', { class: 'readouts' });
  const r = {
    scale: readout(ro, 'dv-scale', t('dv.ro.scale')),
    wrong: readout(ro, 'dv-wrongScale', t('dv.ro.wrongScale')),
    weights: readout(ro, 'dv-weights', t('dv.ro.weights')),
    output: readout(ro, 'dv-output', t('dv.ro.output')),
    entropy: readout(ro, 'dv-entropy', t('dv.ro.entropy')),
    expanded: readout(ro, 'dv-kvExpanded', t('dv.ro.expanded')),
    latent: readout(ro, 'dv-kvLatent', t('dv.ro.latent')),
  };
  const text = h('p', { class: 'explain', 'data-dv-text': '' });
  const el = h('section', { class: 'dv-section', 'data-dv': '' },
    h('h3', { text: t('dv.h') }), h('p', { class: 'note', text: t('dv.note') }),
    h('div', { class: 'controls' }, control.el, h('div', { class: 'presets' }, preset)), ro, text);
  const req = new KeyedRequest<DvCheckResult>(root, 'gqa:dv', t);
  let state = store.state;
  let last: DvCheckResult | null = null;

  const draw = () => {
    const s = state;
    const dv = dvOf(s);
    const bytes = KV_DTYPE_BYTES[s.kvdt];
    const expanded = kvCacheBytes({ layers: s.kvl, headsKv: headsKvOf('gqa', s), dHead: s.gdk, dV: dv, bytesPerElement: bytes, tokens: 1 }).bytesPerToken;
    const latent = mlaLatentBytesPerToken(s.kvl, KIMI_K2_MLA.kvLoraRank, KIMI_K2_MLA.ropeDim, bytes);
    setText(r.expanded, formatBytes(expanded));
    setText(r.latent, formatBytes(latent));
    const res = last;
    if (!res) return;
    setText(r.scale, fmt(res.scale, 6));
    setText(r.wrong, fmt(1 / Math.sqrt(dv), 6));
    setText(r.weights, fmt(res.weightsMaxDiff, 3));
    setText(r.output, `${s.hq} × 32 × ${dv}`);
    setText(r.entropy, `${fmt(res.entropy)} / ${fmt(res.entropyDv)}`);
    setText(text, t('dv.text', {
      dk: s.gdk, dv, hq: s.hq, hkv: headsKvOf('gqa', s), scale: fmt(res.scale, 6), wrong: fmt(1 / Math.sqrt(dv), 6), weights: fmt(res.weightsMaxDiff, 3),
      out: fmt(res.outputMaxDiff, 3), entropy: fmt(res.entropy), entropyDv: fmt(res.entropyDv), maxw: fmt(res.maxWeight, 3), maxwDv: fmt(res.maxWeightDv, 3),
      layers: s.kvl, expanded: formatBytes(expanded), latent: formatBytes(latent), ratio: fmt(expanded / latent, 3),
    }));
  };

  return {
    el,
    update(next, _changed, source) {
      state = next;
      control.sync(next);
      const p = dvCheckParams(next);
      req.ask(JSON.stringify(p), (step) => compute.get('live', 'dvCheck', p, 'gqa:dv', undefined, step), source, (x) => { last = x; draw(); });
      draw();  // the cache sizes follow the state at once, the core's numbers when they come
    },
  };
}
