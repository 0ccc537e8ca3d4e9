// The worker protocol: message guards, request ids, latest-wins per channel, errors as messages,
// timeouts and crashes restarting the worker — with a fake worker and fake timers.
import { describe, it, expect } from 'vitest';
import { CoreError, isRequest, isResponse, transferables } from '../../web/src/worker/protocol.ts';
import { WorkerClient } from '../../web/src/worker/client.ts';
import type { WorkerLike, Request } from '../../web/src/worker/protocol.ts';

class FakeWorker implements WorkerLike {
  static all: FakeWorker[] = [];
  sent: Request[] = [];
  terminated = false;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  constructor() { FakeWorker.all.push(this); }
  postMessage(m: unknown) { this.sent.push(m as Request); }
  terminate() { this.terminated = true; }
  reply(id: number, result: unknown) { this.onmessage?.({ data: { id, ok: true, result, ms: 1 } } as MessageEvent); }
  fail(id: number, name: string, message: string) { this.onmessage?.({ data: { id, ok: false, error: { name, message } } } as MessageEvent); }
  crash() { this.onerror?.({ preventDefault() {} } as unknown as Event); }
}

function fakeTimers() {
  const timers = new Map<number, { fn: () => void; ms: number }>();
  let next = 1;
  return {
    setTimer: (fn: () => void, ms: number) => { const id = next++; timers.set(id, { fn, ms }); return id; },
    clearTimer: (id: unknown) => { timers.delete(id as number); },
    fireAll: () => { for (const [id, t] of [...timers]) { timers.delete(id); t.fn(); } },
    get count() { return timers.size; },
  };
}

function setup(opts: { retries?: number } = {}) {
  FakeWorker.all = [];
  const timers = fakeTimers();
  const restarts: string[] = [];
  const client = new WorkerClient({ createWorker: () => new FakeWorker(), onRestart: (r) => restarts.push(r), ...timers, ...opts });
  const w = () => FakeWorker.all[FakeWorker.all.length - 1];
  return { client, timers, restarts, w };
}
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('message guards', () => {
  it('accepts well-formed requests and responses only', () => {
    expect(isRequest({ id: 1, kind: 'info', params: {} })).toBe(true);
    expect(isRequest({ id: 1.5, kind: 'info', params: {} })).toBe(false);
    expect(isRequest({ id: 1, kind: 'eval', params: {} })).toBe(false);
    expect(isRequest({ id: 1, kind: 'info' })).toBe(false);
    expect(isRequest(null)).toBe(false);
    expect(isResponse({ id: 1, ok: true, result: 3, ms: 0 })).toBe(true);
    expect(isResponse({ id: 1, ok: false, error: { name: 'RangeError', message: 'x' } })).toBe(true);
    expect(isResponse({ id: 1, ok: false, error: 'x' })).toBe(false);
    expect(isResponse({ id: '1', ok: true, result: 1 })).toBe(false);
  });
  it('collects each typed-array buffer once for transfer', () => {
    const a = new Float64Array(4);
    const b = new Float32Array(2);
    const list = transferables({ a, nested: [{ b }, { a2: a.subarray(1) }], n: 3 });
    expect(list).toEqual([a.buffer, b.buffer]);
  });
});

