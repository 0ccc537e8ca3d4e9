// The page's single state holder. Controls call set(patch, key); panels subscribe and receive the
// set of keys that changed. Only url.ts turns the state into a URL.
import type { State, StateKey } from './state.ts';
import { withPatch, formatValue, STATE_KEYS } from './state.ts';

export type Listener = (state: State, changed: Set<StateKey>, source: StateKey | undefined) => void;

export class Store {
  private listeners: Listener[] = [];
  constructor(private current: State) {}
  get state(): State { return this.current; }

  subscribe(fn: Listener): () => void {
    this.listeners.push(fn);
    return () => { this.listeners = this.listeners.filter((l) => l !== fn); };
  }

  /** Applies a patch from a control (source = the key of the control that moved). */
  set(patch: Partial<State>, source?: StateKey): void {
    this.replace(withPatch(this.current, patch), source);
  }

  /** Replaces the whole state (a hash change) and notifies with the keys that differ. */
  replace(next: State, source?: StateKey): void {
    const changed = new Set<StateKey>();
    for (const k of STATE_KEYS) if (formatValue(k, this.current[k]) !== formatValue(k, next[k])) changed.add(k);
    this.current = next;
    if (changed.size === 0) return;
    for (const l of [...this.listeners]) l(next, changed, source);
  }
}
