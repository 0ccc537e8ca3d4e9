// "Copy as code": a pure function from a view's state to a self-contained Python script (NumPy, or PyTorch beside
// NumPy) that reproduces the view's readouts for that link, printing each with its label to the digits the page shows.
//
// The NumPy flavour draws the core's very Q and K (the generator of web/public/python/sqrtdk_rng.py, inlined) and
// computes what the view's requests compute (web/src/requests/): its printed readouts equal the page's, digit for
// digit (tests/web/reproduce.test.ts runs them). The PyTorch flavour computes the lab's numbers the same way, then
// the same statistics from torch's own draws (torch.manual_seed, torch.randn), and prints both with the sampling
// error it states: other draws agree within it, not bit for bit.
//
// Every value of the state reaches the script through python.ts (a checked number, or an identifier of a fixed
// list); the link is a quoted, escaped string literal. A view without a script gives null.
import type { State, Panel, ScaleName } from '../state/state.ts';
import type { T, MessageKey } from '../i18n/messages.ts';
import { panelTitle } from '../i18n/titles.ts';
import { SCALES } from '../state/schema.js';
import { ARTICLE_SCALES } from '../requests/results.ts';
import { ARTICLE_SHAPE } from '../requests/attention.ts';
import { precisionRows } from '../requests/precision.ts';
import { PANEL_METHODS, QUOTE_L, longQueries } from '../requests/longctx.ts';
import { GQA_SEQ_LEN, headsKvOf } from '../requests/gqa.ts';
import { LAYOUTS } from '../requests/results.ts';
import { KV_DTYPE_BYTES } from '../state/schema.js';
import { SCHEMA } from '../state/schema.js';
import { PRECISION_PY } from './precision-py.ts';
import { SUMONE_PY } from './sumone-py.ts';
import { TRAINING_PY, trainingConfig } from './training-py.ts';
import { EXAMPLE_PAIRS } from '../tensors/examples.js';
import { normalisersShape, qkClipParams, CHECK_ROWS, QKCLIP_SHAPE } from '../requests/normalisers.ts';
import { mupVarianceParams, mupSweepParams, MUP_QUOTE_DKS, MUP_SAMPLES, MUP_SHAPE } from '../requests/mup.ts';
import { MUP_COLUMNS } from '../requests/key-figures.ts';
import type { MupColumn } from '../requests/key-figures.ts';
import { fmt } from '../format.ts';
import { pyNum, pyInt, pyBool, pyChoice, pyStr, PY_FORMAT } from './python.ts';
import RNG_PY from '../../public/python/sqrtdk_rng.py?raw';
import { CODE_LANGS, CODE_VIEWS, hasCode, AGREE_SIGMAS } from './views.ts';
import type { CodeLang, CodeView, CodeData } from './views.ts';
import type { ModelScale } from '../../../wasm/js/core.js';
import { wildModelParams } from '../requests/wild.ts';
import { modelOfState, numbersOf } from '../requests/your-model.ts';

export { CODE_LANGS, CODE_VIEWS, hasCode, AGREE_SIGMAS };
export type { CodeLang, CodeView, CodeData };

// The scale factor c of a named scale at d_k (logit_options.cpp resolve_scale), as a Python expression.
function scaleExpr(scale: ScaleName, dk: string, heads: string): string {
  switch (pyChoice(scale, SCALES, 'scale')) {
    case 'none': return '1.0';
    case 'inv_sqrt_dk': return `1.0 / math.sqrt(${dk})`;
    case 'inv_dk': return `1.0 / ${dk}`;
    case 'inv_sqrt_d_model': return `1.0 / math.sqrt(${dk} * ${heads})`;
  }
}

/** A Python list of (label, value) pairs from [label, python expression] rows. */
function rows(t: T, list: [string, string][]): string {
  return `[\n${list.map(([label, expr]) => `        (${pyStr(label)}, ${expr}),`).join('\n')}\n    ]`;
}

const VARIANCE_DRAW = `def score_draws(seed, dk, samples):
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

const ATTENTION_ROWS = `def attention_rows(q, k, c, causal=False, softcap=0.0, sink=float("-inf"), v=None, dout=None):
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

const TORCH_ROWS = `def torch_rows(q, k, c, causal=False, softcap=0.0, sink=float("-inf")):
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

const AGREE = `def agree(name, lab, other, se):
    """Prints the lab's value beside torch's and whether they differ by less than ${AGREE_SIGMAS} standard errors of
    their difference (two independent estimates, each with standard error se: √2 · se)."""
    ok = abs(lab - other) <= ${AGREE_SIGMAS} * math.sqrt(2) * se
    print(f"{name}: lab {fmt(lab)}  torch {fmt(other)}  ± {fmt(se, 2)} (1 standard error)  {'agree' if ok else 'DIFFER'} within ${AGREE_SIGMAS}σ")
    return ok
`;

interface ViewCode {
  /** The Python helpers the view needs (ATTENTION_ROWS, …). */
  helpers: string[];
  /** The body of readouts(): computes and returns the list of (label, value as shown). */
  numpy: string;
  /** The torch part (may use the variables of a readouts() call's locals through lab): prints agree(...) lines. */
  torch: string;
  torchHelpers: string[];
}

function viewCode(s: State, t: T, data: CodeData): ViewCode {
  const exp = pyChoice(s.exp, CODE_VIEWS, 'exp');
  switch (exp) {
    case 'variance': {
      const dk = pyInt(s.dk, 'dk', 1, 4096), samples = pyInt(s.samples, 'samples', 2, 1_000_000), seed = pyInt(s.seed, 'seed', 0, 2 ** 32 - 1);
      return {
        helpers: [VARIANCE_DRAW],
        numpy: `    dk, samples, seed = ${dk}, ${samples}, ${seed}
    scores = score_draws(seed, dk, samples)  # Var(q·k) = d_k for iid N(0, 1) components
    var = float(scores.var(ddof=1))
    c = 1.0 / math.sqrt(dk)
    lab.update(var=var, dk=dk, samples=samples, seed=seed)
    return ${rows(t, [
      [t('var.ro.var'), 'fmt(var)'], [t('var.ro.std'), 'fmt(math.sqrt(var))'],
      [t('var.ro.sqrt'), 'fmt(var * c * c)'], [t('var.ro.dk'), 'fmt(var * (1.0 / dk) * (1.0 / dk))'],
    ])}`,
        torchHelpers: [],
        torch: `    dk, samples = lab["dk"], lab["samples"]
    torch.manual_seed(lab["seed"])
    q = torch.randn(samples, dk, dtype=torch.float64)
    k = torch.randn(samples, dk, dtype=torch.float64)
    var = (q * k).sum(-1).var().item()
    # the standard error of a sample variance: Var · √(2/(n − 1) + κ/n), κ = 6/d_k the excess kurtosis of q·k
    se = lab["var"] * math.sqrt(2 / (samples - 1) + 6 / (dk * samples))
    return [agree(${pyStr(t('var.ro.var'))}, lab["var"], var, se)]`,
      };
    }
    case 'saturation':
    case 'gradient': {
      const heads = pyInt(s.heads, 'heads', 1, 64), L = pyInt(s.seqLen, 'seqLen', 2, 8192), dk = pyInt(s.dk, 'dk', 1, 4096), seed = pyInt(s.seed, 'seed', 0, 2 ** 32 - 1);
      const sat = exp === 'saturation';
      const explicit = sat && s.sscale > 0;
      const c = explicit ? pyNum(s.sscale, 'sscale') : scaleExpr(s.scale, 'dk', 'heads');
      const causal = sat ? pyBool(s.causal, 'causal') : 'False';
      const softcap = sat && s.softcap > 0 ? pyNum(s.softcap, 'softcap') : '0.0';
      const S = sat ? s.sink[0] ?? -Infinity : -Infinity;
      const sink = pyNum(S, 'sink');
      const hasSink = S !== -Infinity;
      const draws = sat
        ? `    q = draw_tensor(seed, 1, (heads, L, dk))  # Q: stream 1 of the seed (attention_stats.cpp draw_inputs)
    k = draw_tensor(seed, 2, (heads, L, dk))  # K: stream 2
    r = attention_rows(q, k, c, causal=${causal}, softcap=${softcap}, sink=${sink})`
        : `    q = draw_tensor(seed, 1, (heads, L, dk))  # Q: stream 1 of the seed (attention_stats.cpp draw_inputs)
    k = draw_tensor(seed, 2, (heads, L, dk))  # K: stream 2
    v = draw_tensor(seed, 3, (heads, L, dk))  # V: stream 3
    dout = draw_tensor(seed, 4, (heads, L, dk))  # ∂ℓ/∂O: stream 4 (the loss ℓ = Σ O ⊙ dO)
    r = attention_rows(q, k, c, v=v, dout=dout)`;
      const head = `    heads, L, dk, seed = ${heads}, ${L}, ${dk}, ${seed}
    c = ${c}  # ${explicit ? 'the explicit scale factor (sscale)' : `scale ${pyChoice(s.scale, SCALES, 'scale')}`}
