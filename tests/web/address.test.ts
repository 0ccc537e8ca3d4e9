// The address bar (issue 31): it carries Copy link's short hash (the view's keys that differ from
// their defaults; lang only when the reader chose it or the page would open in another language),
// parsing it gives the view the state the full hash gives, and each history entry keeps the full
// state so Back and Forward restore every view's keys exactly.
import { describe, it, expect, beforeEach } from 'vitest';
import { defaultState, parseHash, toHash, shareHash } from '../../web/src/state/state.ts';
import type { State } from '../../web/src/state/state.ts';
import { addressHash, hashToRead, bindUrl } from '../../web/src/state/url.ts';
import { Store } from '../../web/src/state/store.ts';
import { CORE_VERSION } from '../../wasm/js/version.js';

/** A browser's history and location, enough for url.ts: entries of (state, hash), an index. */
function fakeBrowser() {
  const entries: { state: unknown; hash: string }[] = [{ state: null, hash: '' }];
  const b = {
    i: 0,
    entries,
    history: {
      get state() { return entries[b.i].state; },
      pushState(state: unknown, _t: string, hash: string) { entries.splice(b.i + 1); entries.push({ state: structuredClone(state), hash }); b.i++; },
      replaceState(state: unknown, _t: string, hash: string) { entries[b.i] = { state: structuredClone(state), hash }; },
    },
    location: { get hash() { return entries[b.i].hash; } },
    back() { b.i--; },
  };
  return b;
}

describe('the address bar carries the short form', () => {
  const sat: State = { ...defaultState('en'), exp: 'saturation', dk: 256, seed: 9, scale: 'none', aseed: 4, iseed: 3 };

  it('is Copy link\'s hash, lang only when chosen or not the page\'s language', () => {
    expect(addressHash(sat, false, 'en')).toBe(shareHash(sat));
    expect(addressHash(sat, false, 'en')).toBe(`#v=1&exp=saturation&dk=256&seed=9&scale=none&cv=${CORE_VERSION}`);
    expect(addressHash(sat, true, 'en')).toBe(shareHash(sat, true));
    // a link's lang=zh-CN read by an English browser stays, so a reload opens in Chinese
    const zh = { ...sat, lang: 'zh-CN' as const };
    expect(addressHash(zh, false, 'en')).toContain('lang=zh-CN');
    expect(addressHash(zh, false, 'zh-CN')).not.toContain('lang=');
    // an embed keeps its full hash (embed=1, its parts)
    expect(addressHash({ ...sat, embed: true }, false, 'en')).toBe(toHash({ ...sat, embed: true }));
  });

  it('reads back as the same state for the view as the full hash', () => {
    for (const s of [sat, { ...defaultState('zh-CN'), exp: 'interview' as const, iseed: 3 }, { ...defaultState('en'), exp: 'training' as const, trsteps: 40 }]) {
      const short = parseHash(addressHash(s, false, s.lang), s.lang);
      expect(short.issues).toEqual([]);
      expect(shareHash(short.state)).toBe(shareHash(s));
    }
  });

  it('the earlier 833-character address of the saturation view is under 90 characters', () => {
    expect(toHash(sat).length).toBeGreaterThan(700);
    expect(addressHash(sat, false, 'en').length).toBeLessThan(90);
  });

  it('reads an entry\'s full state only for the address that entry was written with', () => {
    const e = { sqrtdk: 1, address: '#v=1&exp=saturation', full: '#v=1&exp=saturation&dk=64' };
    expect(hashToRead('#v=1&exp=saturation', e)).toBe(e.full);
    expect(hashToRead('#v=1&exp=variance', e)).toBe('#v=1&exp=variance');
    expect(hashToRead('#v=1&exp=saturation', null)).toBe('#v=1&exp=saturation');
    expect(hashToRead('#x', { address: '#x', full: 5 })).toBe('#x');
  });
});

describe('bindUrl', () => {
  let b: ReturnType<typeof fakeBrowser>;
  beforeEach(() => {
    b = fakeBrowser();
    (globalThis as Record<string, unknown>).history = b.history;
    (globalThis as Record<string, unknown>).location = b.location;
  });

  it('writes the short form, and Back restores the full state of the view left', () => {
    const start: State = { ...defaultState('en'), exp: 'saturation', dk: 256, seed: 9, aseed: 4 };
    const store = new Store(start);
    const url = bindUrl(store, 'en', 0);
    expect(b.location.hash).toBe(shareHash(start));
    expect(b.location.hash).not.toContain('aseed');
    store.set({ exp: 'article' }, 'exp');  // a tab: a new entry
    expect(b.entries.length).toBe(2);
    expect(b.location.hash).toBe(shareHash({ ...start, exp: 'article' }));
    expect(b.location.hash).toContain('aseed=4');
    b.back();
    // the browser shows the short address; the page reads the entry's full state
    expect(b.location.hash).toBe(shareHash(start));
    expect(url.current()).toBe(toHash(start));
    expect(parseHash(url.current(), 'en').state).toEqual(start);
  });

  it('a language chosen in the menu is carried by the address and the tabs', () => {
    const store = new Store({ ...defaultState('en'), exp: 'gqa' });
    const url = bindUrl(store, 'en', 0);
    expect(url.langChosen()).toBe(false);
    store.set({ lang: 'en' }, 'lang');  // no change of value: nothing is chosen yet
    expect(url.langChosen()).toBe(false);
    store.set({ lang: 'zh-CN' }, 'lang');
    url.flush();
    expect(url.langChosen()).toBe(true);
    expect(url.addressOf(store.state)).toMatch(/^#v=1&exp=gqa&lang=zh-CN&/);
    store.set({ lang: 'en' }, 'lang');
    expect(url.addressOf(store.state)).toMatch(/^#v=1&exp=gqa&lang=en&/);
  });
});
