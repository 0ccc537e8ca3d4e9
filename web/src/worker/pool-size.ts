// How many workers the page's pool runs: started one at a time, when the work waits for one, and
// no more than measured speed shows to pay (issue 29: a browser that reports more cores than the
// machine has — WebKit said 4 on 2 CPUs — must not make every call slower and time out).
//
// A call's speed is the core's estimate of its work (core.cost) over the time it took. Calls that
// ran with k workers busy are compared with calls of the same kind (the estimate's calibration is
// per kind) that ran with k − 1 busy: k workers pay when
// together they do PARALLEL_GAIN times the work of k − 1 (k·speed_k ≥ PARALLEL_GAIN·(k−1)·speed_{k−1});
// when they do not, the pool runs k − 1 from then on. The pool starts a second worker as soon as a
// call waits (the old pool always ran hardwareConcurrency − 1), and a third or more only once the
// count it has was measured to pay and the calls waiting hold more work, at the speed measured with
// that many workers, than starting a worker took (its measured start: loading the core in a new
// worker; WebKit took seconds on 2 CPUs): a short call that waits runs sooner on a worker it has.
// No call waits, no worker is started: the pool never runs more
// workers than the page's work had calls to run at once (the planner splits a request in at most
// `parts` calls, worker/plan.ts).

/** k workers must do this many times the work of k − 1 to be worth running. */
export const PARALLEL_GAIN = 1.25;
/** Calls the core estimates below this many seconds are not timed: their overheads dominate. */
export const MEASURE_MIN_SECONDS = 0.005;
/** Timed calls at a worker count (and at one fewer) before that count is judged. */
export const CALLS_TO_JUDGE = 2;
/** Timed calls kept per worker count (the newest). */
const KEPT = 6;

/** A call waiting for a worker: its kind and the core's estimate of its work. */
export interface WaitingCall { kind: string; seconds: number }

export class PoolSizer {
  /** the most workers the pool may run: its size (hardwareConcurrency − 1, at most 8) */
  readonly cap: number;
  /** the most workers worth running: cap until a measured count did not pay, then one fewer */
  limit: number;
  /** kind and worker count busy during a call → speeds (estimated seconds per measured second) of its last calls */
  private readonly speeds = new Map<string, number[]>();
  /**
   * the longest measured start of a worker after the first (ms from its creation to its core loaded: what
   * one more worker costs; the first worker's start includes the page's own download and compile), or null
   */
  startMs: number | null = null;

  constructor(cap: number) {
    if (!Number.isInteger(cap) || cap < 1) throw new RangeError(`PoolSizer: cap = ${cap} must be an integer ≥ 1`);
    this.cap = cap;
    this.limit = cap;
  }

  /**
   * A call of `kind` finished: `busy` workers were busy at most while it ran, the core estimated it
   * at `estimateSeconds` and it took `elapsedMs`. A count of workers that does not pay lowers the limit.
   */
  record(kind: string, busy: number, estimateSeconds: number, elapsedMs: number): void {
    if (!Number.isInteger(busy) || busy < 1 || !(estimateSeconds >= MEASURE_MIN_SECONDS) || !(elapsedMs > 0)) return;
    const key = `${kind}|${busy}`;
    const list = this.speeds.get(key) ?? [];
    list.push(estimateSeconds / (elapsedMs / 1000));
    if (list.length > KEPT) list.shift();
    this.speeds.set(key, list);
    if (busy >= 2 && busy <= this.limit && this.paysFor(kind, busy) === false) this.limit = busy - 1;
  }

  /** The mean speed of the calls of `kind` timed with `busy` workers busy, or null with fewer than CALLS_TO_JUDGE. */
  speed(kind: string, busy: number): number | null {
    const list = this.speeds.get(`${kind}|${busy}`);
    if (!list || list.length < CALLS_TO_JUDGE) return null;
    return list.reduce((a, b) => a + b, 0) / list.length;
  }

  private paysFor(kind: string, k: number): boolean | null {
    const s = this.speed(kind, k), t = this.speed(kind, k - 1);
    if (s === null || t === null) return null;
    return k * s >= PARALLEL_GAIN * (k - 1) * t;
  }

  /**
   * Whether k workers did PARALLEL_GAIN times the work of k − 1 for the calls of some kind measured
   * at both counts (and for none did not: a count that did not pay lowered the limit); null until measured.
   */
  pays(k: number): boolean | null {
    const kinds = new Set([...this.speeds.keys()].map((key) => key.slice(0, key.lastIndexOf('|'))));
    let verdict: boolean | null = null;
    for (const kind of kinds) {
      const v = this.paysFor(kind, k);
      if (v === false) return false;
      if (v === true) verdict = true;
    }
    return verdict;
  }

  /** A worker's core loaded `ms` after the worker was created (workers that announce their start). */
  recordStart(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) return;
    this.startMs = Math.max(this.startMs ?? 0, ms);
  }

  /**
   * The milliseconds the waiting calls would take at the speed measured for their kind with `workers`
   * busy (else with fewer, else the mean of the kinds measured at that count); a call of a kind never
   * measured counts nothing.
   */
  waitingMs(workers: number, waiting: readonly WaitingCall[]): number {
    const at: number[] = [];
    for (const key of this.speeds.keys()) {
      if (!key.endsWith(`|${workers}`)) continue;
      const v = this.speed(key.slice(0, key.lastIndexOf('|')), workers);
      if (v !== null) at.push(v);
    }
    const mean = at.length ? at.reduce((a, b) => a + b, 0) / at.length : null;
    let ms = 0;
    for (const c of waiting) {
      let v: number | null = null;
      for (let k = workers; k >= 1 && v === null; k--) v = this.speed(c.kind, k);
      v ??= mean;
      if (v !== null && v > 0 && c.seconds > 0) ms += (c.seconds / v) * 1000;
    }
    return ms;
  }

  /**
   * Whether a pool running `workers` workers, every one busy while `waiting` wait, starts one more:
   * under the limit, a second one at once, a further one only when the count it runs was measured to
   * pay and the waiting work takes longer than a worker's measured start (none measured: any waiting call).
   */
  grows(workers: number, waiting: readonly WaitingCall[] = []): boolean {
    if (workers >= this.limit) return false;
    if (workers <= 1) return true;
    if (this.pays(workers) !== true || waiting.length === 0) return false;
    return this.startMs === null || this.waitingMs(workers, waiting) >= this.startMs;
  }
}
