// Request parameters (and text helpers) of the lab panels (precision, long context, GQA), with no
// DOM and no Chart.js, so that unit tests import exactly what the panels send to the core.
import type { PrecisionLabParams, PrecisionLabResult, LongContextMethod, LongContextScheme, LongContextParams, LongContextResult, AttentionStatsParams } from '../../../wasm/js/core.js';
import type { State } from '../state/state.ts';
import type { WorkerName } from '../compute.ts';
import type { Layout } from '../charts/labs.ts';
import { LONG_SEQ_STEPS, SCHEMA } from '../state/schema.js';
import { parseNums } from '../state/state.ts';
import { kvLayouts } from '../kvcache.ts';
import { fmt, pct } from '../format.ts';
import { kernelParam } from './attention.ts';

// ---- precision lab ----
export const LOGIT_PRESETS: readonly (readonly number[])[] = [[100, 90, 80], [10, 0], [11, 11]];
/** Rows of the random mode: about 4096 keys in all (the lab runs 12 emulated softmaxes per row). */
export function precisionRows(seqLen: number): number {
  return Math.max(4, Math.min(64, Math.floor(4096 / seqLen)));
}
/** The setting of the C11 check: the article's d_k = 512 and L = 128, random rows. */
export const C11_SHAPE = { rows: 32, seqLen: 128, dk: 512, seed: 0, blockSize: 32 } as const;

/** The q/k mode's tensors: q = pq·𝟏 [1, d_k] and keys k_j = pk_j·𝟏, each repeated pkrep times: [keys · pkrep, d_k], float32. */
export function precisionQk(s: State): { q: Float32Array; k: Float32Array } {
  const per = s.pkrep * s.pdk;
  const k = new Float32Array(s.pk.length * per);
  s.pk.forEach((x, j) => k.fill(x, j * per, (j + 1) * per));
  return { q: new Float32Array(s.pdk).fill(s.pq), k };
}
/** The float16 sum stall: 4096 zero logits (q = 0) summed in float16 stop at 2048, so Σp = 2 (issue 19). */
/**
 * The cache key of the precision lab's request: in the q/k mode the state fields the tensors are
 * built from (pq, pk, pkrep, pdk), not the tensors themselves (up to 8192 × 4096 numbers, which
 * JSON.stringify could neither afford on every change nor always hold in one string); else its params.
 */
export function precisionKey(s: State): string {
  if (s.pmode !== 'qk') return JSON.stringify(precisionParams(s));
  return JSON.stringify({ qk: [s.pq, s.pk, s.pkrep, s.pdk], scale: s.pscale, scaleAt: s.pscaleat, blockSize: s.pblock, accumulate: s.pacc, maskedRow: s.pmasked });
}

export const STALL_PRESET = { pmode: 'qk', pdk: 16, pq: 0, pk: [0], pkrep: 4096, pscale: 'inv_sqrt_dk', pscaleat: 'scores', pacc: 'same' } as const;
/** The d_k the q/k mode starts at: the fp16 case (q = 24·𝟏 against 24·𝟏, 12·𝟏, 0 at d_k 128). */
export const QK_PRESET = { pmode: 'qk', pdk: 128, pq: 24, pk: [24, 12, 0], pkrep: 1, pscale: 'inv_sqrt_dk', pscaleat: 'scores', pacc: 'same' } as const;

/**
 * The precision lab's request. The core checks the row sums by default (the Σp column and the cause sumStall,
 * in every mode); rowSums: false would leave out those two fields and nothing else.
 */
export function precisionParams(s: State): PrecisionLabParams {
  const rule = { accumulate: s.pacc, maskedRow: s.pmasked } as const;
  if (s.pmode === 'qk') return { ...precisionQk(s), dk: s.pdk, scale: s.pscale, scaleAt: s.pscaleat, blockSize: s.pblock, ...rule };
  return s.pmode === 'logits'
    ? { logits: [...s.plogits], blockSize: s.pblock, ...rule }
    : { rows: precisionRows(s.pseqLen), seqLen: s.pseqLen, dk: s.pdk, scale: s.pscale, seed: s.pseed, blockSize: s.pblock, ...rule };
}

