// Copy as code for "Does attention have to sum to one?": the normalisers' table, the sources' closed-form rows and QK-Clip.
import type { State } from '../state/state.ts';
import type { T, MessageKey } from '../i18n/messages.ts';
import { SCALES } from '../state/schema.js';
import { SUMONE_PY } from './sumone-py.ts';
import { normalisersShape, qkClipParams, CHECK_ROWS, QKCLIP_SHAPE } from '../requests/normalisers.ts';
import { pyNum, pyInt, pyChoice, pyStr } from './python.ts';
import { scaleExpr, rows, ViewCode } from './script-kit.ts';

const SUM_ORDER = ['sigmoid', 'offByOne', 'differential', 'sink', 'gated', 'softmax'] as const;
const SUM_CHECKED = ['sigmoid', 'offByOne', 'softmax'] as const;

/** The sum-to-one view: the normalisers' table, the sources' closed-form rows, QK-Clip per head (key-figures.ts normaliserFigures, normaliserCheckFigures, qkClipFigures). */
export function sumoneCode(s: State, t: T): ViewCode {
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

