// A worker's core in two parts (issue 20): it starts with the module the page handed it — the
// core's first part on the variance view, which answers only FIRST_PART_KINDS — and takes the full
// core when a request needs it or the page sends it. Requests are answered in the order they came,
// each by the full core once it is in, else by the part that has its call. Both parts are the same
// objects and flags, so which one answers changes no number (tests/node/first-core.test.mjs).
import { loadCore, FIRST_PART_CALLS } from '../../../wasm/js/core.js';
import type { Core } from '../../../wasm/js/core.js';
import { fetchCore } from './fetch-core.ts';

/** The compiled core for the workers, or why there is none: `fatal` (an HTTP error: no worker retries the fetch). */
export type CoreInit = { module: WebAssembly.Module; build: 'simd128' | 'baseline'; part?: 'first' | 'full' } | { fatal: string };

/** The request kinds the first part answers (core.js FIRST_PART_CALLS, and info). */
export const FIRST_PART_KINDS: readonly string[] = ['info', ...FIRST_PART_CALLS];

/** Whether a request of `kind` needs the full core. */
export function needsFull(kind: string): boolean {
  return !FIRST_PART_KINDS.includes(kind);
}

/** The core of a CoreInit: its module instantiated (its part), or — for null — the full core fetched here. */
export async function coreOf(i: CoreInit | null): Promise<Core> {
  if (i && 'fatal' in i) throw new Error(i.fatal);
  return i ? loadCore({ build: i.build, kernel: 'auto', wasmModule: i.module, part: i.part ?? 'full' }) : (await fetchCore()).core;
}

export class TwoPartCore {
  private full: Promise<Core> | null = null;
  private fullCore: Core | null = null;

  /**
   * `start`: the core the worker starts with; `fullInit`: the page's full core (asked for when
   * first needed: a worker's { full } message, or the page's CoreSource.full()).
   */
  constructor(readonly start: Promise<Core>, private readonly fullInit: () => Promise<CoreInit | null>) {}

  /** Loads the full core now (if the start is the first part); a failure is told to the request that needs it. */
  upgrade(): Promise<Core> {
    this.full ??= this.start.then((c) => (c.part === 'first' ? this.fullInit().then(coreOf) : c));
    const p = this.full;
    p.then((c) => { this.fullCore = c; }, () => { if (this.full === p) this.full = null; });  // a failed load is tried again
    return p;
  }

  /** The core that answers a request of `kind`: the full one once it is in, else the start if it has the call. */
  async for(kind: string): Promise<Core> {
    const c = await this.start;
    if (this.fullCore) return this.fullCore;
    if (c.part !== 'first' || !needsFull(kind)) return c;
    return this.upgrade();
  }
}
