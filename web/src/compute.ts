// The page's access to the core: two workers (a "live" one for the point at the chosen setting,
// which must answer within a frame or two, and a "sweep" one for the d_k sweeps, which are cached
// and do not depend on the chosen d_k), a small result cache, and the work budgets that keep
// every request inside what the browser does in about a second.
import { WorkerClient, CoreError } from './worker/protocol.ts';
import type { Calls, Kind, WorkerLike } from './worker/protocol.ts';
import { DK_STEPS } from './state/schema.js';

export { CoreError };
export type WorkerName = 'live' | 'sweep';

/**
 * Work of one attentionStats call in multiply–add equivalents: the products (Q Kᵀ, weights · V and
 * the backward ones, 4·h·L²·d_k) plus the per-row statistics (entropy, Jacobian norms with their
 * secular solve), which cost about ROW_COST multiply–adds per attention weight whatever d_k is
 * (measured in Node: ~0.18 ns per multiply–add, ~70 ns per weight).
 */
export const ROW_COST = 400;
export function attentionMacs(heads: number, seqLen: number, dk: number): number {
  return heads * seqLen * seqLen * (4 * dk + ROW_COST);
}
/** A point larger than this is refused before it reaches the core (about a second of wasm work). */
export const POINT_MAC_LIMIT = 5e9;
/** The sweep budget: the default settings (h 4, L 128, all d_k, 4 scales) fit exactly. */
export const SWEEP_MAC_BUDGET = DK_STEPS.reduce((w, dk) => w + 4 * attentionMacs(4, 128, dk), 0) * 1.001;
/** scoreVariance budget in q·k products (samples · Σ d_k): the default (2000 samples, all d_k) fits. */
export const VARIANCE_BUDGET = 2000 * 8191 * 1.001;

/** The d_k of the saturation / gradient sweep that fit the budget (always at least the first). */
export function sweepDks(heads: number, seqLen: number, scales: number): number[] {
  const out: number[] = [];
  let work = 0;
  for (const dk of DK_STEPS) {
    work += scales * attentionMacs(heads, seqLen, dk);
    if (out.length > 0 && work > SWEEP_MAC_BUDGET) break;
    out.push(dk);
  }
  return out;
}
/** The d_k of the variance sweep that fit the budget. */
export function varianceDks(samples: number): number[] {
  const out: number[] = [];
  let work = 0;
  for (const dk of DK_STEPS) {
    work += samples * dk;
    if (out.length > 0 && work > VARIANCE_BUDGET) break;
    out.push(dk);
  }
  return out;
}

export interface ComputeOptions {
  createWorker: () => WorkerLike;
  onRestart: (reason: 'timeout' | 'crash') => void;
}

export class Compute {
  private readonly clients: Record<WorkerName, WorkerClient>;
  private readonly cache = new Map<string, Promise<unknown>>();
  private readonly maxEntries = 48;

  constructor(opts: ComputeOptions) {
    const make = () => new WorkerClient({
      createWorker: opts.createWorker,
      onRestart: opts.onRestart,
      timeoutMs: (k) => (k === 'saturationSweep' || k === 'scoreVariance' || k === 'longContext' ? 30000 : 15000),
    });
    this.clients = { live: make(), sweep: make() };
  }

  /**
   * One request, cached by (kind, params). With a channel, latest wins (see WorkerClient.call).
   * A failed or superseded request leaves the cache.
   */
  get<K extends Kind>(worker: WorkerName, kind: K, params: Calls[K]['params'], channel?: string, cacheKey?: string): Promise<Calls[K]['result']> {
    // tensors (typed arrays) are keyed by the caller's cacheKey, never stringified
    const key = `${kind}:${cacheKey ?? JSON.stringify(params)}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);  // most recently used last
      return hit as Promise<Calls[K]['result']>;
    }
    const p = this.clients[worker].call(kind, params, channel);
    this.cache.set(key, p);
    p.catch(() => { if (this.cache.get(key) === p) this.cache.delete(key); });
    while (this.cache.size > this.maxEntries) {
      const oldest = this.cache.keys().next().value as string;
      this.cache.delete(oldest);
    }
    return p;
  }

  /** Uncached request (for the status line). */
  call<K extends Kind>(worker: WorkerName, kind: K, params: Calls[K]['params']): Promise<Calls[K]['result']> {
    return this.clients[worker].call(kind, params);
  }

  /** Forgets every cached result (bench:ui measures uncached requests). */
  clearCache(): void { this.cache.clear(); }

  get restarts(): number { return this.clients.live.restarts + this.clients.sweep.restarts; }
}
