// The core on the page's own thread, for a page where no worker can start (an opaque origin whose
// blob: worker failed, a Content Security Policy without blob:). It answers the worker protocol
// (protocol.ts) with the very handler a worker runs (handler.ts), on the same compiled module, so
// the numbers are the same; only the page is busy while it computes. The handler loads on demand.
import type { WorkerLike } from './protocol.ts';
import type { CoreInit } from './boot.ts';
import { loadCore } from '../../../wasm/js/core.js';
import type { Core } from '../../../wasm/js/core.js';
import { fetchCore } from './fetch-core.ts';

export class InThreadCore implements WorkerLike {
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  private readonly core: Promise<Core>;
  private queue: Promise<void> = Promise.resolve();
  private dead = false;

  /**
   * `init`: the page's compiled module (boot.ts), why there is none (`fatal`), or null to fetch the
   * .wasm here. Like a worker, it says once whether its core loaded ({ ready }: protocol.ts), in a
   * later task, after the client has set onmessage.
   */
  constructor(init: Promise<CoreInit | null>) {
    this.core = init.then(async (i) => {
      if (i && 'fatal' in i) throw new Error(i.fatal);
      if (i) return loadCore({ build: i.build, kernel: 'auto', wasmModule: i.module });
      return (await fetchCore()).core;
    });
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
      if (this.dead) return;
      const reply = run(core, message);
      this.onmessage?.(new MessageEvent('message', { data: reply }));
    });
  }

  terminate(): void { this.dead = true; }
}