describe('WorkerClient', () => {
  it('gives each request its own increasing id and resolves by id', async () => {
    const { client, w } = setup();
    const p1 = client.call('info', {});
    const p2 = client.call('softmaxJacobian', { logits: [1, 0] });
    const [r1, r2] = w().sent;
    expect(r1.id).toBeLessThan(r2.id);
    expect(r2).toEqual({ id: r2.id, kind: 'softmaxJacobian', params: { logits: [1, 0] } });
    w().reply(r2.id, 'second');
    w().reply(r1.id, 'first');
    await expect(p1).resolves.toBe('first');
    await expect(p2).resolves.toBe('second');
  });

  it('turns an error message into a rejected CoreError with name and message', async () => {
    const { client, w } = setup();
    const p = client.call('attentionStats', { dk: 0 });
    w().fail(w().sent[0].id, 'RangeError', 'attentionStats: dk = 0 is outside 1..16384');
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CoreError);
    expect((e as CoreError).name).toBe('RangeError');
    expect((e as CoreError).kind).toBe('core');
    expect((e as CoreError).message).toMatch(/dk = 0/);
  });

  it('latest wins on a channel: one in flight, waiting ones replace each other', async () => {
    const { client, w } = setup();
    const a = client.call('softmaxJacobian', { logits: [1, 0] }, 'gap');
    const b = client.call('softmaxJacobian', { logits: [2, 0] }, 'gap');
    const c = client.call('softmaxJacobian', { logits: [3, 0] }, 'gap');
    expect(w().sent).toHaveLength(1);  // only a is sent while it is in flight
    await expect(b).rejects.toMatchObject({ kind: 'superseded' });
    expect(client.hasWaiting('gap')).toBe(true);
    w().reply(w().sent[0].id, 'A');
    await expect(a).resolves.toBe('A');
    expect(w().sent).toHaveLength(2);  // then c, skipping b
    expect(w().sent[1].params).toEqual({ logits: [3, 0] });
    w().reply(w().sent[1].id, 'C');
    await expect(c).resolves.toBe('C');
    // other channels are independent
    client.call('info', {}, 'other');
    expect(w().sent).toHaveLength(3);
  });

  it('a hung request restarts the worker, retries once on the fresh one, then fails', async () => {
    const { client, timers, restarts, w } = setup({ retries: 1 });
    const p = client.call('saturationSweep', { dks: [4096] }, 'sweep');
    const first = w();
    timers.fireAll();  // timeout
    expect(first.terminated).toBe(true);
    expect(restarts).toEqual(['timeout']);
    const second = w();
    expect(second).not.toBe(first);
    expect(second.sent).toHaveLength(1);  // retried
    first.reply(first.sent[0].id, 'late');  // the old worker's late answer is ignored
    timers.fireAll();  // hangs again
    expect(restarts).toEqual(['timeout', 'timeout']);
    await expect(p).rejects.toMatchObject({ kind: 'timeout' });
    // the client still works afterwards
    const q = client.call('info', {});
    w().reply(w().sent[w().sent.length - 1].id, 'ok');
    await expect(q).resolves.toBe('ok');
    expect(client.restarts).toBe(2);
  });

  it('a crash restarts the worker and re-sends what was in flight', async () => {
    const { client, restarts, w } = setup();
    const p = client.call('info', {});
    const first = w();
    first.crash();
    expect(restarts).toEqual(['crash']);
    const second = w();
    expect(second.sent.map((r) => r.kind)).toEqual(['info']);
    second.reply(second.sent[0].id, 'after restart');
    await expect(p).resolves.toBe('after restart');
    await flush();
  });

  it('clears the timer of an answered request', async () => {
    const { client, timers, w } = setup();
    const p = client.call('info', {});
    expect(timers.count).toBe(1);
    w().reply(w().sent[0].id, 1);
    await p;
    expect(timers.count).toBe(0);
  });
});

describe('timeouts of queued requests', () => {
  it('times only the request the worker is running, so one queued behind a long one does not time out', async () => {
    const { client, timers, restarts, w } = setup();
    const a = client.call('info', {}, 'a');
    const b = client.call('info', {}, 'b');
    expect(w().sent.map((m) => m.id)).toEqual([1, 2]);
    expect(timers.count).toBe(1);  // only the head (a) is timed
    w().reply(1, { version: 'x' });
    await a;
    expect(timers.count).toBe(1);  // now b is running and timed
    w().reply(2, { version: 'y' });
    await expect(b).resolves.toEqual({ version: 'y' });
    expect(timers.count).toBe(0);
    expect(restarts).toEqual([]);
  });
});

