// The core on the page's own thread, for a page where no worker can start (an opaque origin whose
// blob: worker failed, a Content Security Policy without blob:). It answers the worker protocol
// (protocol.ts) with the very handler a worker runs (handler.ts), on the same compiled module, so
// the numbers are the same; only the page is busy while it computes. The handler loads on demand.
import type { WorkerLike } from './protocol.ts';
import { CORE_LOAD_ERROR } from './protocol.ts';
import type { CoreSource } from './boot.ts';
import type { CoreInit } from './parts.ts';
import type { Core } from '../../../wasm/js/core.js';
import { coreOf, TwoPartCore } from './parts.ts';

export class InThreadCore implements WorkerLike {
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  private readonly core: Promise<Core>;
  private readonly parts: TwoPartCore;
  private readonly unsubscribe: () => void;
  private queue: Promise<void> = Promise.resolve();
  private dead = false;

  /**
   * `init`: the page's compiled module (boot.ts), why there is none (`fatal`), or null to fetch the
   * .wasm here. Like a worker, it says once whether its core loaded ({ ready }: protocol.ts), in a
   * later task, after the client has set onmessage. `source`: where a start with the core's first
   * part gets the full core (a request that needs it, or the page asked for it: boot.ts).
   */
  constructor(init: Promise<CoreInit | null>, source?: Pick<CoreSource, 'full' | 'onFull'>) {
    this.core = init.then(coreOf);
    this.parts = new TwoPartCore(this.core, () => (source ? source.full() : Promise.resolve(null)));
    this.unsubscribe = source ? source.onFull(() => { this.parts.upgrade().catch(() => {}); }) : () => {};
    this.core.then(() => this.tell({ ready: true }), (e: unknown) => {
      const err = e instanceof Error ? e : new Error(String(e));
      this.tell({ ready: false, error: { name: err.name, message: err.message } });
    });
  }

  private tell(data: unknown): void {
    setTimeout(() => { if (!this.dead) this.onmessage?.(new MessageEvent('message', { data })); }, 0);
  }

  /** Answers one request after the previous ones, in a later task (as a worker's reply would come). */
  postMessage(message: unknown): void {
    this.queue = this.queue.then(async () => {
      let core: Core;
      try {
        core = await this.core;
      } catch {
        return;  // the page was told ({ ready: false }) and starts another
      }
      await new Promise((r) => setTimeout(r, 0));
      const { run } = await import('./handler.ts');
      const kind = (message as { kind?: unknown } | null)?.kind;
      try {
        core = await this.parts.for(typeof kind === 'string' ? kind : '');
      } catch (e) {
        const id = (message as { id?: unknown } | null)?.id;
        const error = { name: CORE_LOAD_ERROR, message: `the full core did not load: ${e instanceof Error ? e.message : String(e)}` };
        if (!this.dead) this.onmessage?.(new MessageEvent('message', { data: { id: typeof id === 'number' ? id : -1, ok: false, error } }));
        return;
      }
      if (this.dead) return;
      const reply = run(core, message);
      this.onmessage?.(new MessageEvent('message', { data: reply }));
    });
  }

  terminate(): void { this.dead = true; this.unsubscribe(); }
}
