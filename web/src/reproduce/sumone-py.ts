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


def exp32_simd(x):
    """kernels_wasmsimd.cpp exp_nonpositive_f32x4 (XNNPACK's rr2_p5), every step in float32: n = x·log2(e) plus the
    magic bias 1.5·2^23 + 127, which rounds n to an integer and leaves n + 127 in the low mantissa bits, so 2^n is
    those bits shifted left by 23; r = x − n·ln 2 (ln 2 in two parts); e^x = s + (r·s)·p(r), p of degree 4; 0 below
    −87.3. Within 1.9e-7 relative of exp (the bound the core's tests hold it to)."""
    x = np.asarray(x, dtype=F32)
    h = float.fromhex
    magic = F32(12583039.0)
    with np.errstate(all="ignore"):
        n = x * F32(1.44269504088896341) + magic
        s = ((n.view(np.uint32) << np.uint32(23)) & np.uint32(0xFFFFFFFF)).astype(np.uint32).view(F32)
        n = n - magic
        r = n * F32(h("-0x1.62E400p-1")) + x
        r = n * F32(h("-0x1.7F7D1Cp-20")) + r
        p = F32(h("0x1.0F9F9Cp-7")) * r + F32(h("0x1.573A1Ap-5"))
        for coef in ("0x1.555A80p-3", "0x1.FFFDC6p-2", "0x1.FFFFF6p-1"):
            p = p * r + F32(h(coef))
        r = r * s
        return np.where(x < F32(-87.3), F32(0), r * p + s).astype(F32)


def lane_sum(a):
    """The four float32 lanes of a [R, 4] block added in double as kernels_wasmsimd.cpp lane_sum: (l0 + l2) + (l1 + l3)."""
    a = a.astype(np.float64)
    return ((a[:, 0] + a[:, 2]) + (a[:, 1] + a[:, 3]))[:, None]


def softmax_sink(s, sink, kernel):
    """Rows of float32 logits s [R, N] -> e^{s_j} / (e^S + Σ e^{s_i}) with a sink logit S (none at -inf), in float32 as
    the page's kernel family computes it: m the max of the row and S (subtracted only for numerical stability),
    e = exp(s − m), w = e · float32(1 / sum).
    kernel "scalar" (kernels_scalar.cpp softmax_row_scalar): exp32, the sum in double.
    kernel "simd" (kernels_wasmsimd.cpp softmax_row_simd, what the page runs where WebAssembly SIMD validates):
    exp32_simd; the first N − N mod 16 entries summed in float32 blocks of 256 (per 16 entries, lanes add e0 + e1 into
    one accumulator and e2 + e3 into another, four entries to a lane), each block's lanes added in double; then the
    rest four at a time in one float32 accumulator; then the sink's term. A row whose max is ±inf takes the scalar rules."""
    S = F32(sink)
    m = np.maximum(s.max(axis=1, keepdims=True), S)
    if kernel == "scalar":
        e = exp32(s - m)
        total = e.astype(np.float64).sum(axis=1, keepdims=True) + exp32(S - m).astype(np.float64)
        return e * (1.0 / total).astype(F32)
    R, N = s.shape
    e = exp32_simd(s - m)
    c16, c4 = N & ~15, N & ~3
    total = np.zeros((R, 1))
    for b in range(0, c16, 256):
        a0, a1 = np.zeros((R, 4), F32), np.zeros((R, 4), F32)
        for j in range(b, min(b + 256, c16), 16):
            a0 = a0 + (e[:, j:j + 4] + e[:, j + 4:j + 8])
            a1 = a1 + (e[:, j + 8:j + 12] + e[:, j + 12:j + 16])
        total = total + (lane_sum(a0) + lane_sum(a1))
    a = np.zeros((R, 4), F32)
    for j in range(c16, c4, 4):
        a = a + e[:, j:j + 4]
    if c4 < N:
        tail = np.zeros((R, 4), F32)
        tail[:, :N - c4] = e[:, c4:]
        a = a + tail
    total = total + lane_sum(a)
    total = total + exp32_simd(S - m).astype(np.float64)
    w = e * (1.0 / total).astype(F32)
    special = np.isinf(s.max(axis=1))  # every key masked, or +inf present
    return np.where(special[:, None], softmax_sink(s, sink, "scalar"), w) if special.any() else w


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


def normalisers(seed, heads, L, dk, c, sink, lam, gate_mean, kernel, logits=None):
    """normalisers.cpp run<float>: softmax, off-by-one (a sink logit of 0), a sink S, sigmoid σ(s + b) with b = −ln n,
    softmax times an output gate σ(g) and differential attention p₁ − λ p₂ (heads paired: 0 with 1, 2 with 3, …) on
    the same draws: Q stream 1, K stream 2, V stream 3, the gate's g stream 5 (+ gate_mean). With \`logits\`: that one
    row (masked keys -inf) instead of the draws, V of d_k columns, the differential pairing the row with itself.
    \`kernel\`: the page's kernel family ("simd" or "scalar"), whose softmax softmax_sink follows."""
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
            w = softmax_sink(s, S, kernel)
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