/** The logit field: numbers separated by commas, spaces or semicolons; −∞ (-inf, −∞) is a masked key. */
export function parseLogitField(raw: string): number[] | null {
  const body = raw.replace(/[[\]]+/g, ' ').trim();
  if (body === '') return null;
  const spec = SCHEMA.plogits;
  const xs = parseNums(body, true, /[\s,;]+/);
  if (xs === null || xs.length > spec.maxLength || xs.some((x) => x !== -Infinity && (x < spec.min || x > spec.max))) return null;
  return xs;
}
/** The signs of the causes, in their order (the legend explains them; the same in every language). */
export const CAUSE_SIGNS = [
  ['inputOverflow', 'in→∞'], ['expOverflow', 'exp→∞'], ['sumOverflow', 'Σ→∞'], ['nan', '0/0'], ['underflow', '0↓'], ['sumStall', 'Σp≠1'],
] as const;

/** True when some row of the cell broke (a non-finite weight or any cause). */
export function cellBroken(c: PrecisionLabResult['cells'][number]): boolean {
  return c.shareNonfinite > 0 || CAUSE_SIGNS.some(([k]) => (c.causes[k] ?? 0) > 0);
}

/**
 * The text of one table cell, the same in every language (the legend explains the signs):
 * NaN / ±∞ share of rows, then each cause's share of rows (CAUSE_SIGNS), Δ the largest error.
 */
export function cellText(c: PrecisionLabResult['cells'][number]): string {
  const parts: string[] = [];
  if (c.shareNan > 0) parts.push(`NaN ${pct(c.shareNan)}`);
  if (c.shareNonfinite > c.shareNan) parts.push(`±∞ ${pct(c.shareNonfinite - c.shareNan)}`);
  for (const [k, sign] of CAUSE_SIGNS) if ((c.causes[k] ?? 0) > 0) parts.push(`${sign} ${pct(c.causes[k] ?? 0)}`);
  if (Number.isFinite(c.maxAbsError)) parts.push(`Δ ${fmt(c.maxAbsError, 2)}`);
  if (!cellBroken(c)) parts.unshift('✓');
  return parts.join(' · ');
}

/** The Σp column of a format: the min and max row sum of its safe cell ("–" without rowSums). */
export function rowSumText(c: PrecisionLabResult['cells'][number]): string {
  const r = c.rowSum;
  if (!r || !Number.isFinite(r.min)) return '–';
  return r.min === r.max ? fmt(r.min, 5) : `${fmt(r.min, 5)} … ${fmt(r.max, 5)}`;
}

// ---- long context ----
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

// ---- GQA / MQA ----
/** Keys per row of the statistics (small, so MHA/GQA/MQA at 64 heads stay quick). */
export const GQA_SEQ_LEN = 32;
/** A published configuration (gemma_pytorch `get_config_for_27b`; Hugging Face Gemma2Config). */
export const GEMMA2_27B = { hq: 32, hkv: 16, gdk: 128, kvl: 46, queryPreAttnScalar: 144, dModel: 4608, attnLogitSoftcap: 50 } as const;
/** The logit gap of the Gemma 2 note's soft-cap computation: the case, cap 50 on [100, 0]. */
export const GEMMA2_CAP_GAP = 100;

export function headsKvOf(layout: Layout, s: State): number {
  return kvLayouts(s.hq, s.hkv).find((l) => l.id === layout)!.headsKv;
}
export function gqaStatsParams(s: State, layout: Layout, dk: number, scale: 'inv_sqrt_dk' | 'none' = 'inv_sqrt_dk'): AttentionStatsParams {
  return { heads: s.hq, headsKv: headsKvOf(layout, s), seqLen: GQA_SEQ_LEN, dk, scale, seed: 0, perRow: false, heatmapSize: 1, ...kernelParam(s) };
}
