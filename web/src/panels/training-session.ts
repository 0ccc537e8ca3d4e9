// The training lab's session: what outlives a rebuild of the view (a language switch rebuilds every panel) — the training worker's controller, the last runs and their status — kept for the page by the app (PanelCtx.keep).
import trainingWorkerUrl from '../training/worker.ts?worker&url';
import type { State } from '../state/state.ts';
import { TrainingController } from '../training/controller.ts';
import type { RunSeries } from '../training/series.ts';
import type { WorkerLike } from '../worker/protocol.ts';

export interface TrainingSession {
  controller: TrainingController | null;
  runs: RunSeries[];
  /** runKey of the configuration the runs were started with */
  key: string;
  status: 'idle' | 'running' | 'done' | 'cancelled' | 'error';
  sps: number;
  error: string;
  /** the softmax / clip / warm-up / T of the runs, for the text */
  cfg: State | null;
  listener: ((kind: 'progress' | 'done' | 'error') => void) | null;
}

/** A session with no run yet. */
export function newSession(): TrainingSession {
  return { controller: null, runs: [], key: '', status: 'idle', sps: 0, error: '', cfg: null, listener: null };
}

/** The session's controller, made on first use with a worker started by `spawnWorker`. */
export function sessionController(session: TrainingSession, spawnWorker: (url: string, name: string) => Worker): TrainingController {
  session.controller ??= new TrainingController({
    createWorker: () => spawnWorker(trainingWorkerUrl, 'sqrtdk-training') as unknown as WorkerLike,
    // chunks of ~25 ms; a chunk still running 40 ms after Cancel is cut short by terminating the worker
    chunkMs: 25,
    cancelGraceMs: 40,
  });
  // tests and bench read the controller (cancel latency, steps/s)
  (window as unknown as { __sqrtdkTraining?: object }).__sqrtdkTraining = { session, controller: session.controller };
  return session.controller;
}
