// What the training worker does with one request: owns the runs (id → TrainingRun) and calls the
// core; a throw becomes an error message. Pure apart from the core it is given, so unit tests run
// it against the real core under Node.
import type { Core, TrainingRun } from '../../../wasm/js/core.js';
import { isTrainRequest } from './protocol.ts';
import type { TrainResponse } from './protocol.ts';
import { requestId, errorInfo } from '../worker/protocol.ts';

export class TrainingHost {
  private readonly runs = new Map<number, TrainingRun>();
  private nextRun = 1;
  constructor(private readonly core: Core) {}

  get size(): number { return this.runs.size; }

  handle(msg: unknown): TrainResponse {
    const id = requestId(msg);
    if (!isTrainRequest(msg)) return { id, ok: false, error: { name: 'TypeError', message: 'malformed training request' } };
    const t0 = performance.now();
    try {
      let result: unknown;
      switch (msg.kind) {
        case 'check': {
          const infos = msg.params.configs.map((c) => {
            const r = this.core.createTrainingRun(c);
            try { return r.info(); } finally { r.dispose(); }
          });
          result = { infos };
          break;
        }
        case 'create': {
          const made: TrainingRun[] = [];
          try {
            for (const c of msg.params.configs) made.push(this.core.createTrainingRun(c));
          } catch (e) {
            for (const r of made) r.dispose();
            throw e;
          }
          const runs = made.map((r) => { const k = this.nextRun++; this.runs.set(k, r); return k; });
          result = { runs, infos: made.map((r) => r.info()) };
          break;
        }
        case 'step': result = this.get(msg.params.run).step(msg.params.n); break;
        case 'finish': {
          const r = this.get(msg.params.run);
          result = { evaluation: r.evaluate(), analysis: r.analysis(msg.params.bins) };
          break;
        }
        case 'dispose': {
          let disposed = 0;
          for (const k of msg.params.runs) {
            const r = this.runs.get(k);
            if (r) { r.dispose(); this.runs.delete(k); disposed++; }
          }
          result = { disposed };
          break;
        }
      }
      return { id, ok: true, result, ms: performance.now() - t0 };
    } catch (e) {
      return { id, ok: false, error: errorInfo(e) };
    }
  }

  private get(run: number): TrainingRun {
    const r = this.runs.get(run);
    if (!r) throw new RangeError(`training: no run ${run} (disposed or never created)`);
    return r;
  }
}
