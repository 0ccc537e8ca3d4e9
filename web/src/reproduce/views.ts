// The views that export "Copy as code" and the code's flavours: a small list the page reads at once (the generator,
// code.ts, loads on the first click).
import type { Panel } from '../state/state.ts';

/** The two flavours of the exported code. */
export const CODE_LANGS = ['numpy', 'torch'] as const;
export type CodeLang = (typeof CODE_LANGS)[number];

/**
 * The views that export code, in the tabs' order: every view that computes numbers of its own (schema.js PANELS).
 * The interview, the follow-ups and the device view have none: the interview and the follow-ups quote the other views'
 * numbers (each with its own link and code), and the device view times this machine's kernels, which no script reproduces.
 * Scales in the wild computes but has no code yet: its catalogue is the core's data (modelScales), which the exporter is not given.
 */
export const CODE_VIEWS = ['variance', 'saturation', 'gradient', 'article', 'precision', 'longctx', 'gqa', 'tensors', 'training', 'mup', 'sumone'] as const satisfies readonly Panel[];
export type CodeView = (typeof CODE_VIEWS)[number];

/** Whether a view exports code. */
export function hasCode(p: Panel): p is CodeView {
  return (CODE_VIEWS as readonly string[]).includes(p);
}

/** How many standard errors two independent estimates may differ by in the PyTorch flavour's check (4σ of their difference). */
export const AGREE_SIGMAS = 4;
