// Where a refusal is shown. The core names the parameter it refuses (`attentionStats: seqLen =
// 8192 …`, `scales[3] = …`, `headsKv = 3 must divide heads = 8`); each panel maps the core's
// parameter names to the state keys of its controls, so the message lands beside the control
// that sets that parameter: the one the reader just moved when the message names it, else the one
// where the same request's refusal already stands (it does not jump about while the reader moves
// other controls), else the first one named; the panel's own slot when no named parameter has a
// visible control there.
// Pure functions (no DOM), so tests/web/refusal.test.ts runs them under Node.
import type { Panel, StateKey } from '../state/state.ts';

/** The slot of a refusal: a state key (its control's data-err-for) or the panel's slot. */
export type RefusalSlot = StateKey | 'panel';

/**
 * Per panel: core parameter name → the state key of the control that sets it. Parameters the
 * panel derives from one control map to that control (the precision lab's rows come from its
 * seq_len, the long-context queries from its d_k, a sweep's `dks` from the d_k slider).
 */
export const PARAM_CONTROLS: Partial<Record<Panel, Readonly<Record<string, StateKey>>>> = {
  variance: { dks: 'dk', histDk: 'dk', samples: 'samples', seed: 'seed' },
  saturation: { heads: 'heads', seqLen: 'seqLen', dk: 'dk', dks: 'dk', scale: 'scale', seed: 'seed', causal: 'causal', softcap: 'softcap' },
  gradient: { dk: 'dk', dks: 'dk', scale: 'scale', logits: 'gap' },
  article: { seed: 'aseed' },
  precision: {
    logits: 'plogits', rows: 'pseqLen', seqLen: 'pseqLen', dk: 'pdk', scale: 'pscale', seed: 'pseed',
    blockSize: 'pblock', accumulate: 'pacc', maskedRow: 'pmasked',
  },
  longctx: { dk: 'ldk', queries: 'ldk', trainLen: 'ltrain', split: 'lmsplit', seqLen: 'lmlen' },
  gqa: { heads: 'hq', headsKv: 'hkv', dk: 'gdk', dv: 'gdv' },
  sumone: { heads: 'heads', seqLen: 'seqLen', dk: 'dk', scale: 'scale', seed: 'seed', sink: 'nsink', lambda: 'nlambda', gateMean: 'ngate', qGain: 'qcgain', tau: 'qctau', headsKv: 'qchkv' },
  training: {
    task: 'trtask', vocab: 'trvocab', seqLen: 'trlen', layers: 'trlayers', dModel: 'trdm', heads: 'trheads', mlp: 'trmlp',
    norm: 'trnorm', attention: 'trvar', softmax: 'trsm', softcap: 'trcap', initStd: 'trinit', steps: 'trsteps', lr: 'trlr',
    warmup: 'trwarm', clip: 'trclip', seed: 'trseed',
  },
  // tensors: the requests run every scale (the select only picks the one drawn) on the files'
  // shape; no control sets a parameter, so their refusals go to the panel's slot
};

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/g;

/**
 * The names among `known` that a message mentions as whole identifiers (`scales[3]` mentions
 * `scales`, `seqLens` does not mention `seqLen`), in the order of their first mention.
 */
export function namedParams(message: string, known: readonly string[]): string[] {
  const set = new Set(known);
  const out: string[] = [];
  for (const m of message.matchAll(IDENT)) {
    if (set.has(m[0]) && !out.includes(m[0])) out.push(m[0]);
  }
  return out;
}

/**
 * The slot of a refusal.
 * @param named the core parameters the refusal names, in order (namedParams, or the drivers of a
 *   cost the page itself refused)
 * @param source the state key of the control the reader moved last, if any
 * @param visible whether the panel shows the control of a state key (present and not hidden)
 * @param current the slot where the same request's refusal stands now, if any
 */
export function refusalSlot(panel: Panel, named: readonly string[], source: StateKey | undefined,
  visible: (key: StateKey) => boolean, current?: string): RefusalSlot {
  const map = PARAM_CONTROLS[panel] ?? {};
  const keys: StateKey[] = [];
  for (const p of named) {
    const k = Object.hasOwn(map, p) ? map[p] : undefined;
    if (k !== undefined && !keys.includes(k) && visible(k)) keys.push(k);
  }
  if (keys.length === 0) return 'panel';
  if (source !== undefined && keys.includes(source)) return source;
  const here = keys.find((k) => k === current);
  return here ?? keys[0];
}

/** The slot of a refusal message of the core (see refusalSlot). */
export function slotOfMessage(panel: Panel, message: string, source: StateKey | undefined,
  visible: (key: StateKey) => boolean, current?: string): RefusalSlot {
  return refusalSlot(panel, namedParams(message, Object.keys(PARAM_CONTROLS[panel] ?? {})), source, visible, current);
}
