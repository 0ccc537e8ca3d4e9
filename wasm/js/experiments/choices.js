// The named choices the experiments' parameters take: scales, temperature schemes, masked-row rules, the precision lab's modes.

/** The named scales c of q·k: 1, 1/√d_k, 1/d_k, 1/√(heads·d_k). */
export const SCALE_NAMES = Object.freeze(/** @type {const} */ (['none', 'inv_sqrt_dk', 'inv_dk', 'inv_sqrt_d_model']));
/** longContext's temperature schemes. */
export const LONG_CONTEXT_METHODS = Object.freeze(/** @type {const} */ (['fixed', 'logn', 'yarn', 'article', 'llama4', 'ssmax']));
/** How a row with a zero normaliser (every key masked, or every exp underflowed) comes out: 'nan' (its formula) or 'zero' (fused kernels). */
export const MASKED_ROW_RULES = Object.freeze(/** @type {const} */ (['nan', 'zero']));
/** Where the precision lab's half-precision softmax accumulates: 'same' (the storage format) or 'float32'. */
export const ACCUMULATE_MODES = Object.freeze(/** @type {const} */ (['same', 'float32']));
/** Where the precision lab with q and k applies the scale: to the products ('scores'), to q first ('query'), or √c to q and to k ('both'). */
export const SCALE_AT = Object.freeze(/** @type {const} */ (['scores', 'query', 'both']));
/** How the precision lab with q and k stores the scale in a float16/bfloat16 cell: a float32 constant ('float32', PyTorch, FlashAttention) or rounded to the cell's format ('cell', core 0.3.0). */
export const SCALE_ROUNDING = Object.freeze(/** @type {const} */ (['float32', 'cell']));
/** The kernel families, as a 'kernel' parameter names them (in a packed call, by index). */
export const KERNEL_NAMES = Object.freeze(/** @type {const} */ (['scalar', 'simd']));
