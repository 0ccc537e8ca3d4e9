// The page's client of one core worker (the protocol is protocol.ts): latest-request-wins per
// channel (a slider sends at most one request at a time per channel; requests made meanwhile
// replace each other), per-request timeouts, and a restart of a crashed or hung worker, reported
// through onRestart; a worker that announces its core's start is timed only once it is ready.
import { CoreError, CORE_LOAD_ERROR, isResponse, isReadyMessage } from './protocol.ts';
import type { Kind, Calls, WorkerLike } from './protocol.ts';

export interface ClientOptions {
  createWorker: () => WorkerLike;
  /** ms before a request counts as hung, per kind (default 20000) */
  timeoutMs?: (kind: Kind, params: unknown) => number;
  /** called after the worker was restarted (crash or timeout) */
  onRestart?: (reason: 'timeout' | 'crash') => void;
  /** how often a request is retried on a fresh worker after a crash or timeout (default 1) */
  retries?: number;
  /**
   * The worker says when its core is loaded: { ready: true }, or { ready: false, error } when it
   * cannot load it. Until then its requests are not timed, and a failure (that message, or an
   * error event: a script that did not load) is a start failure handed to onStartFailure — the
   * worker is not restarted by the client; revive() starts a fresh one. Default false: a worker
   * counts as started at once (and every failure is a crash).
   */
  announcesReady?: boolean;
  onStartFailure?: (message: string) => void;
  onReady?: () => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (t: unknown) => void;
}

interface Pending {
  id: number;
  kind: Kind;
  params: unknown;
  channel: string | undefined;
  attempts: number;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  timer?: unknown;
}

export class WorkerClient {
  private worker: WorkerLike | null;
  /** the worker's core is loaded (always, without announcesReady) */
  private ready = false;
  /** requests made while there is no worker (after a start failure, until revive()) */
  private held: Pending[] = [];
  private nextId = 1;
  private inflight = new Map<number, Pending>();
  /** channel → the request in flight on it */
  private busy = new Map<string, Pending>();
  /** channel → the newest request waiting for the channel to be free */
  private waiting = new Map<string, Pending>();
  private readonly opts: Required<ClientOptions>;
  restarts = 0;

  constructor(options: ClientOptions) {
    this.opts = {
      timeoutMs: () => 20000,
      onRestart: () => {},
      retries: 1,
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
      announcesReady: false,
      onStartFailure: () => {},
      onReady: () => {},
      ...options,
    };
    this.worker = this.spawn();
  }

  private spawn(): WorkerLike {
    this.ready = !this.opts.announcesReady;
    const w = this.opts.createWorker();
    w.onmessage = (ev) => this.onMessage(ev.data);
    w.onerror = (ev) => {
      ev.preventDefault?.();
      if (this.ready) this.restart('crash');
      else this.startFailed('the worker script could not be started');
    };
    return w;
  }

  /** Whether the worker is running with its core loaded (a call sent now is timed from its start). */
  get isReady(): boolean { return this.worker !== null && this.ready; }

  /** Whether the worker could not start and waits for revive(). */
  get down(): boolean { return this.worker === null; }

  /**
   * The worker could not load its core: it is dropped, and what was sent to it waits (those
   * requests never ran, so this is no attempt of theirs) until revive() or failAll().
   */
  private startFailed(message: string): void {
    if (!this.worker) return;
    this.worker.onmessage = null;
    this.worker.onerror = null;
    this.worker.terminate();
    this.worker = null;
    for (const p of this.inflight.values()) {
      if (p.timer !== undefined) this.opts.clearTimer(p.timer);
      p.timer = undefined;
      p.attempts -= 1;
      this.held.push(p);
    }
    this.inflight.clear();
    this.busy.clear();
    this.opts.onStartFailure(message);
  }

  /** After a start failure: a fresh worker, and the held requests sent to it. */
  revive(): void {
    if (this.worker) return;
    this.worker = this.spawn();
    const held = this.held;
    this.held = [];
    for (const p of held) {
      if (p.channel !== undefined && this.busy.has(p.channel)) {
        const old = this.waiting.get(p.channel);
        if (old) old.reject(new CoreError('superseded by a newer request', 'superseded'));
        this.waiting.set(p.channel, p);
      } else this.send(p);
    }
  }

  /** Rejects everything held, in flight or waiting with `error` (the pool gave up starting workers). */
  failAll(error: CoreError): void {
    const all = [...this.held, ...this.inflight.values(), ...this.waiting.values()];
    for (const p of this.inflight.values()) if (p.timer !== undefined) this.opts.clearTimer(p.timer);
    this.held = [];
    this.inflight.clear();
    this.busy.clear();
    this.waiting.clear();
    for (const p of all) p.reject(error);
  }

