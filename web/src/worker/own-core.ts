// The skeleton of a worker with a core of its own (the device panel's and the training lab's): the core fetched once, each message handed to the worker's host, a core that could not load answered as an error, and the replies' typed arrays transferred.
import { fetchCore } from './fetch-core.ts';
import type { Core } from '../../../wasm/js/core.js';
import { transferables } from './protocol.ts';

/** What such a worker does with one message: a reply for the page, never a throw. */
export interface OwnCoreHost {
  handle(msg: unknown): { ok: boolean; result?: unknown };
}

/**
 * Runs this worker: loads its core (the SIMD128 build where the engine validates it, else the
 * baseline one), makes its host with it, and answers each message with the host's reply; while
 * the core is loading, messages wait for it, and if it cannot load each is answered with why.
 */
export function serveOwnCore(makeHost: (core: Core, simd: boolean) => OwnCoreHost): void {
  const hostPromise = fetchCore().then(({ core, simd }) => makeHost(core, simd));
  self.onmessage = async (ev: MessageEvent) => {
    let host: OwnCoreHost;
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
}
