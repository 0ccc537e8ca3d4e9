// precisionLab: the softmax of the same rows in four float formats and three algorithms, against float64 (C++: wasm/src/precision_lab.*).
import { dk, seqLen, heads, seed, scale, softcap } from './common.js';
import { MASKED_ROW_RULES, ACCUMULATE_MODES, SCALE_AT, SCALE_ROUNDING } from './choices.js';

/** The records of its results, by the name of their C++ struct and TypeScript interface. */
export const RECORDS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').RecordSpec>} */ ({
  PrecisionCauses: {
    doc: 'The cause of each broken row, as a share of the rows. A row counts under the first cause that happened in it, in this order, so the shares partition the broken rows.',
    fields: {
      inputOverflow: { type: 'number', doc: 'a finite logit rounded to ±∞ in the format (whatever the algorithm does next)' },
      expOverflow: { type: 'number', doc: 'a term exp(·) overflowed (naive softmax with a logit above ln(max finite))' },
      sumOverflow: { type: 'number', doc: 'every term fit but their sum overflowed (the weights come out e/∞ = 0)' },
      nan: { type: 'number', doc: 'NaN without an overflow: 0/0 of a fully masked or fully underflowed row, −∞ − (−∞)' },
      underflow: { type: 'number', doc: 'a weight came out 0 where float64 has it positive, with no overflow or NaN' },
      sumStall: {
        type: 'number', when: 'rowSums',
        doc: "unless rowSums: false (always with q/k): every weight finite, but Σ_j p_j is off the float64 row's sum by more than the format's rounding allows, u (2 + 2√n) + n · (smallest subnormal), u = 2^−(mantissa bits + 1) (2u for the outputs' own rounding and twice the √n·u that independent roundings of n terms typically leave; Higham 2002 §4.2). A float16 row of 4096 zero logits summed in float16 stalls at 2048: every weight 1/2048, Σ = 2.0.",
      },
    },
  },
  PrecisionCell: {
    doc: 'One format and algorithm of the precision lab, against float64.',
    fields: {
      format: { type: 'string', ts: 'FloatFormat' },
      algorithm: { type: 'string', ts: 'SoftmaxAlgorithm' },
      shareNonfinite: { type: 'number', doc: 'rows whose result holds ±∞ or NaN' },
      shareNan: { type: 'number', doc: 'rows whose result holds NaN' },
      causes: { type: 'PrecisionCauses' },
      rowSum: {
        type: 'object', when: 'rowSums', doc: 'unless rowSums: false (always with q/k): min and max of Σ_j p_j over the rows whose sum is not NaN (NaN if none)',
        fields: { min: { type: 'number', cpp: 'row_sum.min' }, max: { type: 'number', cpp: 'row_sum.max' } },
      },
      maxAbsError: { type: 'number', doc: 'max |p − p_float64| over the rows where both are finite (NaN if none)' },
      meanAbsError: { type: 'number', doc: 'mean over those rows of max_j |p − p_float64|' },
      jacFroMedian: { type: 'number', doc: "median ‖J‖_F of the finite rows" },
      probs: { type: 'f64', doc: "the first row's weights [seqLen]" },
      scaleApplied: {
        type: 'number', when: 'qk',
        doc: "with q and k only: the c this cell's logits carry, as held: c in double (float64 cells), float32(c) (float32 cells, and float16/bfloat16 under scaleRounding 'float32'), or c rounded to the cell's format (scaleRounding 'cell'); under scaleAt 'both' the square of the √c so held. d_k 128, bfloat16: 0.0883883461356163 ('float32'), 0.08837890625 ('cell'); the float64 cells 0.08838834764831843.",
      },
    },
  },
}));

