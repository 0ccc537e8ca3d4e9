// Drives the training runs of the lab from the page: one `create`, then `step` requests in chunks,
// round-robin over the runs, each chunk sized to take about `chunkMs` in the worker, so that a
// Cancel is honoured between two chunks; if a chunk is still running `cancelGraceMs` after Cancel,
// the worker is terminated (a fresh one is started by the next run). A run that diverges is a
// result: it stops there (the core stops it) and the others keep going.
import type { TrainingConfig, TrainingStepResult, TrainingRunInfo } from '../../../wasm/js/core.js';
import type { WorkerLike } from '../worker/protocol.ts';
import { CORE_LOAD_ERROR } from '../worker/protocol.ts';
import { isTrainResponse } from './protocol.ts';
import type { TrainCalls, TrainKind } from './protocol.ts';
import { emptySeries, appendStep } from './series.ts';
import type { RunSeries } from './series.ts';
import { TRAINING_DEFAULTS } from '../../../wasm/js/core.js';

export interface ControllerOptions {
  createWorker: () => WorkerLike;
  /** target time of one step request in the worker (default 30 ms) */
  chunkMs?: number;
  /** after Cancel, how long to wait for the chunk in flight before terminating the worker (default 60 ms) */
  cancelGraceMs?: number;
  /** largest chunk (default 256 steps) */
  maxChunk?: number;
  /** histogram bins of the analysis (default 48) */
  bins?: number;
  /**
   * ms a request may take before the worker counts as hung, plus TRAIN_TIMEOUT_SLOWDOWN × the
   * core's estimate of its work (default 60000: a step chunk takes about chunkMs; creating six of
   * the largest runs a few seconds): it is terminated, the run fails with a TrainingWorkerError,
   * and the next request starts a fresh worker
   */
  requestTimeoutMs?: number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (t: unknown) => void;
}

export interface RunListener {
  /** after each chunk: the runs so far and the steps per second over all runs */
  progress(runs: RunSeries[], stepsPerSecond: number): void;
  /** every run finished (or diverged) and was evaluated */
  done(runs: RunSeries[], stepsPerSecond: number): void;
  /** the runs could not be created or a request failed (the message of the core; `cause`: the error, a TrainingWorkerError when the worker died or hung) */
  error(message: string, runs: RunSeries[], cause?: unknown): void;
}

type Phase = 'idle' | 'running' | 'cancelling';

/**
 * How many times the core's estimate of a request's work (TrainingRunInfo.stepSeconds, calibrated
 * on 2 cores with Node 20) it may take beyond requestTimeoutMs: an engine whose wasm runs 10×
 * slower (WebKit, issue 29) on a loaded machine; as worker/cost.ts CALL_TIMEOUT_SLOWDOWN.
 */
export const TRAIN_TIMEOUT_SLOWDOWN = 30;

/**
 * The core's estimate of a run's `finish` request (evaluate, then analysis) in seconds, from the
 * cost model's own figure: a step is 3 × the forward pass's multiply-adds over `batch` sequences
 * (info.stepSeconds, wasm/src/train/training.cpp step_ns), and the forward pass's multiply-adds are
 * linear in the sequences (cost.cpp train_forward_macs), so n sequences forward cost
 * n / batch × stepSeconds / 3. evaluate() runs evalSize sequences forward, analysis() the first
 * S = max(1, min(evalSize, 256, ⌊2¹⁸ / pairs⌋)) with pairs = heads × (causal ? T(T+1)/2 : T²) per
 * sequence (training.cpp). Not priced: the histograms of at most 2¹⁸ logits per layer, which
 * the request's floor covers. `config` as given to create (absent fields: TRAINING_DEFAULTS);
 * 0 when info has no finite stepSeconds.
 */
export function finishSeconds(config: TrainingConfig, info: Pick<TrainingRunInfo, 'stepSeconds' | 'causal'> | null): number {
  const step = info?.stepSeconds;
  if (typeof step !== 'number' || !Number.isFinite(step) || step <= 0) return 0;
  const d = TRAINING_DEFAULTS;
  const evalSize = config.evalSize ?? d.evalSize, batch = config.batch ?? d.batch;
  const T = config.seqLen ?? d.seqLen, heads = config.heads ?? d.heads;
  const pairs = heads * (info?.causal === false ? T * T : (T * (T + 1)) / 2);
  const analysed = Math.max(1, Math.min(evalSize, 256, Math.floor((1 << 18) / pairs)));
  return ((evalSize + analysed) / batch) * (step / 3);
}

/**
 * The training worker died (an error event), stopped answering (a request over its timeout), or
 * could not load its core ('load': the .wasm did not come, or was not this core): not a refusal of
 * the configuration. The next request starts a fresh worker (or loads the core again), so Run works again.
 */
