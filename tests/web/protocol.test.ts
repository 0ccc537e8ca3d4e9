// The worker protocol: message guards, request ids, latest-wins per channel, errors as messages,
// timeouts and crashes restarting the worker — with a fake worker and fake timers.
import { describe, it, expect } from 'vitest';
import { WorkerClient, CoreError, isRequest, isResponse, transferables } from '../../web/src/worker/protocol.ts';
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
