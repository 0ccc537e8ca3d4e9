// A worker's own way to the core when it is not handed a compiled module: fetch the .wasm of the
// build this engine validates (SIMD128, else baseline) and hand the bytes to loadCore (Emscripten
// 3.1.6's loader does not recognise a module worker, which has no importScripts). Used by the
// pool's workers as a fallback, and by the training and device workers, which keep their own core
// instance so a long run never delays the panels' requests.
import { loadCore, simdSupported } from '../../../wasm/js/core.js';
import type { Core } from '../../../wasm/js/core.js';

const SIMD_WASM = new URL('../../../wasm/dist/sqrtdk-simd.wasm', import.meta.url);
const BASE_WASM = new URL('../../../wasm/dist/sqrtdk-base.wasm', import.meta.url);

/**
 * Loads the core in a worker; rejects with an Error naming the HTTP status when the fetch fails.
 * `fresh`: past the HTTP cache (a try after a failure, which a cached answer would repeat).
 */
export async function fetchCore(fresh = false): Promise<{ core: Core; simd: boolean }> {
  const simd = await simdSupported();
  const res = await fetch(simd ? SIMD_WASM : BASE_WASM, fresh ? { cache: 'reload' } : {});
  if (!res.ok) throw new Error(`could not load the core (${res.status})`);
  const wasmBinary = await res.arrayBuffer();
  return { core: await loadCore({ build: simd ? 'simd128' : 'baseline', kernel: 'auto', wasmBinary }), simd };
}
