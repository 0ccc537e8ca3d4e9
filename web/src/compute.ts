// The page's access to the core: a pool of workers (worker/pool.ts) and a small result cache (the
// work budgets that keep every request inside what the browser does in about a second are the
// core's own estimates, worker/cost.ts). A request
// names a priority, "live" (the point at the chosen setting, which must answer within a frame or
// two) or "sweep" (the d_k sweeps, cached, not depending on the chosen d_k); it is computed by the
// plan of worker/plan.ts: split by point across the pool, and with a preview step first when the
// caller draws steps. A request on a channel supersedes the channel's previous one: the previous
// one's remaining calls are dropped before they are sent (latest wins, at most one computation
// waiting per channel).
import { CoreError } from './worker/protocol.ts';
import type { Calls, Kind, WorkerLike } from './worker/protocol.ts';
import { Pool, defaultPoolSize } from './worker/pool.ts';
import type { StartState } from './worker/pool.ts';
import { plan } from './worker/plan.ts';
import { callTimeoutMs, callSeconds } from './worker/cost.ts';

export { CoreError, defaultPoolSize };
export type { StartState };
export type WorkerName = 'live' | 'sweep';

export interface ComputeOptions {
  /** a new worker of the pool (index 0..poolSize−1) */
  createWorker: (index: number) => WorkerLike;
  onRestart: (reason: 'timeout' | 'crash') => void;
  /** workers in the pool (default: defaultPoolSize(navigator.hardwareConcurrency)); with poolGrows, the most it starts */
  poolSize?: number;
  /**
   * Start one worker and more only as calls wait for one and as far as their measured speed shows
   * that they pay (worker/pool-size.ts); default false: poolSize workers at once (`?pool=N`, tests).
   */
  poolGrows?: boolean;
  /** the workers post { ready } once their core is loaded (the page's do): start failures back off */
  announcesReady?: boolean;
  /** delays between attempts to start workers that could not load the core (default pool.ts START_BACKOFF_MS) */
  backoffMs?: readonly number[];
  /** the start of the workers: retrying after a failure, unavailable (given up), ready again */
  onStartState?: (s: StartState) => void;
}

/** What a step callback is told: whether this result is the request's final one. */
export interface StepInfo { final: false; step: number; steps: number }
export type OnStep<R> = (result: R, info: StepInfo) => void;

/** One requester of a job: its promise, its step callback, and whether its channel moved on. */
interface Sub { channel?: string; onStep?: OnStep<unknown>; superseded: boolean; resolve: (v: unknown) => void; reject: (e: unknown) => void }
/** One request being computed (or computed: done), shared by every requester of the same key. */
interface Job { key: string; subs: Set<Sub>; done: boolean; result?: unknown; last?: { result: unknown; info: StepInfo }; started: boolean }

const superseded = () => new CoreError('superseded by a newer request', 'superseded');
/** The panel a channel belongs to: its prefix before ':' ('sat:point' → 'sat'). */
const panelOf = (channel: string | undefined) => (channel === undefined ? '-' : channel.split(':')[0]);

/** Counters of computations, for tests and bench:ui (window.__sqrtdkBench.stats()). */
export interface ComputeStats {
  /** workers in the pool (the most a growing pool starts), workers started, and the most worth running */
  poolSize: number;
  workers: number;
  parts: number;
  /** jobs whose first call was sent to a worker, per panel (the channel's prefix) */
  started: Record<string, number>;
  /** the same, with the time each started (performance.now()), the last 200 */
  log: { panel: string; channel: string; t: number }[];
  /** core calls sent, and calls dropped before sending because their request went stale */
  sent: number;
  dropped: number;
  /** calls waiting for a worker, workers busy */
  waiting: number;
  running: number;
  /** workers restarted after a crash or timeout, and attempts to start a worker that failed */
  restarts: number;
  startFailures: number;
}

export class Compute {
  private readonly pool: Pool;
  private readonly cache = new Map<string, Job>();
  private readonly channels = new Map<string, Sub>();
  private readonly maxEntries = 48;
  private readonly started: Record<string, number> = {};
  private readonly log: ComputeStats['log'] = [];

  constructor(opts: ComputeOptions) {
    const size = opts.poolSize ?? defaultPoolSize(typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency);
    this.pool = new Pool({
      size,
      grows: opts.poolGrows ?? false,
      estimateSeconds: callSeconds,
      createWorker: opts.createWorker,
      onRestart: opts.onRestart,
      announcesReady: opts.announcesReady,
      ...(opts.backoffMs ? { backoffMs: opts.backoffMs } : {}),
      onStartState: opts.onStartState,
      timeoutMs: callTimeoutMs,
    });
  }

  /** Workers in the pool (a growing pool: the most it starts). */
  get poolSize(): number { return this.pool.size; }

