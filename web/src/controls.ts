// Controls bound to state keys. Every control carries data-key (embed mode and tests query it)
// and an error slot, data-err-for, where a refused request is explained beside the control.
import { h, setText } from './dom.ts';
import type { Store } from './state/store.ts';
import type { State, StateKey, Panel } from './state/state.ts';
import { SCHEMA } from './state/schema.js';

export interface Control {
  el: HTMLElement;
  sync(state: State): void;
}

function wrap(key: StateKey, label: string, input: HTMLElement, out?: HTMLElement, extra?: HTMLElement): HTMLElement {
  const id = `c-${key}-${Math.random().toString(36).slice(2, 8)}`;
  input.id = id;
  return h('div', { class: 'control', 'data-key': key },
    h('label', { for: id, text: label }),
    h('div', { class: 'control-row' }, input, out ?? null, extra ?? null),
    h('span', { class: 'err', 'data-err-for': key, role: 'alert' }));
}

function nearestIndex(steps: readonly number[], v: number): number {
  let best = 0;
  for (let i = 1; i < steps.length; i++) if (Math.abs(Math.log(steps[i]) - Math.log(v)) < Math.abs(Math.log(steps[best]) - Math.log(v))) best = i;
  return best;
}

/** A slider over fixed steps (log steps for d_k and seq_len); the value shown is the state's. */
export function stepSlider(store: Store, panel: Panel, key: 'dk' | 'seqLen', label: string, steps: readonly number[]): Control {
  const input = h('input', { type: 'range', min: 0, max: steps.length - 1, step: 1 }) as HTMLInputElement;
  const out = h('output', { class: 'value' });
  input.addEventListener('input', () => store.set({ [key]: steps[Number(input.value)], exp: panel } as Partial<State>, key));
  const el = wrap(key, label, input, out);
  return {
    el,
    sync(s) {
      const v = s[key];
      const idx = String(nearestIndex(steps, v));
      if (input.value !== idx) input.value = idx;
      setText(out, String(v));
    },
  };
}

export function intSlider(store: Store, panel: Panel, key: 'heads', label: string): Control {
  const spec = SCHEMA[key];
  const input = h('input', { type: 'range', min: spec.min, max: spec.max, step: 1 }) as HTMLInputElement;
  const out = h('output', { class: 'value' });
  input.addEventListener('input', () => store.set({ [key]: Number(input.value), exp: panel } as Partial<State>, key));
  return {
    el: wrap(key, label, input, out),
    sync(s) { const v = String(s[key]); if (input.value !== v) input.value = v; setText(out, v); },
  };
}

export function numSlider(store: Store, panel: Panel, key: 'gap', label: string): Control {
  const spec = SCHEMA[key];
  const input = h('input', { type: 'range', min: spec.min, max: spec.max, step: spec.step }) as HTMLInputElement;
  const out = h('output', { class: 'value' });
  input.addEventListener('input', () => store.set({ [key]: Number(Number(input.value).toFixed(1)), exp: panel } as Partial<State>, key));
  return {
    el: wrap(key, label, input, out),
    sync(s) { const v = String(s[key]); if (Number(input.value) !== s[key]) input.value = v; setText(out, s[key].toFixed(1)); },
  };
}

export function select<K extends StateKey>(store: Store, panel: Panel | null, key: K, label: string, options: { value: string; label: string }[]): Control {
  const sel = h('select', {}, ...options.map((o) => h('option', { value: o.value, text: o.label }))) as HTMLSelectElement;
  sel.addEventListener('change', () => {
    const spec = SCHEMA[key];
    const v = spec.type === 'int' ? Number(sel.value) : sel.value;
    store.set({ [key]: v, ...(panel ? { exp: panel } : {}) } as Partial<State>, key);
  });
  return {
    el: wrap(key, label, sel),
    sync(s) { const v = String(s[key]); if (sel.value !== v) sel.value = v; },
  };
}

/** A seed: a number input (validated against the schema) and a re-roll button. */
export function seedInput(store: Store, panel: Panel, key: 'seed' | 'aseed', label: string, rerollLabel: string): Control {
  const spec = SCHEMA[key];
  const input = h('input', { type: 'number', min: spec.min, max: spec.max, step: 1, inputMode: 'numeric', class: 'seed' }) as HTMLInputElement;
  const apply = () => {
    const v = Number(input.value);
    if (input.value !== '' && Number.isInteger(v) && v >= spec.min && v <= spec.max) store.set({ [key]: v, exp: panel } as Partial<State>, key);
  };
  input.addEventListener('change', apply);
  const btn = h('button', { type: 'button', class: 'mini', 'data-reroll': key, text: rerollLabel, onclick: () => {
    const r = new Uint32Array(1);
    crypto.getRandomValues(r);
    store.set({ [key]: r[0], exp: panel } as Partial<State>, key);
  } });
  return {
    el: wrap(key, label, input, undefined, btn),
    sync(s) { const v = String(s[key]); if (input.value !== v && document.activeElement !== input) input.value = v; },
  };
}

/** Shows (or clears) an error beside the control of `key` inside `root` (or anywhere on the page). */
export function showError(root: HTMLElement, key: string, message: string): void {
  const slot = root.querySelector<HTMLElement>(`[data-err-for="${CSS.escape(key)}"]`)
    ?? document.querySelector<HTMLElement>(`[data-err-for="${CSS.escape(key)}"]`)
    ?? root.querySelector<HTMLElement>('[data-err-for="panel"]');
  if (slot) setText(slot, message);
}
export function clearErrors(root: HTMLElement): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-err-for]')) setText(el, '');
}