${draws}
    lab.update(r=r, heads=heads, L=L, dk=dk, seed=seed, c=c)`;
      if (sat) {
        return {
          helpers: [ATTENTION_ROWS],
          numpy: `${head}
    return ${rows(t, [
      [t('sat.ro.entropy'), 'fmt(r["entropy"].mean())'], [t('sat.ro.lnL'), 'fmt(math.log(L))'],
      [t('sat.ro.ratio'), 'fmt(r["ratio"].mean())'], [t('sat.ro.maxw'), 'fmt(r["max_weight"].mean())'],
      [t('sat.ro.share'), 'pct((r["max_weight"] > 0.99).mean())'], [t('sat.ro.c'), 'fmt(c)'],
      [t('sat.ro.maxLogit'), 'fmt(r["max_abs_logit"])'], [t('sat.ro.sink'), hasSink ? 'fmt(r["sink_mass"].mean())' : '"0"'],
    ])}`,
          torchHelpers: [TORCH_ROWS],
          torch: `    torch.manual_seed(lab["seed"])
    q = torch.randn(lab["heads"], lab["L"], lab["dk"])
    k = torch.randn(lab["heads"], lab["L"], lab["dk"])
    mine = torch_rows(q, k, lab["c"], causal=${causal}, softcap=${softcap}, sink=${sink})
    r, n = lab["r"], lab["r"]["entropy"].size
    # standard error of a mean over the rows: the rows' standard deviation / √rows
    return [agree(name, r[key].mean(), mine[key].mean(), r[key].std(ddof=1) / math.sqrt(n) + 1e-12)
            for name, key in ((${pyStr(t('sat.ro.entropy'))}, "entropy"), (${pyStr(t('sat.ro.maxw'))}, "max_weight"))]`,
        };
      }
      const field = s.gq === 'grad' ? 'grad_query' : 'jac_fro';
      return {
        helpers: [ATTENTION_ROWS],
        numpy: `${head}
    x = r[${pyStr(field)}]  # ${s.gq === 'grad' ? '‖∂ℓ/∂q‖' : '‖J‖_F'} per row
    lab.update(x=x)
    return ${rows(t, [
      [t('grad.ro.median'), 'fmt(np.quantile(x, 0.5))'], [t('grad.ro.p10'), 'fmt(np.quantile(x, 0.1))'],
      [t('grad.ro.p90'), 'fmt(np.quantile(x, 0.9))'], [t('grad.ro.mean'), 'fmt(x.mean())'],
    ])}`,
        torchHelpers: [],
        torch: `    torch.manual_seed(lab["seed"])
    q = torch.randn(lab["heads"], lab["L"], lab["dk"], requires_grad=True)
    k, v, dout = (torch.randn(lab["heads"], lab["L"], lab["dk"]) for _ in range(3))
    p = torch.softmax(lab["c"] * q @ k.transpose(-2, -1), dim=-1)
    ${field === 'jac_fro'
      ? `s2, s3 = (p ** 2).sum(-1), (p ** 3).sum(-1)
    mine = torch.sqrt((s2 - 2 * s3 + s2 ** 2).clamp_min(0)).detach().flatten().double().numpy()  # ‖diag(p) − p pᵀ‖_F`
      : `(p @ v * dout).sum().backward()  # ℓ = Σ O ⊙ dO, so ∂ℓ/∂O = dO
    mine = q.grad.norm(dim=-1).flatten().double().numpy()`}
    x = lab["x"]
    return [agree(${pyStr(t('grad.ro.mean'))}, x.mean(), mine.mean(), x.std(ddof=1) / math.sqrt(x.size) + 1e-12)]`,
      };
    }
    case 'article': {
      const aseed = pyInt(s.aseed, 'aseed', 0, 2 ** 32 - 1);
      const label = (sc: ScaleName, th: MessageKey) => `${t(`scale.${sc}` as MessageKey)} · ${t(th)}`;
      const scales = ARTICLE_SCALES.map((sc) => pyChoice(sc, SCALES, 'scale'));
      const { heads, seqLen, dk } = ARTICLE_SHAPE;
      return {
        helpers: [ATTENTION_ROWS],
        numpy: `    seed = ${aseed}
    heads, L, dk = ${pyInt(heads, 'heads', 1, 64)}, ${pyInt(seqLen, 'seqLen', 2, 8192)}, ${pyInt(dk, 'dk', 1, 4096)}  # the article's q, k ~ randn(1, 8, 128, 512)
    q = draw_tensor(seed, 1, (heads, L, dk))  # Q: stream 1 of the seed (attention_stats.cpp draw_inputs)
    k = draw_tensor(seed, 2, (heads, L, dk))  # K: stream 2
    cs = {${scales.map((sc) => `${pyStr(sc)}: ${scaleExpr(sc, 'dk', 'heads')}`).join(', ')}}
    r = {name: attention_rows(q, k, c) for name, c in cs.items()}
    lab.update(r=r, cs=cs, seed=seed, heads=heads, L=L, dk=dk)
    return ${rows(t, [
      ...scales.map((sc): [string, string] => [label(sc, 'art.th.entropy'), `fmt(r[${pyStr(sc)}]["entropy"].mean())`]),
      ...scales.map((sc): [string, string] => [label(sc, 'art.th.maxw'), `fmt(r[${pyStr(sc)}]["max_weight"].mean())`]),
      ...scales.map((sc): [string, string] => [label(sc, 'art.th.share'), `pct((r[${pyStr(sc)}]["max_weight"] > 0.99).mean())`]),
    ])}`,
        torchHelpers: [TORCH_ROWS],
        torch: `    torch.manual_seed(lab["seed"])
    q = torch.randn(lab["heads"], lab["L"], lab["dk"])  # the article: q = torch.randn(1, 8, 128, 512)
    k = torch.randn(lab["heads"], lab["L"], lab["dk"])
    names = {${scales.map((sc) => `${pyStr(sc)}: ${pyStr(label(sc, 'art.th.entropy'))}`).join(', ')}}
    out = []
    for sc, c in lab["cs"].items():
        mine, r = torch_rows(q, k, c), lab["r"][sc]
        out.append(agree(names[sc], r["entropy"].mean(), mine["entropy"].mean(), r["entropy"].std(ddof=1) / math.sqrt(r["entropy"].size) + 1e-12))
    return out`,
      };
    }
    case 'precision': return precisionCode(s, t);
    case 'longctx': return longContextCode(s, t);
    case 'gqa': return gqaCode(s, t);
    case 'mup': return mupCode(s, t);
    case 'sumone': return sumoneCode(s, t);
    case 'tensors': return tensorsCode(s, t);
    case 'wild': return wildCode(s, t, data.catalogue);
    case 'training': throw new RangeError('the training lab has a script of its own (trainingScript)');
  }
}

const WILD_PY = `def entropy_rows(q, k, c, softcap=0.0, block=256):
    """Each row's entropy (nats) of softmax(c · q kᵀ) for one head q, k [L, d_head] float32, computed as
    attention_rows computes it (float32 logits, the soft-cap after the scale, the softmax in double), a block of rows
    at a time so that L = 4096 needs tens of MB, not a GB."""
    out = []
    for r0 in range(0, q.shape[0], block):
        logits = (c * (q[r0:r0 + block] @ k.T).astype(np.float64)).astype(np.float32)
        if softcap > 0:
            logits = (softcap * np.tanh(logits.astype(np.float64) / softcap)).astype(np.float32)
        s = logits.astype(np.float64)
        e = np.exp(s - s.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        out.append(-np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0).sum(axis=1))
    return np.concatenate(out)
