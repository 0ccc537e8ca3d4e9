// Copy as code for μP: the moments of q·k at ρ and the entropy under 1/√d_k, 1/d_k and d_k^−p across d_k.
import type { State } from '../state/state.ts';
import type { T } from '../i18n/messages.ts';
import { mupVarianceParams, mupSweepParams, MUP_QUOTE_DKS, MUP_SAMPLES, MUP_SHAPE } from '../requests/mup.ts';
import { MUP_COLUMNS } from '../requests/key-figures.ts';
import type { MupColumn } from '../requests/key-figures.ts';
import { fmt } from '../format.ts';
import { pyNum, pyInt, pyStr } from './python.ts';
import { rows, ATTENTION_ROWS, ViewCode } from './script-kit.ts';

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
export function mupCode(s: State, t: T): ViewCode {
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

