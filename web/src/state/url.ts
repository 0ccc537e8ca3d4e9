// The one module that writes the URL: a debounced history.replaceState of the canonical hash.
import type { Store } from './store.ts';
import { toHash } from './state.ts';

export function bindUrl(store: Store, delayMs = 150): { flush(): void; lastWritten(): string } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = '';
  const write = () => {
    timer = undefined;
    const hash = toHash(store.state);
    if (hash !== location.hash) history.replaceState(history.state, '', hash);
    last = hash;
  };
  store.subscribe(() => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(write, delayMs);
  });
  write();
  return {
    flush() { if (timer !== undefined) { clearTimeout(timer); write(); } },
    lastWritten: () => last,
  };
}
