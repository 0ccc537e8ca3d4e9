// A pool of core workers. Each worker runs one call at a time; the calls wait here, on the page,
// in priority order (lower first, then first come), so that a call whose request went stale is
// dropped before it is sent, and a point the reader is looking at overtakes a sweep. Each worker is
// a WorkerClient (protocol.ts), which keeps its timeouts and restarts. A growing pool starts its
// workers one at a time as calls wait, as far as measured speed shows they pay (pool-size.ts).
import { CoreError } from './protocol.ts';
import { WorkerClient } from './client.ts';
import { PoolSizer } from './pool-size.ts';
import type { WaitingCall } from './pool-size.ts';
import type { Kind, WorkerLike } from './protocol.ts';

export interface PoolOptions {
  /** workers in the pool; with `grows`, the most it may start */
  size: number;
  /**
   * Start one worker, and another only when a call waits for one and the workers already running
   * were measured to pay (pool-size.ts). Default false: all `size` workers start at once.
   */
  grows?: boolean;
  /** the core's estimate of a call in seconds (core.cost; 0 when it has none): a growing pool times calls against it */
  estimateSeconds?: (kind: Kind, params: unknown) => number;
  /** ms clock for timing calls (default performance.now) */
  now?: () => number;
  createWorker: (index: number) => WorkerLike;
  onRestart?: (reason: 'timeout' | 'crash') => void;
  timeoutMs?: (kind: Kind, params: unknown) => number;
  /** the workers post { ready } when their core is loaded (protocol.ts): start failures back off */
  announcesReady?: boolean;
  /**
   * ms to wait before each new attempt to start the workers after a start failure (a .wasm or a
   * worker script that did not load); after the last the pool is unavailable. Default START_BACKOFF_MS.
   */
  backoffMs?: readonly number[];
  /** what the pool is doing about its workers' start (the page's status line and notice) */
  onStartState?: (s: StartState) => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (t: unknown) => void;
}

/** Delays between attempts to start a worker that could not load the core: 4 attempts within about 7 s. */
export const START_BACKOFF_MS: readonly number[] = [1000, 2000, 4000];

/**
 * The start of the pool's workers: 'ready' (a core is loaded), 'retrying' (attempt `attempt` of
 * `attempts` failed with `error`; the next in `inMs`), 'unavailable' (every attempt failed: no
 * further request is made until retry()).
 */
export type StartState =
  | { state: 'ready' }
  | { state: 'retrying'; attempt: number; attempts: number; inMs: number; error: string }
  | { state: 'unavailable'; attempts: number; error: string };

/**
 * The backoff delays a page address asks for: `?backoff=ms,ms,…` (each 0..60000, at most 8) in
 * the query — for tests, which cannot wait the production delays; null when absent or malformed.
 */
