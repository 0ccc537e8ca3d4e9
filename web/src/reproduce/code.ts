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
//
// This file holds the dispatch and the variance, saturation, gradient, article and training scripts; the other
// views' scripts are in code-<view>.ts, their shared pieces in script-kit.ts.
import type { State, ScaleName } from '../state/state.ts';
import type { T, MessageKey } from '../i18n/messages.ts';
import { panelTitle } from '../i18n/titles.ts';
import { SCALES } from '../state/schema.js';
import { ARTICLE_SCALES } from '../requests/results.ts';
import { ARTICLE_SHAPE } from '../requests/attention.ts';
import { TRAINING_PY, trainingConfig } from './training-py.ts';
import { pyNum, pyInt, pyBool, pyChoice, pyStr, PY_FORMAT } from './python.ts';
import RNG_PY from '../../public/python/sqrtdk_rng.py?raw';
import { CODE_LANGS, CODE_VIEWS, hasCode, AGREE_SIGMAS } from './views.ts';
import type { CodeLang, CodeView, CodeData } from './views.ts';
import { scaleExpr, rows, VARIANCE_DRAW, ATTENTION_ROWS, TORCH_ROWS, AGREE, ViewCode } from './script-kit.ts';
import { wildCode } from './code-wild.ts';
import { gqaCode } from './code-gqa.ts';
import { longContextCode } from './code-longctx.ts';
import { mupCode } from './code-mup.ts';
import { sumoneCode } from './code-sumone.ts';
import { tensorsCode } from './code-tensors.ts';
import { precisionCode } from './code-precision.ts';

export { CODE_LANGS, CODE_VIEWS, hasCode, AGREE_SIGMAS };
export type { CodeLang, CodeView, CodeData };

export { yourModelName } from './code-wild.ts';

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