/** Its experiments, by the name of their method on the core, in declaration order. */
export const EXPERIMENTS = Object.freeze(/** @type {const} @satisfies {Record<string, import('./spec.js').ExperimentSpec>} */ ({
  precisionLab: {
    doc: 'the softmax of the same rows in float64/float32/bfloat16/float16, naive, safe and online, against float64',
    cpp: 'precision_lab', call: 'params', part: 'full', costed: true, plan: 'single',
    params: {
      logits: { type: 'numberList', default: null, range: [1, 8192], ts: 'readonly number[] | Float64Array | Float32Array | null', doc: 'one explicit logit row (1..8192 values, −∞ allowed): a plain array of numbers or a typed array; when absent, random rows are used. With logits, rows, seqLen, dk, heads, scale and seed are refused (TypeError): they describe random rows.' },
      rows: { type: 'int', default: 64, range: [1, 1024], doc: 'random rows' },
      seqLen: { type: 'int', default: 128, range: seqLen, doc: 'keys per random row' },
      dk: { type: 'int', default: 64, range: dk, doc: 'd_k of the random rows, or of q and k (then required)' },
      heads: { type: 'int', default: 1, range: heads, doc: "heads, only to resolve 'inv_sqrt_d_model'" },
      scale, seed,
      blockSize: { type: 'int', default: 32, range: [1, 8192], doc: "the online softmax's key block" },
      accumulate: { type: 'choice', default: 'same', values: ACCUMULATE_MODES, ts: 'AccumulateMode', doc: 'default \'same\'. The online cell is "FlashAttention-style" (Dao et al. 2022, Alg. 1: running max and sum in float32) only with \'float32\'' },
      maskedRow: { type: 'choice', default: 'nan', values: MASKED_ROW_RULES, ts: 'MaskedRowRule', doc: 'default \'nan\': each cell computes what its formula gives; \'zero\': the fused-kernel convention. The float64 reference follows the same rule' },
      softcap,
      q: { type: 'float32', default: null, doc: 'q [queries, dk] (queries 1..1024) and k [keys, dk] (keys 1..8192), float32, finite with |x| ≤ 1e6, given together with dk (required) and a scale (default \'inv_sqrt_dk\'): one row per query, one logit per key. In each format q and k are rounded to it, each product and partial sum to the accumulation format (the format, or float32 for float16/bfloat16 under accumulate \'float32\'), the dot product stored in the format, then the scale applied at scaleAt; a product or logit that overflows counts as inputOverflow. The float64 reference and cells use the products in double. Refused with logits, rows, seqLen or seed (TypeError). Every cell then carries rowSum and causes.sumStall. d_k 128, q = 24·𝟏, keys 24·𝟏, 12·𝟏, 0 in float16: at the scores the products are [∞, 36864, 0] and the row NaN; at the query the logits are [6516.6, 3258.3, 0] and the weights [1, 0, 0].' },
      k: { type: 'float32', default: null, doc: 'k [keys, dk] (with q)' },
      scaleAt: { type: 'choice', default: 'scores', values: SCALE_AT, ts: 'ScaleAt', doc: 'with q and k: \'scores\' (default) computes c · (q·k), what softmax(q kᵀ · c) does; \'query\' scales q first, (c · q)·k, as kernels that fold the scale into q do; \'both\' puts √c on q and on k, (√c · q)·(√c · k), as PyTorch\'s math backend of scaled_dot_product_attention did before pytorch/pytorch#163508. Refused without q and k.' },
      scaleRounding: { type: 'choice', default: 'float32', values: SCALE_ROUNDING, ts: 'ScaleRounding', doc: 'with q and k: how a float16/bfloat16 cell holds the constant it multiplies by (c, or √c under \'both\'). \'float32\' (default): a float32 constant, each product formed in float32 and then rounded to the cell\'s format, as PyTorch multiplies a bf16/fp16 tensor by a Python float (pytorch/pytorch#147134) and FlashAttention keeps softmax_scale in float32. \'cell\': c rounded to the cell\'s format first (core 0.3.0\'s rule, for comparison). float32 and float64 cells are the same either way; each cell reports the c it applied (scaleApplied). d_k 128, bfloat16, safe, accumulate \'float32\', q = e₀, keys 227·e₀ and 226·e₀, \'scores\': \'float32\' gives the logits [20.125, 20] and p = [0.53125, 0.46875] (float64 [0.5220827, 0.4779173]); \'cell\' holds c = 0.08837890625 and gives [20, 20], p = [0.5, 0.5]. Refused without q and k.' },
      rowSums: { type: 'bool', default: true, doc: 'check every row\'s sum Σ_j p_j (default true; always on with q and k): each cell carries rowSum and causes.sumStall. false (an opt-out for the results of core 0.2, which had them off by default) leaves out those two fields and nothing else: every other number is the same, bit for bit. The check costs a sum per row.' },
    },
    flags: { rowSums: 'p.row_sums || !p.q.empty()', qk: '!p.q.empty()' },
    result: {
      rows: { type: 'number', doc: 'rows measured' },
      seqLen: { type: 'number', doc: 'keys per row' },
      scale: { type: 'number', doc: 'the resolved c (random rows), 1 for explicit logits' },
      maxAbsLogit: { type: 'number', doc: 'max |logit| over the rows' },
      jacFroMedianF64: { type: 'number', doc: 'median ‖J‖_F of the float64 safe softmax' },
      reference: { type: 'f64', doc: 'first row, float64 safe softmax [seqLen]' },
      cells: { type: 'PrecisionCell[]', doc: 'format-major: float64, float32, bfloat16, float16 × naive, safe, online' },
      onlineVsSafe: { type: 'f64', doc: 'max |online − safe| per format, in the order above' },
    },
    example: [{ rows: 2, seqLen: 8, dk: 4 }],
  },
}));
