// Copy as code for Scales in the wild: each catalogue model's scale and its entropy beside 1/√d_head's, the Your-model row included.
import type { State } from '../state/state.ts';
import type { T, MessageKey } from '../i18n/messages.ts';
import { pyNum, pyInt, pyStr } from './python.ts';
import type { ModelScale } from '../../../wasm/js/core.js';
import { wildModelParams } from '../requests/wild.ts';
import { modelOfState, numbersOf } from '../requests/your-model.ts';
import type { ViewCode } from './script-kit.ts';

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

export function wildCode(s: State, t: T, catalogue: readonly ModelScale[] | undefined): ViewCode {
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

