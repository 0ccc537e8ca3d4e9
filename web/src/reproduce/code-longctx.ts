// Copy as code for long context: each method's logit multiplier and the entropy it gives against L.
import type { State } from '../state/state.ts';
import type { T, MessageKey } from '../i18n/messages.ts';
import { PANEL_METHODS, QUOTE_L, longQueries } from '../requests/longctx.ts';
import { pyNum, pyInt, pyChoice, pyStr } from './python.ts';
import { rows, ViewCode } from './script-kit.ts';

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
export function longContextCode(s: State, t: T): ViewCode {
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