describe('start failures (workers that announce when their core loaded)', () => {
  const ready = (w: FakeWorker) => w.onmessage?.({ data: { ready: true } } as MessageEvent);
  const notReady = (w: FakeWorker, message: string) => w.onmessage?.({ data: { ready: false, error: { name: 'Error', message } } } as MessageEvent);

  it('a request is not timed while the core loads: a slow download is no timeout', async () => {
    FakeWorker.all = [];
    const timers = fakeTimers();
    const client = new WorkerClient({ createWorker: () => new FakeWorker(), announcesReady: true, ...timers });
    const p = client.call('info', {});
    expect(timers.count).toBe(0);
    const w = FakeWorker.all[0];
    ready(w);
    expect(timers.count).toBe(1);
    w.reply(w.sent[0].id, 'ok');
    await expect(p).resolves.toBe('ok');
  });

  it('a core that cannot load is a start failure: no restart, the request held and sent to the revived worker', async () => {
    FakeWorker.all = [];
    const failures: string[] = [];
    const restarts: string[] = [];
    const client = new WorkerClient({ createWorker: () => new FakeWorker(), announcesReady: true, onStartFailure: (m) => failures.push(m), onRestart: (r) => restarts.push(r) });
    const p = client.call('info', {});
    notReady(FakeWorker.all[0], 'HTTP 404');
    expect(failures).toEqual(['HTTP 404']);
    expect(restarts).toEqual([]);
    expect(FakeWorker.all).toHaveLength(1);
    expect(FakeWorker.all[0].terminated).toBe(true);
    expect(client.down).toBe(true);
    // an error event before ready (a worker script that did not load) is one too
    client.revive();
    const w2 = FakeWorker.all[1];
    expect(w2.sent.map((r) => r.kind)).toEqual(['info']);
    w2.crash();
    expect(failures).toHaveLength(2);
    expect(restarts).toEqual([]);
    client.revive();
    const w3 = FakeWorker.all[2];
    ready(w3);
    w3.reply(w3.sent[0].id, 'finally');
    await expect(p).resolves.toBe('finally');
    // once started, a crash is a crash: restarted at once, the request re-sent once
    const q = client.call('info', {});
    w3.crash();
    expect(restarts).toEqual(['crash']);
    const w4 = FakeWorker.all[3];
    ready(w4);
    w4.reply(w4.sent[0].id, 'again');
    await expect(q).resolves.toBe('again');
  });
});

describe('Pool: bounded start', () => {
  it('backs off between attempts, then gives up with every request rejected and no further worker; retry() starts again', async () => {
    const { Pool } = await import('../../web/src/worker/pool.ts');
    FakeWorker.all = [];
    const timers = fakeTimers();
    const states: string[] = [];
    const delays: number[] = [];
    const pool = new Pool({
      size: 2, createWorker: () => new FakeWorker(), announcesReady: true, backoffMs: [10, 20],
      onStartState: (s) => { states.push(s.state); if (s.state === 'retrying') delays.push(s.inMs); },
      setTimer: timers.setTimer, clearTimer: timers.clearTimer,
    });
    const fail = () => { for (const w of FakeWorker.all) if (!w.terminated) w.onmessage?.({ data: { ready: false, error: { name: 'Error', message: 'HTTP 404' } } } as MessageEvent); };
    const p = pool.run({ kind: 'info', params: {}, priority: 0 });
    fail();  // both workers of the first attempt: one round
    expect(states).toEqual(['retrying']);
    expect(FakeWorker.all).toHaveLength(2);
    timers.fireAll();  // after 10 ms: both start again
    expect(FakeWorker.all).toHaveLength(4);
    fail();
    timers.fireAll();
    expect(FakeWorker.all).toHaveLength(6);
    fail();  // the third attempt failed: given up
    expect(states).toEqual(['retrying', 'retrying', 'unavailable']);
    expect(delays).toEqual([10, 20]);
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CoreError);
    expect((e as CoreError).kind).toBe('unavailable');
    expect(timers.count).toBe(0);
    // nothing more is asked until retry()
    await expect(pool.run({ kind: 'info', params: {}, priority: 0 })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(FakeWorker.all).toHaveLength(6);
    pool.retry();
    expect(FakeWorker.all).toHaveLength(8);
    const q = pool.run({ kind: 'info', params: {}, priority: 0 });
    const w = FakeWorker.all.find((x) => !x.terminated && x.sent.length > 0)!;
    w.onmessage?.({ data: { ready: true } } as MessageEvent);
    expect(states[states.length - 1]).toBe('ready');
    w.reply(w.sent[0].id, 'up');
    await expect(q).resolves.toBe('up');
  });
});
