// The module Web Worker that owns one instance of the wasm core (one worker of the page's pool).
// The page compiles the core's WebAssembly.Module once (boot.ts) and posts it here first as
// { init: { module, build } }; the worker instantiates it. Without one ({ init: null }: the page
// could not compile it) the worker fetches the .wasm itself (Emscripten 3.1.6's loader does not
// recognise a module worker, which has no importScripts) and hands the bytes to loadCore. Then it
// answers each request with run() (handler.ts), in the order they came. It tells the page once
// whether its core loaded — { ready: true }, or { ready: false, error } — so that a core that
// cannot load (a failed fetch, bytes that are not this core) is a start failure the pool retries
// with a backoff (pool.ts), never a crash restarted at once. A worker that started with the core's
// first part (the variance view) is sent the full core later as { full: CoreInit | null } (null:
// fetch it here) and answers from then on with it (parts.ts); requests are answered in order.
import { coreOf, TwoPartCore } from './parts.ts';
import type { Core } from '../../../wasm/js/core.js';
import { run } from './handler.ts';
import { CORE_LOAD_ERROR } from './protocol.ts';
import { transferables } from './protocol.ts';
import type { CoreInit } from './parts.ts';

// A worker that cannot go on is a crashed worker: rethrowing outside any promise makes the error
// reach the page's worker.onerror, which restarts the worker with a visible notice and re-sends
// the request once (protocol.ts). Used when replying fails.
function crash(e: unknown): void {
  setTimeout(() => { throw e instanceof Error ? e : new Error(String(e)); });
}
// The renderer's first Intl.NumberFormat loads the locale data every thread of the process then
// shares (ICU's and V8's caches): 20–60 ms of a main-thread task of a cold load, before the page's
// first chart (Chart.js formats its ticks with one). Made here, while this worker waits for its
// module, the page's own first one takes under a millisecond.
setTimeout(() => new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(0.5), 0);

/** An init whose module and build are what the page sends, else null (fetch the core here). */
function validInit(init: CoreInit | null | undefined): CoreInit | null {
  return init && 'module' in init && init.module instanceof WebAssembly.Module && (init.build === 'simd128' || init.build === 'baseline')
    && (init.part === undefined || init.part === 'first' || init.part === 'full') ? init : null;
}

/**
 * This worker: its core (from the page's { init }, else fetched here), the full core when the
 * page sends it, and the requests answered one after another in the order they came.
 */
function serve(): void {
  let gotInit: (init: CoreInit | null) => void = () => {};
  const initMessage = new Promise<CoreInit | null>((resolve) => { gotInit = resolve; });
  const corePromise = initMessage.then(coreOf);
  let gotFull: (init: CoreInit | null) => void = () => {};
  const fullMessage = new Promise<CoreInit | null>((resolve) => { gotFull = resolve; });
  const parts = new TwoPartCore(corePromise, () => fullMessage);
  /** The requests, answered one after another in the order they came. */
  let queue: Promise<void> = Promise.resolve();

  corePromise.then(() => self.postMessage({ ready: true }), (e: unknown) => {
    const err = e instanceof Error ? e : new Error(String(e));
    self.postMessage({ ready: false, error: { name: err.name, message: err.message } });
  });

  self.onmessage = async (ev: MessageEvent) => {
    const data = ev.data as { init?: CoreInit | null } | null;
    if (data !== null && typeof data === 'object' && 'init' in data) {
      const init = data.init;
      if (init && 'fatal' in init) { gotInit(typeof init.fatal === 'string' ? init : null); return; }
      gotInit(validInit(init));
      return;
    }
    if (data !== null && typeof data === 'object' && 'full' in data) {
      // the page's full core: loaded now, so the request that needs it does not wait for it
      const full = (data as { full: CoreInit | null }).full;
      gotFull(full && 'fatal' in full ? (typeof full.fatal === 'string' ? full : null) : validInit(full));
      parts.upgrade().catch(() => {});  // a failure is the reply of the request that needs it
      return;
    }
    const message = ev.data as unknown;
    queue = queue.then(() => answer(message));
  };

  async function answer(message: unknown): Promise<void> {
    try {
      await corePromise;
    } catch {
      return;  // the page was told ({ ready: false }) and starts another worker
    }
    const kind = (message as { kind?: unknown } | null)?.kind;
    let core: Core;
    try {
      core = await parts.for(typeof kind === 'string' ? kind : '');
    } catch (e) {
      // the full core did not load here: this request's answer says why (the next one tries again)
      const err = e instanceof Error ? e : new Error(String(e));
      const id = (message as { id?: unknown } | null)?.id;
      self.postMessage({ id: typeof id === 'number' ? id : -1, ok: false, error: { name: CORE_LOAD_ERROR, message: `the full core did not load: ${err.message}` } });
      return;
    }
    try {
      const reply = run(core, message);
      (self as unknown as Worker).postMessage(reply, reply.ok ? transferables(reply.result) : []);
    } catch (e) {
      crash(e);
    }
  }
}

serve();
