// The long-context view's section "Merging two partial attentions by their log-sum-exp": one causal call's keys in two chunks, merged by the core's mergeAttention and held to the full call, the base-2 pitfall and the empty chunk (worker/split-kv.ts).
import { numSlider, stepSlider } from '../controls.ts';
import type { Control } from '../controls.ts';
import type { State, StateKey } from '../state/state.ts';
import { MERGE_LEN_STEPS } from '../state/schema.js';
import { fmt } from '../format.ts';
import { h, setText } from '../dom.ts';
import { KeyedRequest, readout } from './kit.ts';
import type { PanelCtx } from './kit.ts';
import { splitKvParams } from '../requests/longctx.ts';
import type { SplitKvResult } from '../worker/split-kv.ts';

export interface Section { el: HTMLElement; update(next: State, changed: Set<StateKey> | null, source?: StateKey): void }

export function splitKvSection(root: HTMLElement, { t, store, compute }: PanelCtx): Section {
  const controls: Control[] = [
    numSlider(store, 'longctx', 'lmsplit', t('lm.split')),
    stepSlider(store, 'longctx', 'lmlen', t('lm.len'), MERGE_LEN_STEPS),
  ];
  const ro = h('dl', { class: 'readouts' });
  const diff = readout(ro, 'lm-diff', t('lm.ro.diff'));
  const lse = readout(ro, 'lm-lse', t('lm.ro.lse'));
  const base2 = readout(ro, 'lm-base2', t('lm.ro.base2'));
  const empty = readout(ro, 'lm-empty', t('lm.ro.empty'));
  const rows = readout(ro, 'lm-rows', t('lm.ro.rows'));
  const text = h('p', { class: 'explain', 'data-lm-text': '' });
  const el = h('section', { class: 'lse-merge', 'data-lm': '' },
    h('h3', { text: t('lm.h') }), h('p', { class: 'note', text: t('lm.note') }),
    h('div', { class: 'controls' }, ...controls.map((c) => c.el)), ro, text);
  const req = new KeyedRequest<SplitKvResult>(root, 'lc:merge', t);
  let state = store.state;
  let last: SplitKvResult | null = null;

  const draw = () => {
    const r = last;
    if (!r) return;
    setText(diff, fmt(r.maxDiff, 3));
    setText(lse, fmt(r.lseMaxDiff, 3));
    setText(base2, fmt(r.base2MaxDiff, 3));
    setText(empty, fmt(r.emptyMaxDiff, 3));
    setText(rows, `${r.emptyRowsA} / ${r.emptyRowsB}`);
    const L = state.lmlen;
    setText(text, t('lm.text', {
      split: r.split, rest: L - r.split, L, dk: state.ldk, diff: fmt(r.maxDiff, 3), lse: fmt(r.lseMaxDiff, 3), base2: fmt(r.base2MaxDiff, 3),
      emptyB: r.emptyRowsB, emptyA: r.emptyRowsA, rows: r.rows, empty: fmt(r.emptyMaxDiff, 3), lseEq: t(r.emptyLseEqual ? 'lm.same' : 'lm.changed'),
    }));
  };

  return {
    el,
    update(next, changed, source) {
      state = next;
      for (const c of controls) c.sync(next);
      const p = splitKvParams(next);
      const asked = req.ask(JSON.stringify(p), (step) => compute.get('live', 'splitKv', p, 'lc:merge', undefined, step), source, (r) => { last = r; draw(); });
      if (!asked && (changed === null || changed.has('lang'))) draw();
    },
  };
}