export function backoffOverride(search: string): number[] | null {
  const raw = new URLSearchParams(search).get('backoff');
  if (raw === null || !/^\d{1,5}(,\d{1,5}){0,7}$/.test(raw)) return null;
  const ms = raw.split(',').map(Number);
  return ms.every((x) => x <= 60000) ? ms : null;
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
  /** the workers started (all `size` of them, or as many as a growing pool started so far) */
  private readonly clients: WorkerClient[] = [];
  private readonly busy: boolean[] = [];
  /** when each worker was created (the pool's clock), until its start is timed (then null) */
  private readonly startedAt: (number | null)[] = [];
  private readonly cap: number;
  private readonly sizer: PoolSizer | null;
  private readonly makeClient: (index: number) => WorkerClient;
  private readonly estimate: (kind: Kind, params: unknown) => number;
  private readonly now: () => number;
  /** calls in flight: when each was sent, and the most workers busy while it ran */
  private readonly timed = new Set<{ busy: number }>();
  private queue: Queued[] = [];
  private seq = 0;
  /** calls sent to a worker, and calls dropped before sending because their request went stale */
  sent = 0;
  dropped = 0;
  /** attempts to start workers that failed (all of them, and the consecutive ones since a core loaded) */
  startFailures = 0;
  private failedInRow = 0;
  private retryTimer: unknown = null;
  private unavailable: CoreError | null = null;
  private readonly backoff: readonly number[];
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (t: unknown) => void;
  private readonly onStartState: (s: StartState) => void;

  constructor(opts: PoolOptions) {
    if (!Number.isInteger(opts.size) || opts.size < 1) throw new RangeError(`Pool: size = ${opts.size} must be an integer ≥ 1`);
    this.backoff = opts.backoffMs ?? START_BACKOFF_MS;
    this.setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = opts.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>));
    this.onStartState = opts.onStartState ?? (() => {});
    this.cap = opts.size;
    this.sizer = opts.grows ? new PoolSizer(opts.size) : null;
    this.estimate = opts.estimateSeconds ?? (() => 0);
    this.now = opts.now ?? (() => performance.now());
    this.makeClient = (i) => new WorkerClient({
      createWorker: () => opts.createWorker(i),
      onRestart: opts.onRestart,
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
      announcesReady: opts.announcesReady ?? false,
      onStartFailure: (message) => this.startFailed(message),
      onReady: () => { this.timeStart(i, opts.announcesReady ?? false); this.started(); },
    });
    for (let i = 0; i < (this.sizer ? 1 : opts.size); i++) this.startWorker();
  }

  private startWorker(): void {
    this.startedAt[this.clients.length] = this.now();
    this.clients.push(this.makeClient(this.clients.length));
    this.busy.push(false);
  }

  /**
   * Worker i's core loaded: a growing pool records how long a worker after the first took to start (what
   * one more costs; the first waited for the page's own download and compile), if it announces its start.
   */
  private timeStart(i: number, announces: boolean): void {
    const t0 = this.startedAt[i];
    this.startedAt[i] = null;
    if (announces && i >= 1 && t0 !== null && t0 !== undefined) this.sizer?.recordStart(this.now() - t0);
  }

  /** A worker could not load the core: every worker waits, then all start again, or the pool gives up. */
  private startFailed(message: string): void {
    this.startFailures += 1;
    if (this.unavailable || this.retryTimer !== null) return;  // this round's attempt is already counted
    this.failedInRow += 1;
    const attempts = this.backoff.length + 1;
    if (this.failedInRow > this.backoff.length) {
      this.unavailable = new CoreError(message, 'unavailable');
      const err = this.unavailable;
      const queued = this.queue;
      this.queue = [];
      for (const t of queued) t.reject(err);
      for (const c of this.clients) c.failAll(err);
      this.onStartState({ state: 'unavailable', attempts, error: message });
      return;
    }
    const inMs = this.backoff[this.failedInRow - 1];
    this.onStartState({ state: 'retrying', attempt: this.failedInRow, attempts, inMs, error: message });
    this.retryTimer = this.setTimer(() => { this.retryTimer = null; this.revive(); }, inMs);
  }

  private started(): void {
    const was = this.failedInRow;
    this.failedInRow = 0;
    if (was > 0 || this.startFailures > 0) this.onStartState({ state: 'ready' });
  }

  private revive(): void {
    for (const c of this.clients) c.revive();
  }

  /** Whether the pool gave up starting its workers (until retry()). */
  get isUnavailable(): boolean { return this.unavailable !== null; }

  /**
   * Starts again the workers that could not start, now: after the reader's Retry, or when the
   * browser comes back online (a wait in progress is cut short). Nothing happens while they run.
   */
  retry(): void {
    if (this.retryTimer !== null) { this.clearTimer(this.retryTimer); this.retryTimer = null; }
    if (!this.clients.some((c) => c.down)) return;
    this.unavailable = null;
    this.failedInRow = 0;
    this.revive();
  }

  /** Workers in the pool: with `grows`, the most it may start. */
  get size(): number { return this.cap; }
  /** Workers started (and not retired). */
  get workers(): number { return this.clients.length; }
  /**
   * Calls a request is best split into (worker/plan.ts): the size, or for a growing pool the most
   * workers still worth running by its measurements (pool-size.ts).
   */
  get parts(): number { return this.sizer ? this.sizer.limit : this.cap; }
  get restarts(): number { return this.clients.reduce((a, c) => a + c.restarts, 0); }
  /** Calls waiting for a worker, and workers busy. */
  get waiting(): number { return this.queue.length; }
  get running(): number { return this.busy.filter(Boolean).length; }

  run(task: PoolTask): Promise<unknown> {
    if (this.unavailable) return Promise.reject(this.unavailable);
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
    this.retire();
    for (let w = 0; w < this.clients.length && this.queue.length > 0; w++) {
      if (this.busy[w]) {
        // every worker busy and a call waits: a growing pool may start one more
        if (w === this.clients.length - 1 && !this.unavailable && this.retryTimer === null && this.sizer
          && this.sizer.grows(this.clients.length, this.waitingCalls())) this.startWorker();
        continue;
      }
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
      const done = this.time(w, t);
      this.clients[w].call(t.kind, t.params as never).then(
        (r) => { done(true); this.busy[w] = false; t.resolve(r); this.pump(); },
        (e) => { done(false); this.busy[w] = false; t.reject(e); this.pump(); },
      );
    }
  }

  /**
   * Times a call just sent to worker w for a growing pool (pool-size.ts): from now, if the worker's
   * core is loaded (a worker still starting would time its start), to its answer; a failed call is not counted.
   */
  private time(w: number, t: PoolTask): (ok: boolean) => void {
    const running = this.running;
    for (const c of this.timed) c.busy = Math.max(c.busy, running);
    if (!this.sizer || !this.clients[w].isReady) return () => {};
    const est = this.estimate(t.kind, t.params);
    const c = { busy: running };
    const t0 = this.now();
    this.timed.add(c);
    return (ok) => {
      this.timed.delete(c);
      if (ok) this.sizer?.record(t.kind, c.busy, est, this.now() - t0);
    };
  }

  /** The calls waiting (not stale), each with the core's estimate of its work (a growing pool's next worker). */
  private waitingCalls(): WaitingCall[] {
    return this.queue.filter((q) => !q.stale?.()).map((q) => ({ kind: q.kind, seconds: this.estimate(q.kind, q.params) }));
  }

  /** Stops the idle workers a growing pool has beyond the count its measurements show to pay. */
  private retire(): void {
    if (!this.sizer) return;
    while (this.clients.length > this.sizer.limit && !this.busy[this.clients.length - 1]) {
      this.clients.pop()!.terminate();
      this.busy.pop();
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

  terminate(): void {
    if (this.retryTimer !== null) this.clearTimer(this.retryTimer);
    for (const c of this.clients) c.terminate();
  }
}