`;

/**
 * Scales in the wild: each catalogue model's effective scale, and the mean entropy at L = wlen on iid inputs under it and
 * under 1/√d_head (key-figures.ts wildModelFigures; requests/wild.ts wildModelParams: one head, seed 0, Q stream 1, K 2).
 * The catalogue is the core's (modelScales), given by the page at the click; the script carries each row as data.
 */
/** The name of the "Your model" row in Scales in the wild's script: "Your model: DeepSeek-V3", or the link's pasted config. */
export function yourModelName(t: T, m: NonNullable<ReturnType<typeof modelOfState>>): string {
  return `${t('ym.h')}: ${m.from === 'link' ? 'config.json' : m.label}`;
}

function wildCode(s: State, t: T, catalogue: readonly ModelScale[] | undefined): ViewCode {
  if (!catalogue || catalogue.length === 0) throw new RangeError('Scales in the wild: its script needs the core\'s catalogue (modelScales), not given');
  const L = pyInt(s.wlen, 'wlen', 2, 16384);
  const row = (name: string, dHead: number, scale: number, cap: number) =>
    `        (${pyStr(name)}, ${pyInt(dHead, 'dHead', 1, 65536)}, ${pyNum(scale, 'scale')}, ${pyNum(cap, 'softcap')}),`;
  const rowsOf = catalogue.map((m) => {
    const p = wildModelParams(s, m);
    return row(m.model, m.dHead, m.scale, typeof p.softcap === 'number' ? p.softcap : 0);
  });
  // the "Your model" section's model (a saved config read by modelConfig, or a pasted one's numbers from the link), last
  const yours = modelOfState(s);
  if (yours) {
    const n = numbersOf(yours);
    rowsOf.push(row(yourModelName(t, yours), n.dHead, n.scale, n.softcap));
  }
  const models = rowsOf.join('\n');
  const label = (key: MessageKey, vars?: Record<string, number>) => pyStr(` · ${t(key, vars)}`);
  return {
    helpers: [WILD_PY],
    numpy: `    L = ${L}  # one head of L iid N(0, 1) queries and keys per model (seed 0: Q stream 1, K stream 2)
    # (model, d_head, its effective scale c on q·k, its soft-cap or 0): the core's catalogue (modelScales) for this link,
    # then the link's own model of the "Your model" section if it names one
    models = [
${models}
    ]
    out, rows_of = [], {}
    for name, dh, c, cap in models:
        q = draw_tensor(0, 1, (1, L, dh))[0]
        k = draw_tensor(0, 2, (1, L, dh))[0]
        own, ref = entropy_rows(q, k, c, cap), entropy_rows(q, k, 1.0 / math.sqrt(dh))
        rows_of[name] = (dh, c, cap, own)
        out += [(name + ${label('wild.th.scale')}, fmt(c, 6)), (name + ${label('wild.th.entropy', { L: s.wlen })}, fmt(own.mean())),
                (name + ${label('wild.th.refEntropy')}, fmt(ref.mean()))]
    lab.update(rows_of=rows_of, L=L)
    return out`,
    torchHelpers: [],
    torch: `    out = []
    torch.manual_seed(0)
    for name, (dh, c, cap, own) in lab["rows_of"].items():
        q, k = torch.randn(lab["L"], dh), torch.randn(lab["L"], dh)
        logits = c * q @ k.T
        if cap > 0:
            logits = cap * torch.tanh(logits / cap)
        h = torch.special.entr(torch.softmax(logits, dim=-1)).sum(-1).double().numpy()
        out.append(agree(name + ${label('wild.th.entropy', { L: s.wlen })}, own.mean(), h.mean(), own.std(ddof=1) / math.sqrt(own.size) + 1e-12))
    return out`,
  };
}

const GQA_PY = `def js_fixed(v, digits):
    \"\"\"JavaScript's v.toFixed(digits) (half away from zero, on the exact value).\"\"\"
    return Decimal(v).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)


def format_bytes(b):
    \"\"\"Bytes in binary units as the page prints them (web/src/kvcache.ts formatBytes).\"\"\"
    units, v, u = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"], float(b), 0
    while v >= 1024 and u < len(units) - 1:
        v /= 1024
        u += 1
    s = f"{js_fixed(v, 0)}" if v >= 100 else _js_string(js_fixed(v, 1)) if v >= 10 else _js_string(js_fixed(v, 2))
    return f"{s} {units[u]}"
