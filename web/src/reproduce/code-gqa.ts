// Copy as code for GQA / MQA: Var(q·k/√d_head) and the entropy of each layout on the core's draws, and the KV cache per token.
import type { State } from '../state/state.ts';
import type { T, MessageKey } from '../i18n/messages.ts';
import { GQA_SEQ_LEN, headsKvOf } from '../requests/gqa.ts';
import { LAYOUTS } from '../requests/results.ts';
import { KV_DTYPE_BYTES } from '../state/schema.js';
import { SCHEMA } from '../state/schema.js';
import { pyNum, pyInt, pyChoice, pyStr } from './python.ts';
import { rows, ATTENTION_ROWS, ViewCode } from './script-kit.ts';

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
export function gqaCode(s: State, t: T): ViewCode {
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

