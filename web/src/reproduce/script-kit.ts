// Copy as code's shared pieces: the scale as a Python expression, the readout list, the attention-rows and agreement helpers in Python, and the shape of a view's code.
import type { ScaleName } from '../state/state.ts';
import type { T } from '../i18n/messages.ts';
import { SCALES } from '../state/schema.js';
import { pyChoice, pyStr } from './python.ts';
import { AGREE_SIGMAS } from './views.ts';

// The scale factor c of a named scale at d_k (logit_options.cpp resolve_scale), as a Python expression.
export function scaleExpr(scale: ScaleName, dk: string, heads: string): string {
  switch (pyChoice(scale, SCALES, 'scale')) {
    case 'none': return '1.0';
    case 'inv_sqrt_dk': return `1.0 / math.sqrt(${dk})`;
    case 'inv_dk': return `1.0 / ${dk}`;
    case 'inv_sqrt_d_model': return `1.0 / math.sqrt(${dk} * ${heads})`;
  }
}

/** A Python list of (label, value) pairs from [label, python expression] rows. */
export function rows(t: T, list: [string, string][]): string {
  return `[\n${list.map(([label, expr]) => `        (${pyStr(label)}, ${expr}),`).join('\n')}\n    ]`;
}

export const VARIANCE_DRAW = `def score_draws(seed, dk, samples):
    """Scores q·k of score_variance.cpp draw_scores: stream (seed, d_k) gives, pair after pair, the d_k
    components of q, then those of k (N(0, 1), in double); the dot product is summed in double."""
    stream = Stream(seed, dk)
    scores = np.empty(samples)
    step = max(1, 2 ** 20 // (2 * dk))  # pairs per block, to keep the memory small
    for s0 in range(0, samples, step):
        n = min(step, samples - s0)
        z = stream.normals(2 * dk * n).reshape(n, 2, dk)
        scores[s0:s0 + n] = (z[:, 0] * z[:, 1]).sum(axis=1)
    return scores
`;

export const ATTENTION_ROWS = `def attention_rows(q, k, c, causal=False, softcap=0.0, sink=float("-inf"), v=None, dout=None):
    """Per-row statistics of softmax(c · q kᵀ) for q, k [heads, L, d_k] float32 (attention_stats.cpp Analysis):
    the logits c · q·k in float32, then the soft-cap cap·tanh(s/cap) and the causal mask, the weights
    e^{s_j} / (e^S + Σ_i e^{s_i}) with an attention-sink logit S (gpt-oss; none at -inf), and per row the
    entropy in nats (over the keys and the sink), the max weight (over the keys), H / ln(outcomes seen),
    ‖J‖_F of the softmax Jacobian J = diag(p) − p pᵀ and, given v and dout, ‖∂ℓ/∂q‖ with ∂ℓ/∂P = dO Vᵀ."""
    heads, L, dk = q.shape
    logits = (c * (q @ k.transpose(0, 2, 1)).astype(np.float64)).astype(np.float32)
    if softcap > 0:
        logits = (softcap * np.tanh(logits.astype(np.float64) / softcap)).astype(np.float32)
    seen = np.arange(1, L + 1) if causal else np.full(L, L)
    masked = np.arange(L)[None, :] >= seen[:, None]  # [L, L]: key j hidden from row i
    logits[:, masked] = -np.inf
    max_abs_logit = float(np.abs(logits[:, ~masked]).max())
    s = logits.astype(np.float64)
    m = np.maximum(s.max(axis=2, keepdims=True), sink)
    e = np.exp(s - m)
    e_sink = np.exp(sink - m)
    total = e.sum(axis=2, keepdims=True) + e_sink
    p, p_sink = e / total, (e_sink / total)[..., 0]
    plogp = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0).sum(axis=2)
    entropy = -(plogp + np.where(p_sink > 0, p_sink * np.log(np.where(p_sink > 0, p_sink, 1.0)), 0.0))
    outcomes = seen + (1 if sink > float("-inf") else 0)
    ratio = (entropy / np.log(np.maximum(outcomes, 2)))[:, outcomes > 1]
    # ‖diag(p) − p pᵀ‖_F² = p₁²R² + T₂(1 + T₂ + 2p₁²) − 2T₃ with p₁ the largest weight, R, T₂, T₃ the sums of the
    # other weights, their squares and cubes (stats.cpp f32_row_stats: no cancellation in 1 − p₁ on one-hot rows)
    full = np.concatenate([p, p_sink[..., None]], axis=2)
    p1 = full.max(axis=2)
    others = np.where(np.arange(full.shape[2]) == full.argmax(axis=2)[..., None], 0.0, full)
    R, T2, T3 = others.sum(axis=2), (others ** 2).sum(axis=2), (others ** 3).sum(axis=2)
    jac_fro = np.sqrt(np.maximum(p1 ** 2 * R ** 2 + T2 * (1 + T2 + 2 * p1 ** 2) - 2 * T3, 0.0))
    out = dict(entropy=entropy.ravel(), max_weight=p.max(axis=2).ravel(), ratio=ratio.ravel(),
               max_abs_logit=max_abs_logit, sink_mass=p_sink.ravel(), jac_fro=jac_fro.ravel())
    if v is not None:
        dP = (dout @ v.transpose(0, 2, 1)).astype(np.float64)          # ∂ℓ/∂P
        dS = p * (dP - (p * dP).sum(axis=2, keepdims=True))              # J · dP, row by row
        dQ = c * (dS.astype(np.float32) @ k).astype(np.float64)          # ∂ℓ/∂q = c · dS K
        out["grad_query"] = np.sqrt((dQ ** 2).sum(axis=2)).ravel()
    return out
`;

export const TORCH_ROWS = `def torch_rows(q, k, c, causal=False, softcap=0.0, sink=float("-inf")):
    """The same per-row statistics the way one writes them in PyTorch (explicit softmax; F.scaled_dot_product_attention
    applies these very weights to V but does not return them)."""
    logits = c * q @ k.transpose(-2, -1)
    if softcap > 0:
        logits = softcap * torch.tanh(logits / softcap)
    L = q.shape[-2]
    if causal:
        logits = logits.masked_fill(torch.ones(L, L, dtype=torch.bool).triu(1), float("-inf"))
    sinks = torch.full(logits.shape[:-1] + (1,), sink, dtype=logits.dtype)
    p = torch.softmax(torch.cat([logits, sinks], dim=-1), dim=-1)  # the sink is one more outcome (gpt-oss)
    entropy = torch.special.entr(p).sum(-1)
    return dict(entropy=entropy.flatten().double().numpy(), max_weight=p[..., :-1].amax(-1).flatten().double().numpy())
`;

export const AGREE = `def agree(name, lab, other, se):
    """Prints the lab's value beside torch's and whether they differ by less than ${AGREE_SIGMAS} standard errors of
    their difference (two independent estimates, each with standard error se: √2 · se)."""
    ok = abs(lab - other) <= ${AGREE_SIGMAS} * math.sqrt(2) * se
    print(f"{name}: lab {fmt(lab)}  torch {fmt(other)}  ± {fmt(se, 2)} (1 standard error)  {'agree' if ok else 'DIFFER'} within ${AGREE_SIGMAS}σ")
    return ok
`;

export interface ViewCode {
  /** The Python helpers the view needs (ATTENTION_ROWS, …). */
  helpers: string[];
  /** The body of readouts(): computes and returns the list of (label, value as shown). */
  numpy: string;
  /** The torch part (may use the variables of a readouts() call's locals through lab): prints agree(...) lines. */
  torch: string;
  torchHelpers: string[];
}

