// The skeleton of a worker with a core of its own (the device panel's and the training lab's): the core fetched once, each message handed to the worker's host, a core that could not load answered as a CORE_LOAD_ERROR and fetched again for the next message, and the replies' typed arrays transferred.
import { fetchCore } from './fetch-core.ts';
import type { Core } from '../../../wasm/js/core.js';
import { transferables, CORE_LOAD_ERROR } from './protocol.ts';

/** What such a worker does with one message: a reply for the page, never a throw. */
export interface OwnCoreHost {
  handle(msg: unknown): { ok: boolean; result?: unknown };
}

/**
 * Runs this worker: loads its core (the SIMD128 build where the engine validates it, else the
 * baseline one), makes its host with it, and answers each message with the host's reply; while
 * the core is loading, messages wait for it. If it cannot load, each waiting message is answered
 * with why (error name CORE_LOAD_ERROR: not a refusal of its parameters), and the next message
 * fetches it again, past the HTTP cache — a core back on the server is taken without a reload.
 */
export function serveOwnCore(makeHost: (core: Core, simd: boolean) => OwnCoreHost): void {
  let host: Promise<OwnCoreHost> | null = null;
  let failedOnce = false;
  const load = (): Promise<OwnCoreHost> => {
    if (host) return host;
    const p = fetchCore(failedOnce).then(({ core, simd }) => makeHost(core, simd));
    host = p;
    p.catch(() => { failedOnce = true; if (host === p) host = null; });
    return p;
  };
  void load().catch(() => {});
  self.onmessage = async (ev: MessageEvent) => {
    let h: OwnCoreHost;
    try {
      h = await load();
    } catch (e) {
      const id = (ev.data as { id?: number })?.id ?? -1;
      self.postMessage({ id, ok: false, error: { name: CORE_LOAD_ERROR, message: e instanceof Error ? e.message : String(e) } });
      return;
    }
    const reply = h.handle(ev.data);
    (self as unknown as Worker).postMessage(reply, reply.ok ? transferables(reply.result) : []);
  };
}
