// resvg (WebAssembly) initialised once per build process: the PWA icons (pwa-config.ts) and the
// share pages' link cards (share-pages.ts) both render with it, and initWasm may run only once.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initWasm } from '@resvg/resvg-wasm';

const require = createRequire(import.meta.url);
let ready: Promise<void> | null = null;

/** Resolves when resvg's WebAssembly module is initialised (the first call starts it). */
export function resvgReady(): Promise<void> {
  ready ??= initWasm(readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));
  return ready;
}
