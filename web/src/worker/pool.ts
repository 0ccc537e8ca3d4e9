// A pool of core workers. Each worker runs one call at a time; the calls wait here, on the page,
// in priority order (lower first, then first come), so that a call whose request went stale is
// dropped before it is sent, and a point the reader is looking at overtakes a sweep. Each worker is
// a WorkerClient (protocol.ts), which keeps its timeouts and restarts.
import { WorkerClient, CoreError } from './protocol.ts';
import type { Kind, WorkerLike } from './protocol.ts';

export interface PoolOptions {
  size: number;
  createWorker: (index: number) => WorkerLike;
  onRestart?: (reason: 'timeout' | 'crash') => void;
  timeoutMs?: (kind: Kind) => number;
}

export interface PoolTask {
  kind: Kind;
  params: unknown;
  priority: number;
  /** checked when a worker comes free: a stale task is dropped (rejected as superseded) */
  stale?: () => boolean;
  /** called when the task is sent to a worker */
  onStart?: () => void;
}

interface Queued extends PoolTask { seq: number; resolve: (v: unknown) => void; reject: (e: unknown) => void }

/** The pool size for a device: one worker per core but one (kept for the page), at least one, at most 8. */
export function defaultPoolSize(hardwareConcurrency: number | undefined): number {
  const n = Number.isFinite(hardwareConcurrency) ? Math.floor(hardwareConcurrency as number) : 2;
  return Math.max(1, Math.min(8, n - 1));
}

/**
 * The pool size a page address asks for: `?pool=N` (1..16) in the query — for tests and bench:ui,
 * not part of a link's state (the state lives in the hash); null when absent or not such a number.
 */
export function poolOverride(search: string): number | null {
  const raw = new URLSearchParams(search).get('pool');
  if (raw === null || !/^\d{1,2}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= 16 ? n : null;
}

export class Pool {
  private readonly clients: WorkerClient[];
  private readonly busy: boolean[];
  private queue: Queued[] = [];
  private seq = 0;
  /** calls sent to a worker, and calls dropped before sending because their request went stale */
  sent = 0;
  dropped = 0;

  constructor(opts: PoolOptions) {
    if (!Number.isInteger(opts.size) || opts.size < 1) throw new RangeError(`Pool: size = ${opts.size} must be an integer ≥ 1`);
    this.clients = Array.from({ length: opts.size }, (_, i) => new WorkerClient({
      createWorker: () => opts.createWorker(i),
      onRestart: opts.onRestart,
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    }));
    this.busy = this.clients.map(() => false);
  }

  get size(): number { return this.clients.length; }
  get restarts(): number { return this.clients.reduce((a, c) => a + c.restarts, 0); }
  /** Calls waiting for a worker, and workers busy. */
  get waiting(): number { return this.queue.length; }
  get running(): number { return this.busy.filter(Boolean).length; }

  run(task: PoolTask): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const q: Queued = { ...task, seq: this.seq++, resolve, reject };
      // keep the queue sorted by (priority, seq): insert after the last task of priority ≤ ours
      let i = this.queue.length;
      while (i > 0 && this.queue[i - 1].priority > q.priority) i--;
      this.queue.splice(i, 0, q);
      this.pump();
    });
  }

  private pump(): void {
    for (let w = 0; w < this.clients.length && this.queue.length > 0; w++) {
      if (this.busy[w]) continue;
      let task: Queued | undefined;
      while ((task = this.queue.shift()) && task.stale?.()) {
        this.dropped += 1;
        task.reject(new CoreError('superseded by a newer request', 'superseded'));
      }
      if (!task) return;
      this.busy[w] = true;
      this.sent += 1;
      task.onStart?.();
      const t = task;
      this.clients[w].call(t.kind, t.params as never).then(
        (r) => { this.busy[w] = false; t.resolve(r); this.pump(); },
        (e) => { this.busy[w] = false; t.reject(e); this.pump(); },
      );
    }
  }

  /** Drops every waiting task that has gone stale (called when a request is superseded). */
  prune(): void {
    const keep: Queued[] = [];
    for (const t of this.queue) {
      if (t.stale?.()) { this.dropped += 1; t.reject(new CoreError('superseded by a newer request', 'superseded')); } else keep.push(t);
    }
    this.queue = keep;
  }

  terminate(): void { for (const c of this.clients) c.terminate(); }
}
