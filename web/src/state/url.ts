// The one module that writes the URL. A change of panel (exp) pushes a history entry, so Back and
// Forward step through the panels a reader visited; any other change (a control) replaces the
// current entry after a short debounce, so a drag leaves one entry, not hundreds. A hash that the
// browser brings (Back, Forward, a typed URL, a followed link) is read back into the store.
import type { Store } from './store.ts';
import type { State } from './state.ts';
import { toHash } from './state.ts';

/** What a change of state does to the history: push a new entry, or replace the current one. */
export function historyAction(prev: State, next: State): 'push' | 'replace' {
  return prev.exp !== next.exp && !next.embed && !prev.embed ? 'push' : 'replace';
}

export interface UrlBinding {
  /** Writes a pending replace now (before copying a link). */
  flush(): void;
  /** The hash this module wrote last (a hashchange to it is our own). */
  lastWritten(): string;
  /** Reads a hash the browser brought (Back, Forward, a link) into the store without pushing an entry. */
  adopt(apply: () => void): void;
}

export function bindUrl(store: Store, delayMs = 150): UrlBinding {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = '';
  let adopting = false;
  let prev = store.state;
  const replace = () => {
    timer = undefined;
    const hash = toHash(store.state);
    if (hash !== location.hash) history.replaceState(history.state, '', hash);
    last = hash;
  };
  store.subscribe((state) => {
    const before = prev;
    prev = state;
    if (adopting) return;
    if (historyAction(before, state) === 'push') {
      // the entry being left keeps the state it had when the reader left it
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      const leaving = toHash(before);
      if (leaving !== location.hash) history.replaceState(history.state, '', leaving);
      const hash = toHash(state);
      history.pushState(null, '', hash);
      last = hash;
      return;
    }
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(replace, delayMs);
  });
  replace();
  return {
    flush() { if (timer !== undefined) { clearTimeout(timer); replace(); } },
    lastWritten: () => last,
    adopt(apply) {
      if (timer !== undefined) { clearTimeout(timer); timer = undefined; }
      adopting = true;
      try { apply(); } finally { adopting = false; }
      replace();  // the canonical form of what was read, in place (no new entry)
    },
  };
}