export class TrainingWorkerError extends Error {
  constructor(readonly kind: 'crash' | 'timeout' | 'load', message: string) {
    super(message);
    this.name = 'TrainingWorkerError';
  }
}

export class TrainingController {
  private worker: WorkerLike | null = null;
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly o: Required<Omit<ControllerOptions, 'createWorker'>> & { createWorker: () => WorkerLike };
  private generation = 0;
  private phase: Phase = 'idle';
  private cancelWaiters: (() => void)[] = [];
  /** ms from the last cancel() to the moment no chunk was running any more */
  lastCancelMs: number | null = null;
  /** how many workers were terminated by a Cancel (tests) */
  terminations = 0;
  runs: RunSeries[] = [];
  private ids: number[] = [];
  /** the cost model's seconds per step of each config checked or created (by the config) */
  private readonly stepSeconds = new Map<string, number>();

  constructor(options: ControllerOptions) {
    this.o = {
      chunkMs: 30, cancelGraceMs: 60, maxChunk: 256, bins: 48, requestTimeoutMs: 60000,
      now: () => performance.now(),
      setTimer: (fn, ms) => setTimeout(fn, ms),
      clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
      ...options,
    };
  }

  get running(): boolean { return this.phase !== 'idle'; }

  private ensureWorker(): WorkerLike {
    if (this.worker) return this.worker;
    const w = this.o.createWorker();
    w.onmessage = (ev) => {
      const m = ev.data;
      if (!isTrainResponse(m)) return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve({ result: m.result, ms: m.ms });
      else if (m.error.name === CORE_LOAD_ERROR) p.reject(new TrainingWorkerError('load', m.error.message));
      else p.reject(Object.assign(new Error(m.error.message), { name: m.error.name }));
    };
    w.onerror = (ev) => { ev.preventDefault?.(); this.kill(new TrainingWorkerError('crash', 'the training worker crashed')); };
    this.worker = w;
    return w;
  }

  /** Terminates the worker; every request in flight rejects with `reason`. */
  private kill(reason: Error): void {
    if (!this.worker) return;
    this.worker.onmessage = null;
    this.worker.onerror = null;
    this.worker.terminate();
    this.worker = null;
    const lost = [...this.pending.values()];
    this.pending.clear();
    for (const p of lost) p.reject(reason);
  }

