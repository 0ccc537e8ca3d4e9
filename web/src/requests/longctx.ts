// The requests of the long-context view (fixed, log-n, YaRN, the article's, Llama 4's, SSMax against
// the context length), which worker computes each, and how one result is read per method. No DOM.
import type { LongContextMethod, LongContextScheme, LongContextParams, LongContextResult } from '../../../wasm/js/core.js';
import type { State } from '../state/state.ts';
import type { WorkerName } from '../compute.ts';
import type { SplitKvParams } from '../worker/split-kv.ts';
import type { AlibiParams, AlibiScalesParams } from '../worker/alibi.ts';
import { LONG_SEQ_STEPS } from '../state/schema.js';
import { kernelParam } from './attention.ts';

/** The methods of C8 and of the golden links (tests/web/golden-links.test.ts), in their order. */
export const METHODS: readonly LongContextMethod[] = ['fixed', 'logn', 'yarn', 'article'];
/** Every method the long-context panel draws: METHODS, then Llama 4's query temperature and SSMax (issue 19). */
export const PANEL_METHODS: readonly LongContextScheme[] = [...METHODS, 'llama4', 'ssmax'];
export const WORKER_OF: Record<LongContextScheme, WorkerName> = { fixed: 'live', logn: 'live', yarn: 'sweep', article: 'sweep', llama4: 'live', ssmax: 'sweep' };
/** The methods whose factor does not depend on L_train (Llama 4's floor_scale and SSMax's s are their own). */
const NO_TRAIN_LEN: ReadonlySet<LongContextScheme> = new Set(['fixed', 'llama4', 'ssmax']);
/** The length the text and readouts quote. */
export const QUOTE_L = 8192;

/** Queries per length: the sweep's cost is about queries · Σ L · d_k per method. */
export function longQueries(dk: number): number {
  return dk <= 64 ? 16 : dk <= 128 ? 8 : 4;
}

/**
 * The request of one method's curves alone ([9 lengths] of points): the golden links and the
 * interview's numbers are held to it, and its string is the method's key in the panel (longKeys).
 */
export function longParams(s: State, method: LongContextScheme): LongContextParams {
  return {
    dk: s.ldk, seqLens: [...LONG_SEQ_STEPS], queries: longQueries(s.ldk), methods: [method], seed: 0,
    // the fixed scale, Llama 4 and SSMax ignore L_train: one cache entry for every L_train
    trainLen: NO_TRAIN_LEN.has(method) ? 512 : s.ltrain,
    // the attention sink (the saturation panel's key), only when set: without it the request is today's
    ...(s.sink[0] !== undefined && s.sink[0] !== -Infinity ? { sink: s.sink[0] } : {}),
    ...kernelParam(s),
  };
}

/** Each panel method's key: its request alone as a string (longParams), so that a method whose request did not change keeps its curve. */
export function longKeys(s: State): Record<LongContextScheme, string> {
  return Object.fromEntries(PANEL_METHODS.map((m) => [m, JSON.stringify(longParams(s, m))])) as Record<LongContextScheme, string>;
}

/**
 * The methods the long-context panel asks for in state `s`, in PANEL_METHODS order: those whose
 * final curve on screen (`shown`: the key of each method's final result, longKeys) is not the
 * state's — after an L_train change logn, YaRN and the article's; after a d_k or sink change all
 * six; a method still on its way is asked again with the others, so one request holds them all.
 */
export function longMethodsToAsk(s: State, shown: Partial<Record<LongContextScheme, string>>): LongContextScheme[] {
  const keys = longKeys(s);
  return PANEL_METHODS.filter((m) => shown[m] !== keys[m]);
}

/**
 * One request for several methods (their curves, in PANEL_METHODS order), one core call: the core
 * forms q·k once for every method and length, and each method's logits are c·(q·k) with its own
 * factor c (wasm/src/long_context.cpp long_context), so method m's points are bit for bit those of
 * longParams(s, m) alone — the methods that ignore L_train (NO_TRAIN_LEN) give the same numbers at
 * any trainLen (tests/web/labs.test.ts). The request's trainLen is the reader's L_train when a
 * method reads it, else 512 (longParams's). Throws a RangeError for no method.
 */
