// The pool's size by measurement (issue 29): a growing pool starts one worker, a second when a call
// waits, a third or more only when the count it runs was measured to pay, and it retires a worker
// its measurements show not to pay — with fake workers and a fake clock standing in for a machine.
import { describe, it, expect } from 'vitest';
import { PoolSizer, PARALLEL_GAIN, MEASURE_MIN_SECONDS } from '../../web/src/worker/pool-size.ts';
import { Pool } from '../../web/src/worker/pool.ts';
import type { WorkerLike, Request } from '../../web/src/worker/protocol.ts';

describe('PoolSizer: the rule', () => {
  it('a second worker at once; a third only once two were measured to do PARALLEL_GAIN times the work of one', () => {
    const s = new PoolSizer(4);
    expect([s.grows(1), s.grows(2)]).toEqual([true, false]);
    s.record('saturationSweep', 1, 0.1, 100);
    s.record('saturationSweep', 1, 0.1, 100);
    s.record('saturationSweep', 2, 0.1, 105);
    expect(s.grows(2)).toBe(false);  // one call at 2 is not enough to judge
    s.record('saturationSweep', 2, 0.1, 105);
    expect(s.pays(2)).toBe(true);
    expect(s.grows(2, [{ kind: 'saturationSweep', seconds: 0.1 }])).toBe(true);  // and a call waits
    expect(s.grows(2)).toBe(false);  // nothing waits
    expect(s.grows(3, [{ kind: 'saturationSweep', seconds: 0.1 }])).toBe(false);  // 3 not measured yet
    expect(s.limit).toBe(4);
  });

  it('on 2 CPUs that report 4 cores: three workers each run at 2/3 speed, do no more work than two, and the limit drops to 2', () => {
    const s = new PoolSizer(3);
    for (let i = 0; i < 2; i++) { s.record('scoreVariance', 1, 0.2, 200); s.record('scoreVariance', 2, 0.2, 200); }
    for (let i = 0; i < 2; i++) s.record('scoreVariance', 3, 0.2, 300);
    expect(3 * (0.2 / 0.3)).toBeLessThan(PARALLEL_GAIN * 2 * 1);
    expect(s.pays(3)).toBe(false);
    expect(s.limit).toBe(2);
    expect(s.grows(2)).toBe(false);
  });

  it('cores run on one thread (the page-thread fallback): two workers at half speed each lower the limit to 1', () => {
    const s = new PoolSizer(7);
    for (let i = 0; i < 2; i++) { s.record('attentionStats', 1, 0.05, 50); s.record('attentionStats', 2, 0.05, 100); }
    expect(s.limit).toBe(1);
    expect(s.grows(1)).toBe(false);
  });

  it('never past the cap; a pool of one never grows', () => {
    expect(new PoolSizer(1).grows(1)).toBe(false);
    const s = new PoolSizer(2);
    for (let i = 0; i < 2; i++) { s.record('k', 1, 0.1, 100); s.record('k', 2, 0.1, 100); }
    expect(s.pays(2)).toBe(true);
    expect(s.grows(2)).toBe(false);
    expect(() => new PoolSizer(0)).toThrow(/cap = 0/);
    expect(() => new PoolSizer(1.5)).toThrow(/cap = 1.5/);
  });

  it('a third worker only for waiting work that takes longer, at the measured speed, than a worker\'s measured start', () => {
    const s = new PoolSizer(4);
    for (let i = 0; i < 2; i++) { s.record('saturationSweep', 1, 0.1, 100); s.record('saturationSweep', 2, 0.1, 100); }
    expect(s.pays(2)).toBe(true);
    const calls = (n: number, seconds = 0.1, kind = 'saturationSweep') => Array.from({ length: n }, () => ({ kind, seconds }));
    expect(s.grows(2, calls(1))).toBe(true);   // no start measured: any waiting call
    expect(s.grows(2, [])).toBe(false);        // nothing waits
    s.recordStart(450);                        // WebKit on 2 CPUs: a worker took 0.45 s to load its core
    expect(s.waitingMs(2, calls(4))).toBeCloseTo(400, 9);  // 4 × 0.1 s at speed 1
    expect(s.grows(2, calls(4))).toBe(false);  // 400 ms of work: the two workers finish it before a third starts
    expect(s.grows(2, calls(5))).toBe(true);   // 500 ms ≥ 450 ms
    // a kind measured alone runs at its own speed; a kind never measured at the mean of the kinds measured at 2
    for (let i = 0; i < 2; i++) s.record('fast', 1, 0.1, 10);
    expect(s.waitingMs(2, calls(1, 0.1, 'fast'))).toBeCloseTo(10, 9);
    expect(s.waitingMs(2, calls(1, 0.5, 'never'))).toBeCloseTo(500, 9);
    s.recordStart(100);                        // the longest start is kept
    expect(s.startMs).toBe(450);
    s.recordStart(Number.NaN);
    expect(s.startMs).toBe(450);
  });

  it('calls too small to time, failed timings, and kinds measured at one count only are not judged', () => {
    const s = new PoolSizer(3);
    for (let i = 0; i < 4; i++) {
      s.record('k', 1, MEASURE_MIN_SECONDS / 2, 1);   // overheads dominate
      s.record('k', 2, 0.1, 0);                        // no time measured
      s.record('k', 0, 0.1, 100);                      // no worker busy: not a call
    }
    expect(s.speed('k', 1)).toBeNull();
    expect(s.speed('k', 2)).toBeNull();
    // the estimate's calibration differs per kind: a fast kind alone is not compared with a slow kind in parallel
    for (let i = 0; i < 2; i++) { s.record('fast', 1, 0.1, 10); s.record('slow', 2, 0.1, 1000); }
    expect(s.pays(2)).toBeNull();
    expect(s.limit).toBe(3);
  });
});

