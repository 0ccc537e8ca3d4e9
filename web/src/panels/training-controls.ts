// The training lab's settings: the presets in front, every setting (task, sizes, optimiser, softmax, threshold, the variants ticked) behind a disclosure that a refusal inside it opens.
import { select } from '../controls.ts';
import type { Control } from '../controls.ts';
import { SCHEMA, TRAIN_VARIANTS } from '../state/schema.js';
import type { State, TrainVariant } from '../state/state.ts';
import type { Store } from '../state/store.ts';
import type { T } from '../i18n/messages.ts';
import { h, setText } from '../dom.ts';
import { VARIANT_COLOURS } from '../charts/training.ts';
import { readNumber, TRAIN_KEYS } from '../training/config.ts';

type NumKey = 'trvocab' | 'trlen' | 'trlayers' | 'trdm' | 'trheads' | 'trmlp' | 'trinit' | 'trlr' | 'trwarm' | 'trclip' | 'trcap' | 'trsteps' | 'trseed' | 'trthr';

/** A number input bound to a training key: a typed-in value out of range is refused beside it. */
function numberInput(store: Store, key: NumKey, label: string, t: T, extra?: HTMLElement): Control {
  const spec = SCHEMA[key];
  const input = h('input', { type: 'number', min: spec.min, max: spec.max, step: spec.type === 'num' ? 'any' : 1, class: 'seed', inputMode: 'decimal' }) as HTMLInputElement;
  const id = `c-${key}-${Math.random().toString(36).slice(2, 8)}`;
  input.id = id;
  const err = h('span', { class: 'err', 'data-err-for': key, role: 'alert' });
  input.addEventListener('change', () => {
    const r = readNumber(key, input.value);
    if (!r.ok) { setText(err, t(r.msg, r.vars)); input.setAttribute('aria-invalid', 'true'); return; }
    input.removeAttribute('aria-invalid');
    setText(err, '');
    store.set({ [key]: r.value, exp: 'training' } as Partial<State>, key);
  });
  const el = h('div', { class: 'control', 'data-key': key }, h('label', { for: id, text: label }), h('div', { class: 'control-row' }, input, extra ?? null), err);
  return {
    el,
    sync(s) { const v = String(s[key]); if (document.activeElement !== input && input.value !== v) { input.value = v; input.removeAttribute('aria-invalid'); } },
  };
}

export interface TrainingControls {
  /** every setting, synced with the state */
  controls: Control[];
  /** the preset buttons */
  presets: HTMLElement;
  /** the disclosure around the settings */
  advanced: HTMLDetailsElement;
  /** the head dimension d_k = d_model / heads, beside the heads */
  dkOut: HTMLElement;
  /** A refusal beside a setting shows: the disclosure opens so the reader sees it. */
  revealErrors(): void;
}

export function trainingControls(store: Store, t: T): TrainingControls {
  const dkOut = h('output', { class: 'value', 'data-dk': '' });
  const controls: Control[] = [
    select(store, 'training', 'trtask', t('train.task'), (['copy', 'reverse', 'sort', 'assoc_recall'] as const).map((v) => ({ value: v, label: t(`train.task.${v}`) }))),
    numberInput(store, 'trvocab', t('train.vocab'), t),
    numberInput(store, 'trlen', t('train.seqLen'), t),
    numberInput(store, 'trlayers', t('train.layers'), t),
    numberInput(store, 'trdm', t('train.dModel'), t),
    numberInput(store, 'trheads', t('train.heads'), t, dkOut),
    numberInput(store, 'trmlp', t('train.mlp'), t),
    select(store, 'training', 'trnorm', t('train.norm'), (['pre', 'post'] as const).map((v) => ({ value: v, label: t(`train.norm.${v}`) }))),
    numberInput(store, 'trinit', t('train.init'), t),
    numberInput(store, 'trlr', t('train.lr'), t),
    numberInput(store, 'trwarm', t('train.warmup'), t),
    numberInput(store, 'trclip', t('train.clip'), t),
    numberInput(store, 'trsteps', t('train.steps'), t),
    numberInput(store, 'trseed', t('common.seed'), t),
    select(store, 'training', 'trsm', t('train.softmax'), (['safe', 'naive'] as const).map((v) => ({ value: v, label: t(`train.softmax.${v}`) }))),
    numberInput(store, 'trcap', t('train.softcap'), t),
    numberInput(store, 'trthr', t('train.thr'), t),
  ];
  // the variants: several at once
  const boxes = new Map<TrainVariant, HTMLInputElement>();
  const varErr = h('span', { class: 'err', 'data-err-for': 'trvar', role: 'alert' });
  const varEl = h('fieldset', { class: 'control train-variants', 'data-key': 'trvar' },
    h('legend', { text: t('train.variants') }),
    h('div', { class: 'control-row' }, ...TRAIN_VARIANTS.map((v) => {
      const cb = h('input', { type: 'checkbox', value: v, 'data-variant': v }) as HTMLInputElement;
      boxes.set(v, cb);
      cb.addEventListener('change', () => {
        const next = TRAIN_VARIANTS.filter((x) => boxes.get(x)!.checked);
        if (next.length === 0) { cb.checked = true; setText(varErr, t('train.err.noVariant')); return; }
        setText(varErr, '');
        store.set({ trvar: next, exp: 'training' }, 'trvar');
      });
      return h('label', { class: 'check', style: `--c:${VARIANT_COLOURS[v]}` }, cb, h('span', { text: t(`train.v.${v}`) }));
    })), varErr);
  controls.push({ el: varEl, sync(st) { for (const [v, cb] of boxes) cb.checked = st.trvar.includes(v); } });
  // the presets in front; every setting behind a disclosure (opened by a refusal inside it)
  const advanced = h('details', { class: 'train-advanced', 'data-train-advanced': '' },
    h('summary', { text: t('train.advanced') }), h('div', { class: 'controls-grid' }, ...controls.map((c) => c.el))) as HTMLDetailsElement;
  const presets = h('div', { class: 'presets', 'data-key': 'train-presets' },
    h('span', { class: 'presets-label', text: t('train.presets') }),
    h('button', { type: 'button', class: 'mini', 'data-preset': 'c10-naive', text: t('train.preset.naive'),
      onclick: () => store.set({ trvar: ['none', 'inv_sqrt_dk'], trsm: 'naive', trheads: 1, trdm: 64, exp: 'training' }, 'trsm') }),
    h('button', { type: 'button', class: 'mini', 'data-preset': 'c10-safe', text: t('train.preset.safe'),
      onclick: () => store.set({ trvar: ['none', 'inv_sqrt_dk'], trsm: 'safe', trheads: 1, trdm: 64, exp: 'training' }, 'trsm') }),
    h('button', { type: 'button', class: 'mini', 'data-preset': 'default', text: t('train.preset.default'),
      onclick: () => store.set(Object.fromEntries(TRAIN_KEYS.map((k) => [k, Array.isArray(SCHEMA[k].default) ? [...SCHEMA[k].default as readonly string[]] : SCHEMA[k].default])) as Partial<State>, 'trtask') }));
  const revealErrors = () => { if ([...advanced.querySelectorAll('[data-err-for]')].some((e) => e.textContent !== '')) advanced.open = true; };
  return { controls, presets, advanced, dkOut, revealErrors };
}