export function longRequest(s: State, methods: readonly LongContextScheme[]): LongContextParams {
  const ordered = PANEL_METHODS.filter((m) => methods.includes(m));
  if (ordered.length === 0) throw new RangeError('longRequest: methods is empty; give at least one method');
  return { ...longParams(s, ordered.find((m) => !NO_TRAIN_LEN.has(m)) ?? ordered[0]), methods: ordered };
}

/** The priority of a request for `methods`: 'live' when one of them is a live method (WORKER_OF), else 'sweep'. */
export function longWorker(methods: readonly LongContextScheme[]): WorkerName {
  return methods.some((m) => WORKER_OF[m] === 'live') ? 'live' : 'sweep';
}

/** Method m's points out of the result of longRequest(s, methods): the result of longParams(s, m) alone. */
export function longResultOf(r: LongContextResult, methods: readonly LongContextScheme[], m: LongContextScheme): LongContextResult {
  const i = PANEL_METHODS.filter((x) => methods.includes(x)).indexOf(m);
  if (i < 0 || r.points[i] === undefined) throw new RangeError(`longResultOf: method '${m}' is not in the request (${methods.join(', ')})`);
  return { points: [r.points[i]] };
}

/** Query heads of the split-KV merge (d_v = d_k = the view's ldk). */
export const SPLIT_KV_HEADS = 4;
/** The split-KV merge's request (worker/split-kv.ts): 4 heads, L = lmlen, d_k = ldk, chunk A = the first round(lmsplit · L) keys. */
export function splitKvParams(s: State): SplitKvParams {
  return { heads: SPLIT_KV_HEADS, seqLen: s.lmlen, dk: s.ldk, split: Math.round(s.lmsplit * s.lmlen), seed: 0 };
}

/** Heads of the ALiBi section: 8, so Press's slopes are 1/2, 1/4, …, 1/256 (2^(−8h/8)). */
export const ALIBI_HEADS = 8;
/** Its lengths (one causal call of each, with and without ALiBi) and the last rows whose entropy is read. */
export const ALIBI_LENS: readonly number[] = [16, 32, 64, 128, 256, 512, 1024];
export const ALIBI_TAIL = 16;
/** The ALiBi section's request (worker/alibi.ts): 8 heads, d_k = ldk, seed 0; null when lalibi is off (nothing asked). */
export function alibiParams(s: State): AlibiParams | null {
  return s.lalibi ? { heads: ALIBI_HEADS, dk: s.ldk, seqLens: [...ALIBI_LENS], tail: ALIBI_TAIL, seed: 0 } : null;
}

/** The scales of the saturation view's ALiBi section, in its chart's order. */
export const ALIBI_SCALES = ['inv_sqrt_dk', 'none', 'inv_dk'] as const;
/** Its largest call, heads · L² · d_k multiply-adds (each of 3 scales runs two): L 1024 at d_k 16, L 128 at d_k 1024. */
export const ALIBI_SAT_MAX_MACS = 2 ** 27;
/**
 * The saturation view's ALiBi section (key salibi): 8 causal heads with Press's slopes at the view's d_k, L and seed,
 * the last min(16, L) rows, under ÷√d_k, no scale and ÷d_k; null when salibi is off (nothing asked).
 */
export function alibiScalesParams(s: State): AlibiScalesParams | null {
  return s.salibi ? { heads: ALIBI_HEADS, dk: s.dk, seqLen: s.seqLen, tail: Math.min(ALIBI_TAIL, s.seqLen), seed: s.seed, scales: [...ALIBI_SCALES] } : null;
}
/** Whether that request is over ALIBI_SAT_MAX_MACS (then the section says so and asks nothing). */
export function alibiScalesTooBig(p: AlibiScalesParams): boolean {
  return p.heads * p.seqLen * p.seqLen * p.dk > ALIBI_SAT_MAX_MACS;
}
