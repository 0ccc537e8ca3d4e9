// Controls bound to state keys. Every control carries data-key (embed mode and tests query it)
// and an error slot, data-err-for, where a refused request is explained beside the control.
import { h, setText } from './dom.ts';
import { translator } from './i18n/catalogue.ts';
import type { Store } from './state/store.ts';
import type { State, StateKey, Panel } from './state/state.ts';
import { SCHEMA } from './state/schema.js';
import { ln } from './portable-math.ts';

export interface Control {
  el: HTMLElement;
  sync(state: State): void;
}

/** A control built showing the store's state (a view shows its values before it gets its state: app/mount.ts startView). */
function showing(store: Store, c: Control): Control {
  c.sync(store.state);
  return c;
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
  for (let i = 1; i < steps.length; i++) if (Math.abs(ln(steps[i]) - ln(v)) < Math.abs(ln(steps[best]) - ln(v))) best = i;  // portable ln: the same step in every engine
  return best;
}

/** A slider over fixed steps (log steps for d_k and seq_len); the value shown is the state's. */
export type IntKey = { [K in StateKey]: State[K] extends number ? K : never }[StateKey];

export function stepSlider(store: Store, panel: Panel, key: IntKey, label: string, steps: readonly number[], show: (v: number) => string = String): Control {
  const input = h('input', { type: 'range', min: 0, max: steps.length - 1, step: 1 }) as HTMLInputElement;
  const out = h('output', { class: 'value' });
  input.addEventListener('input', () => store.set({ [key]: steps[Number(input.value)], exp: panel } as Partial<State>, key));
  const el = wrap(key, label, input, out);
  return showing(store, {
    el,
    sync(s) {
      const v = s[key];
      const idx = String(nearestIndex(steps, v));
      if (input.value !== idx) input.value = idx;
      setText(out, show(v));
      input.setAttribute('aria-valuetext', show(v));
    },
  });
}

export function intSlider(store: Store, panel: Panel, key: 'heads', label: string): Control {
  const spec = SCHEMA[key];
  const input = h('input', { type: 'range', min: spec.min, max: spec.max, step: 1 }) as HTMLInputElement;
  const out = h('output', { class: 'value' });
  input.addEventListener('input', () => store.set({ [key]: Number(input.value), exp: panel } as Partial<State>, key));
  return showing(store, {
    el: wrap(key, label, input, out),
    sync(s) { const v = String(s[key]); if (input.value !== v) input.value = v; setText(out, v); input.setAttribute('aria-valuetext', v); },
  });
}

export function numSlider(store: Store, panel: Panel, key: 'gap' | 'rho' | 'mpow' | 'nsink' | 'nlambda' | 'ngate' | 'qcgain' | 'qctau' | 'lmsplit', label: string): Control {
  const spec = SCHEMA[key];
  const places = Math.max(0, String(spec.step).split('.')[1]?.length ?? 0);
  const input = h('input', { type: 'range', min: spec.min, max: spec.max, step: spec.step }) as HTMLInputElement;
  const out = h('output', { class: 'value' });
  input.addEventListener('input', () => store.set({ [key]: Number(Number(input.value).toFixed(places)), exp: panel } as Partial<State>, key));
  return showing(store, {
    el: wrap(key, label, input, out),
    sync(s) { const v = String(s[key]); if (Number(input.value) !== s[key]) input.value = v; setText(out, s[key].toFixed(places)); input.setAttribute('aria-valuetext', s[key].toFixed(places)); },
  });
}

/** A choice of a select; `lang`: the language its label is written in (the language picker's 简体中文). */
export interface SelectOption { value: string; label: string; lang?: string }

export function select<K extends StateKey>(store: Store, panel: Panel | null, key: K, label: string, options: SelectOption[], optionsFor?: (s: State) => SelectOption[]): Control {
  const option = (o: SelectOption) => h('option', { value: o.value, text: o.label, lang: o.lang });
  const sel = h('select', {}, ...options.map(option)) as HTMLSelectElement;
  let shown = options.map((o) => o.value).join(',');
  sel.addEventListener('change', () => {
    const spec = SCHEMA[key];
    const v = spec.type === 'int' ? Number(sel.value) : sel.value;
    store.set({ [key]: v, ...(panel ? { exp: panel } : {}) } as Partial<State>, key);
  });
  return showing(store, {
    el: wrap(key, label, sel),
    sync(s) {
      if (optionsFor) {  // options that depend on other keys (the divisors of heads_q)
        const opts = optionsFor(s);
        const ids = opts.map((o) => o.value).join(',');
        if (ids !== shown) { sel.replaceChildren(...opts.map(option)); shown = ids; }
      }
      const v = String(s[key]);
      // a value the schema accepts but the list does not offer (a link with hq=7) is shown, not a blank select
      if (![...sel.options].some((o) => o.value === v)) {
        sel.querySelector('option[data-extra]')?.remove();
        sel.append(h('option', { value: v, text: v, 'data-extra': '' }));
      }
      if (sel.value !== v) sel.value = v;
    },
  });
}

