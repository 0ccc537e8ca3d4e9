// The precision lab in Python for the exported scripts: precision.cpp's round_to and softmax_in_format and
// precision_lab.cpp's cells, every arithmetic step rounded to the format as the core emulates it.

/**
 * Python helpers of the precision view's script. float16 goes through NumPy's float16 (a cast from double
 * rounds to nearest, ties to even, with subnormals and overflow to ±∞: the core's rule), bfloat16 through the
 * core's documented rule (precision.cpp round_to), float32 through NumPy's float32. The scale is applied as a
 * float32 constant in every format, as PyTorch applies a Python scalar to a half tensor.
 */
export const PRECISION_PY = `BITS = {"float32": (23, -126, 127), "bfloat16": (7, -126, 127), "float16": (10, -14, 15)}  # mantissa bits, emin, emax


def round_to(fmt, x):
    """x (float64 array) rounded to the format (precision.cpp round_to): nearest, ties to even, subnormals, ±∞ past the largest."""
    x = np.asarray(x, dtype=np.float64)
    if fmt == "float64":
        return x
    if fmt == "float16":
        return x.astype(np.float16).astype(np.float64)
    if fmt == "float32":
        return x.astype(np.float32).astype(np.float64)
    m, emin, emax = BITS[fmt]  # bfloat16: the core's documented rule, in NumPy
    e = np.frexp(x)[1]
    ulp = np.ldexp(1.0, np.maximum(e - 1, emin) - m)
    r = np.rint(x / ulp) * ulp
    r = np.where(np.abs(r) > (2 - 2.0 ** -m) * 2.0 ** emax, np.copysign(np.inf, x), r)
    return np.where(np.isfinite(x) & (x != 0), r, x)


def c_exp(a):
    """The C library's exp, element by element (NumPy's vectorised exp may differ in the last bit); +∞ past its range."""
    def one(v):
        try:
            return math.exp(v)
        except OverflowError:
            return math.inf
    return np.array([one(v) for v in np.ravel(a).tolist()]).reshape(np.shape(a))


def softmax_in_format(rows, fmt, algo, block, acc32, zero_rows):
    """softmax_in_format of precision.cpp on rows [R, n]: storage rounded to fmt (S), arithmetic to fmt or, with acc32,
    to float32 (A); naive (exp, sum, divide), safe (minus the row max first) or online (blocks of \`block\` keys with a
    running max and a rescaled running sum). Returns the weights [R, n] and each row's input, exp and sum overflows."""
    acc = "float32" if acc32 and fmt in ("float16", "bfloat16") else fmt
    S, A = (lambda v: round_to(fmt, v)), (lambda v: round_to(acc, v))
    R, n = rows.shape
    x = S(rows)
    flags = dict(input=(np.isfinite(rows) & np.isinf(x)).any(axis=1), exp=np.zeros(R, bool), sum=np.zeros(R, bool))

    def E(arg):
        e = A(c_exp(arg))
        flags["exp"] |= (np.isfinite(arg) & (e == np.inf)).reshape(R, -1).any(axis=1)
        return e

    def add(total, e):
        r = A(total + e)
        flags["sum"] |= (r == np.inf) & np.isfinite(total) & np.isfinite(e)
        return r

    p = np.zeros((R, n))
    if algo == "naive":
        total = np.zeros(R)
        for j in range(n):
            p[:, j] = E(x[:, j])
            total = add(total, p[:, j])
        out, dead = S(A(p / total[:, None])), total == 0
    elif algo == "safe":
        m = x.max(axis=1)
        total = np.zeros(R)
        for j in range(n):
            p[:, j] = E(A(x[:, j] - m))
            total = add(total, p[:, j])
        out, dead = S(A(p / total[:, None])), m == -np.inf
    else:
        m, d = np.full(R, -np.inf), np.zeros(R)
        for start in range(0, n, block):
            m_new = np.maximum(m, x[:, start:start + block].max(axis=1))
            live = m_new != -np.inf
            d = np.where(live, A(d * E(A(m - m_new))), d)
            for j in range(start, min(n, start + block)):
                d = np.where(live, add(d, E(A(x[:, j] - m_new))), d)
            m = np.where(live, m_new, m)
        out, dead = S(A(E(A(x - m[:, None])) / d[:, None])), (m == -np.inf) | (d == 0)
    if zero_rows:
        out[dead] = 0.0  # a fully masked row as fused kernels return it
    return out, flags


def qk_logits(q, k, c, fmt, scale_at, acc32):
    """precision_lab.cpp logits_in_format: q [Q, d_k] · k [K, d_k] formed in the format, each product and partial sum
    rounded (to float32 with acc32), the dot product stored in the format; the scale applied at the scores, to q first,
    or √c to q and to k ('both'). A float16/bfloat16 cell holds it as a float32 constant and forms each product in
    float32 (as PyTorch does); a float32/float64 cell holds it in its own format.
    Returns the logits [Q, K] and the rows where something overflowed."""
    acc = "float32" if acc32 and fmt in ("float16", "bfloat16") else fmt
    S, A = (lambda v: round_to(fmt, v)), (lambda v: round_to(acc, v))
    held = math.sqrt(c) if scale_at == "both" else c
    if fmt in ("float16", "bfloat16"):
        cf = float(np.float32(held))  # the scale as a float32 constant, as PyTorch does
        scaled = lambda v: S(round_to("float32", cf * v))
    else:
        cf = S(held)
        scaled = lambda v: S(A(cf * v))
    qi, kf = S(q), S(k)
    key_over = np.zeros(k.shape[0], dtype=bool)
    if scale_at == "both":
        kf = scaled(kf)
        key_over = np.isinf(kf).any(axis=1)
    if scale_at in ("query", "both"):
        qi = scaled(qi)
    over = np.isinf(qi).any(axis=1)
    dot = np.zeros((q.shape[0], k.shape[0]))
    for d in range(q.shape[1]):
        dot = A(dot + A(qi[:, d, None] * kf[None, :, d]))
    s = S(dot)
    if scale_at == "scores":
        over |= np.isinf(s).any(axis=1)
        s = scaled(s)
    return s, over | np.isinf(s).any(axis=1) | key_over.any()


def jac_fro(p):
    """‖diag(p) − p pᵀ‖_F of a row renormalised in double (stats.cpp row_stats); 0 for a row of zeros."""
    if not p.sum() > 0:
        return 0.0
    p = p / p.sum()
    i = int(np.argmax(p))
    others = np.delete(p, i)
    R, T2, T3 = others.sum(), (others ** 2).sum(), (others ** 3).sum()
    return math.sqrt(max(p[i] ** 2 * R ** 2 + T2 * (1 + T2 + 2 * p[i] ** 2) - 2 * T3, 0.0))


def precision_lab(rows, block, acc32, zero_rows, qk=None):
    """precision_lab.cpp: the float64 safe softmax as the reference, then every format and algorithm's cells:
    shares of rows with NaN or ±∞, the first cause of each broken row, the largest error against float64 and the row sums.
    qk = (q, k, c, scale_at): each format forms its own logits."""
    np.seterr(all="ignore")
    n = rows.shape[1]
    ref, _ = softmax_in_format(rows, "float64", "safe", block, False, zero_rows)
    ref_sum = np.cumsum(ref, axis=1)[:, -1]  # summed in order, as the core does
    res = dict(max_abs_logit=float(np.abs(rows[np.isfinite(rows)]).max(initial=0.0)),
               jac64=float(np.quantile([jac_fro(r) for r in ref if np.isfinite(r).all()] or [np.nan], 0.5)), cells={})
    for fmt in ("float64", "float32", "bfloat16", "float16"):
        frows, over = rows, np.zeros(rows.shape[0], bool)
        if qk is not None and fmt != "float64":
            frows, over = qk_logits(qk[0], qk[1], qk[2], fmt, qk[3], acc32)
        m, emin = BITS.get(fmt, (52, -1022, 1023))[:2]
        stall_tol = 2.0 ** -(m + 1) * (2 + 2 * math.sqrt(n)) + n * 2.0 ** (emin - m)
        for algo in ("naive", "safe", "online"):
            out, fl = softmax_in_format(frows, fmt, algo, block, acc32, zero_rows)
            sums = np.cumsum(out, axis=1)[:, -1]
            bad, has_nan = (~np.isfinite(out)).any(axis=1), np.isnan(out).any(axis=1)
            ref_ok = np.isfinite(ref).all(axis=1)
            flushed = ((out == 0) & (ref > 0)).any(axis=1)
            err = np.fmax.reduce(np.abs(out - ref), axis=1)
            cause = np.select([fl["input"] | over, fl["exp"], fl["sum"], has_nan, flushed, ~bad & (np.abs(sums - ref_sum) > stall_tol)],
                              ["inputOverflow", "expOverflow", "sumOverflow", "nan", "underflow", "sumStall"], "")
            good = ~bad & ref_ok
            ok_sums = sums[~np.isnan(sums)]
            res["cells"][fmt, algo] = dict(
                nonfinite=bad.mean(), nan=has_nan.mean(), causes={c: (cause == c).mean() for c in set(cause.tolist()) - {""}},
                max_err=float(err[good].max()) if good.any() else math.nan,
                sum_range=(ok_sums.min(), ok_sums.max()) if ok_sums.size else (math.nan, math.nan))
    return res


CAUSE_SIGNS = (("inputOverflow", "in→∞"), ("expOverflow", "exp→∞"), ("sumOverflow", "Σ→∞"), ("nan", "0/0"), ("underflow", "0↓"), ("sumStall", "Σp≠1"))


def cell_text(c):
    """A cell of the page's table (requests/precision.ts cellText)."""
    parts = []
    if c["nan"] > 0:
        parts.append(f"NaN {pct(c['nan'])}")
    if c["nonfinite"] > c["nan"]:
        parts.append(f"±∞ {pct(c['nonfinite'] - c['nan'])}")
    parts += [f"{sign} {pct(c['causes'][k])}" for k, sign in CAUSE_SIGNS if c["causes"].get(k, 0) > 0]
    if math.isfinite(c["max_err"]):
        parts.append(f"Δ {fmt(c['max_err'], 2)}")
    if c["nonfinite"] == 0 and not any(v > 0 for v in c["causes"].values()):
        parts.insert(0, "✓")
    return " · ".join(parts)


def sum_text(c):
    """The Σp column (requests/precision.ts rowSumText): the min and max row sum of the safe cell."""
    lo, hi = c["sum_range"]
    if lo != lo:
        return "NaN"  # every row's sum is NaN
    return fmt(lo, 5) if lo == hi else f"{fmt(lo, 5)} … {fmt(hi, 5)}"
`;
