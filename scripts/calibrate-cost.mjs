// Calibrates the core's cost model (wasm/src/cost.hpp): times each kind of work the experiments do
// on the built wasm module in Node (the products with each kernel family; the per-row statistics
// run the build's fastest passes whatever the kernel), one term at a time, and prints the nanoseconds
// per unit that cost.hpp records. Run: `node scripts/calibrate-cost.mjs` (about a minute alone).
// CPU time of this process (not wall time, so a busy machine does not inflate it). Each term is the median of 3 runs; the per-row statistics are timed in every regime of the
// secular solve (flat rows at d_k = 1 to saturated rows without a scale) and the slowest is kept.
// Optional: CORE=/path/to/wasm/js/core.js to time another checkout's build.

const corePath = process.env.CORE ?? '../wasm/js/core.js';
const { loadCore } = await import(corePath);
const core = await loadCore({ kernel: 'scalar' });
const simdCore = await loadCore({ kernel: 'simd' });

function time(f, reps = 3) {
  const t = [];
  for (let i = 0; i < reps; ++i) {
    const c0 = process.cpuUsage();
    f();
    const c = process.cpuUsage(c0);
    t.push((c.user + c.system) / 1e3);  // CPU time, ms: other processes on the machine do not count
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(reps / 2)] * 1e6;  // ns
}
const out = {};
const log = (k, v, how) => { out[k] = v; console.log(`${k.padEnd(22)} ${v.toPrecision(3).padStart(9)}  ${how}`); };

