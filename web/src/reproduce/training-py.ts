// The training lab in PyTorch for "Copy as code": a faithful description of the lab's runs (model, data, optimiser, seed), not a bit-exact replay.
import type { State } from '../state/state.ts';
import { SCHEMA, TRAIN_VARIANTS } from '../state/schema.js';
import { TRAINING_TASKS } from '../../../wasm/js/experiments.js';
import { pyNum, pyInt, pyChoice, pyStr } from './python.ts';

/**
 * The configuration block of the training script: every value from the state, checked (python.ts); the variants are
 * identifiers of the core's fixed list. Throws a RangeError/TypeError naming a value out of range.
 */
export function trainingConfig(s: State): string {
  const int = (k: 'trvocab' | 'trlen' | 'trlayers' | 'trdm' | 'trheads' | 'trmlp' | 'trwarm' | 'trsteps' | 'trseed') => {
    const spec = SCHEMA[k];
    return pyInt(s[k], k, spec.min, spec.max);
  };
  const variants = s.trvar.map((v, i) => pyStr(pyChoice(v, TRAIN_VARIANTS, `trvar[${i}]`)));
  return `TASK = ${pyStr(pyChoice(s.trtask, TRAINING_TASKS, 'trtask'))}
VOCAB, SEQ_LEN = ${int('trvocab')}, ${int('trlen')}  # content symbols 0..VOCAB-1, one separator token SEP = VOCAB
LAYERS, D_MODEL, HEADS, MLP = ${int('trlayers')}, ${int('trdm')}, ${int('trheads')}, ${int('trmlp')}
NORM = ${pyStr(pyChoice(s.trnorm, SCHEMA.trnorm.values, 'trnorm'))}  # "pre": x + f(LN(x)) and a final LN (GPT-2); "post": LN(x + f(x)) (Vaswani et al.)
INIT_STD = ${pyNum(s.trinit, 'trinit')}  # every weight matrix and embedding ~ N(0, INIT_STD²); biases 0, LN gains 1
LR, WARMUP, CLIP, STEPS = ${pyNum(s.trlr, 'trlr')}, ${int('trwarm')}, ${pyNum(s.trclip, 'trclip')}, ${int('trsteps')}
SEED = ${int('trseed')}
SOFTMAX = ${pyStr(pyChoice(s.trsm, SCHEMA.trsm.values, 'trsm'))}  # "naive": exp(s) / Σ exp(s) without the max, which overflows past s ≈ 88.7 in float32
SOFTCAP = ${pyNum(s.trcap, 'trcap')}  # > 0: logits s ↦ cap · tanh(s / cap) before the mask
VARIANTS = [${variants.join(', ')}]
BATCH, EVAL_SIZE = 16, 256  # the core's defaults (wasm/src/train/config.hpp)
WEIGHT_DECAY, BETAS, EPS = 0.01, (0.9, 0.99), 1e-8  # AdamW, decay on weight matrices and embeddings only`;
}

