// The views that export "Copy as code" and the code's flavours: a small list the page reads at once (the generator,
// code.ts, loads on the first click).
import type { Panel } from '../state/state.ts';
import type { ModelScale } from '../../../wasm/js/core.js';

/** The two flavours of the exported code. */
export const CODE_LANGS = ['numpy', 'torch'] as const;
export type CodeLang = (typeof CODE_LANGS)[number];

/**
 * The views that export code, in the tabs' order: every view that computes numbers of its own (schema.js PANELS).
 * The interview, the follow-ups and the device view have none: the interview and the follow-ups quote the other views'
 * numbers (each with its own link and code), and the device view times this machine's kernels, which no script reproduces.
 * Scales in the wild's script needs the core's catalogue (CodeData.catalogue), which the page asks of its worker at the click.
 */
export const CODE_VIEWS = ['variance', 'saturation', 'gradient', 'article', 'precision', 'longctx', 'gqa', 'tensors', 'training', 'mup', 'wild', 'sumone'] as const satisfies readonly Panel[];
export type CodeView = (typeof CODE_VIEWS)[number];

/** What a view's script needs that the state does not hold: the core's data, asked of the core when the code is copied. */
export interface CodeData {
  /** modelScales(): the models of Scales in the wild (name, d_head, effective scale, soft-cap) */
  catalogue?: readonly ModelScale[];
}

/** Whether a view exports code. */
export function hasCode(p: Panel): p is CodeView {
  return (CODE_VIEWS as readonly string[]).includes(p);
}

/** How many standard errors two independent estimates may differ by in the PyTorch flavour's check (4σ of their difference). */
export const AGREE_SIGMAS = 4;
