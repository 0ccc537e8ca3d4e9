// State → training configs, and the checks that refuse a configuration before any work starts.
// Pure: the panel, the controller tests and the share-link test use the same functions.
import type { TrainingConfig } from '../../../wasm/js/core.js';
import type { State, StateKey } from '../state/state.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { SCHEMA } from '../state/schema.js';

/** The state keys of the training lab, in control order. */
export const TRAIN_KEYS = ['trtask', 'trvocab', 'trlen', 'trlayers', 'trdm', 'trheads', 'trmlp', 'trnorm', 'trinit', 'trlr',
  'trwarm', 'trclip', 'trsteps', 'trseed', 'trsm', 'trcap', 'trvar', 'trthr'] as const satisfies readonly StateKey[];
/** Keys that change what a run computes (trthr only changes the table). */
export const RUN_KEYS: readonly StateKey[] = [...TRAIN_KEYS.filter((k) => k !== 'trthr'), 'kernel'];

/** One config per ticked variant; identical apart from `attention` (same seed → same weights and batches). */
export function trainingConfigs(s: State): TrainingConfig[] {
  const base: TrainingConfig = {
    task: s.trtask, vocab: s.trvocab, seqLen: s.trlen, layers: s.trlayers, dModel: s.trdm, heads: s.trheads, mlp: s.trmlp,
    norm: s.trnorm, softmax: s.trsm, softcap: s.trcap, initStd: s.trinit, steps: s.trsteps, lr: s.trlr, warmup: s.trwarm, clip: s.trclip,
    seed: s.trseed, ...(s.kernel === 'auto' ? {} : { kernel: s.kernel }),
  };
  return s.trvar.map((attention) => ({ ...base, attention }));
}

/** A string that changes exactly when the runs would compute something else. */
export function runKey(s: State): string {
  return JSON.stringify(trainingConfigs(s));
}

export interface Refusal { key: StateKey; msg: MessageKey; vars: Record<string, string | number> }

/** Sizes the core would refuse, found without the core: each names the control it belongs beside. */
export function refusals(s: State): Refusal[] {
  const out: Refusal[] = [];
  if (s.trdm % s.trheads !== 0) out.push({ key: 'trheads', msg: 'train.err.divisible', vars: { dm: s.trdm, heads: s.trheads } });
  if (s.trwarm > s.trsteps) out.push({ key: 'trwarm', msg: 'train.err.warmup', vars: { warm: s.trwarm, steps: s.trsteps } });
  if (s.trvar.length === 0) out.push({ key: 'trvar', msg: 'train.err.noVariant', vars: {} });
  return out;
}

/**
 * Reads a typed-in value of a numeric training key against the schema: the value to store, or a
 * refusal (out of range, not a number, not an integer) to show beside the control.
 */
export function readNumber(key: StateKey, raw: string): { ok: true; value: number } | { ok: false; msg: MessageKey; vars: Record<string, string | number> } {
  const spec = SCHEMA[key];
  if (spec.type !== 'int' && spec.type !== 'num') throw new Error(`${key} is not numeric`);
  const x = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(x)) return { ok: false, msg: 'train.err.nan', vars: { raw: raw.slice(0, 20) } };
  if (spec.type === 'int' && !Number.isInteger(x)) return { ok: false, msg: 'train.err.int', vars: { raw: raw.slice(0, 20) } };
  if (x < spec.min || x > spec.max) return { ok: false, msg: 'train.err.range', vars: { raw: raw.slice(0, 20), min: spec.min, max: spec.max } };
  return { ok: true, value: x };
}
