// The one state schema of the page (plain JS with JSDoc types, so that `node scripts/url-keys.mjs`
// can read it without a build, and TypeScript imports it with full types).
// Every key: its type, default, and range or enum; `doc` is the English description used in the
// README table. The URL hash is `#v=<VERSION>&key=value&…` (see web/src/state/state.ts).
import { CORE_VERSION } from '../../../wasm/js/version.js';
// The core's lists of names, from its one declaration (no wasm: the URL parser reads them).
import { SCALE_NAMES, ATTENTION_VARIANTS, TRAINING_TASKS, SCALE_AT, ACCUMULATE_MODES, MASKED_ROW_RULES } from '../../../wasm/js/experiments.js';

/** QK-Clip's query heads on the sum-to-one view (its key heads, qchkv, must divide them). */
export const QKCLIP_HEADS = 8;

/** Version of the hash format; links carry it as `v` so that old links keep working. */
export const VERSION = 1;

/** d_k values of the log-step slider and of the sweeps (powers of two, 1..4096). */
export const DK_STEPS = Object.freeze([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]);
/** seq_len values of the log-step slider. */
export const SEQ_STEPS = Object.freeze([8, 16, 32, 64, 128, 256, 512, 1024]);
/** samples values offered by the variance panel. */
export const SAMPLE_STEPS = Object.freeze([500, 1000, 2000, 5000, 20000]);
/** seq_len values of the long-context sweep (64 … 16384, log steps). */
export const LONG_SEQ_STEPS = Object.freeze([64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]);
/** L_train values of the long-context slider. */
export const TRAIN_LEN_STEPS = Object.freeze([64, 128, 256, 512, 1024, 2048, 4096]);
/** d_k values of the long-context slider (the sweep's cost grows with d_k). */
export const LONG_DK_STEPS = Object.freeze([16, 32, 64, 128, 256]);
/** Lengths of the long-context view's split-KV merge (lmlen). */
/** d_v choices of the GQA view (gdv; 0 = d_head). */
export const DV_STEPS = Object.freeze([0, 64, 96, 128, 192, 256]);
export const MERGE_LEN_STEPS = Object.freeze([64, 128, 256, 512, 1024]);
/** d_head values of the GQA panel. */
export const HEAD_DIM_STEPS = Object.freeze([16, 32, 64, 128, 256]);
/** query-head counts offered by the GQA panel. */
export const HEADS_Q_STEPS = Object.freeze([1, 2, 4, 8, 12, 16, 24, 32, 40, 48, 64]);
/** context lengths of the KV-cache calculator. */
export const CONTEXT_STEPS = Object.freeze([1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576]);
/** context lengths of the Scales-in-the-wild entropy columns. */
export const WILD_LEN_STEPS = Object.freeze([256, 512, 1024, 2048, 4096]);
/** The saved configs the "Your model" section offers (web/src/requests/your-model.ts holds their fields); none = a pasted one or nothing. */
export const SAVED_MODELS = /** @type {const} */ (['none', 'deepseek-v3', 'deepseek-v3.2', 'kimi-k2', 'qwen3-next', 'gemma-3-27b', 'gpt-oss-120b', 'llama-4-scout', 'llama-3.1-8b']);
/** online-softmax block sizes of the precision lab. */
export const BLOCK_STEPS = Object.freeze([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
/** bytes per element of each KV-cache data type. */
export const KV_DTYPE_BYTES = Object.freeze({ fp32: 4, bf16: 2, fp8: 1, int4: 0.5 });

export const PANELS = /** @type {const} */ (['interview', 'variance', 'saturation', 'gradient', 'article', 'followups', 'precision', 'longctx', 'gqa', 'tensors', 'training', 'device', 'mup', 'wild', 'sumone']);
export const SECTIONS = /** @type {const} */ (['controls', 'charts', 'formula', 'text']);
/** The named scales (the core's SCALE_NAMES). */
export const SCALES = SCALE_NAMES;
/** The interview drill's questions, in order (web/src/interview/questions.ts). */
export const DRILL_QUESTIONS = /** @type {const} */ (['std', 'sigma', 'invdk', 'entropy', 'jac', 'double', 'yarn', 'gradmean', 'scale', 'uniform', 'fp64', 'mqa', 'corr', 'mupflat', 'lse2', 'dvscale', 'qkclip', 'sigsum', 'alibi']);
/** The training lab's attention variants, in display order (the core's ATTENTION_VARIANTS). */
export const TRAIN_VARIANTS = ATTENTION_VARIANTS;

/**
 * @typedef {{ type: 'int', default: number, min: number, max: number, doc: string, panels: string }} IntSpec
 * @typedef {{ type: 'num', default: number, min: number, max: number, step: number, doc: string, panels: string }} NumSpec
 * @typedef {{ type: 'enum', default: string, values: readonly string[], doc: string, panels: string }} EnumSpec
 * @typedef {{ type: 'bool', default: boolean, doc: string, panels: string }} BoolSpec
 * @typedef {{ type: 'list', default: readonly string[], values: readonly string[], doc: string, panels: string }} ListSpec
 * @typedef {{ type: 'nums', default: readonly number[], min: number, max: number, maxLength: number, negInf?: boolean, doc: string, panels: string }} NumsSpec
 * @typedef {{ type: 'version', default: string, doc: string, panels: string }} VersionSpec
 * @typedef {IntSpec | NumSpec | EnumSpec | BoolSpec | ListSpec | NumsSpec | VersionSpec} KeySpec
 */

export const SCHEMA = Object.freeze({
  exp: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'interview', values: PANELS, panels: 'all',
    doc: 'The view shown (one per view; Back and Forward step through the views visited); a link without exp opens the interview view.',
  }),
  lang: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'en', values: ['en', 'zh-CN'], panels: 'all',
    doc: 'Interface language; without it the browser language decides (zh* → zh-CN, else en).',
  }),
  theme: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'auto', values: ['auto', 'light', 'dark'], panels: 'all',
    doc: 'Colour scheme: auto (the reader’s system setting), light or dark.',
  }),
  kernel: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'auto', values: ['auto', 'simd', 'scalar'], panels: 'all',
    doc: 'Kernel family of the core: auto (SIMD128 where the browser validates it), simd or scalar.',
  }),
  dk: /** @type {IntSpec} */ ({
    type: 'int', default: 64, min: 1, max: 4096, panels: 'variance, saturation, gradient, sumone',
    doc: 'Head dimension d_k at which histograms, heatmap and readouts are computed.',
  }),
  samples: /** @type {IntSpec} */ ({
    type: 'int', default: 2000, min: 100, max: 20000, panels: 'variance',
    doc: 'Pairs (q, k) drawn per d_k.',
  }),
  seed: /** @type {IntSpec} */ ({
    type: 'int', default: 1, min: 0, max: 4294967295, panels: 'variance, saturation, gradient, mup, sumone',
    doc: 'Seed of the random q and k.',
  }),
  heads: /** @type {IntSpec} */ ({
    type: 'int', default: 4, min: 1, max: 16, panels: 'saturation, gradient, sumone',
    doc: 'Number of heads h (d_model = h · d_k for the √d_model bug).',
  }),
  seqLen: /** @type {IntSpec} */ ({
    type: 'int', default: 128, min: 2, max: 1024, panels: 'saturation, gradient, sumone',
    doc: 'Sequence length L (keys per softmax row).',
  }),
  scale: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'inv_sqrt_dk', values: SCALES, panels: 'saturation, gradient, sumone',
    doc: 'Scale of the heatmap and readouts: none, inv_sqrt_dk, inv_dk or inv_sqrt_d_model.',
  }),
  causal: /** @type {BoolSpec} */ ({
    type: 'bool', default: false, panels: 'saturation',
    doc: 'Causal mask (row i sees keys 0..i); entropy is then read against each row’s own ceiling ln(i + 1).',
  }),
  salibi: /** @type {BoolSpec} */ ({
    type: 'bool', default: false, panels: 'saturation',
    doc: 'Saturation: 1 shows “does ALiBi need the 1/√d_k?”: 8 causal heads with Press’s slopes 2^(−8h/H) at the view’s d_k and L, each head’s entropy of the last 16 rows with ÷√d_k, with no scale and with ÷d_k, from the core; 0 (default) leaves the view as it was.',
  }),
  softcap: /** @type {NumSpec} */ ({
    type: 'num', default: 0, min: 0, max: 1000, step: 0.5, panels: 'saturation',
    doc: 'Logit soft-cap: s ↦ cap · tanh(s / cap) before the mask (Gemma 2 uses 50); 0 = off.',
  }),
  sscale: /** @type {NumSpec} */ ({
    type: 'num', default: 0, min: 0, max: 10, step: 0.000001, panels: 'saturation',
    doc: 'Saturation: an explicit scale factor c (scores = c · q·k) for the heatmap and readouts, drawn as its own line in the sweep (a model’s effective scale, from “Scales in the wild”); 0 = off, scale decides.',
  }),
  sink: /** @type {NumsSpec} */ ({
    type: 'nums', default: [-Infinity], min: -100, max: 100, maxLength: 1, negInf: true, panels: 'saturation, longctx',
    doc: 'Saturation and long context: an attention-sink logit S for every head and row (gpt-oss): the weights are e^{s_j} / (e^S + Σ e^{s_i}) and sum to 1 − sink mass; -inf = no sink.',
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
  iseed: /** @type {IntSpec} */ ({
    type: 'int', default: 1, min: 0, max: 4294967295, panels: 'interview',
    doc: 'Interview view: seed of every live number in the answer, the follow-ups and the wrong answers (and of the panels its links open).',
  }),
  dq: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'std', values: DRILL_QUESTIONS, panels: 'interview',
    doc: 'Interview drill: the question shown (std, sigma, invdk, entropy, jac, double, yarn, gradmean, scale, uniform, fp64, mqa, corr, mupflat, lse2, dvscale, qkclip, sigsum, alibi).',
  }),
  dseed: /** @type {IntSpec} */ ({
    type: 'int', default: 1, min: 0, max: 4294967295, panels: 'interview',
    doc: 'Interview drill: seed of the question’s parameters and of its core call (the same seed gives the same question and numbers).',
  }),
  cseed: /** @type {IntSpec} */ ({
    type: 'int', default: 1, min: 0, max: 4294967295, panels: 'interview',
    doc: 'Interview claim checker: seed of the claims that depend on a random draw (C1–C4, C6), and of the panels its links open.',
  }),
  plogits: /** @type {NumsSpec} */ ({
    type: 'nums', default: [100, 90, 80], min: -1e6, max: 1e6, maxLength: 64, negInf: true, panels: 'precision',
    doc: 'Precision lab: the typed-in logit vector (comma-separated; -inf is a masked key), used when pmode=logits.',
  }),
  pmode: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'logits', values: ['logits', 'random', 'qk'], panels: 'precision',
    doc: 'Precision lab input: logits (the typed-in vector), random (rows of c·q·k with q, k ~ N(0, 1)) or qk (one query pq·𝟏 against keys pk_j·𝟏 of d_k = pdk components: the products are formed in each format, then scaled at pscaleat).',
  }),
  pdk: /** @type {IntSpec} */ ({
    type: 'int', default: 512, min: 1, max: 4096, panels: 'precision',
    doc: 'Precision lab, random rows: d_k of q and k.',
  }),
  pseqLen: /** @type {IntSpec} */ ({
    type: 'int', default: 128, min: 2, max: 1024, panels: 'precision',
    doc: 'Precision lab, random rows: keys per row.',
  }),
  pscale: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'none', values: SCALES, panels: 'precision',
    doc: 'Precision lab, random rows: scale of q·k (none, inv_sqrt_dk, inv_dk, inv_sqrt_d_model with h = 1).',
  }),
  pq: /** @type {NumSpec} */ ({
    type: 'num', default: 24, min: -1000, max: 1000, step: 0.5, panels: 'precision',
    doc: 'Precision lab, q/k mode: every component of the query q (q = pq·𝟏).',
  }),
  pk: /** @type {NumsSpec} */ ({
    type: 'nums', default: [24, 12, 0], min: -1000, max: 1000, maxLength: 16, panels: 'precision',
    doc: 'Precision lab, q/k mode: one number per key, every component of key j (k_j = pk_j·𝟏), comma-separated.',
  }),
  pkrep: /** @type {IntSpec} */ ({
    type: 'int', default: 1, min: 1, max: 4096, panels: 'precision',
    doc: 'Precision lab, q/k mode: each key of pk repeated this many times (4096 zero keys show the float16 sum stall at 2048).',
  }),
  pscaleat: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'scores', values: SCALE_AT, panels: 'precision',
    doc: 'Precision lab, q/k mode: apply the scale to the stored products q·k (scores), to q before the products (query), or √c to q and to k (both). In float16/bfloat16 the scale is a float32 constant (core 0.4.0; PyTorch, FlashAttention).',
  }),
  pblock: /** @type {IntSpec} */ ({
    type: 'int', default: 32, min: 1, max: 1024, panels: 'precision',
    doc: 'Precision lab: key block size of the online (tiled) softmax.',
  }),
  pacc: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'same', values: ACCUMULATE_MODES, panels: 'precision',
    doc: 'Precision lab: accumulate in the format itself (same) or in float32 with float16/bfloat16 storage (as real kernels do).',
  }),
  pmasked: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'nan', values: MASKED_ROW_RULES, panels: 'precision',
    doc: 'Precision lab: a fully masked or fully underflowed row gives what its formula gives (nan) or zeros (zero, the fused-kernel convention).',
  }),
  pseed: /** @type {IntSpec} */ ({
    type: 'int', default: 0, min: 0, max: 4294967295, panels: 'precision',
    doc: 'Precision lab: seed of the random rows.',
  }),
  ldk: /** @type {IntSpec} */ ({
    type: 'int', default: 64, min: 1, max: 256, panels: 'longctx',
    doc: 'Long context: head dimension d_k.',
  }),
  ltrain: /** @type {IntSpec} */ ({
    type: 'int', default: 512, min: 2, max: 16384, panels: 'longctx',
    doc: 'Long context: the training length L_train of the length-dependent schemes.',
  }),
  lmsplit: /** @type {NumSpec} */ ({
    type: 'num', default: 0.5, min: 0, max: 1, step: 0.125, panels: 'longctx',
    doc: 'Long context, merging by the LSE: the share of the keys in the first chunk (0 or 1: one chunk is empty, and merging it must change nothing).',
  }),
  lmlen: /** @type {IntSpec} */ ({
    type: 'int', default: 256, min: 64, max: 1024, panels: 'longctx',
    doc: 'Long context, merging by the LSE: the length L of the causal call split in two chunks of keys (4 heads, d_k = ldk).',
  }),
  lalibi: /** @type {BoolSpec} */ ({
    type: 'bool', default: false, panels: 'longctx',
    doc: 'Long context: 1 shows ALiBi (Press et al. 2022: a bias −m_h·(i − j) per head, slopes 2^(−8h/H), 8 heads) against 1/√d_k alone, each head’s entropy against L from the core; 0 (default) leaves the view as it was.',
  }),
  hq: /** @type {IntSpec} */ ({
    type: 'int', default: 32, min: 1, max: 64, panels: 'gqa',
    doc: 'GQA/MQA: query heads.',
  }),
  hkv: /** @type {IntSpec} */ ({
    type: 'int', default: 8, min: 1, max: 64, panels: 'gqa',
    doc: 'GQA/MQA: key/value heads; must divide hq (otherwise the nearest smaller divisor is used).',
  }),
  gdk: /** @type {IntSpec} */ ({
    type: 'int', default: 128, min: 1, max: 256, panels: 'gqa',
    doc: 'GQA/MQA: head dimension d_head.',
  }),
  gdv: /** @type {IntSpec} */ ({
    type: 'int', default: 0, min: 0, max: 512, panels: 'gqa',
    doc: 'GQA/MQA: d_v, the head size of V and of the output (MLA: 128 beside q/k heads of 192); 0 = d_head. The scale stays 1/√d_head.',
  }),
  kvl: /** @type {IntSpec} */ ({
    type: 'int', default: 32, min: 1, max: 256, panels: 'gqa',
    doc: 'KV-cache calculator: layers.',
  }),
  kvctx: /** @type {IntSpec} */ ({
    type: 'int', default: 8192, min: 1, max: 4194304, panels: 'gqa',
    doc: 'KV-cache calculator: context length in tokens.',
  }),
  kvdt: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'bf16', values: ['fp32', 'bf16', 'fp8', 'int4'], panels: 'gqa',
    doc: 'KV-cache calculator: element type (fp32 4 B, bf16/fp16 2 B, fp8/int8 1 B, int4 0.5 B).',
  }),
  tex: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'structured', values: ['structured', 'iid', 'own'], panels: 'tensors',
    doc: 'Your own tensors: the example pair loaded (structured, iid), or own (files you picked; they are not in the link).',
  }),
  tscale: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'inv_sqrt_dk', values: ['none', 'inv_sqrt_dk', 'inv_dk'], panels: 'tensors',
    doc: 'Your own tensors: the scale of the per-row histograms.',
  }),
  // ---- training lab (web/src/panels/training.ts); ranges are the core's TRAINING_LIMITS ----
  trtask: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'copy', values: TRAINING_TASKS, panels: 'training',
    doc: 'Training lab: the task (copy, reverse, sort, assoc_recall = associative recall).',
  }),
  trvocab: /** @type {IntSpec} */ ({
    type: 'int', default: 16, min: 2, max: 256, panels: 'training',
    doc: 'Training lab: content symbols of the task (the model has one more token, the separator).',
  }),
  trlen: /** @type {IntSpec} */ ({
    type: 'int', default: 16, min: 8, max: 64, panels: 'training',
    doc: 'Training lab: sequence length T (the model’s context).',
  }),
  trlayers: /** @type {IntSpec} */ ({
    type: 'int', default: 2, min: 1, max: 6, panels: 'training',
    doc: 'Training lab: Transformer layers.',
  }),
  trdm: /** @type {IntSpec} */ ({
    type: 'int', default: 64, min: 8, max: 512, panels: 'training',
    doc: 'Training lab: d_model; must be divisible by trheads (d_k = d_model / heads), else Run is refused.',
  }),
  trheads: /** @type {IntSpec} */ ({
    type: 'int', default: 4, min: 1, max: 16, panels: 'training',
    doc: 'Training lab: attention heads per layer.',
  }),
  trmlp: /** @type {IntSpec} */ ({
    type: 'int', default: 128, min: 4, max: 2048, panels: 'training',
    doc: 'Training lab: MLP width.',
  }),
  trnorm: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'pre', values: ['pre', 'post'], panels: 'training',
    doc: 'Training lab: LayerNorm placement, pre-LN or post-LN.',
  }),
  trinit: /** @type {NumSpec} */ ({
    type: 'num', default: 0.125, min: 0.001, max: 10, step: 0.001, panels: 'training',
    doc: 'Training lab: standard deviation of every weight matrix and embedding at step 0.',
  }),
  trlr: /** @type {NumSpec} */ ({
    type: 'num', default: 0.003, min: 0.00001, max: 1, step: 0.00001, panels: 'training',
    doc: 'Training lab: AdamW peak learning rate.',
  }),
  trwarm: /** @type {IntSpec} */ ({
    type: 'int', default: 0, min: 0, max: 20000, panels: 'training',
    doc: 'Training lab: linear warm-up steps (at most trsteps, else Run is refused).',
  }),
  trclip: /** @type {NumSpec} */ ({
    type: 'num', default: 1, min: 0, max: 1000000, step: 0.01, panels: 'training',
    doc: 'Training lab: global-norm gradient clipping threshold; 0 = off.',
  }),
  trsteps: /** @type {IntSpec} */ ({
    type: 'int', default: 200, min: 1, max: 20000, panels: 'training',
    doc: 'Training lab: training steps of each run.',
  }),
  trseed: /** @type {IntSpec} */ ({
    type: 'int', default: 0, min: 0, max: 4294967295, panels: 'training',
    doc: 'Training lab: seed of the initial weights, the batches and the held-out set (shared by every variant).',
  }),
  trsm: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'safe', values: ['safe', 'naive'], panels: 'training',
    doc: 'Training lab: attention softmax, safe (max subtracted) or naive (exp / sum).',
  }),
  trcap: /** @type {NumSpec} */ ({
    type: 'num', default: 0, min: 0, max: 1000, step: 0.5, panels: 'training',
    doc: 'Training lab: logit soft-cap beside every variant, s ↦ cap · tanh(s / cap) before the mask (Gemma 2: 50); 0 = off.',
  }),
  trvar: /** @type {ListSpec} */ ({
    type: 'list', default: TRAIN_VARIANTS, values: TRAIN_VARIANTS, panels: 'training',
    doc: 'Training lab: the attention variants trained side by side, comma-separated.',
  }),
  trthr: /** @type {NumSpec} */ ({
    type: 'num', default: 0.01, min: 0.0001, max: 10, step: 0.0001, panels: 'training',
    doc: 'Training lab: the loss threshold of the “steps to reach” column.',
  }),
  rho: /** @type {NumSpec} */ ({
    type: 'num', default: 0.2, min: -1, max: 1, step: 0.01, panels: 'mup',
    doc: 'When is 1/d_k right?: the correlation ρ of a query with its matched key, k_i = ρ q_i + √(1 − ρ²) z_i (0 = the iid case).',
  }),
  mpow: /** @type {NumSpec} */ ({
    type: 'num', default: 0.75, min: 0, max: 1.5, step: 0.01, panels: 'mup',
    doc: 'When is 1/d_k right?: the exponent p of the third scale d_k^−p (0.5 = 1/√d_k, 1 = 1/d_k).',
  }),
  wlen: /** @type {IntSpec} */ ({
    type: 'int', default: 4096, min: 256, max: 4096, panels: 'wild',
    doc: 'Scales in the wild: the context length L of the entropy columns (one head of L iid queries and keys per model, entropy only; the slider’s steps 256 … 4096).',
  }),
  nsink: /** @type {NumSpec} */ ({
    type: 'num', default: 1, min: -20, max: 20, step: 0.5, panels: 'sumone',
    doc: 'Does attention have to sum to one?: the sink logit S of the sink normaliser, w_j = e^{s_j} / (e^S + Σ e^{s_i}) (off-by-one is S = 0).',
  }),
  nlambda: /** @type {NumSpec} */ ({
    type: 'num', default: 0.8, min: 0, max: 2, step: 0.05, panels: 'sumone',
    doc: 'Does attention have to sum to one?: λ of differential attention, p₁ − λ p₂ on heads paired (2h, 2h + 1).',
  }),
  ngate: /** @type {NumSpec} */ ({
    type: 'num', default: 0, min: -5, max: 5, step: 0.5, panels: 'sumone',
    doc: 'Does attention have to sum to one?: the mean of the output gate’s g ~ N(mean, 1); the gate σ(g) multiplies each head’s output channel by channel.',
  }),
  qcgain: /** @type {NumSpec} */ ({
    type: 'num', default: 30, min: 1, max: 100, step: 1, panels: 'sumone',
    doc: 'QK-Clip: the multiplier of q (logits past τ; 8 heads, d_k 64, L 128, 1/√d_k).',
  }),
  qctau: /** @type {NumSpec} */ ({
    type: 'num', default: 100, min: 1, max: 1000, step: 1, panels: 'sumone',
    doc: 'QK-Clip: the threshold τ (Megatron-Core’s qk_clip_threshold, default 100).',
  }),
  qchkv: /** @type {IntSpec} */ ({
    type: 'int', default: 2, min: 1, max: 8, panels: 'sumone',
    doc: 'QK-Clip: key heads of the 8 query heads (8 = MHA, else GQA: one η per group; must divide 8, else the nearest smaller divisor is used).',
  }),
  ym: /** @type {EnumSpec} */ ({
    type: 'enum', default: 'none', values: SAVED_MODELS, panels: 'wild',
    doc: 'Your model (in Scales in the wild): a saved config.json read by modelConfig (deepseek-v3, deepseek-v3.2, kimi-k2, qwen3-next, gemma-3-27b, gpt-oss-120b, llama-4-scout, llama-3.1-8b); none = the fields ymdh, ymsc, ymcap of a pasted one (the file itself never goes in the link).',
  }),
  ymdh: /** @type {IntSpec} */ ({
    type: 'int', default: 0, min: 0, max: 65536, panels: 'wild',
    doc: 'Your model: the d_head of a pasted config (the q·k size of a head; MLA: qk_nope_head_dim + qk_rope_head_dim); 0 = none.',
  }),
  ymsc: /** @type {NumSpec} */ ({
    type: 'num', default: 0, min: 0, max: 10000, step: 0.000001, panels: 'wild',
    doc: 'Your model: the effective softmax scale c that modelConfig read from a pasted config (6 decimals); 0 = none.',
  }),
  ymcap: /** @type {NumSpec} */ ({
    type: 'num', default: 0, min: 0, max: 1000, step: 0.5, panels: 'wild',
    doc: 'Your model: the attn_logit_softcapping of a pasted config; 0 = none.',
  }),
  trauto: /** @type {BoolSpec} */ ({
    type: 'bool', default: true, panels: 'training',
    doc: 'Training lab: 1 starts the linked run as soon as the view opens (curves grow as steps arrive); 0 waits for Run (for configurations heavy on a phone).',
  }),
  cv: /** @type {VersionSpec} */ ({
    type: 'version', default: CORE_VERSION, panels: 'all',
    doc: 'Version of the core that made the link (major.minor.patch; the page writes its own). Another version opens normally with a notice: its numbers may differ.',
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
