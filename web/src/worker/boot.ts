// The page's half of starting the core: compile the WebAssembly.Module once, streaming, while the
// page loads (index.html preloads the SIMD128 build), and hand it to each worker of the pool,
// which only instantiates it. wasm-feature-detect decides the build: the baseline .wasm is fetched
// only where the engine does not validate SIMD128.
import { simd } from 'wasm-feature-detect';
import type { WorkerLike } from './protocol.ts';
import { loadCore } from '../../../wasm/js/core.js';
import type { Core } from '../../../wasm/js/core.js';
import { fetchCore } from './fetch-core.ts';

export interface CoreInit { module: WebAssembly.Module; build: 'simd128' | 'baseline' }

const SIMD_WASM = new URL('../../../wasm/dist/sqrtdk-simd.wasm', import.meta.url);
const BASE_WASM = new URL('../../../wasm/dist/sqrtdk-base.wasm', import.meta.url);

/** Compiles the core's module for this engine; null when that fails (each worker then fetches the core itself). */
export async function compileCore(): Promise<CoreInit | null> {
  try {
    const build = (await simd()) ? 'simd128' : 'baseline';
    const url = build === 'simd128' ? SIMD_WASM : BASE_WASM;
    const res = fetch(url, { credentials: 'same-origin' });
    let module: WebAssembly.Module;
    try {
      module = await WebAssembly.compileStreaming(res);
    } catch {
      // a server without the application/wasm type: compile the bytes
      const r = await fetch(url, { credentials: 'same-origin' });
      if (!r.ok) return null;
      module = await WebAssembly.compile(await r.arrayBuffer());
    }
    return { module, build };
  } catch {
    return null;
  }
}

/** A core worker, sent the compiled module (or null) as its first message. */
export function coreWorker(make: () => Worker, init: Promise<CoreInit | null>): WorkerLike {
  const w = make();
  void init.then((i) => w.postMessage({ init: i }), () => w.postMessage({ init: null }));
  return w as unknown as WorkerLike;
}

/**
 * The page's own instance of the core, for its cost estimates only (requests/cost.ts: core.cost
 * computes nothing): the same compiled module the workers get, instantiated once more here, or the
 * fetched bytes when the page could not compile it.
 */
export async function pageCore(init: Promise<CoreInit | null>): Promise<Core> {
  const i = await init.catch(() => null);
  return i ? loadCore({ build: i.build, kernel: 'auto', wasmModule: i.module }) : (await fetchCore()).core;
}