// 0. Normal draws (scoreVariance: two normals and a multiply-add per component).
{
  const samples = 5000, dk = 1024;
  const t = time(() => core.scoreVariance({ dks: [dk], samples, histDk: dk, bins: 60 }));
  log('nsPerNormal', t / (2 * samples * dk), `scoreVariance ${samples} samples at dk ${dk}`);
}
// 1. Products, for each kernel family: attentionStats forward at L = 128, d_k = 2048, minus its
//    normal draws (2·h·L·d_k) and its per-row work (h·L² weights at about 60 ns, < 3 %).
for (const kernel of ['scalar', 'simd']) {
  const h = 4, L = 128, dk = 2048;
  const c = kernel === 'scalar' ? core : simdCore;
  const fwd = time(() => c.attentionStats({ heads: h, seqLen: L, dk, gradients: false, perRow: false, kernel }));
  const rest = 2 * h * L * dk * out.nsPerNormal + h * L * L * 60;
  log(kernel === 'scalar' ? 'nsPerMac' : 'nsPerMacSimd', (fwd - rest) / (h * L * L * dk), `attentionStats h ${h} L ${L} dk ${dk} forward, kernel ${kernel}: ${(fwd / 1e6).toFixed(0)} ms`);
}
// 2. Per-row statistics per attention weight (softmax, copies, entropy, ‖J‖_F, the secular solve
//    for ‖J‖₂): d_k = 1 and 2 (flat rows), 64 with 1/√d_k, 4096 with no scale (saturated), L 2048.
{
  let worst = 0, at = '';
  for (const [dk, scale] of [[1, 'inv_sqrt_dk'], [1, 'none'], [2, 'none'], [8, 'inv_sqrt_dk'], [64, 'inv_sqrt_dk'], [64, 'none'], [512, 'inv_dk'], [16, 'none']]) {
    const h = 1, L = 1024;
    const t = time(() => core.attentionStats({ heads: h, seqLen: L, dk, scale, gradients: false, perRow: false, kernel: 'scalar' }));
    const per = (t - out.nsPerMac * h * L * L * dk) / (h * L * L);
    if (per > worst) { worst = per; at = `dk ${dk} ${scale}`; }
  }
  log('nsPerRowWeight', worst, `attentionStats h 1 L 1024 forward, slowest regime (${at})`);
  // The backward pass's extra per-weight work (dP copy, J·dP, dS) beyond its two products.
  const h = 1, L = 1024, dk = 1;
  const f = time(() => core.attentionStats({ heads: h, seqLen: L, dk, gradients: false, perRow: false, kernel: 'scalar' }));
  const b = time(() => core.attentionStats({ heads: h, seqLen: L, dk, gradients: true, perRow: false, kernel: 'scalar' }));
  log('nsPerGradWeight', Math.max(0, (b - f - 2 * out.nsPerMac * h * L * L * dk) / (h * L * L)), 'attentionStats h 1 L 1024 dk 1, gradients on minus off');
}
// 3. Soft-capped rows: ‖J D‖₂ by Lanczos, S steps of two J products (L terms) and a Sturm bisection
//    every 4 steps (S² terms): per row kNsPerLanczosLS · L · S + kNsPerLanczosS2 · S². The two
//    constants from rows that take every step (cap 1, logits of standard deviation 0.5: S = min(L,
//    160)) at L 256 and 1024; then the steps S of rows at L 64, 256, 1024, cap 1, 5, 50 and
//    logit_std / cap over 0.02 … 100 (the logits' standard deviation set by an explicit scale at
//    d_k 64), solved from each row's time: cost.cpp's kSteps table. Soft-capped minus plain calls.
{
  const perRowNs = (L, logitStd, cap) => {
    const dk = 64, S = Math.min(L, 160);
    const heads = Math.max(1, Math.min(16, Math.round(3e5 / (L * S))));
    const p = { heads, seqLen: L, dk, scale: logitStd / Math.sqrt(dk), gradients: false, perRow: false, kernel: 'simd' };
    const plain = time(() => simdCore.attentionStats(p), 2);
    const capped = time(() => simdCore.attentionStats({ ...p, softcap: cap }), 2);
    return (capped - plain) / (heads * L);
  };
  const [r1, r2] = [perRowNs(256, 0.5, 1), perRowNs(1024, 0.5, 1)];  // S = 160 both
  const b = (r2 - r1) / ((1024 - 256) * 160);
  const a = (r1 - b * 256 * 160) / (160 * 160);
  log('nsPerLanczosLS', b, `cap 1, logits' std 0.5: ${(r1 / 1e3).toFixed(0)} µs per row at L 256, ${(r2 / 1e3).toFixed(0)} µs at L 1024 (every step)`);
  log('nsPerLanczosS2', a, 'the same two rows');
  const xs = [0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 1, 1.4, 2, 3, 5, 8, 16, 32, 100];
  const table = [];
  for (const L of [64, 256, 1024]) {
    const caps = [];
    for (const cap of [1, 5, 50]) {
      const steps = xs.map((x) => {
        const t = perRowNs(L, x * cap, cap), bl = b * L;
        return Math.min(Math.min(L, 160), Math.max(1, (-bl + Math.sqrt(bl * bl + 4 * a * t)) / (2 * a)));
      });
      caps.push(`    {${steps.map((v) => v.toFixed(1)).join(', ')}},  // cap ${cap}`);
    }
    table.push(`  {  // L ${L}\n${caps.join('\n')}\n  },`);
  }
  console.log(`kSteps (cost.cpp), [L 64, 256, 1024][cap 1, 5, 50][logit_std / cap ${xs.join(', ')}]:\n${table.join('\n')}`);
}
// 3b. attention(): soft-cap (tanh), masks, softmax and the weights' copy out, per weight (d_k = 1).
{
  const L = 2048, dk = 1;
  const q = new Float32Array(L * dk).map((_, i) => Math.sin(i) * 2), k = q.slice(), v = q.slice();
  const t = time(() => core.attention({ q, k, v, heads: 1, seqLen: L, dk, kernel: 'scalar', weights: true, softcap: 5 }));
  log('nsPerSoftmaxWeight', (t - 2 * out.nsPerMac * L * L * dk) / (L * L), `attention L ${L} dk 1, soft-capped, weights returned`);
}
// 5. longContext: the products (once per call: q · max(seqLens) · d_k, shared by every method and
//    length) plus per-query scaling, softmax and row statistics (entropy and max weight), for each
//    kernel family (the softmax is the kernel's). At d_k = 1, so the products (subtracted) do not
//    drown the per-weight work; a new seed each run, so the kept products of the last call do not
//    serve the next.
{
  const q = 64, dk = 1, L = 16384;
  let seed = 1000;
  for (const kernel of ['scalar', 'simd']) {
    const c = kernel === 'scalar' ? core : simdCore;
    const mac = kernel === 'scalar' ? out.nsPerMac : out.nsPerMacSimd;
    const t = time(() => c.longContext({ dk, seqLens: [L], queries: q, methods: ['fixed', 'article'], kernel, seed: seed++ }));
    log(kernel === 'scalar' ? 'nsPerLongWeight' : 'nsPerLongWeightSimd', (t - mac * q * L * dk - out.nsPerNormal * (L + q) * dk) / (2 * q * L),
      `longContext q ${q} dk ${dk} L ${L}, 2 methods, kernel ${kernel}, minus products and draws`);
  }
}
// 6. precisionLab: 12 emulated softmaxes (4 formats × 3 algorithms) and their checks per logit.
{
  const rows = 64, L = 512, dk = 8;
  const t = time(() => core.precisionLab({ rows, seqLen: L, dk }));
  log('nsPerPrecisionLogit', (t - 5 * rows * L * dk) / (rows * L), `precisionLab rows ${rows} L ${L} dk ${dk}`);
}
// 7. tensorStats: the moments of every q·k pair (Welford in double) beyond its products.
{
  const h = 2, L = 1024, dk = 4;
  const n = h * L * dk;
  const q = new Float32Array(n).map((_, i) => Math.sin(i)), k = new Float32Array(n).map((_, i) => Math.cos(i * 1.3));
  const t = time(() => core.tensorStats({ q, k, heads: h, seqLen: L, dk, kernel: 'scalar' }));
  const model = h * L * L * (out.nsPerRowWeight + out.nsPerGradWeight) + 4 * out.nsPerMac * h * L * L * dk;
  log('nsPerPairMoment', Math.max(0, (t - model) / (h * L * L)), `tensorStats h ${h} L ${L} dk ${dk} minus the attentionStats model`);
}
// 8. Training: ns per multiply-add of one step (forward + backward ≈ 3 × the forward's products).
{
  for (const cfg of [{ dModel: 320, mlp: 512, layers: 1, heads: 8, batch: 16, seqLen: 64, vocab: 256 }, { dModel: 64, mlp: 128, layers: 2, heads: 4, batch: 16, seqLen: 16, vocab: 16 }]) {
    for (const kernel of ['scalar', 'simd']) {
    const run = (kernel === 'scalar' ? core : simdCore).createTrainingRun({ ...cfg, evalSize: 1, steps: 1000, kernel });
    run.step(1);
    const t = time(() => run.step(2)) / 2;
    run.dispose();
    const { dModel: C, mlp: F, layers: Ly, batch: B, seqLen: T, vocab: V } = cfg;
    const fwd = B * T * (Ly * (4 * C * C + 2 * C * F + 2 * T * C) + C * (V + 1));
    log(`nsPerTrainMac${kernel === 'simd' ? 'Simd' : ''}(C${C})`, t / (3 * fwd), `one step, ${(t / 1e6).toFixed(0)} ms; forward products ${fwd.toExponential(2)}`);
    }
  }
}
console.log(JSON.stringify(out));
