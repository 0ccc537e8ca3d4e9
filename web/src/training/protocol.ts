// The message protocol of the training worker (web/src/training/worker.ts), shared by both sides.
// The runs live in the worker (their state is in the wasm heap); the page drives them in chunks
// with `step` requests, so a Cancel is honoured between two chunks (see controller.ts).
// Page → worker: a TrainRequest with a numeric id. Worker → page: a TrainResponse with the same id,
// { ok: true, result, ms } or { ok: false, error } (a RangeError of the core comes back as a message).
import type { TrainingConfig, TrainingStepResult, TrainingEvalResult, TrainingAnalysis, TrainingRunInfo } from '../../../wasm/js/core.js';
import { isRequestOf, isResponse } from '../worker/protocol.ts';

export interface TrainCalls {
  /** creates each run, reads its info and disposes it: the budget check before any step runs */
  check: { params: { configs: TrainingConfig[] }; result: { infos: TrainingRunInfo[] } };
  /** creates one run per config (same seed → same initial weights where shapes allow, same batches) */
  create: { params: { configs: TrainingConfig[] }; result: { runs: number[]; infos: TrainingRunInfo[] } };
  /** runs up to n more steps of one run */
  step: { params: { run: number; n: number }; result: TrainingStepResult };
  /** held-out loss and accuracy, and the per-layer logit analysis, of a run's current weights */
  finish: { params: { run: number; bins: number }; result: { evaluation: TrainingEvalResult; analysis: TrainingAnalysis } };
  /** frees runs (unknown ids are ignored) */
  dispose: { params: { runs: number[] }; result: { disposed: number } };
}
export type TrainKind = keyof TrainCalls;
export const TRAIN_KINDS: readonly TrainKind[] = ['check', 'create', 'step', 'finish', 'dispose'];

export type TrainRequest = { [K in TrainKind]: { id: number; kind: K; params: TrainCalls[K]['params'] } }[TrainKind];
export type TrainResponse =
  | { id: number; ok: true; result: unknown; ms: number }
  | { id: number; ok: false; error: { name: string; message: string } };

export function isTrainRequest(m: unknown): m is TrainRequest {
  return isRequestOf(m, TRAIN_KINDS);
}
/** Responses have the shape of the compute worker's. */
export function isTrainResponse(m: unknown): m is TrainResponse {
  return isResponse(m);
}
