// "Does attention have to sum to one?" in Python for the exported scripts: normalisers.cpp's six normalisers and qk_clip.cpp's QK-Clip, on the core's draws.

/**
 * Python helpers of the sum-to-one view's script. The logits, weights and outputs are float32 as in the core's float
 * path (its kernels sum in another order: the last bits may differ, never the digits the page shows); every figure is
 * accumulated in double as normalisers.cpp add_row and finish do.
 */
export const SUMONE_PY = `F32 = np.float32


def exp32(x):
    """kernels_scalar.cpp f32_exp_nonpositive, every step in float32: Cody–Waite reduction n = round(x / ln 2),
    r = x − n·ln 2 (ln 2 split in two), a degree-6 polynomial, times 2^n from the exponent bits; 0 below −87.3."""
    x = np.asarray(x, dtype=F32)
    with np.errstate(all="ignore"):
        xs = np.maximum(x, F32(-87.3))
        n = np.floor(xs * F32(1.44269504088896341) + F32(0.5)).astype(F32)
        r = xs - n * F32(0.693359375)
        r = r - n * F32(-2.12194440e-4)
        r2 = r * r
        y = F32(1.9875691500e-4)
        for coef in (1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1):
            y = y * r + F32(coef)
        y = y * r2 + r + F32(1)
        pow2n = ((n.astype(np.int32) + 127) << 23).astype(np.int32).view(F32)
        return np.where(x < F32(-87.3), F32(0), y * pow2n).astype(F32)


def softmax_sink(s, sink):
    """Rows of float32 logits s [R, N] -> e^{s_j} / (e^S + Σ e^{s_i}) with a sink logit S (none at -inf), in float32
    as kernels_scalar.cpp softmax_row_scalar: m the max of the row and S (subtracted only for numerical stability),
    e = exp32(s − m), their sum in double, w = e · float32(1 / sum)."""
    S = F32(sink)
    m = np.maximum(s.max(axis=1, keepdims=True), S)
    e = exp32(s - m)
    total = e.astype(np.float64).sum(axis=1, keepdims=True) + exp32(S - m).astype(np.float64)
    return e * (1.0 / total).astype(F32)


def sigmoid32(x):
    """σ(x) = 1 / (1 + e^{-x}) in float32, as normalisers.cpp sigmoid<float>."""
    return F32(1) / (F32(1) + np.exp(-x.astype(F32)))


class Acc:
    """normalisers.cpp Acc: the running figures of one normaliser over its rows."""

    def __init__(self):
        self.sums, self.first, self.out_norm, self.entropy = [], 0.0, 0.0, []
        self.negatives = self.weights = 0

    def add_row(self, w, factor, out_norm):
        """Σ w, w₀ and the entropy of the renormalised row (only where every weight ≥ 0 and Σ w > 0), in double."""
        x = factor * w.astype(np.float64)
        total = float(x.sum())
        self.negatives += int((x < 0).sum())
        self.weights += x.size
        self.sums.append(total)
        self.first += float(x[0])
        self.out_norm += out_norm
        if (x >= 0).all() and total > 0:
            r = x / total
            self.entropy.append(float(-np.where(r > 0, r * np.log(np.where(r > 0, r, 1.0)), 0.0).sum()))

    def finish(self):
        """normalisers.cpp finish: the mean row sum, its min and max, the mean mass on the first key, the mean entropy
        over the rows that have one (None if none does), the share of negative weights, the mean output norm."""
        n = len(self.sums)
        if n == 0:  # no rows (the differential with one head): every figure empty
            return dict(rows=0, sd=0.0, row_sum=None, row_min=None, row_max=None, first=None, entropy=None, negative=None, out_norm=None)
        sd = float(np.std(self.sums, ddof=1)) if n > 1 else 0.0
        return dict(rows=n, sd=sd, row_sum=sum(self.sums) / n, row_min=min(self.sums), row_max=max(self.sums), first=self.first / n,
                    entropy=sum(self.entropy) / len(self.entropy) if self.entropy else None,
                    negative=self.negatives / self.weights, out_norm=self.out_norm / n)


def show(x):
    \"\"\"A figure of the table: '–' where the core has none (null), else as the page prints it.\"\"\"
    return "–" if x is None else fmt(x)


def range_text(x):
    \"\"\"The table's min … max of the row sums ('–' without rows).\"\"\"
    return "–" if x["row_min"] is None else f"{fmt(x['row_min'])} … {fmt(x['row_max'])}"


def js_fixed(v, digits):
    \"\"\"JavaScript's v.toFixed(digits) (half away from zero, on the exact value).\"\"\"
    return Decimal(v).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)


def norm(o):
    return float(np.sqrt((o.astype(np.float64) ** 2).sum()))


def normalisers(seed, heads, L, dk, c, sink, lam, gate_mean, logits=None):
    """normalisers.cpp run<float>: softmax, off-by-one (a sink logit of 0), a sink S, sigmoid σ(s + b) with b = −ln n,
    softmax times an output gate σ(g) and differential attention p₁ − λ p₂ (heads paired: 0 with 1, 2 with 3, …) on
    the same draws: Q stream 1, K stream 2, V stream 3, the gate's g stream 5 (+ gate_mean). With \`logits\`: that one
    row (masked keys -inf) instead of the draws, V of d_k columns, the differential pairing the row with itself."""
    explicit = logits is not None
    H, R, N = (1, 1, len(logits)) if explicit else (heads, L, L)
    if not explicit:
        q = draw_tensor(seed, 1, (H, R, dk))
        k = draw_tensor(seed, 2, (H, N, dk))
    v = draw_tensor(seed, 3, (H, N, dk))
    g = (draw_tensor(seed, 5, (H, R, dk)).astype(np.float64) + gate_mean).astype(F32)
    n_seen = int(np.isfinite(np.array(logits)).sum()) if explicit else N
    bias = -math.log(n_seen) if n_seen > 0 else 0.0
    acc = {name: Acc() for name in ("softmax", "offByOne", "sink", "sigmoid", "gated", "differential")}
    prev = None
    for h in range(H):
        s = np.array([logits], dtype=F32) if explicit else (F32(c) * (q[h] @ k[h].T)).astype(F32)
        for name, S in (("softmax", float("-inf")), ("offByOne", 0.0), ("sink", sink)):
            w = softmax_sink(s, S)
            out = w @ v[h]
            for i in range(R):
                acc[name].add_row(w[i], 1.0, norm(out[i]))
            if name != "softmax":
                continue
            gate = sigmoid32(g[h])  # [R, d_k]: the gate scales the output; its mean scales the weights' sums
            for i in range(R):
                acc["gated"].add_row(w[i], float(gate[i].astype(np.float64).mean()), norm(gate[i] * out[i]))
            if explicit or h % 2 == 1:
                d = (w - F32(lam) * w) if explicit else (prev - F32(lam) * w)
                od = d @ (v[h] if explicit else v[h - 1])
                for i in range(R):
                    acc["differential"].add_row(d[i], 1.0, norm(od[i]))
            else:
                prev = w
        w = np.where(s == -np.inf, F32(0), sigmoid32(s + F32(bias)))  # masked keys weigh 0
        out = w @ v[h]
        for i in range(R):
            acc["sigmoid"].add_row(w[i], 1.0, norm(out[i]))
    return {name: a.finish() for name, a in acc.items()}


def qk_clip(seed, heads, heads_kv, L, dk, q_gain, tau, alpha=0.5):
    """qk_clip.cpp run<float> (MHA/GQA, no soft-cap, no mask): per head the largest logit S_max of (q_gain·q)·k/√d_k;
    per K/V group η = τ / S_max of its heads where that exceeds τ, else 1; q ← η^α q and k ← η^(1−α) k; the largest
    logit after. Returns (S_max, η, S_max after) per head."""
    group = heads // heads_kv
    c = 1.0 / math.sqrt(dk)
    q = (q_gain * draw_tensor(seed, 1, (heads, L, dk)).astype(np.float64)).astype(F32)
    k = draw_tensor(seed, 2, (heads_kv, L, dk))
    smax = lambda qq, kk: [float((F32(c) * (qq[h] @ kk[h // group].T)).astype(F32).max()) for h in range(heads)]
    before = smax(q, k)
    eta = [1.0] * heads_kv
    for gi in range(heads_kv):
        m = max(before[gi * group:(gi + 1) * group])
        if m > tau:
            eta[gi] = tau / m
    qc, kc = q.copy(), k.copy()
    for h in range(heads):
        if eta[h // group] != 1.0:
            qc[h] *= F32(eta[h // group] ** alpha)
    for gi in range(heads_kv):
        if eta[gi] != 1.0:
            kc[gi] *= F32(eta[gi] ** (1.0 - alpha))
    return before, [eta[h // group] for h in range(heads)], smax(qc, kc)
`;
