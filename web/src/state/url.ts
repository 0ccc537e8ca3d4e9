// The one module that writes the URL. The address bar carries the short form of the state, the
// same hash Copy link gives (shareHash: the keys the view reads that differ from their defaults),
// so a link copied from the address bar or sent with the browser's own Share button is as short
// and reproduces the same numbers; each history entry keeps the full state beside it (in
// history.state), so Back and Forward restore every view's keys exactly. A change of panel (exp)
// pushes a history entry, so Back and Forward step through the panels a reader visited; any other
// change (a control) replaces the current entry after a short debounce, so a drag leaves one entry,
// not hundreds. A hash that the browser brings (Back, Forward, a typed URL, a followed link) is read
// back into the store.
import type { Store } from './store.ts';
import type { Lang, State } from './state.ts';
import { toHash, shareHash } from './state.ts';

/** What a change of state does to the history: push a new entry, or replace the current one. */
export function historyAction(prev: State, next: State): 'push' | 'replace' {
  return prev.exp !== next.exp && !next.embed && !prev.embed ? 'push' : 'replace';
}

/**
 * The hash the address bar shows for `state`: Copy link's short hash, with `lang` when the reader
 * chose a language or the state's language is not the one this page opens in without it (`pageLang`:
 * the share page's language, else the browser's) — so a reload opens the same view in the same
 * language. An embed keeps its full hash (its host wrote it; a reload of the frame shows the same).
 */
export function addressHash(state: State, langChosen: boolean, pageLang: Lang): string {
  if (state.embed) return toHash(state);
  return shareHash(state, langChosen || state.lang !== pageLang);
}

/** What a history entry holds beside its address: the full state's hash, for Back and Forward. */
interface Entry { sqrtdk: 1; address: string; full: string }

/**
 * The hash to read when the browser brings `address` with the entry's `entry` (history.state):
 * the entry's full hash when the entry is one this module wrote for that address, else the
 * address itself (a typed or followed link). Pure.
 */
export function hashToRead(address: string, entry: unknown): string {
  const e = entry as Partial<Entry> | null;
  return e && typeof e === 'object' && e.sqrtdk === 1 && e.address === address && typeof e.full === 'string' ? e.full : address;
}

export interface UrlBinding {
  /** Writes a pending replace now (before copying a link). */
  flush(): void;
  /** The hash this module wrote last (a hashchange to it is our own). */
  lastWritten(): string;
  /** The hash to read for the address the browser shows now (the entry's full state where it has one). */
  current(): string;
  /** The address bar's hash for a state (the tabs' links carry the same). */
  addressOf(state: State): string;
  /** The reader picked a language in the menu: only then do Copy link and the address carry lang. */
  langChosen(): boolean;
  /** Reads a hash the browser brought (Back, Forward, a link) into the store without pushing an entry. */
  adopt(apply: () => void): void;
}

export function bindUrl(store: Store, pageLang: Lang, delayMs = 150): UrlBinding {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = '';
  let adopting = false;
  let chosen = false;
  let prev = store.state;
  const addressOf = (s: State) => addressHash(s, chosen, pageLang);
  const entryOf = (s: State): Entry => ({ sqrtdk: 1, address: addressOf(s), full: toHash(s) });
  const write = (s: State, how: 'replace' | 'push') => {
    const e = entryOf(s);
    if (how === 'push') history.pushState(e, '', e.address);
    else if (e.address !== location.hash || hashToRead(location.hash, history.state) !== e.full) history.replaceState(e, '', e.address);
    return e.address;
  };
  const replace = () => {
    timer = undefined;
    last = write(store.state, 'replace');
  };
  store.subscribe((state, _changed, source) => {
    const before = prev;
    prev = state;
    if (source === 'lang') chosen = true;
    if (adopting) return;
    if (historyAction(before, state) === 'push') {
      // the entry being left keeps the state it had when the reader left it
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      write(before, 'replace');
      last = write(state, 'push');
      return;
    }
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(replace, delayMs);
  });
  replace();
  return {
    flush() { if (timer !== undefined) { clearTimeout(timer); replace(); } },
    lastWritten: () => last,
    current: () => hashToRead(location.hash, history.state),
    addressOf,
    langChosen: () => chosen,
    adopt(apply) {
      if (timer !== undefined) { clearTimeout(timer); timer = undefined; }
      adopting = true;
      try { apply(); } finally { adopting = false; }
      replace();  // the canonical form of what was read, in place (no new entry)
    },
  };
}