class FakeWorker implements WorkerLike {
  static all: FakeWorker[] = [];
  sent: Request[] = [];
  replied = new Set<number>();
  terminated = false;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  constructor() { FakeWorker.all.push(this); }
  postMessage(m: unknown) { this.sent.push(m as Request); }
  terminate() { this.terminated = true; }
}

/**
 * A growing pool of `cap` on a fake clock; every call is estimated at 0.1 s. With `startMs`, workers
 * announce their start, each worker after the first `startMs` after it was created.
 */
function growing(cap: number, startMs?: number) {
  FakeWorker.all = [];
  let clock = 0;
  const created = new Map<FakeWorker, number>();
  const announces = startMs !== undefined;
  const pool = new Pool({
    size: cap, grows: true, announcesReady: announces, estimateSeconds: () => 0.1, now: () => clock,
    createWorker: () => { const w = new FakeWorker(); created.set(w, clock); return w; },
  });
  const ready = new Set<FakeWorker>();
  /** workers whose start is over announce it */
  const starts = () => {
    for (const w of FakeWorker.all) {
      if (!announces || ready.has(w)) continue;
      if (w !== FakeWorker.all[0] && clock - created.get(w)! < startMs) continue;
      ready.add(w);
      w.onmessage?.({ data: { ready: true } } as MessageEvent);
    }
  };
  const flush = () => new Promise((r) => setTimeout(r, 0));
  /** `calls` calls at once, each answered `ms` after it was sent (the machine's speed at that many workers) */
  const round = async (calls: number, ms: number) => {
    let settled = 0;
    starts();
    for (let i = 0; i < calls; i++) void pool.run({ kind: 'scoreVariance', params: {}, priority: 2 }).then(() => { settled += 1; });
    await flush();
    for (let pass = 0; settled < calls; pass++) {
      if (pass > calls + 20) throw new Error('calls not sent to any worker');
      clock += ms;
      starts();
      for (const w of FakeWorker.all) {
        if (announces && !ready.has(w)) continue;
        for (const m of w.sent) {
          if (w.terminated || w.replied.has(m.id)) continue;
          w.replied.add(m.id);
          w.onmessage?.({ data: { id: m.id, ok: true, result: 'r', ms } } as MessageEvent);
        }
      }
      await flush();
    }
  };
  return { pool, round };
}

describe('Pool: grows by measurement', () => {
  it('starts one worker; a lone call starts no other; a waiting call starts a second', async () => {
    const { pool, round } = growing(3);
    expect(FakeWorker.all).toHaveLength(1);
    expect([pool.size, pool.workers, pool.parts]).toEqual([3, 1, 3]);
    await round(1, 100);
    expect(FakeWorker.all).toHaveLength(1);
    await round(2, 100);
    expect(FakeWorker.all).toHaveLength(2);
    await round(3, 200);  // two workers not yet measured to pay: the third call waits, no third worker
    expect(FakeWorker.all).toHaveLength(2);
  });

  it('a third worker once two paid; retired (and the plan split in two) once three were measured not to pay', async () => {
    const { pool, round } = growing(3);
    await round(1, 100);
    await round(1, 100);        // two calls alone: speed 1
    await round(2, 100);
    await round(2, 100);        // two at once, each at full speed: two workers pay
    expect(pool.workers).toBe(2);
    await round(3, 150);        // a third worker; three at once, each at 2/3 speed: no more work done than by two
    expect(FakeWorker.all).toHaveLength(3);
    expect(pool.parts).toBe(2);
    expect(pool.workers).toBe(2);
    expect(FakeWorker.all[2].terminated).toBe(true);
    expect(FakeWorker.all.slice(0, 2).every((w) => !w.terminated)).toBe(true);
    await round(3, 200);        // and it does not start again
    expect(FakeWorker.all).toHaveLength(3);
    expect(pool.sent).toBe(1 + 1 + 2 + 2 + 3 + 3);
  });

  it('a slow start (0.45 s, WebKit on 2 CPUs) keeps a third worker for waiting work that outlasts it', async () => {
    const { pool, round } = growing(3, 450);
    await round(1, 100);
    await round(1, 100);
    await round(2, 100);        // a second worker: it starts in 450 ms, then the calls at two
    await round(2, 100);
    await round(2, 100);
    expect(pool.workers).toBe(2);
    await round(3, 100);        // two paid, but one call of 100 ms waits: no third worker
    await round(4, 100);        // two calls, 200 ms
    expect(FakeWorker.all).toHaveLength(2);
    await round(8, 100);        // six calls of 100 ms wait: 600 ms ≥ 450 ms, a third worker
    expect(FakeWorker.all).toHaveLength(3);
  });

  it('a pool that does not grow starts all its workers at once (the `?pool=N` size, tests)', () => {
    FakeWorker.all = [];
    const pool = new Pool({ size: 3, createWorker: () => new FakeWorker() });
    expect(FakeWorker.all).toHaveLength(3);
    expect([pool.size, pool.workers, pool.parts]).toEqual([3, 3, 3]);
  });
});