`;

/** The GQA view: each head layout's K/V heads, entropy, max weight, scaled Var(q·k), median ‖J‖_F and KV cache (key-figures.ts gqaLayoutFigures). */
function gqaCode(s: State, t: T): ViewCode {
  const hq = pyInt(s.hq, 'hq', 1, 64), dk = pyInt(s.gdk, 'gdk', 1, 256), L = pyInt(GQA_SEQ_LEN, 'seqLen', 1, 8192);
  const layers = pyInt(s.kvl, 'kvl', 1, 256), ctx = pyInt(s.kvctx, 'kvctx', 1, 2 ** 22);
  const bytes = pyNum(KV_DTYPE_BYTES[pyChoice(s.kvdt, SCHEMA.kvdt.values, 'kvdt') as keyof typeof KV_DTYPE_BYTES], 'kvdt');
  const layouts = LAYOUTS.map((l) => pyChoice(l, LAYOUTS, 'layout'));
  const kvs = layouts.map((l) => pyInt(headsKvOf(l, s), 'headsKv', 1, 64));
  const col = (l: string, kv: number | string, c: string) => `${t(`gqa.layout.${l}` as MessageKey, { kv })} · ${t(`gqa.th.${c}` as MessageKey)}`;
  const rowsOf = layouts.flatMap((l, i) => ([
    [col(l, kvs[i], 'kv'), `str(${kvs[i]})`], [col(l, kvs[i], 'entropy'), `fmt(r[${pyStr(l)}]["entropy"].mean())`],
    [col(l, kvs[i], 'maxw'), `fmt(r[${pyStr(l)}]["max_weight"].mean())`], [col(l, kvs[i], 'var'), `fmt(var[${pyStr(l)}])`],
    [col(l, kvs[i], 'jac'), `fmt(np.quantile(r[${pyStr(l)}]["jac_fro"], 0.5))`],
    [col(l, kvs[i], 'perToken'), `format_bytes(per_token[${pyStr(l)}])`], [col(l, kvs[i], 'total'), `format_bytes(per_token[${pyStr(l)}] * context)`],
  ] as [string, string][]));
  return {
    helpers: [ATTENTION_ROWS, GQA_PY],
    numpy: `    hq, dk, L, seed = ${hq}, ${dk}, ${L}, 0
    layers, context, bytes_per_element = ${layers}, ${ctx}, ${bytes}
    kv_heads = {${layouts.map((l, i) => `${pyStr(l)}: ${kvs[i]}`).join(', ')}}
    c = 1.0 / math.sqrt(dk)  # the scale of the per-head dimension, whatever the grouping
    r, var, per_token = {}, {}, {}
    for name, hkv in kv_heads.items():
        # the core's statistics: Q [hq, L, d] (stream 1), K [hkv, L, d] (stream 2), each K head shared by hq / hkv query heads
        q = draw_tensor(seed, 1, (hq, L, dk))
        k = np.repeat(draw_tensor(seed, 2, (hkv, L, dk)), hq // hkv, axis=0)
        r[name] = attention_rows(q, k, c)
        # the logit check on the same draws (the core's normalDraws, streams 1 and 2): Var(q·k) over every pair / d
        var[name] = float((q @ k.transpose(0, 2, 1)).astype(np.float64).var(ddof=1)) / dk
        per_token[name] = 2 * layers * hkv * dk * bytes_per_element  # K and V per layer, K/V head and token
    lab.update(r=r, kv_heads=kv_heads, hq=hq, dk=dk, L=L)
    return ${rows(t, rowsOf)}`,
    torchHelpers: [],
    torch: `    out = []
    for name, hkv in lab["kv_heads"].items():
        torch.manual_seed(0)
        q = torch.randn(1, lab["hq"], lab["L"], lab["dk"])
        k, v = torch.randn(1, hkv, lab["L"], lab["dk"]), torch.randn(1, hkv, lab["L"], lab["dk"])
        group = lab["hq"] // hkv
        k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)  # what enable_gqa=True does in SDPA
        p = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(lab["dk"]), dim=-1)
        if hasattr(F, "scaled_dot_product_attention"):  # torch ≥ 2.0: the same weights, scale 1/√d_head by default
            assert torch.allclose(F.scaled_dot_product_attention(q, k, v), p @ v, atol=1e-5)
        mine = torch.special.entr(p).sum(-1).flatten().double().numpy()
        h = lab["r"][name]["entropy"]
        out.append(agree(name + " mean entropy", h.mean(), mine.mean(), h.std(ddof=1) / math.sqrt(h.size) + 1e-12))
    return out`,
  };
}

const LONG_PY = `def multiplier(method, L, train):
    \"\"\"long_context.cpp long_context_multiplier: each method's factor on 1/√d_k at length L (training length train).\"\"\"
    s = L / train
    if method == "fixed":
        return 1.0
    if method == "logn":  # Chiang & Cholak 2022; Su 2021; Qwen
        return max(1.0, math.log(L) / math.log(train))
    if method == "yarn":  # Peng et al. 2023, m-scale 1: (0.1 ln s + 1)²
        return (0.1 * 1.0 * math.log(s) + 1.0) ** 2 if s > 1 else 1.0
    if method == "article":  # the article's T = √d_k·(L_train/L)^0.5, as a factor on 1/√d_k
        return math.sqrt(s)
    if method == "llama4":  # Llama 4's query temperature 1 + 0.1·ln(⌊L/8192⌋ + 1)
        return 1.0 + 0.1 * math.log(math.floor(L / 8192.0) + 1.0)
    if method == "ssmax":  # Scalable-Softmax (Nakanishi 2025): s·ln n, s = 0.43
        return 0.43 * math.log(L)
    raise ValueError(method)


def mean_entropy(logits, sink):
    \"\"\"The mean entropy (nats) of the softmax rows of float32 logits [Q, L], an attention-sink logit (none at -inf) one more outcome.\"\"\"
    s = logits.astype(np.float64)
    m = np.maximum(s.max(axis=1, keepdims=True), sink)
    e, e_sink = np.exp(s - m), np.exp(sink - m)[:, 0]
    total = e.sum(axis=1) + e_sink
    p = np.concatenate([e / total[:, None], (e_sink / total)[:, None]], axis=1)
    h = -np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0).sum(axis=1)
    return h
`;

/** The long-context view: each method's mean entropy at L = QUOTE_L (requests/longctx.ts longParams, key-figures.ts). */
function longContextCode(s: State, t: T): ViewCode {
  const dk = pyInt(s.ldk, 'ldk', 1, 256), train = pyInt(s.ltrain, 'ltrain', 2, 16384);
  const sink = pyNum(s.sink[0] ?? -Infinity, 'sink');
  const methods = PANEL_METHODS.map((m) => pyChoice(m, PANEL_METHODS, 'method'));
  const label = (m: string) => t('lc.ro.at', { method: t(`lc.method.${m}` as MessageKey), L: QUOTE_L });
  return {
    helpers: [LONG_PY],
    numpy: `    dk, train, L, queries, sink = ${dk}, ${train}, ${pyInt(QUOTE_L, 'L', 1, 16384)}, ${pyInt(longQueries(s.ldk), 'queries', 1, 1024)}, ${sink}
    q = draw_tensor(0, 1, (queries, dk))  # long_context.cpp: the queries, stream 1 of seed 0 (each the newest token)
    k = draw_tensor(0, 2, (L, dk))  # the first L keys of stream 2
    qk = q @ k.T  # float32
    h = {}
    for method in (${methods.map((m) => pyStr(m)).join(', ')}):
        c = np.float32(multiplier(method, L, train) / math.sqrt(dk))  # the factor c of the logits c · q·k, in float32
        h[method] = mean_entropy((c * qk).astype(np.float32), sink)
    lab.update(h=h, dk=dk, train=train, L=L, queries=queries, sink=sink)
    return ${rows(t, methods.map((m): [string, string] => [label(m), `fmt(h[${pyStr(m)}].mean())`]))}`,
    torchHelpers: [],
    torch: `    torch.manual_seed(0)
    q = torch.randn(lab["queries"], lab["dk"])
    k = torch.randn(lab["L"], lab["dk"])
    out = []
    for method, h in lab["h"].items():
        c = multiplier(method, lab["L"], lab["train"]) / math.sqrt(lab["dk"])
        logits = torch.cat([c * q @ k.T, torch.full((lab["queries"], 1), lab["sink"])], dim=-1)
        mine = torch.special.entr(torch.softmax(logits, dim=-1)).sum(-1)
        out.append(agree(method, h.mean(), mine.mean().item(), h.std(ddof=1) / math.sqrt(h.size) + 1e-12))
    return out`,
  };
}

const MUP_PY = `def score_moments(seed, dk, samples, rho):
    """Mean and Var(q·k) of score_variance.cpp draw_scores at correlation ρ: stream (seed, d_k) gives, pair after pair,
    the d_k components of q, then d_k draws z; the key is k_i = ρ q_i + √(1 − ρ²) z_i (z itself at ρ = 0), in double."""
    z = Stream(seed, dk).normals(2 * dk * samples).reshape(samples, 2, dk)
    q = z[:, 0]
    k = z[:, 1] if rho == 0 else rho * q + math.sqrt(1.0 - rho * rho) * z[:, 1]
    scores = (q * k).sum(axis=1)
    return scores