/** A seed: a number input (validated against the schema) and a re-roll button. */
export function seedInput(store: Store, panel: Panel, key: 'seed' | 'aseed' | 'pseed' | 'iseed', label: string, rerollLabel: string): Control {
  const spec = SCHEMA[key];
  const input = h('input', { type: 'number', min: spec.min, max: spec.max, step: 1, inputMode: 'numeric', class: 'seed' }) as HTMLInputElement;
  input.addEventListener('change', () => applyInteger(store, panel, key, input, spec.min, spec.max));
  const btn = h('button', { type: 'button', class: 'mini', 'data-reroll': key, text: rerollLabel, onclick: () => {
    const r = new Uint32Array(1);
    crypto.getRandomValues(r);
    store.set({ [key]: r[0], exp: panel } as Partial<State>, key);
  } });
  return showing(store, {
    el: wrap(key, label, input, undefined, btn),
    sync(s) { const v = String(s[key]); if (input.value !== v && document.activeElement !== input) input.value = v; },
  });
}

/**
 * Applies an integer typed into a number input of `key`, or says beside the control why it was
 * not applied (the state, the URL and the charts keep the previous value).
 */
export function applyInteger(store: Store, panel: Panel, key: StateKey, input: HTMLInputElement, min: number, max: number): void {
  const raw = input.value.trim();
  const v = Number(raw);
  const slot = input.closest('.control')?.querySelector<HTMLElement>('[data-err-for]') ?? null;
  if (raw !== '' && Number.isInteger(v) && v >= min && v <= max) {
    if (slot) setText(slot, '');
    store.set({ [key]: v, exp: panel } as Partial<State>, key);
    return;
  }
  const t = translator(store.state.lang);
  if (slot) setText(slot, t('common.badInteger', { value: raw === '' ? '(empty)' : raw.slice(0, 40), min, max }));
}

/**
 * Shows a message in the error slot of a control (or the panel's). `owner` names the request
 * that failed (e.g. 'sat:point'): only a later success of the same request clears it, so a
 * refusal stays beside its control while the panel's other requests succeed. A request has one
 * refusal at a time: its message in another slot (a refusal of an earlier state) is cleared.
 */
export function showError(root: HTMLElement, key: string, message: string, owner = ''): void {
  const slot = root.querySelector<HTMLElement>(`[data-err-for="${CSS.escape(key)}"]`)
    ?? root.querySelector<HTMLElement>('[data-err-for="panel"]');
  if (!slot) return;
  if (owner !== '') for (const el of root.querySelectorAll<HTMLElement>('[data-err-for]')) if (el !== slot && el.dataset.errOwner === owner) { setText(el, ''); delete el.dataset.errOwner; }
  setText(slot, message);
  slot.dataset.errOwner = owner;
}
/** Clears the error slots of a panel: all of them, or those set by one request owner. */
export function clearErrors(root: HTMLElement, owner?: string): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-err-for]')) {
    if (owner !== undefined && (el.dataset.errOwner ?? '') !== owner) continue;
    setText(el, '');
    delete el.dataset.errOwner;
  }
}
/** Whether a panel shows the control of a state key (present, and neither it nor a parent hidden). */
export function controlVisible(root: HTMLElement, key: string): boolean {
  const slot = root.querySelector<HTMLElement>(`[data-err-for="${CSS.escape(key)}"]`);
  return slot !== null && slot.closest('[hidden]') === null;
}

/** The positions of the sink slider: off (−∞), then S = −8 … 8 in steps of 0.5. */
export const SINK_STEPS: readonly number[] = [-Infinity, ...Array.from({ length: 33 }, (_, i) => -8 + i * 0.5)];

/** The attention-sink slider (the `sink` key, shared by the saturation and long-context panels): off, then S = −8 … 8. */
export function sinkSlider(store: Store, panel: Panel, label: string, offText: string): Control {
  const input = h('input', { type: 'range', min: 0, max: SINK_STEPS.length - 1, step: 1 }) as HTMLInputElement;
  const out = h('output', { class: 'value' });
  input.addEventListener('input', () => store.set({ sink: [SINK_STEPS[Number(input.value)]], exp: panel }, 'sink'));
  const show = (S: number) => (S === -Infinity ? offText : `S = ${S}`);
  return showing(store, {
    el: wrap('sink', label, input, out),
    sync(st) {
      const S = st.sink[0] ?? -Infinity;
      let best = 0;
      SINK_STEPS.forEach((v, i) => { if (v === S || Math.abs(v - S) < Math.abs(SINK_STEPS[best] - S)) best = i; });
      if (input.value !== String(best)) input.value = String(best);
      setText(out, show(S));
      input.setAttribute('aria-valuetext', show(S));
    },
  });
}
