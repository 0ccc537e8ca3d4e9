// The typed message protocol between the page and the core worker, shared by both sides.
// Page → worker: a Request with a numeric id. Worker → page: a Response with the same id, either
// { ok: true, result } or { ok: false, error } (errors are messages, never thrown across).
// The page's side of it, WorkerClient, is in client.ts.
import type { Core, SoftmaxJacobianResult, CoreInfo, Moments, ModelScale } from '../../../wasm/js/core.js';
import { EXPERIMENTS, EXPERIMENT_NAMES } from '../../../wasm/js/experiments.js';
import type { SplitKvParams, SplitKvResult } from './split-kv.ts';
import type { DvCheckParams, DvCheckResult } from './dv-check.ts';
import type { AlibiParams, AlibiResult, AlibiScalesParams, AlibiScalesResult } from './alibi.ts';

type Experiments = typeof EXPERIMENTS;
/**
 * The core's experiments called with one object of parameters (call 'params' in
 * wasm/js/experiments.js): the worker passes each through as it is, core[kind](params), so a new
 * one is a request kind without a line here or in the handler.
 */
export type PassThroughKind = { [K in keyof Experiments]: Experiments[K]['call'] extends 'params' ? K : never }[keyof Experiments];
export const PASS_THROUGH_KINDS: readonly PassThroughKind[] = EXPERIMENT_NAMES.filter((n): n is PassThroughKind => EXPERIMENTS[n].call === 'params');
type PassThroughCalls = { [K in PassThroughKind]: { params: NonNullable<Parameters<Core[K]>[0]>; result: ReturnType<Core[K]> } };

export interface JacobianCurveParams { gaps: number[] }
export interface JacobianCurveResult { gaps: Float64Array; frobenius: Float64Array; spectral: Float64Array }
/**
 * Var of the logits under grouped K/V heads: q [heads, seqLen, dk] and k [headsKv, seqLen, dk]
 * iid N(0, 1) (the core's normalDraws, streams 1 and 2 of the seed: attentionStats' own Q and K), k repeated over each group of
 * heads/headsKv query heads (GQA ≡ MHA with repeated K, Ainslie et al. 2023), then tensorStats.
 */
export interface GroupedLogitsParams { heads: number; headsKv: number; seqLen: number; dk: number; seed: number }
export interface GroupedLogitsResult {
  /** of the raw q·k over every head, query and key */ qk: Moments;
  /** Var(q·k/√d_k) */ scaledVariance: number;
  /** mean entropy of the rows under 1/√d_k, nats */ entropy: number;
  maxWeight: number;
}

/** Every request kind with its params and result: the pass-through experiments, and these. */
export interface Calls extends PassThroughCalls {
  info: { params: Record<string, never>; result: CoreInfo };
  softmaxJacobian: { params: { logits: number[]; softcap?: number }; result: SoftmaxJacobianResult };
  jacobianCurve: { params: JacobianCurveParams; result: JacobianCurveResult };
  groupedLogits: { params: GroupedLogitsParams; result: GroupedLogitsResult };
  modelScales: { params: Record<string, never>; result: ModelScale[] };
  /** split-KV attention merged by the log-sum-exp, held to the full call (split-kv.ts) */
  splitKv: { params: SplitKvParams; result: SplitKvResult };
  /** d_v ≠ d_k: the weights unchanged, the scale from d_k (dv-check.ts) */
  dvCheck: { params: DvCheckParams; result: DvCheckResult };
  /** ALiBi against 1/√d_k alone: each head's entropy against L (alibi.ts) */
  alibiEntropy: { params: AlibiParams; result: AlibiResult };
  /** ALiBi at one length under several scales (alibi.ts) */
  alibiScales: { params: AlibiScalesParams; result: AlibiScalesResult };
}
export type Kind = keyof Calls;
export const KINDS: readonly Kind[] = ['info', ...PASS_THROUGH_KINDS, 'softmaxJacobian', 'jacobianCurve', 'groupedLogits', 'modelScales', 'splitKv', 'dvCheck', 'alibiEntropy', 'alibiScales'];

