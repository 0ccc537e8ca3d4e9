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
// count it has was measured to pay. No call waits, no worker is started: the pool never runs more
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

export class PoolSizer {
  /** the most workers the pool may run: its size (hardwareConcurrency − 1, at most 8) */
  readonly cap: number;
  /** the most workers worth running: cap until a measured count did not pay, then one fewer */
  limit: number;
  /** kind and worker count busy during a call → speeds (estimated seconds per measured second) of its last calls */
  private readonly speeds = new Map<string, number[]>();

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

  /**
   * Whether a pool running `workers` workers, every one busy while a call waits, starts one more:
   * under the limit, a second one at once, a further one only when the count it runs was measured to pay.
   */
  grows(workers: number): boolean {
    if (workers >= this.limit) return false;
    return workers <= 1 || this.pays(workers) === true;
  }
}
