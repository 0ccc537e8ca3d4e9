// Copy as code for own tensors: the files' statistics and the iid column from the core's draws.
import type { State, ScaleName } from '../state/state.ts';
import type { T, MessageKey } from '../i18n/messages.ts';
import { SCHEMA } from '../state/schema.js';
import { EXAMPLE_PAIRS } from '../tensors/examples.js';
import { pyChoice, pyStr } from './python.ts';
import { scaleExpr, rows, ATTENTION_ROWS, TORCH_ROWS, ViewCode } from './script-kit.ts';

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
export function tensorsCode(s: State, t: T): ViewCode {
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