  /**
   * Sends a request. With a channel, latest wins: if a request of that channel is in flight, this
   * one waits, and a later one on the same channel replaces it (the replaced promise rejects with
   * kind 'superseded'); the answer of a request that has been superseded meanwhile is still
   * delivered, since it is the latest finished one.
   */
  call<K extends Kind>(kind: K, params: Calls[K]['params'], channel?: string): Promise<Calls[K]['result']> {
    return new Promise((resolve, reject) => {
      const p: Pending = { id: this.nextId++, kind, params, channel, attempts: 0, resolve: resolve as (v: unknown) => void, reject };
      if (channel !== undefined && this.busy.has(channel)) {
        const old = this.waiting.get(channel);
        if (old) old.reject(new CoreError('superseded by a newer request', 'superseded'));
        this.waiting.set(channel, p);
        return;
      }
      this.send(p);
    });
  }

  /** Whether a newer request is waiting on this channel. */
  hasWaiting(channel: string): boolean { return this.waiting.has(channel); }

  private send(p: Pending): void {
    p.attempts += 1;
    p.timer = undefined;
    if (!this.worker) { p.attempts -= 1; this.held.push(p); return; }
    this.inflight.set(p.id, p);
    if (p.channel !== undefined) this.busy.set(p.channel, p);
    this.worker.postMessage({ id: p.id, kind: p.kind, params: p.params });
    this.armHead();
  }

  /**
   * The worker answers in the order it was asked, so only the oldest request in flight is running:
   * only it is timed. (Timing every request from its sending made requests queued behind a long
   * one time out, and each restart threw the long one's work away.)
   */
  private armHead(): void {
    if (!this.ready) return;  // a core still loading (a slow download) is not a hung request
    const head = this.inflight.values().next().value as Pending | undefined;
    if (head && head.timer === undefined) head.timer = this.opts.setTimer(() => this.onTimeout(head), this.opts.timeoutMs(head.kind, head.params));
  }

  private finish(p: Pending): void {
    if (p.timer !== undefined) this.opts.clearTimer(p.timer);
    this.inflight.delete(p.id);
    if (p.channel !== undefined && this.busy.get(p.channel) === p) {
      this.busy.delete(p.channel);
      const next = this.waiting.get(p.channel);
      if (next) { this.waiting.delete(p.channel); this.send(next); }
    }
    this.armHead();
  }

  private onMessage(m: unknown): void {
    if (isReadyMessage(m)) {
      if (this.ready) return;
      if (m.ready) { this.ready = true; this.opts.onReady(); this.armHead(); } else this.startFailed(m.error.message);
      return;
    }
    if (!isResponse(m)) return;
    if (!this.ready) { this.ready = true; this.opts.onReady(); }  // a worker that answers has started
    const p = this.inflight.get(m.id);
    if (!p) return;  // answer of a request given up on (timeout) — ignore
    this.finish(p);
    if (m.ok) p.resolve(m.result);
    else p.reject(new CoreError(m.error.message, m.error.name === CORE_LOAD_ERROR ? 'load' : 'core', m.error.name));
  }

  private onTimeout(p: Pending): void {
    if (!this.inflight.has(p.id)) return;
    this.restart('timeout', p);
  }

  /** Terminates the worker, starts a fresh one, and re-sends what was in flight (once). */
  private restart(reason: 'timeout' | 'crash', culprit?: Pending): void {
    if (!this.worker) return;
    this.restarts += 1;
    this.worker.onmessage = null;
    this.worker.onerror = null;
    this.worker.terminate();
    const lost = [...this.inflight.values()];
    for (const p of lost) if (p.timer !== undefined) this.opts.clearTimer(p.timer);
    this.inflight.clear();
    this.busy.clear();
    this.worker = this.spawn();
    this.opts.onRestart(reason);
    for (const p of lost) {
      const blamed = culprit ? p === culprit : true;
      if (blamed && p.attempts > this.opts.retries) {
        p.reject(new CoreError(reason === 'timeout'
          ? `${p.kind} took longer than ${this.opts.timeoutMs(p.kind, p.params)} ms (tried ${p.attempts} times)`
          : `the worker crashed during ${p.kind} (tried ${p.attempts} times)`, reason));
        this.release(p);
      } else {
        if (p.channel !== undefined && this.waiting.has(p.channel)) { p.reject(new CoreError('superseded by a newer request', 'superseded')); this.release(p); continue; }
        this.send(p);
      }
    }
  }

  private release(p: Pending): void {
    if (p.channel === undefined) return;
    const next = this.waiting.get(p.channel);
    if (next && !this.busy.has(p.channel)) { this.waiting.delete(p.channel); this.send(next); }
  }

  terminate(): void {
    this.worker?.terminate();
    for (const p of this.inflight.values()) if (p.timer !== undefined) this.opts.clearTimer(p.timer);
  }
}
