// Copy as code for the precision lab: each format and algorithm's weights, row sums and causes.
import type { State } from '../state/state.ts';
import type { T } from '../i18n/messages.ts';
import { SCALES } from '../state/schema.js';
import { precisionRows } from '../requests/precision.ts';
import { SCHEMA } from '../state/schema.js';
import { PRECISION_PY } from './precision-py.ts';
import { pyNum, pyInt, pyBool, pyChoice, pyStr } from './python.ts';
import { scaleExpr, rows, ViewCode } from './script-kit.ts';

export const FORMATS = ['float64', 'float32', 'bfloat16', 'float16'] as const;
export const ALGORITHMS = ['naive', 'safe', 'online'] as const;

/** The precision lab (requests/precision.ts precisionParams): its readouts, then its table, cell by cell. */
export function precisionCode(s: State, t: T): ViewCode {
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

