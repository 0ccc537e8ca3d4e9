// The module Web Worker of the device panel: its own core instance (the SIMD128 build where the
// engine validates SIMD128, else the baseline one), so a benchmark never delays the other panels'
// requests and never competes with them inside one worker.
import { fetchCore } from '../worker/fetch-core.ts';
import { DeviceHost } from './host.ts';

async function boot(): Promise<DeviceHost> {
  const { core, simd } = await fetchCore();
  return new DeviceHost(core, simd);
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
