// The module Web Worker of the training lab: its own core instance, so a long training run never
// delays the other panels' requests, and Cancel may terminate it without touching them.
import { fetchCore } from '../worker/fetch-core.ts';
import { TrainingHost } from './host.ts';
import { transferables } from '../worker/protocol.ts';

async function boot(): Promise<TrainingHost> {
  return new TrainingHost((await fetchCore()).core);
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