  /**
   * One request, cached by (kind, params); `cacheKey` replaces the params in the key (tensors are
   * keyed by the caller, never stringified). With a channel, latest wins: the channel's previous
   * request rejects with kind 'superseded' and its calls not yet sent are dropped. With onStep,
   * the request is computed progressively (worker/plan.ts): onStep gets each preview step's result
   * (final: false), and the promise resolves with the final result, which is bit for bit the
   * result of one full call. A failed or superseded request leaves the cache.
   */
  get<K extends Kind>(worker: WorkerName, kind: K, params: Calls[K]['params'], channel?: string, cacheKey?: string,
    onStep?: OnStep<Calls[K]['result']>): Promise<Calls[K]['result']> {
    const key = `${kind}:${cacheKey ?? JSON.stringify(params)}`;
    return new Promise((resolve, reject) => {
      const sub: Sub = { channel, onStep: onStep as OnStep<unknown> | undefined, superseded: false, resolve: resolve as (v: unknown) => void, reject };
      let job = this.cache.get(key);
      if (channel !== undefined) {
        const prev = this.channels.get(channel);
        this.channels.set(channel, sub);
        if (prev && !prev.superseded) { prev.superseded = true; prev.reject(superseded()); }
      }
      if (job) {
        this.cache.delete(key);
        this.cache.set(key, job);  // most recently used last
        if (job.done) { resolve(job.result as Calls[K]['result']); this.pool.prune(); return; }
        job.subs.add(sub);
        const last = job.last;
        if (last && onStep) queueMicrotask(() => { if (!sub.superseded) onStep(last.result as Calls[K]['result'], last.info); });
      } else {
        job = { key, subs: new Set([sub]), done: false, started: false };
        this.cache.set(key, job);
        while (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
        void this.runJob(job, worker, kind, params, channel, onStep !== undefined);
      }
      this.pool.prune();  // the calls of the superseded request that are still waiting
    });
  }

  /** A job is stale when every requester has moved on (a request without a channel never does). */
  private stale(job: Job): boolean {
    for (const s of job.subs) if (!s.superseded) return false;
    return true;
  }

  private forget(job: Job): void {
    if (this.cache.get(job.key) === job) this.cache.delete(job.key);
  }

  private async runJob(job: Job, worker: WorkerName, kind: Kind, params: unknown, channel: string | undefined, progressive: boolean): Promise<void> {
    const base = worker === 'live' ? 0 : 2;
    try {
      const steps = plan(kind, params as never, progressive, this.pool.parts);
      for (let i = 0; i < steps.length; i++) {
        // client-driven: the next step is only sent when the previous one is back and still wanted
        if (this.stale(job)) { this.forget(job); return; }
        const step = steps[i];
        const priority = base + (step.final ? 1 : 0);
        const running = Promise.all(step.calls.map((c) => this.pool.run({
          kind: c.kind, params: c.params, priority,
          stale: () => this.stale(job),
          onStart: () => {
            if (job.started) return;
            job.started = true;
            const panel = panelOf(channel);
            this.started[panel] = (this.started[panel] ?? 0) + 1;
            this.log.push({ panel, channel: channel ?? '-', t: performance.now() });
            if (this.log.length > 200) this.log.splice(0, this.log.length - 200);
          },
        })));
        let results: unknown[];
        try {
          results = await running;
        } catch (e) {
          // A preview refused by the core (its sliced parameters, e.g. heads = 1) is skipped: the
          // full request's own answer, result or refusal naming the reader's values, follows.
          if (!step.final && e instanceof CoreError && e.kind === 'core') continue;
          throw e;
        }
        const result = step.merge(results);
        if (step.final) {
          job.done = true;
          job.result = result;
          job.last = undefined;
          for (const s of job.subs) if (!s.superseded) s.resolve(result);
          job.subs.clear();
          return;
        }
        const info: StepInfo = { final: false, step: i + 1, steps: steps.length };
        job.last = { result, info };
        for (const s of job.subs) if (!s.superseded) s.onStep?.(result, info);
      }
    } catch (e) {
      // calls dropped as stale while a new requester of the same key arrived: start again
      if (e instanceof CoreError && e.kind === 'superseded' && !this.stale(job) && this.cache.get(job.key) === job) {
        void this.runJob(job, worker, kind, params, channel, progressive);
        return;
      }
      this.forget(job);
      const err = e instanceof CoreError && e.kind === 'superseded' ? superseded() : e;
      for (const s of job.subs) if (!s.superseded) s.reject(err);
      job.subs.clear();
    }
  }

  /** Uncached request, never superseded (for the status line and the device panel). */
  call<K extends Kind>(worker: WorkerName, kind: K, params: Calls[K]['params']): Promise<Calls[K]['result']> {
    return this.pool.run({ kind, params, priority: worker === 'live' ? 0 : 2 }) as Promise<Calls[K]['result']>;
  }

  /** Forgets every cached result (bench:ui measures uncached requests). */
  clearCache(): void {
    for (const [k, job] of this.cache) if (job.done) this.cache.delete(k);
  }

  get restarts(): number { return this.pool.restarts; }

  /** Whether no worker could load the core and the pool stopped asking (until retry()). */
  get unavailable(): boolean { return this.pool.isUnavailable; }

  /** Starts again the workers that could not start (the reader's Retry, the browser back online). */
  retry(): void { this.pool.retry(); }

  /** Counters of computations (tests, bench:ui). */
  stats(): ComputeStats {
    return {
      poolSize: this.pool.size, workers: this.pool.workers, parts: this.pool.parts, started: { ...this.started }, log: this.log.slice(),
      sent: this.pool.sent, dropped: this.pool.dropped, waiting: this.pool.waiting, running: this.pool.running,
      restarts: this.pool.restarts, startFailures: this.pool.startFailures,
    };
  }
}