export type Request = { [K in Kind]: { id: number; kind: K; params: Calls[K]['params'] } }[Kind];
export interface ErrorInfo { name: string; message: string }
export type Response =
  | { id: number; ok: true; result: unknown; ms: number }
  | { id: number; ok: false; error: ErrorInfo };

/** Whether m is a request {id: integer, kind ∈ kinds, params: object} (shared with the training worker). */
export function isRequestOf(m: unknown, kinds: readonly string[]): boolean {
  if (m === null || typeof m !== 'object') return false;
  const r = m as Record<string, unknown>;
  return typeof r.id === 'number' && Number.isInteger(r.id) && typeof r.kind === 'string'
    && kinds.includes(r.kind) && r.params !== null && typeof r.params === 'object';
}
export function isRequest(m: unknown): m is Request {
  return isRequestOf(m, KINDS);
}
export function isResponse(m: unknown): m is Response {
  if (m === null || typeof m !== 'object') return false;
  const r = m as Record<string, unknown>;
  if (typeof r.id !== 'number' || typeof r.ok !== 'boolean') return false;
  if (r.ok) return 'result' in r;
  const e = r.error as Record<string, unknown> | undefined;
  return !!e && typeof e.message === 'string' && typeof e.name === 'string';
}

/** The id of a request (-1 when the message has none): its reply carries it, even a refusal of a malformed one. */
export function requestId(msg: unknown): number {
  return msg !== null && typeof msg === 'object' && typeof (msg as { id?: unknown }).id === 'number' ? (msg as { id: number }).id : -1;
}

/** A thrown value as the error of a reply (errors are messages, never thrown across). */
export function errorInfo(e: unknown): ErrorInfo {
  const err = e instanceof Error ? e : new Error(String(e));
  return { name: err.name, message: err.message };
}

/** The buffers of every typed array in a result, so the worker can transfer instead of copy. */
export function transferables(value: unknown, out: Transferable[] = [], seen = new Set<ArrayBufferLike>()): Transferable[] {
  if (ArrayBuffer.isView(value)) {
    const b = value.buffer;
    if (b instanceof ArrayBuffer && !seen.has(b)) { seen.add(b); out.push(b); }
  } else if (Array.isArray(value)) {
    for (const v of value) transferables(v, out, seen);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) transferables(v, out, seen);
  }
  return out;
}

/**
 * An error that came back from the worker (kind 'core': the core refused the parameters), or from
 * the client: 'timeout' and 'crash' (the request hung or killed the worker twice), 'superseded'
 * (a newer request replaced it), 'unavailable' (no worker could load the core: the pool stopped),
 * 'load' (a worker on the core's first part could not load the full core this request needs:
 * its reply's error is named CORE_LOAD_ERROR).
 */
export type CoreErrorKind = 'core' | 'timeout' | 'crash' | 'superseded' | 'unavailable' | 'load';
/** The name of a reply's error when the full core a request needs did not load (worker/parts.ts). */
export const CORE_LOAD_ERROR = 'CoreLoadError';
export class CoreError extends Error {
  constructor(message: string, readonly kind: CoreErrorKind, name = 'Error') {
    super(message);
    this.name = name;
  }
}

/** What the client needs of a Worker (a fake in unit tests). */
export interface WorkerLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  terminate(): void;
  onmessage: ((ev: MessageEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
}

/** A worker's message about its core: loaded (ready) or not (with the error). */
export type ReadyMessage = { ready: true } | { ready: false; error: ErrorInfo };
export function isReadyMessage(m: unknown): m is ReadyMessage {
  if (m === null || typeof m !== 'object' || !('ready' in m) || 'id' in m) return false;
  const r = m as Record<string, unknown>;
  if (r.ready === true) return true;
  const e = r.error as Record<string, unknown> | undefined;
  return r.ready === false && !!e && typeof e.message === 'string' && typeof e.name === 'string';
}
