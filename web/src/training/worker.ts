// The module Web Worker of the training lab: its own core instance, so a long training run never
// delays the other panels' requests, and Cancel may terminate it without touching them.
import { loadCore, simdSupported } from '../../../wasm/js/core.js';
import { TrainingHost } from './host.ts';
import { transferables } from '../worker/protocol.ts';

const SIMD_WASM = new URL('../../../wasm/dist/sqrtdk-simd.wasm', import.meta.url);
const BASE_WASM = new URL('../../../wasm/dist/sqrtdk-base.wasm', import.meta.url);

async function boot(): Promise<TrainingHost> {
  const simd = await simdSupported();
  const res = await fetch(simd ? SIMD_WASM : BASE_WASM);
  if (!res.ok) throw new Error(`could not load the core (${res.status})`);
  const wasmBinary = await res.arrayBuffer();
  return new TrainingHost(await loadCore({ build: simd ? 'simd128' : 'baseline', kernel: 'auto', wasmBinary }));
}

const hostPromise = boot();

self.onmessage = async (ev: MessageEvent) => {
  let host: TrainingHost;
  try {
    host = await hostPromise;
  } catch (e) {
    const id = (ev.data as { id?: number })?.id ?? -1;
    self.postMessage({ id, ok: false, error: { name: 'Error', message: e instanceof Error ? e.message : String(e) } });
    return;
  }
  const reply = host.handle(ev.data);
  (self as unknown as Worker).postMessage(reply, reply.ok ? transferables(reply.result) : []);
};