  /** A request to the worker, timed out after requestTimeoutMs + TRAIN_TIMEOUT_SLOWDOWN × `workSeconds` (the core's estimate). */
  private request<K extends TrainKind>(kind: K, params: TrainCalls[K]['params'], workSeconds = 0): Promise<{ result: TrainCalls[K]['result']; ms: number }> {
    const w = this.ensureWorker();
    const id = this.nextId++;
    const timeoutMs = Math.round(this.o.requestTimeoutMs + TRAIN_TIMEOUT_SLOWDOWN * 1000 * (Number.isFinite(workSeconds) ? Math.max(0, workSeconds) : 0));
    return new Promise((resolve, reject) => {
      const timer = this.o.setTimer(() => {
        if (this.pending.has(id) && this.worker === w) this.kill(new TrainingWorkerError('timeout', `the training worker did not answer ${kind} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => this.o.clearTimer(timer);
      this.pending.set(id, { resolve: (v) => { done(); resolve(v as never); }, reject: (e) => { done(); reject(e); } });
      w.postMessage({ id, kind, params });
    });
  }

  /**
   * The budget check: resolves with each config's run info (sizes, memory, the cost model's
   * seconds per step), or rejects with the core's RangeError message.
   */
  async check(configs: TrainingConfig[]): Promise<TrainingRunInfo[]> {
    const infos = (await this.request('check', { configs })).result.infos;
    this.remember(configs, infos);
    return infos;
  }

  private remember(configs: TrainingConfig[], infos: TrainingRunInfo[]): void {
    if (!Array.isArray(infos)) return;
    infos.forEach((info, i) => { if (configs[i] && Number.isFinite(info?.stepSeconds)) this.stepSeconds.set(JSON.stringify(configs[i]), info.stepSeconds); });
    while (this.stepSeconds.size > 64) this.stepSeconds.delete(this.stepSeconds.keys().next().value as string);
  }

  /**
   * The work of creating `configs`, by the core's estimate: a run's initialisation costs less than
   * one of its steps, so one step of each (the largest step checked where a config was not).
   */
  private createSeconds(configs: TrainingConfig[]): number {
    const known = [...this.stepSeconds.values()];
    const fallback = known.length ? Math.max(...known) : 0;
    return configs.reduce((sum, c) => sum + (this.stepSeconds.get(JSON.stringify(c)) ?? fallback), 0);
  }

  /**
   * Starts the runs of `configs` (one per variant). A run already going is cancelled first.
   * Resolves when the runs finished, failed or were cancelled.
   */
  async start(configs: TrainingConfig[], listener: RunListener): Promise<void> {
    if (this.phase !== 'idle') await this.cancel();
    const gen = ++this.generation;
    this.phase = 'running';
    const layers = configs[0]?.layers ?? 2;
    this.runs = configs.map((c) => emptySeries(c.attention ?? 'inv_sqrt_dk', layers, c.steps ?? 200));
    this.ids = [];
    const runs = this.runs;
    const live = () => gen === this.generation && this.phase === 'running';
    const t0 = this.o.now();
    let stepsDone = 0;
    const rate = () => { const dt = (this.o.now() - t0) / 1000; return dt > 0 ? stepsDone / dt : 0; };
    try {
      const made = await this.request('create', { configs }, this.createSeconds(configs));
      this.ids = made.result.runs;
      made.result.infos.forEach((info, i) => { runs[i].info = info; });
      this.remember(configs, made.result.infos);
      if (!live()) return this.stopped(gen);
      const chunk = runs.map(() => 1);
      let turn = 0;
      while (runs.some((r) => !r.finished)) {
        while (runs[turn % runs.length].finished) turn++;
        const i = turn % runs.length;
        turn++;
        const r = runs[i];
        const n = Math.max(1, Math.min(chunk[i], r.steps - r.stepsDone, this.o.maxChunk));
        const { result, ms } = await this.request('step', { run: this.ids[i], n }, n * (r.info?.stepSeconds ?? 0));
        if (!live()) return this.stopped(gen);
        appendStep(r, result as TrainingStepResult);
        if (result.count === 0) r.finished = true;  // defensive: a run that makes no progress ends
        stepsDone += result.count;
        // next chunk: about chunkMs of work (at most doubling, so one slow chunk cannot run away)
        const per = ms / Math.max(1, result.count);
        chunk[i] = Math.max(1, Math.min(2 * n, Math.floor(this.o.chunkMs / Math.max(per, 1e-3))));
        listener.progress(runs, rate());
      }
      const sps = rate();
      for (let i = 0; i < runs.length; i++) {
        const { result } = await this.request('finish', { run: this.ids[i], bins: this.o.bins }, finishSeconds(configs[i], runs[i].info));
        if (!live()) return this.stopped(gen);
        runs[i].evaluation = result.evaluation;
        runs[i].analysis = result.analysis;
      }
      void this.request('dispose', { runs: this.ids }).catch(() => {});
      this.ids = [];
      this.phase = 'idle';
      listener.done(runs, sps);
    } catch (e) {
      if (gen !== this.generation || (this.phase as Phase) === 'cancelling') return this.stopped(gen);
      this.phase = 'idle';
      if (this.ids.length) void this.request('dispose', { runs: this.ids }).catch(() => {});
      this.ids = [];
      listener.error(e instanceof Error ? e.message : String(e), runs, e);
    }
  }

  private stopped(gen: number): void {
    if (gen !== this.generation && this.phase !== 'cancelling') return;
    this.finishCancel();
  }

  private cancelStarted = 0;
  private graceTimer: unknown = undefined;

  private finishCancel(): void {
    if (this.phase !== 'cancelling') return;
    if (this.graceTimer !== undefined) { this.o.clearTimer(this.graceTimer); this.graceTimer = undefined; }
    this.lastCancelMs = this.o.now() - this.cancelStarted;
    if (this.ids.length && this.worker) void this.request('dispose', { runs: this.ids }).catch(() => {});
    this.ids = [];
    this.phase = 'idle';
    const ws = this.cancelWaiters;
    this.cancelWaiters = [];
    for (const w of ws) w();
  }

  /**
   * Stops the runs: no further chunk is sent; the chunk in flight is waited for up to
   * cancelGraceMs, then the worker is terminated. Resolves when nothing runs any more.
   */
  cancel(): Promise<void> {
    if (this.phase === 'idle') return Promise.resolve();
    const p = new Promise<void>((resolve) => this.cancelWaiters.push(resolve));
    if (this.phase === 'cancelling') return p;
    this.phase = 'cancelling';
    this.cancelStarted = this.o.now();
    if (this.pending.size === 0) { this.finishCancel(); return p; }
    this.graceTimer = this.o.setTimer(() => {
      this.graceTimer = undefined;
      if (this.phase !== 'cancelling') return;
      this.terminations++;
      this.ids = [];  // the runs die with the worker
      this.kill(new Error('cancelled'));
    }, this.o.cancelGraceMs);
    return p;
  }

  /** Terminates the worker (the page is going away). */
  destroy(): void {
    this.generation++;
    this.kill(new Error('destroyed'));
    this.phase = 'idle';
  }
}
