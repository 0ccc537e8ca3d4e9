// The one state schema of the page (plain JS with JSDoc types, so that `node scripts/url-keys.mjs`
// can read it without a build, and TypeScript imports it with full types).
// Every key: its type, default, and range or enum; `doc` is the English description used in the
// README table. The URL hash is `#v=<VERSION>&key=value&…` (see web/src/state/state.ts).

/** Version of the hash format; links carry it as `v` so that old links keep working. */
export const VERSION = 1;

/** d_k values of the log-step slider and of the sweeps (powers of two, 1..4096). */
export const DK_STEPS = Object.freeze([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]);
/** seq_len values of the log-step slider. */
export const SEQ_STEPS = Object.freeze([8, 16, 32, 64, 128, 256, 512, 1024]);
/** samples values offered by the variance panel. */
export const SAMPLE_STEPS = Object.freeze([500, 1000, 2000, 5000, 20000]);

export const PANELS = /** @type {const} */ (['variance', 'saturation', 'gradient', 'article', 'followups']);
export const SECTIONS = /** @type {const} */ (['controls', 'charts', 'formula', 'text']);
export const SCALES = /** @type {const} */ (['none', 'inv_sqrt_dk', 'inv_dk', 'inv_sqrt_d_model']);

/**
 * @typedef {{ type: 'int', default: number, min: number, max: number, doc: string, panels: string }} IntSpec
 * @typedef {{ type: 'num', default: number, min: number, max: number, step: number, doc: string, panels: string }} NumSpec
 * @typedef {{ type: 'enum', default: string, values: readonly string[], doc: string, panels: string }} EnumSpec
 * @typedef {{ type: 'bool', default: boolean, doc: string, panels: string }} BoolSpec
 * @typedef {{ type: 'list', default: readonly string[], values: readonly string[], doc: string, panels: string }} ListSpec
 * @typedef {IntSpec | NumSpec | EnumSpec | BoolSpec | ListSpec} KeySpec
 */

export const SCHEMA = Object.freeze({
  exp: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'variance', values: PANELS, panels: 'all',
    doc: 'The panel in focus (scrolled to; the only one shown in embed mode).',
  }),
  lang: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'en', values: ['en', 'zh-CN'], panels: 'all',
    doc: 'Interface language; without it the browser language decides (zh* → zh-CN, else en).',
  }),
  kernel: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'auto', values: ['auto', 'simd', 'scalar'], panels: 'all',
    doc: 'Kernel family of the core: auto (SIMD128 where the browser validates it), simd or scalar.',
  }),
  dk: /** @type {IntSpec} */ ({
    type: 'int', default: 64, min: 1, max: 4096, panels: 'variance, saturation, gradient',
    doc: 'Head dimension d_k at which histograms, heatmap and readouts are computed.',
  }),
  samples: /** @type {IntSpec} */ ({
    type: 'int', default: 2000, min: 100, max: 20000, panels: 'variance',
    doc: 'Pairs (q, k) drawn per d_k.',
  }),
  seed: /** @type {IntSpec} */ ({
    type: 'int', default: 1, min: 0, max: 4294967295, panels: 'variance, saturation, gradient',
    doc: 'Seed of the random q and k.',
  }),
  heads: /** @type {IntSpec} */ ({
    type: 'int', default: 4, min: 1, max: 16, panels: 'saturation, gradient',
    doc: 'Number of heads h (d_model = h · d_k for the √d_model bug).',
  }),
  seqLen: /** @type {IntSpec} */ ({
    type: 'int', default: 128, min: 2, max: 1024, panels: 'saturation, gradient',
    doc: 'Sequence length L (keys per softmax row).',
  }),
  scale: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'inv_sqrt_dk', values: SCALES, panels: 'saturation, gradient',
    doc: 'Scale of the heatmap and readouts: none, inv_sqrt_dk, inv_dk or inv_sqrt_d_model.',
  }),
  gq: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'jac', values: ['jac', 'grad'], panels: 'gradient',
    doc: 'Gradient quantity: jac = ‖J‖_F per row, grad = ‖∂loss/∂q‖ per row.',
  }),
  gap: /** @type {NumSpec} */ ({
    type: 'num', default: 2, min: -20, max: 20, step: 0.1, panels: 'gradient',
    doc: 'Two-logit explorer: the logits are [gap, 0].',
  }),
  aseed: /** @type {IntSpec} */ ({
    type: 'int', default: 0, min: 0, max: 4294967295, panels: 'article',
    doc: "Seed of the article's check (q, k ~ randn(1, 8, 128, 512)).",
  }),
  embed: /** @type {BoolSpec} */ ({
    type: 'bool', default: false, panels: 'all',
    doc: 'Embed mode: 1 shows the panel named by exp and nothing else.',
  }),
  show: /** @type {ListSpec} */ ({
    type: 'list', default: SECTIONS, values: SECTIONS, panels: 'embed',
    doc: 'Embed mode: the parts of the panel to show, comma-separated.',
  }),
});

/** @typedef {keyof typeof SCHEMA} StateKey */