/** The rest of the training script: data, model, optimiser and the loop, written as one writes them in PyTorch. */
export const TRAINING_PY = `def batch(gen, B):
    """One batch of the task (wasm/src/train/config.hpp): tokens [B, T], targets [B, T] (-1: not a target)."""
    T, n = SEQ_LEN, SEQ_LEN // 2
    tokens = torch.full((B, T), VOCAB, dtype=torch.long)
    targets = torch.full((B, T), -1, dtype=torch.long)
    if TASK == "assoc_recall":  # p pairs k v (distinct keys), SEP when T is even, a query key; the target: its value
        p = (T - 1) // 2
        keys = torch.stack([torch.randperm(VOCAB, generator=gen)[:p] for _ in range(B)])
        vals = torch.randint(VOCAB, (B, p), generator=gen)
        tokens[:, 0:2 * p:2], tokens[:, 1:2 * p:2] = keys, vals
        which = torch.randint(p, (B,), generator=gen)
        tokens[:, T - 1] = keys[torch.arange(B), which]
        targets[:, T - 1] = vals[torch.arange(B), which]
        return tokens, targets
    o = T - 2 * n  # [SEP]·o, x₁..xₙ, SEP, y₁..y_{n−1}; position o+n (the separator) predicts y₁ (teacher forcing)
    x = torch.randint(VOCAB, (B, n), generator=gen)
    y = {"copy": x, "reverse": x.flip(1), "sort": x.sort(1).values}[TASK]
    tokens[:, o:o + n] = x
    tokens[:, o + n + 1:] = y[:, :n - 1]
    targets[:, o + n:] = y
    return tokens, targets


class Attention(nn.Module):
    """Multi-head self-attention with the lab's logit variants: s = c_h · q̂·k̂."""

    def __init__(self, variant):
        super().__init__()
        self.variant, self.D = variant, D_MODEL // HEADS
        self.qkv, self.out = nn.Linear(D_MODEL, 3 * D_MODEL), nn.Linear(D_MODEL, D_MODEL)
        if variant == "learnable_temperature":  # one trained scalar per head, at 1/√d_k
            self.tau = nn.Parameter(torch.full((HEADS,), 1 / math.sqrt(self.D)))
        if variant == "qk_l2":  # cosine similarity times g_h, at log₂(T² − T) (Henry et al. 2020)
            self.g = nn.Parameter(torch.full((HEADS,), math.log2(SEQ_LEN ** 2 - SEQ_LEN)))
        if variant == "qk_layernorm":  # LN over each head's d_k, gain and bias shared by the heads of a layer
            self.q_norm, self.k_norm = nn.LayerNorm(self.D), nn.LayerNorm(self.D)

    def forward(self, x, causal):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, HEADS, self.D).permute(2, 0, 3, 1, 4)
        c = {"none": 1.0, "inv_dk": 1 / self.D}.get(self.variant, 1 / math.sqrt(self.D))
        if self.variant == "qk_layernorm":
            q, k = self.q_norm(q), self.k_norm(k)
        if self.variant == "qk_l2":
            q = q / torch.sqrt((q * q).sum(-1, keepdim=True) + 1e-12)
            k = k / torch.sqrt((k * k).sum(-1, keepdim=True) + 1e-12)
            c = self.g.view(1, HEADS, 1, 1)
        if self.variant == "learnable_temperature":
            c = self.tau.view(1, HEADS, 1, 1)
        s = c * q @ k.transpose(-2, -1)
        if SOFTCAP > 0:
            s = SOFTCAP * torch.tanh(s / SOFTCAP)
        if causal:
            s = s.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        if SOFTMAX == "naive":
            e = torch.exp(s)
            p = e / e.sum(-1, keepdim=True)
        else:
            p = torch.softmax(s, dim=-1)  # the max subtracted first, only for numerical stability
        return self.out((p @ v).transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, variant):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(D_MODEL), nn.LayerNorm(D_MODEL)
        self.attn = Attention(variant)
        self.mlp = nn.Sequential(nn.Linear(D_MODEL, MLP), nn.GELU(approximate="tanh"), nn.Linear(MLP, D_MODEL))

    def forward(self, x, causal):
        if NORM == "pre":
            x = x + self.attn(self.ln1(x), causal)
            return x + self.mlp(self.ln2(x))
        x = self.ln1(x + self.attn(x, causal))
        return self.ln2(x + self.mlp(x))


class Model(nn.Module):
    """A small decoder-only Transformer: token and learned position embeddings, LAYERS blocks, a linear head."""

    def __init__(self, variant):
        super().__init__()
        V = VOCAB + 1
        self.wte, self.wpe = nn.Embedding(V, D_MODEL), nn.Embedding(SEQ_LEN, D_MODEL)
        self.blocks = nn.ModuleList([Block(variant) for _ in range(LAYERS)])
        self.ln_f = nn.LayerNorm(D_MODEL) if NORM == "pre" else nn.Identity()
        self.head = nn.Linear(D_MODEL, V)
        for name, p in self.named_parameters():
            if p.dim() == 2:  # matrices and embeddings; the lab draws each from its own stream of the seed
                nn.init.normal_(p, std=INIT_STD)
            elif name.endswith("bias"):
                nn.init.zeros_(p)

    def forward(self, tokens):
        causal = TASK != "assoc_recall"  # the copy-like tasks would otherwise see their own targets
        x = self.wte(tokens) + self.wpe(torch.arange(tokens.shape[1]))
        for b in self.blocks:
            x = b(x, causal)
        return self.head(self.ln_f(x))


def train(variant):
    """One run: AdamW with decoupled weight decay on matrices and embeddings, linear warm-up, global-norm clipping.
    The same seed gives every variant the same initial weights (where shapes agree) and the same batches."""
    torch.manual_seed(SEED)
    model = Model(variant)
    decay = [p for p in model.parameters() if p.dim() == 2]
    rest = [p for p in model.parameters() if p.dim() != 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": WEIGHT_DECAY}, {"params": rest, "weight_decay": 0.0}],
                            lr=LR, betas=BETAS, eps=EPS)
    gen = torch.Generator().manual_seed(SEED)
    loss = float("nan")
    for t in range(STEPS):
        for group in opt.param_groups:
            group["lr"] = LR * (t + 1) / WARMUP if t < WARMUP else LR
        tokens, targets = batch(gen, BATCH)
        logits = model(tokens)
        loss_t = F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1), ignore_index=-1)
        loss = loss_t.item()
        if not math.isfinite(loss):  # the lab records a non-finite loss and stops the run there
            return t, loss
        opt.zero_grad()
        loss_t.backward()
        if CLIP > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
        opt.step()
    return STEPS, loss
`;
