// The module Web Worker of the device panel: its own core instance (the SIMD128 build where the
// engine validates SIMD128, else the baseline one), so a benchmark never delays the other panels'
// requests and never competes with them inside one worker.
import { loadCore, simdSupported } from '../../../wasm/js/core.js';
import { DeviceHost } from './host.ts';

const SIMD_WASM = new URL('../../../wasm/dist/sqrtdk-simd.wasm', import.meta.url);
const BASE_WASM = new URL('../../../wasm/dist/sqrtdk-base.wasm', import.meta.url);

async function boot(): Promise<DeviceHost> {
  const simd = await simdSupported();
  const res = await fetch(simd ? SIMD_WASM : BASE_WASM);
  if (!res.ok) throw new Error(`could not load the core (${res.status})`);
  const wasmBinary = await res.arrayBuffer();
  return new DeviceHost(await loadCore({ build: simd ? 'simd128' : 'baseline', kernel: 'auto', wasmBinary }), simd);
}

const hostPromise = boot();

self.onmessage = async (ev: MessageEvent) => {
  let host: DeviceHost;
  try {
    host = await hostPromise;
  } catch (e) {
    const id = (ev.data as { id?: number })?.id ?? -1;
    self.postMessage({ id, ok: false, error: { name: 'Error', message: e instanceof Error ? e.message : String(e) } });
    return;
  }
  self.postMessage(host.handle(ev.data));
};