def power_scale(dk, p):
    """logit_options.cpp resolve_scale of d_k^−p (the named exponents give the named scales' very numbers)."""
    if p == 0:
        return 1.0
    if p == 0.5:
        return 1.0 / math.sqrt(dk)
    if p == 1:
        return 1.0 / dk
    return dk ** -p


def mup_inputs(seed, heads, L, dk, rho):
    """attention_stats.cpp draw_inputs and correlate_keys: Q (stream 1), K (stream 2), then k ← ρ q + √(1 − ρ²) k in
    double, rounded once to float32 (each key with the query of its own position)."""
    q = draw_tensor(seed, 1, (heads, L, dk))
    k = draw_tensor(seed, 2, (heads, L, dk))
    if rho != 0:
        k = (rho * q.astype(np.float64) + math.sqrt(1.0 - rho * rho) * k.astype(np.float64)).astype(np.float32)
    return q, k
`;

/** The μP view's table: at d_k 64, 256, 1024, Var(q·k) at ρ = 0 and at ρ, mean(q·k), the entropy under three scales, the max weight (key-figures.ts mupMomentFigures, mupSweepFigures). */
function mupCode(s: State, t: T): ViewCode {
  const seed = pyInt(s.seed, 'seed', 0, 2 ** 32 - 1), rho = pyNum(s.rho, 'rho'), p = pyNum(s.mpow, 'mpow');
  if (!(s.rho >= -1 && s.rho <= 1)) throw new RangeError(`rho = ${s.rho} must be in [-1, 1]`);
  if (!(s.mpow >= 0 && s.mpow <= 2)) throw new RangeError(`mpow = ${s.mpow} must be in [0, 2]`);
  const varDks = mupVarianceParams(s, 0).dks, sweep = mupSweepParams(s).dks;
  const rhoLabel = (r: number) => `ρ = ${fmt(r, 2)}`;
  const title: Record<MupColumn, string> = {
    var0: t('mup.th.var', { rho: rhoLabel(0) }), var: t('mup.th.var', { rho: rhoLabel(s.rho) }), mean: t('mup.th.mean', { rho: rhoLabel(s.rho) }),
    sqrt: t('mup.th.entropy', { scale: t('scale.inv_sqrt_dk') }), inv: t('mup.th.entropy', { scale: t('scale.inv_dk') }),
    power: t('mup.th.entropy', { scale: `× d_k^−${fmt(s.mpow, 2)}` }), maxw: t('mup.th.maxw', { scale: t('scale.inv_sqrt_dk') }),
  };
  const expr: Record<MupColumn, string> = {
    var0: 'fmt(v0[dk].var(ddof=1))', var: 'fmt(v[dk].var(ddof=1))', mean: 'fmt(v[dk].mean())',
    sqrt: 'fmt(e[dk][0]["entropy"].mean())', inv: 'fmt(e[dk][1]["entropy"].mean())', power: 'fmt(e[dk][2]["entropy"].mean())', maxw: 'fmt(e[dk][0]["max_weight"].mean())',
  };
  const list = MUP_QUOTE_DKS.flatMap((dk) => MUP_COLUMNS.map((c): [string, string] => {
    const shown = (['var0', 'var', 'mean'].includes(c) ? varDks : sweep).includes(dk);
    return [`${dk} · ${title[c]}`, shown ? expr[c].replaceAll('[dk]', `[${pyInt(dk, 'dk', 1, 4096)}]`) : pyStr('–')];
  }));
  return {
    helpers: [ATTENTION_ROWS, MUP_PY],
    numpy: `    seed, rho, p = ${seed}, ${rho}, ${p}
    samples, heads, L = ${pyInt(MUP_SAMPLES, 'samples', 2, 1_000_000)}, ${pyInt(MUP_SHAPE.heads, 'heads', 1, 64)}, ${pyInt(MUP_SHAPE.seqLen, 'seqLen', 1, 8192)}
    var_dks = [${MUP_QUOTE_DKS.filter((d) => varDks.includes(d)).join(', ')}]  # the table's d_k that the page's variance sweep holds
    sweep_dks = [${MUP_QUOTE_DKS.filter((d) => sweep.includes(d)).join(', ')}]  # and its entropy sweep
    v0 = {dk: score_moments(seed, dk, samples, 0.0) for dk in var_dks}  # iid pairs: Var(q·k) = d_k
    v = {dk: score_moments(seed, dk, samples, rho) if rho != 0 else v0[dk] for dk in var_dks}  # Var = d_k(1 + ρ²), mean ρ d_k
    e = {}
    for dk in sweep_dks:  # heads × L queries at ρ, under 1/√d_k, 1/d_k and d_k^−p
        q, k = mup_inputs(seed, heads, L, dk, rho)
        e[dk] = [attention_rows(q, k, c) for c in (1.0 / math.sqrt(dk), 1.0 / dk, power_scale(dk, p))]
    lab.update(v0=v0, v=v, e=e, rho=rho, p=p, seed=seed, samples=samples, heads=heads, L=L)
    return ${rows(t, list)}`,
    torchHelpers: [],
    torch: `    out, rho = [], lab["rho"]
    torch.manual_seed(lab["seed"])
    for dk, lab_scores in lab["v"].items():
        q = torch.randn(lab["samples"], dk, dtype=torch.float64)
        k = rho * q + math.sqrt(1 - rho * rho) * torch.randn(lab["samples"], dk, dtype=torch.float64)
        s = (q * k).sum(-1)
        n, var = lab_scores.size, lab_scores.var(ddof=1)
        m4 = ((lab_scores - lab_scores.mean()) ** 4).mean()
        out.append(agree(f"d_k {dk}: Var(q·k)", var, s.var().item(), math.sqrt(max(m4 - var * var, 0.0) / n)))
        out.append(agree(f"d_k {dk}: mean(q·k)", lab_scores.mean(), s.mean().item(), math.sqrt(var / n)))
    for dk, stats in lab["e"].items():
        q = torch.randn(lab["heads"], lab["L"], dk)
        k = rho * q + math.sqrt(1 - rho * rho) * torch.randn(lab["heads"], lab["L"], dk)
        for name, c, r in zip(("1/√d_k", "1/d_k", f"d_k^-{lab['p']}"), (1 / math.sqrt(dk), 1 / dk, power_scale(dk, lab["p"])), stats):
            h = torch.special.entr(torch.softmax(c * q @ k.transpose(-2, -1), dim=-1)).sum(-1).flatten().double().numpy()
            out.append(agree(f"d_k {dk}: mean entropy, {name}", r["entropy"].mean(), h.mean(), r["entropy"].std(ddof=1) / math.sqrt(r["entropy"].size) + 1e-12))
    return out`,
  };
}

const SUM_ORDER = ['sigmoid', 'offByOne', 'differential', 'sink', 'gated', 'softmax'] as const;
const SUM_CHECKED = ['sigmoid', 'offByOne', 'softmax'] as const;

/** The sum-to-one view: the normalisers' table, the sources' closed-form rows, QK-Clip per head (key-figures.ts normaliserFigures, normaliserCheckFigures, qkClipFigures). */
function sumoneCode(s: State, t: T): ViewCode {
  const shape = normalisersShape(s);
  const heads = pyInt(s.heads, 'heads', 1, 16), dk = pyInt(shape.dk, 'dk', 1, 256), L = pyInt(shape.seqLen, 'seqLen', 1, 512), seed = pyInt(s.seed, 'seed', 0, 2 ** 32 - 1);
  const sink = pyNum(s.nsink, 'nsink'), lam = pyNum(s.nlambda, 'nlambda'), gate = pyNum(s.ngate, 'ngate');
  const qc = qkClipParams(s);
  const name = (n: string) => t(`sum.n.${n}` as MessageKey);
  const list: [string, string][] = SUM_ORDER.flatMap((n) => {
    const label = (c: string) => `${name(n)} · ${t(`sum.th.${c}` as MessageKey)}`;
    const r = `r[${pyStr(n)}]`;
    return [
      [label('rowSum'), `show(${r}["row_sum"])`], [label('range'), `range_text(${r})`],
      [label('firstMass'), `show(${r}["first"])`], [label('entropy'), `${pyStr(t('sum.na'))} if ${r}["entropy"] is None else fmt(${r}["entropy"])`],
      [label('outputNorm'), `show(${r}["out_norm"])`],
    ] as [string, string][];
  });
  for (const row of CHECK_ROWS) {
    for (const n of SUM_CHECKED) list.push([`${t(`sum.check.${row.id}` as MessageKey)} · ${name(n)}`, `str(js_fixed(checks[${pyStr(row.id)}][${pyStr(n)}]["row_sum"], 6))`]);
  }
  list.push([t('sum.qc.clippedHeads'), `f"{sum(e < 1 for e in eta)} / {len(eta)}"`]);
  for (let hd = 0; hd < QKCLIP_SHAPE.heads; hd++) {
    const i = pyInt(hd, 'head', 0, 63);
    list.push([t('sum.qc.th.max', { h: hd }), `fmt(before[${i}])`], [t('sum.qc.th.gamma', { h: hd }), `fmt(eta[${i}], 5)`], [t('sum.qc.th.after', { h: hd }), `fmt(after[${i}])`]);
  }
  return {
    helpers: [SUMONE_PY],
    numpy: `    heads, L, dk, seed = ${heads}, ${L}, ${dk}, ${seed}  # d_k and L read up to the core's limits (256, 512)
    c = ${scaleExpr(s.scale, 'dk', 'heads')}  # scale ${pyChoice(s.scale, SCALES, 'scale')}
    sink, lam, gate_mean = ${sink}, ${lam}, ${gate}
    kernel = ${pyStr(s.kernel === 'scalar' ? 'scalar' : 'simd')}  # the kernel family whose softmax the page ran: SIMD128 wherever the browser validates WebAssembly SIMD (kernel=scalar in the link: the scalar family)
    r = normalisers(seed, heads, L, dk, c, sink, lam, gate_mean, kernel)
    # the sources' closed-form rows: all-zero logits over 4 and 128 keys, and [2, 1, 0] (V of d_k 4)
    checks = {${CHECK_ROWS.map((row) => `${pyStr(row.id)}: normalisers(seed, 1, 0, 4, 1.0, sink, lam, gate_mean, kernel, logits=[${row.logits.map((x, j) => pyNum(x, `logits[${j}]`)).join(', ')}])`).join(',\n              ')}}
    # QK-Clip: ${QKCLIP_SHAPE.heads} query heads of d_k ${QKCLIP_SHAPE.dk} over L = ${QKCLIP_SHAPE.seqLen}, 1/√d_k, q × gain, τ, α = ½, one η per K/V group
    before, eta, after = qk_clip(seed, ${pyInt(qc.heads, 'heads', 1, 64)}, ${pyInt(qc.headsKv, 'qchkv', 1, 64)}, ${pyInt(qc.seqLen, 'seqLen', 1, 512)}, ${pyInt(qc.dk, 'dk', 1, 512)}, ${pyNum(qc.qGain, 'qcgain')}, ${pyNum(qc.tau, 'qctau')})
    lab.update(r=r, seed=seed, heads=heads, L=L, dk=dk, c=c, sink=sink, tau=${pyNum(qc.tau, 'qctau')}, gain=${pyNum(qc.qGain, 'qcgain')}, heads_kv=${pyInt(qc.headsKv, 'qchkv', 1, 64)})
    return ${rows(t, list)}`,
    torchHelpers: [],
    torch: `    # the row sums of softmax, off-by-one, a sink and sigmoid from torch's own q, k, v (masked nothing, no gate)
    torch.manual_seed(lab["seed"])
    q = torch.randn(lab["heads"], lab["L"], lab["dk"])
    k = torch.randn(lab["heads"], lab["L"], lab["dk"])
    s = lab["c"] * q @ k.transpose(-2, -1)
    out = []
    for name, S in (("softmax", float("-inf")), ("offByOne", 0.0), ("sink", lab["sink"])):
        p = torch.softmax(torch.cat([s, torch.full(s.shape[:-1] + (1,), S)], dim=-1), dim=-1)[..., :-1]  # the sink: one more outcome
        sums = p.sum(-1).flatten().double().numpy()
        se = lab["r"][name]["sd"] / math.sqrt(lab["r"][name]["rows"]) + 1e-6  # + float32 rounding of a row sum
        out.append(agree(name + ": row sum", lab["r"][name]["row_sum"], sums.mean(), se))
    sums = torch.sigmoid(s - math.log(lab["L"])).sum(-1).flatten().double().numpy()  # sigmoid attention, b = −ln n
    out.append(agree("sigmoid: row sum", lab["r"]["sigmoid"]["row_sum"], sums.mean(), lab["r"]["sigmoid"]["sd"] / math.sqrt(lab["r"]["sigmoid"]["rows"]) + 1e-6))
    # QK-Clip on torch's draws: after the rescaling no head's largest logit exceeds τ (up to float32 rounding)
    H, G, dq = 8, lab["heads_kv"], 64
    qq, kk = lab["gain"] * torch.randn(H, 128, dq), torch.randn(G, 128, dq)
    logits = lambda a, b: a @ b.repeat_interleave(H // G, dim=0).transpose(-2, -1) / math.sqrt(dq)
    smax = logits(qq, kk).amax(dim=(-2, -1))
    eta = torch.clamp(lab["tau"] / smax.view(G, H // G).amax(-1), max=1.0)
    after = logits(qq * eta.repeat_interleave(H // G)[:, None, None] ** 0.5, kk * eta[:, None, None] ** 0.5).amax(dim=(-2, -1))
    ok = bool((after <= lab["tau"] * (1 + 1e-5)).all())
    print(f"QK-Clip on torch's draws: largest logit {fmt(smax.max().item())} -> {fmt(after.max().item())} (τ = {fmt(lab['tau'])})  {'agree' if ok else 'DIFFER'} within τ")
    out.append(ok)
    return out`,
  };
}

const TENSORS_PY = `def load_tensor(path):
    """A Q or K file as the page reads it (web/src/tensors/read.ts): a .npy of any float dtype or a CSV of numbers (an
    optional header line), rank 2 [L, d_k] or 3 [heads, L, d_k], as float32 [heads, L, d_k]."""
    if path.lower().endswith(".csv"):
        a = np.genfromtxt(path, delimiter=",", ndmin=2)
        a = a[~np.isnan(a).all(axis=1)]  # a header line of names reads as NaN
    else:
        a = np.load(path)
    a = np.asarray(a, dtype=np.float32)
    if a.ndim not in (2, 3):
        raise SystemExit(f"{path}: shape {a.shape}: give [L, d_k] or [heads, L, d_k]")
    return a if a.ndim == 3 else a[None]


def moments(x):
    """stats.cpp MomentAccumulator: mean and variance (n − 1), in double."""
    x = np.asarray(x, dtype=np.float64).ravel()
    return float(x.mean()), float(x.var(ddof=1))
`;

/** Your own tensors: the files' shape, Var(q·k) beside the iid prediction, entropy and max weight beside iid N(0, 1) draws of the shape (key-figures.ts tensorFigures). */
function tensorsCode(s: State, t: T): ViewCode {
  const tex = pyChoice(s.tex, SCHEMA.tex.values, 'tex');
  const scale = pyChoice(s.tscale, SCHEMA.tscale.values, 'tscale') as ScaleName;
  const files = tex === 'own' ? { q: 'q.npy', k: 'k.npy' } : EXAMPLE_PAIRS[tex as keyof typeof EXAMPLE_PAIRS];
  const where = tex === 'own'
    ? `# The files you dropped on the page (they never leave your machine, so the link does not carry them): put their
    # paths here. .npy or CSV, [L, d_k] or [heads, L, d_k]; K may have fewer heads (grouped: each K head serves heads / heads_K).`
    : `# The page's example pair "${pyStr(t(`tens.example.${tex}` as MessageKey)).slice(1, -1)}": download both files from the site's examples/ folder
    # (web/public/examples/ in the lab's repository) next to this script, or give their paths.`;
  return {
    helpers: [ATTENTION_ROWS, TENSORS_PY],
    numpy: `    ${where}
    q_file, k_file = ${pyStr(files.q)}, ${pyStr(files.k)}
    q, k = load_tensor(q_file), load_tensor(k_file)
    heads, L, dk = q.shape
    k = np.repeat(k, heads // k.shape[0], axis=0)  # grouped K heads, repeated as read.ts pairTensors does
    c = ${scaleExpr(scale, 'dk', 'heads')}  # scale ${scale}
    qk = q @ k.transpose(0, 2, 1)  # every raw product q·k, float32
    qm, qv = moments(q)
    km, kv = moments(k)
    own = attention_rows(q, k, c)
    # iid N(0, 1) q, k of the same shape: the core's draws (seed 0, Q stream 1, K stream 2), reproduced bit for bit
    iid = attention_rows(draw_tensor(0, 1, (heads, L, dk)), draw_tensor(0, 2, (heads, L, dk)), c)
    lab.update(own=own, iid=iid, heads=heads, L=L, dk=dk, c=c)
    return ${rows(t, [
      [t('tens.ro.shape'), 'f"[{L}, {dk}]" if heads == 1 else f"[{heads}, {L}, {dk}]"'],
      [t('tens.ro.var'), 'fmt(moments(qk)[1])'],
      [t('tens.ro.varIid'), 'fmt(dk * (qv + qm ** 2) * (kv + km ** 2))'],
      [t('tens.ro.varN01'), 'str(dk)'],
      [t('tens.ro.entropy'), 'fmt(own["entropy"].mean())'], [t('tens.ro.entropyIid'), 'fmt(iid["entropy"].mean())'],
      [t('tens.ro.maxw'), 'fmt(own["max_weight"].mean())'], [t('tens.ro.maxwIid'), 'fmt(iid["max_weight"].mean())'],
    ])}`,
    torchHelpers: [TORCH_ROWS],
    torch: `    # your tensors are what they are; the iid column from torch's own draws of the same shape
    torch.manual_seed(0)
    q = torch.randn(lab["heads"], lab["L"], lab["dk"])
    k = torch.randn(lab["heads"], lab["L"], lab["dk"])
    mine, r = torch_rows(q, k, lab["c"]), lab["iid"]
    n = r["entropy"].size
    return [agree(${pyStr(t('tens.ro.entropyIid'))}, r["entropy"].mean(), mine["entropy"].mean(), r["entropy"].std(ddof=1) / math.sqrt(n) + 1e-12),
            agree(${pyStr(t('tens.ro.maxwIid'))}, r["max_weight"].mean(), mine["max_weight"].mean(), r["max_weight"].std(ddof=1) / math.sqrt(n) + 1e-12)]`,
  };
}

const FORMATS = ['float64', 'float32', 'bfloat16', 'float16'] as const;
const ALGORITHMS = ['naive', 'safe', 'online'] as const;

/** The precision lab (requests/precision.ts precisionParams): its readouts, then its table, cell by cell. */
function precisionCode(s: State, t: T): ViewCode {
  const mode = pyChoice(s.pmode, SCHEMA.pmode.values, 'pmode');
  const block = pyInt(s.pblock, 'pblock', 1, 8192);
  const acc32 = pyBool(pyChoice(s.pacc, SCHEMA.pacc.values, 'pacc') === 'float32', 'pacc');
  const zero = pyBool(pyChoice(s.pmasked, SCHEMA.pmasked.values, 'pmasked') === 'zero', 'pmasked');
  const list = (xs: readonly number[], what: string) => `[${xs.map((x, i) => pyNum(x, `${what}[${i}]`)).join(', ')}]`;
  let setup: string;
  if (mode === 'logits') {
    setup = `    rows = np.array([${list(s.plogits, 'plogits')}], dtype=np.float64)  # one typed row; -inf is a masked key
    c, qk = 1.0, None`;
  } else {
    const dk = pyInt(s.pdk, 'pdk', 1, 4096);
    const c = scaleExpr(s.pscale, 'dk', '1');
    if (mode === 'random') {
      setup = `    seed, L, dk, R = ${pyInt(s.pseed, 'pseed', 0, 2 ** 32 - 1)}, ${pyInt(s.pseqLen, 'pseqLen', 1, 8192)}, ${dk}, ${pyInt(precisionRows(s.pseqLen), 'rows', 1, 1024)}
    c = ${c}  # scale ${pyChoice(s.pscale, SCALES, 'pscale')}
    stream = Stream(seed, 5)  # precision_lab.cpp: stream 5 draws the L keys, then each row's query, in double
    keys = stream.normals(L * dk).reshape(L, dk)
    q = stream.normals(R * dk).reshape(R, dk)
    dot = np.zeros((R, L))
    for d in range(dk):  # summed in the core's order
        dot += q[:, d, None] * keys[None, :, d]
    rows, qk = c * dot, None`;
    } else {
      setup = `    dk = ${dk}
    c = ${c}  # scale ${pyChoice(s.pscale, SCALES, 'pscale')}
    q = np.full((1, dk), float(np.float32(${pyNum(s.pq, 'pq')})))  # q = pq·𝟏 (float32 values)
    k = np.repeat(np.array(${list(s.pk, 'pk')}, dtype=np.float32).astype(np.float64), ${pyInt(s.pkrep, 'pkrep', 1, 4096)})[:, None] * np.ones(dk)  # keys k_j = pk_j·𝟏, each repeated
    dot = np.zeros((1, k.shape[0]))
    for d in range(dk):  # the float64 reference: products in double, summed in order
        dot += q[:, d, None] * k[None, :, d]
    rows, qk = c * dot, (q, k, c, ${pyStr(pyChoice(s.pscaleat, SCHEMA.pscaleat.values, 'pscaleat'))})`;
    }
  }
  return {
    helpers: [PRECISION_PY],
    numpy: `${setup}
    r = precision_lab(rows, ${block}, ${acc32}, ${zero}, qk)
    lab.update(r=r, rows=rows, c=c)
    return ${rows(t, [
      [t('sat.ro.maxLogit'), 'fmt(r["max_abs_logit"])'], [t('sat.ro.c'), 'fmt(c)'], [t('prec.ro.rows'), 'str(rows.shape[0])'],
      [t('prec.ro.jac64'), 'fmt(r["jac64"])'],
    ])} + [
        (f"{f} · {a}", cell_text(r["cells"][f, a])) for f in ${`(${FORMATS.map((f) => pyStr(f)).join(', ')})`} for a in ${`(${ALGORITHMS.map((a) => pyStr(a)).join(', ')})`}
    ] + [(f"{f} · Σp", sum_text(r["cells"][f, "safe"])) for f in ${`(${FORMATS.map((f) => pyStr(f)).join(', ')})`}]`,
    torchHelpers: [],
    torch: `    # torch's own kernels on the same logits: softmax in float16 and bfloat16 (they compute in float32 inside, like the
    # lab's "accumulate in float32" cells), against float64. No sampling here: the same rows, other kernels.
    x = torch.tensor(lab["rows"], dtype=torch.float64)
    ref = torch.softmax(x, dim=-1)
    for dtype in (torch.float16, torch.bfloat16):
        xh = x.to(dtype)  # the logits stored in the format
        # safe: what torch.softmax(xh) computes on a GPU (float32 inside, the weights stored in the format)
        p = torch.softmax(xh.float(), dim=-1).to(dtype).double()
        # naive: exp and its sum stored in the format (they overflow past the format's largest number), then divided
        e = torch.exp(xh.float()).to(dtype)
        naive = (e.float() / e.float().sum(-1, keepdim=True).to(dtype).float()).to(dtype).double()
        for name, w in (("safe (torch.softmax)", p), ("naive (exp / sum)", naive)):
            nan = torch.isnan(w).any(-1).double().mean().item()
            err = (w - ref).abs().nan_to_num(0.0).amax().item()
            print(f"torch {dtype}, {name}: rows with NaN {pct(nan)}, max |error| {fmt(err, 2)}")
    return [True]`,
  };
}

/**
 * The training lab's script (both flavours: training needs automatic differentiation, so it is PyTorch): the lab's
 * model, data, optimiser and seed described in PyTorch. Not a bit-exact replay: the lab trains with its own kernels
 * and generator (wasm/src/train/), so the losses agree in their course, not in their digits.
 */
function trainingScript(s: State, t: T, link: string, coreVersion: string): string {
  return `#!/usr/bin/env python3
# √dk Lab, ${pyStr(panelTitle(t, 'training')).slice(1, -1)}: the runs of the link below, described in PyTorch (core ${pyStr(coreVersion).slice(1, -1)}).
# A faithful description, NOT a bit-exact replay: the same model, data, optimiser and seed, but PyTorch's own
# random numbers, initialisation order and kernels, so the losses follow the lab's course, not its digits.
# Training needs automatic differentiation: this script is PyTorch in both flavours. Needs torch.
import math
from decimal import ROUND_HALF_UP, Decimal

import torch
import torch.nn as nn
import torch.nn.functional as F

LINK = ${pyStr(link)}
CORE_VERSION = ${pyStr(coreVersion)}

${trainingConfig(s)}


${TRAINING_PY}

${PY_FORMAT}

def main():
    print(f"√dk Lab, core {CORE_VERSION}: {LINK}")
    for variant in VARIANTS:
        steps, loss = train(variant)
        print(f"{variant}: loss after {steps} steps {fmt(loss)} (PyTorch's draws and kernels, not the lab's digits)")


if __name__ == "__main__":
    main()
`;
}

/**
 * The Python script of the view `state.exp` for `link` (the address it came from; only ever a quoted
 * string literal in the script), in the page's language (t): NumPy, or PyTorch beside NumPy. Null
 * for a view without code. `data`: what the view's script needs of the core (Scales in the wild: the catalogue).
 * Throws a RangeError/TypeError naming a state value that is out of range (the page's parser never gives one), or
 * naming the data a view needs when it is missing.
 */
export function exportCode(state: State, lang: CodeLang, t: T, link: string, coreVersion: string, data: CodeData = {}): string | null {
  if (!hasCode(state.exp)) return null;
  const flavour = pyChoice(lang, CODE_LANGS, 'lang');
  if (state.exp === 'training') return trainingScript(state, t, link, coreVersion);
  const v = viewCode(state, t, data);
  const title = panelTitle(t, state.exp);
  const torch = flavour === 'torch';
  const intro = torch
    ? `# Then the same statistics from PyTorch's own draws (torch.manual_seed, torch.randn): these are other draws
# than the lab's, so they agree with its numbers within the sampling error printed beside them (${AGREE_SIGMAS}σ of the
# difference), not bit for bit. Needs NumPy and torch.`
    : `# The same draws as the lab (its generator, ported below), the same scales and rules: the printed readouts are
# the page's, digit for digit. Needs NumPy only.`;
  return `#!/usr/bin/env python3
# √dk Lab, ${pyStr(title).slice(1, -1)}: the view's readouts for the link below, reproduced in Python (core ${pyStr(coreVersion).slice(1, -1)}).
${intro}
import math
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
${torch ? 'import torch\nimport torch.nn.functional as F\n' : ''}
LINK = ${pyStr(link)}
CORE_VERSION = ${pyStr(coreVersion)}


def readouts(lab):
    """The view's readouts as the page shows them: [(label, value)]; fills \`lab\` with what they came from."""
${v.numpy}

${torch ? `
def torch_check(lab):
    """The same statistics from torch's draws, beside the lab's: [True if they agree, …]."""
${v.torch}

` : ''}
def main():
    print(f"√dk Lab, core {CORE_VERSION}: {LINK}")
    lab = {}
    for label, value in readouts(lab):
        print(f"{label}: {value}")
${torch ? `    print("torch's own draws (other numbers; they agree within the stated sampling error):")
    if not all(torch_check(lab)):
        raise SystemExit("torch's statistics differ from the lab's by more than ${AGREE_SIGMAS} standard errors")
` : ''}

${[...v.helpers, ...(torch ? [...v.torchHelpers, AGREE] : [])].join('\n\n')}

${PY_FORMAT}

# ---- The lab core's generator, bit for bit (web/public/python/sqrtdk_rng.py of the lab's repository) ----
${RNG_PY}

if __name__ == "__main__":
    main()
`;
}
