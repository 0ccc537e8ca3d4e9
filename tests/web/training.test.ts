// The training lab's pure parts: its state keys (round trip, malformed values), the state → config
// mapping and refusals, the chart builders, the worker-side host against the real core, and the
// chunked-run controller against a fake worker (chunks, cancel, divergence, errors).
import { describe, it, expect, beforeAll } from 'vitest';
import { loadCore } from '../../wasm/js/core.js';
import type { Core, TrainingStepResult, TrainingConfig } from '../../wasm/js/core.js';
import { parseHash, toHash, defaultState } from '../../web/src/state/state.ts';
import { SCHEMA, TRAIN_VARIANTS } from '../../web/src/state/schema.js';
import { translator } from '../../web/src/i18n/messages.ts';
import { trainingConfigs, refusals, readNumber, runKey } from '../../web/src/training/config.ts';
import { TrainingHost } from '../../web/src/training/host.ts';
import { TrainingController, TrainingWorkerError, TRAIN_TIMEOUT_SLOWDOWN, finishSeconds } from '../../web/src/training/controller.ts';
import type { RunListener } from '../../web/src/training/controller.ts';
import { emptySeries, appendStep, stepsToReach, finalLoss } from '../../web/src/training/series.ts';
import type { RunSeries } from '../../web/src/training/series.ts';
import { buildTrainLoss, buildTrainGradNorm, buildTrainLayers, buildTrainAccuracy, buildTrainLogitHist, summaryRows, summaryCsv, drawnSteps } from '../../web/src/charts/training.ts';
import { ATTENTION_VARIANTS, TRAINING_LIMITS, TRAINING_DEFAULTS } from '../../wasm/js/core.js';
import type { WorkerLike } from '../../web/src/worker/protocol.ts';

const t = translator('en');
const TINY: TrainingConfig = { layers: 1, dModel: 8, heads: 2, mlp: 8, seqLen: 8, vocab: 4, batch: 2, steps: 6, evalSize: 8, seed: 1 };

describe('training state keys', () => {
  it('match the core: variants, defaults and ranges', () => {
    expect([...TRAIN_VARIANTS]).toEqual([...ATTENTION_VARIANTS]);
    const d = defaultState();
    expect([d.trvocab, d.trlen, d.trlayers, d.trdm, d.trheads, d.trmlp, d.trsteps, d.trseed]).toEqual(
      [TRAINING_DEFAULTS.vocab, TRAINING_DEFAULTS.seqLen, TRAINING_DEFAULTS.layers, TRAINING_DEFAULTS.dModel, TRAINING_DEFAULTS.heads, TRAINING_DEFAULTS.mlp, TRAINING_DEFAULTS.steps, TRAINING_DEFAULTS.seed]);
    expect([d.trinit, d.trlr, d.trwarm, d.trclip, d.trtask, d.trnorm, d.trsm, d.trcap]).toEqual(
      [TRAINING_DEFAULTS.initStd, TRAINING_DEFAULTS.lr, TRAINING_DEFAULTS.warmup, TRAINING_DEFAULTS.clip, TRAINING_DEFAULTS.task, TRAINING_DEFAULTS.norm, TRAINING_DEFAULTS.softmax, TRAINING_DEFAULTS.softcap]);
    for (const [k, lim] of [['trvocab', 'vocab'], ['trlen', 'seqLen'], ['trlayers', 'layers'], ['trdm', 'dModel'], ['trheads', 'heads'], ['trmlp', 'mlp'], ['trsteps', 'steps']] as const) {
      expect([SCHEMA[k].min, SCHEMA[k].max], k).toEqual([...TRAINING_LIMITS[lim]]);
    }
  });

  it('round-trip every non-default value', () => {
    const s = { ...defaultState('en'), exp: 'training' as const, trtask: 'sort' as const, trvocab: 7, trlen: 33, trlayers: 5, trdm: 120, trheads: 6, trmlp: 300,
      trnorm: 'post' as const, trinit: 0.031, trlr: 0.00123, trwarm: 17, trclip: 0.25, trsteps: 1234, trseed: 4000000000, trsm: 'naive' as const, trcap: 50,
      trvar: ['inv_dk', 'qk_layernorm'] as ('inv_dk' | 'qk_layernorm')[], trthr: 0.0005 };
    const h = toHash(s);
    expect(h).toContain('&trvar=inv_dk,qk_layernorm&');
    const p = parseHash(h, 'en');
    expect(p.issues).toEqual([]);
    expect(p.state).toEqual(s);
    expect(runKey(p.state)).toBe(runKey(s));
  });

  it.each([
    ['#v=1&trsteps=20001', 'trsteps', 'range', 200],
    ['#v=1&trsteps=abc', 'trsteps', 'invalid', 200],
    ['#v=1&trlen=7', 'trlen', 'range', 16],
    ['#v=1&trdm=1e9', 'trdm', 'range', 64],
    ['#v=1&trlr=-1', 'trlr', 'range', 0.003],
    ['#v=1&trinit=0', 'trinit', 'range', 0.125],
    ['#v=1&trtask=<img src=x>', 'trtask', 'invalid', 'copy'],
    ['#v=1&trsm=NAIVE', 'trsm', 'rounded', 'naive'],
  ] as const)('%s → default and a notice', (hash, key, kind, value) => {
    const p = parseHash(hash, 'en');
    expect(p.state[key]).toBe(value);
    expect(p.issues).toEqual([expect.objectContaining({ key, kind })]);
  });

  it('a variant list keeps the known variants in display order, and an empty one falls back', () => {
    expect(parseHash('#v=1&trvar=qk_l2,bogus,none', 'en').state.trvar).toEqual(['none', 'qk_l2']);
    expect(parseHash('#v=1&trvar=qk_l2,bogus,none', 'en').issues).toEqual([expect.objectContaining({ key: 'trvar', kind: 'rounded' })]);
    const empty = parseHash('#v=1&trvar=,,', 'en');
    expect(empty.state.trvar).toEqual([...TRAIN_VARIANTS]);
    expect(empty.issues[0]).toMatchObject({ key: 'trvar', kind: 'invalid' });
  });
});

describe('training config', () => {
  it('one config per ticked variant, otherwise identical; kernel only when forced', () => {
    const s = { ...defaultState(), trvar: ['none', 'qk_l2'] as ('none' | 'qk_l2')[], kernel: 'scalar' as const };
    const cs = trainingConfigs(s);
    expect(cs.map((c) => c.attention)).toEqual(['none', 'qk_l2']);
    expect({ ...cs[0], attention: undefined }).toEqual({ ...cs[1], attention: undefined });
    expect(cs[0]).toMatchObject({ dModel: 64, heads: 4, steps: 200, seed: 0, kernel: 'scalar', softmax: 'safe' });
    expect(trainingConfigs(defaultState())[0].kernel).toBeUndefined();
  });

  it('refuses sizes before any work: divisibility, warm-up, no variant; typed-in values against the schema', () => {
    expect(refusals(defaultState())).toEqual([]);
    expect(refusals({ ...defaultState(), trdm: 60, trheads: 8 })).toEqual([{ key: 'trheads', msg: 'train.err.divisible', vars: { dm: 60, heads: 8 } }]);
    expect(refusals({ ...defaultState(), trwarm: 300 }).map((r) => r.key)).toEqual(['trwarm']);
    expect(refusals({ ...defaultState(), trvar: [] }).map((r) => r.key)).toEqual(['trvar']);
    expect(readNumber('trsteps', '20001')).toMatchObject({ ok: false, msg: 'train.err.range' });
    expect(readNumber('trsteps', '12.5')).toMatchObject({ ok: false, msg: 'train.err.int' });
    expect(readNumber('trlr', 'abc')).toMatchObject({ ok: false, msg: 'train.err.nan' });
    expect(readNumber('trlr', '')).toMatchObject({ ok: false });
    expect(readNumber('trlr', '0.01')).toEqual({ ok: true, value: 0.01 });
  });
});

function fakeSeries(variant: RunSeries['variant'], losses: number[], layers = 2): RunSeries {
  const s = emptySeries(variant, layers, losses.length);
  const n = losses.length;
  const firstBad = losses.findIndex((x) => !Number.isFinite(x));
  appendStep(s, {
    firstStep: 0, count: n, loss: Float64Array.from(losses), gradNorm: Float64Array.from(losses, (x) => x * 2), lr: new Float64Array(n).fill(0.003),
    entropy: Float64Array.from({ length: n * layers }, (_, i) => 1 + i / 100), maxAbsLogit: Float64Array.from({ length: n * layers }, (_, i) => 2 + i),
    headScale: new Float64Array(n * layers).fill(variant === 'qk_l2' ? 7 : NaN),
    stepsDone: n, finished: true, diverged: firstBad >= 0, firstNonfiniteStep: firstBad >= 0 ? firstBad : null,
  });
  return s;
}

describe('training chart builders', () => {
  const a = fakeSeries('inv_sqrt_dk', [3, 1, 0.5, 0.005]);
  const b = fakeSeries('none', [3, 2, NaN]);
  const c = fakeSeries('qk_l2', [3, 0.1, 0.01, 0.001]);

  it('loss: one point per step, non-finite steps as gaps, a marker at the first non-finite step; CSV = drawn points', () => {
    const spec = buildTrainLoss([a, b], t);
    const ds = spec.config.data.datasets;
    expect(ds).toHaveLength(3);
    expect(ds[0].data).toEqual([{ x: 0, y: 3 }, { x: 1, y: 1 }, { x: 2, y: 0.5 }, { x: 3, y: 0.005 }]);
    expect((ds[1].data[2] as { y: number }).y).toBeNaN();
    expect(ds[2].data).toEqual([{ x: 2, y: 2 }]);
    expect(ds[2].label).toMatch(/no scale: non-finite at step 2/);
    expect(spec.points).toBe(8);
    expect(spec.csv.rows).toHaveLength(8);
    expect(spec.config.options.animation).toBe(false);
    expect((spec.config.options.scales as { y: { type: string } }).y.type).toBe('logarithmic');
  });

  it('grad norm draws the clip line; per-layer charts one line per variant and layer; τ/g only where present', () => {
    expect(buildTrainGradNorm([a], t, 1).config.data.datasets.at(-1)!.data).toEqual([{ x: 0, y: 1 }, { x: 3, y: 1 }]);
    expect(buildTrainGradNorm([a], t, 0).config.data.datasets).toHaveLength(1);
    const ent = buildTrainLayers([a, c], 'entropy', t, Math.log(16));
    expect(ent.config.data.datasets).toHaveLength(5);
    expect(ent.config.data.datasets[1].data).toEqual([{ x: 0, y: 1.01 }, { x: 1, y: 1.03 }, { x: 2, y: 1.05 }, { x: 3, y: 1.07 }]);
    const hs = buildTrainLayers([a, b, c], 'headScale', t);
    expect(hs.config.data.datasets.map((d) => d.label)).toEqual(['QK-L2 (cosine × g), layer 1', 'QK-L2 (cosine × g), layer 2']);
  });

  it('thins long runs to at most MAX_POINTS per series, keeping the last step', () => {
    const steps = drawnSteps(20000);
    expect(steps.length).toBeLessThanOrEqual(1201);
    expect(steps[0]).toBe(0);
    expect(steps.at(-1)).toBe(19999);
    expect(drawnSteps(5)).toEqual([0, 1, 2, 3, 4]);
  });

  it('table rows: final loss, steps to the threshold, first non-finite step', () => {
    const rows = summaryRows([a, b, c], 0.01);
    expect(rows.map((r) => r.stepsToThreshold)).toEqual([3, null, 2]);
    expect(rows.map((r) => r.firstNonfinite)).toEqual([null, 2, null]);
    expect(finalLoss(b)).toBeNaN();
    expect(stepsToReach(a, 1)).toBe(1);
    const csv = summaryCsv(rows, 0.01);
    expect(csv.rows[1]).toEqual(['none', 3, NaN, NaN, NaN, NaN, '', 2]);
  });
});

let core: Core;
beforeAll(async () => { core = await loadCore({}); });

describe('training host (worker side) against the core', () => {
  it('creates runs, steps them in chunks with the losses of one call, finishes and disposes', () => {
    const host = new TrainingHost(core);
    const made = host.handle({ id: 1, kind: 'create', params: { configs: [{ ...TINY, attention: 'none' }, { ...TINY, attention: 'inv_sqrt_dk' }] } });
    expect(made.ok).toBe(true);
    const runs = (made as { result: { runs: number[] } }).result.runs;
    const losses: number[] = [];
    for (const n of [1, 2, 3]) {
      const r = host.handle({ id: 2, kind: 'step', params: { run: runs[1], n } });
      expect(r.ok).toBe(true);
      losses.push(...(r as { result: TrainingStepResult }).result.loss);
    }
    const direct = core.createTrainingRun({ ...TINY, attention: 'inv_sqrt_dk' });
    expect(losses).toEqual([...direct.step(6).loss]);
    direct.dispose();
    const fin = host.handle({ id: 3, kind: 'finish', params: { run: runs[1], bins: 16 } });
    expect(fin.ok && (fin.result as { analysis: { layers: unknown[] } }).analysis.layers).toHaveLength(1);
    expect(host.handle({ id: 4, kind: 'dispose', params: { runs } })).toMatchObject({ ok: true, result: { disposed: 2 } });
    expect(host.size).toBe(0);
    expect(host.handle({ id: 5, kind: 'step', params: { run: runs[0], n: 1 } })).toMatchObject({ ok: false, error: { name: 'RangeError' } });
  });

  it('finish is priced by the cost model: the forward passes of evaluate (evalSize) and analysis (its sequences) at the step\'s ns per multiply-add', () => {
    // cost.cpp train_forward_macs, written out again: the forward pass's multiply-adds over `b` sequences
    const macs = (b: number, c: Required<Pick<TrainingConfig, 'seqLen' | 'layers' | 'dModel' | 'mlp' | 'vocab'>>) =>
      b * c.seqLen * (c.layers * (4 * c.dModel ** 2 + 2 * c.dModel * c.mlp + 2 * c.seqLen * c.dModel) + c.dModel * (c.vocab + 1));
    const d = TRAINING_DEFAULTS;
    // [config, held-out sequences analysis() reads (training.cpp: min(evalSize, 256, ⌊2¹⁸ / pairs⌋))]
    const cases: [TrainingConfig, number][] = [
      [TINY, 8],                                                                        // evalSize bounds it
      [{}, 256],                                                                        // the defaults: 256 of 256
      [{ seqLen: 64, heads: 16, dModel: 64, evalSize: 1000, batch: 8 }, 7],             // causal: ⌊2¹⁸ / (16 · 2080)⌋
      [{ task: 'assoc_recall', vocab: 64, seqLen: 64, heads: 16, dModel: 64, evalSize: 1000, batch: 8 }, 4],  // every pair: ⌊2¹⁸ / (16 · 4096)⌋
    ];
    for (const [config, analysed] of cases) {
      const run = core.createTrainingRun(config);
      try {
        const info = run.info();
        const c = { ...d, ...config };
        const nsPerMac = info.stepSeconds / (3 * macs(c.batch, c));  // the kernel's calibrated cost, from the core's own figure
        const want = nsPerMac * macs(c.evalSize + analysed, c);
        expect(finishSeconds(config, info) / want, JSON.stringify(config)).toBeCloseTo(1, 12);
        expect(run.analysis(8).sequences).toBe(analysed);
      } finally { run.dispose(); }
    }
    expect(finishSeconds(TINY, null)).toBe(0);
    expect(finishSeconds(TINY, { stepSeconds: Number.NaN, causal: true })).toBe(0);
  });

  it('a size over the budget is refused by check with a message naming it, and nothing is left behind', () => {
    const host = new TrainingHost(core);
    const r = host.handle({ id: 1, kind: 'check', params: { configs: [{ dModel: 512, mlp: 2048, layers: 6, seqLen: 64 }] } });
    expect(r).toMatchObject({ ok: false, error: { name: 'RangeError', message: expect.stringMatching(/MiB/) } });
    expect(host.handle({ id: 2, kind: 'create', params: { configs: [TINY, { ...TINY, dModel: 9 }] } })).toMatchObject({ ok: false });
    expect(host.size).toBe(0);
    expect(host.handle({ id: 3, kind: 'bogus', params: {} })).toMatchObject({ ok: false, error: { name: 'TypeError' } });
  });
});

/** A fake training worker: answers create / step / finish / dispose from scripted losses, after `delay` ms. */
class FakeWorker implements WorkerLike {
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  terminated = false;
  posted: { kind: string; params: Record<string, unknown> }[] = [];
  done = new Map<number, number>();
  constructor(private readonly losses: number[][], private readonly delay = 0, private readonly msPerStep = 1) {}
  postMessage(m: { id: number; kind: string; params: Record<string, unknown> }): void {
    this.posted.push(m);
    const reply = (result: unknown, ms = 0) => setTimeout(() => { if (!this.terminated) this.onmessage?.({ data: { id: m.id, ok: true, result, ms } } as MessageEvent); }, this.delay);
    if (m.kind === 'create') {
      const cfgs = m.params.configs as TrainingConfig[];
      if (cfgs.some((c) => c.dModel === 9)) { setTimeout(() => this.onmessage?.({ data: { id: m.id, ok: false, error: { name: 'RangeError', message: 'dModel = 9 is not divisible by heads = 2' } } } as MessageEvent), 0); return; }
      cfgs.forEach((_, i) => this.done.set(i + 1, 0));
      reply({ runs: cfgs.map((_, i) => i + 1), infos: cfgs.map(() => ({ parameters: 1 })) });
    } else if (m.kind === 'step') {
      const run = m.params.run as number, n = m.params.n as number;
      const ls = this.losses[run - 1];
      const from = this.done.get(run)!;
      const bad = ls.findIndex((x) => !Number.isFinite(x));
      const end = Math.min(ls.length, from + n, bad >= 0 ? bad + 1 : Infinity);
      const count = end - from;
      this.done.set(run, end);
      const z = (k: number) => new Float64Array(k * 1);
      reply({
        firstStep: from, count, loss: Float64Array.from(ls.slice(from, end)), gradNorm: z(count), lr: z(count), entropy: z(count), maxAbsLogit: z(count), headScale: z(count),
        stepsDone: end, finished: end === ls.length || (bad >= 0 && end === bad + 1), diverged: bad >= 0 && end === bad + 1, firstNonfiniteStep: bad >= 0 && end === bad + 1 ? bad : null,
      }, count * this.msPerStep);
    } else if (m.kind === 'finish') {
      reply({ evaluation: { loss: 0.1, tokenAccuracy: 0.9, sequenceAccuracy: 0.5, sequences: 8, targets: 8 }, analysis: { sequences: 8, layers: [] } });
    } else reply({ disposed: 0 });
  }
  terminate(): void { this.terminated = true; }
}

function listen() {
  const l = {
    ticks: 0, doneRuns: null as RunSeries[] | null, err: null as string | null,
    progress() { l.ticks++; },
    done(runs: RunSeries[]) { l.doneRuns = runs; },
    error(m: string) { l.err = m; },
  } satisfies RunListener & Record<string, unknown>;
  return l;
}

describe('training controller (fake worker)', () => {
  const cfg = (attention: TrainingConfig['attention'], steps: number): TrainingConfig => ({ ...TINY, attention, steps, layers: 1 });

  it('runs every variant to the end in growing chunks, round-robin, then finishes and disposes', async () => {
    const losses = [Array.from({ length: 40 }, (_, i) => 3 / (i + 1)), Array.from({ length: 40 }, (_, i) => 2 / (i + 1))];
    const w = new FakeWorker(losses, 0, 0.5);
    const c = new TrainingController({ createWorker: () => w, chunkMs: 4 });
    const l = listen();
    await c.start([cfg('none', 40), cfg('inv_sqrt_dk', 40)], l);
    const runs = l.doneRuns!;
    expect(runs.map((r) => r.loss)).toEqual(losses);
    expect(runs.every((r) => r.evaluation?.tokenAccuracy === 0.9)).toBe(true);
    expect(l.ticks).toBe(w.posted.filter((m) => m.kind === 'step').length);
    const steps = w.posted.filter((m) => m.kind === 'step');
    expect(steps.slice(0, 4).map((m) => m.params.run)).toEqual([1, 2, 1, 2]);
    expect(steps.map((m) => m.params.n as number).slice(0, 6)).toEqual([1, 1, 2, 2, 4, 4]);  // at most doubling
    expect(Math.max(...steps.map((m) => m.params.n as number))).toBeLessThanOrEqual(8);  // chunkMs / msPerStep
    expect(w.posted.at(-1)!.kind).toBe('dispose');
    expect(c.running).toBe(false);
  });

  it('a diverging run is a result: it stops at its first non-finite step and the others go on', async () => {
    const losses = [[3, 2, 1, Infinity, 0.5, 0.4], [3, 2, 1, 0.5, 0.4, 0.3]];
    const c = new TrainingController({ createWorker: () => new FakeWorker(losses), chunkMs: 1000 });
    const l = listen();
    await c.start([cfg('none', 6), cfg('inv_sqrt_dk', 6)], l);
    const runs = l.doneRuns!;
    expect(runs[0]).toMatchObject({ diverged: true, firstNonfinite: 3, stepsDone: 4, finished: true });
    expect(runs[1]).toMatchObject({ diverged: false, firstNonfinite: null, stepsDone: 6 });
    expect(runs[1].loss).toEqual(losses[1]);
  });

  it('Cancel stops between chunks: no step after it, the worker kept when the chunk returns in time', async () => {
    const losses = [Array.from({ length: 10000 }, () => 1)];
    const w = new FakeWorker(losses, 5);
    const c = new TrainingController({ createWorker: () => w, chunkMs: 5, cancelGraceMs: 2000 });
    const l = listen();
    const p = c.start([cfg('none', 10000)], l);
    await new Promise((r) => setTimeout(r, 60));
    const before = c.runs[0].stepsDone;
    expect(before).toBeGreaterThan(0);
    await c.cancel();
    await p;
    const postedSteps = w.posted.filter((m) => m.kind === 'step').length;
    await new Promise((r) => setTimeout(r, 40));
    expect(w.posted.filter((m) => m.kind === 'step').length).toBe(postedSteps);
    expect(c.running).toBe(false);
    // the cancel waited for the 5 ms chunk, not for the 2 s grace time (a kept worker, no termination)
    expect(c.lastCancelMs).toBeGreaterThanOrEqual(0);
    expect(c.lastCancelMs).toBeLessThan(2000);
    expect(c.terminations).toBe(0);
    expect(w.posted.at(-1)!.kind).toBe('dispose');
    expect(l.doneRuns).toBeNull();
  });

  it('Cancel terminates a worker whose chunk does not return within the grace time; the next run starts a fresh one', async () => {
    const workers: FakeWorker[] = [];
    const c = new TrainingController({ createWorker: () => { const w = new FakeWorker([Array(50).fill(1)], workers.length === 0 ? 10000 : 0); workers.push(w); return w; }, cancelGraceMs: 30 });
    const p = c.start([cfg('none', 50)], listen());
    await new Promise((r) => setTimeout(r, 10));
    const t0 = performance.now();
    await c.cancel();
    // resolved at the grace time, not when the 10 s chunk would have returned
    expect(performance.now() - t0).toBeLessThan(5000);
    await p;
    expect(workers[0].terminated).toBe(true);
    expect(c.terminations).toBe(1);
    const l = listen();
    await c.start([cfg('none', 50)], l);
    expect(workers).toHaveLength(2);
    expect(l.doneRuns![0].stepsDone).toBe(50);
  });

  it('a refused configuration comes back as an error, not a crash', async () => {
    const c = new TrainingController({ createWorker: () => new FakeWorker([[1]]) });
    const l = listen();
    await c.start([{ ...TINY, dModel: 9 }], l);
    expect(l.err).toMatch(/divisible/);
    expect(c.running).toBe(false);
  });
});

describe('training builders on a real run', () => {
  it('histogram of the trained logits beside N(0, 1), and accuracy bars', () => {
    const run = core.createTrainingRun({ ...TINY, steps: 3 });
    const s = emptySeries('inv_sqrt_dk', 1, 3);
    appendStep(s, run.step(3));
    s.evaluation = run.evaluate();
    s.analysis = run.analysis(16);
    run.dispose();
    const hist = buildTrainLogitHist([s], 0, t);
    expect(hist.config.data.datasets).toHaveLength(2);
    expect(hist.config.data.datasets[0].data).toHaveLength(16);
    const area = (hist.config.data.datasets[0].data as { x: number; y: number }[]).reduce((acc, p, i) => acc + p.y * (s.analysis!.layers[0].logits.edges[i + 1] - s.analysis!.layers[0].logits.edges[i]), 0);
    const h = s.analysis.layers[0].logits;
    const inside = h.counts.reduce((x, y) => x + y, 0) / (h.counts.reduce((x, y) => x + y, 0) + h.below + h.above);
    expect(area).toBeCloseTo(inside, 9);
    const acc = buildTrainAccuracy([s], t);
    expect(acc.csv.rows).toEqual([['inv_sqrt_dk', s.evaluation.tokenAccuracy, s.evaluation.sequenceAccuracy, s.evaluation.loss]]);
  });
});

describe('training controller: a worker that hangs or dies', () => {
  const cfg: TrainingConfig = { ...TINY, attention: 'inv_sqrt_dk', steps: 30, layers: 1 };
  it('a step that never answers times out as a TrainingWorkerError; the next run starts a fresh worker and finishes', async () => {
    const workers: FakeWorker[] = [];
    // the first worker answers create, then never a step (a silent death); the second works
    const c = new TrainingController({
      createWorker: () => {
        const w = new FakeWorker([Array(30).fill(1)], 0);
        if (workers.length === 0) { const post = w.postMessage.bind(w); w.postMessage = (m) => { if (m.kind !== 'step') post(m); }; }
        workers.push(w);
        return w;
      },
      requestTimeoutMs: 50,
    });
    let cause: unknown = null;
    const l = { ...listen(), error(_m: string, _r: RunSeries[], e?: unknown) { cause = e; } };
    await c.start([cfg], l);
    expect(cause).toBeInstanceOf(TrainingWorkerError);
    expect((cause as TrainingWorkerError).kind).toBe('timeout');
    expect(workers[0].terminated).toBe(true);
    expect(c.running).toBe(false);
    const l2 = listen();
    await c.start([cfg], l2);
    expect(workers).toHaveLength(2);
    expect(l2.doneRuns?.[0].stepsDone).toBe(30);
  });
  it('each request may take requestTimeoutMs plus TRAIN_TIMEOUT_SLOWDOWN × the core’s estimate of its work (issue 29)', async () => {
    const STEP_SECONDS = 0.002;
    /** create answers infos with the cost model's seconds per step */
    class CostedWorker extends FakeWorker {
      override postMessage(m: { id: number; kind: string; params: Record<string, unknown> }): void {
        if (m.kind !== 'create') { super.postMessage(m); return; }
        this.posted.push(m);
        const cfgs = m.params.configs as TrainingConfig[];
        cfgs.forEach((_, i) => this.done.set(i + 1, 0));
        setTimeout(() => this.onmessage?.({ data: { id: m.id, ok: true, result: { runs: cfgs.map((_, i) => i + 1), infos: cfgs.map(() => ({ parameters: 1, stepSeconds: STEP_SECONDS })) }, ms: 0 } } as MessageEvent), 0);
      }
    }
    const workers: CostedWorker[] = [];
    const asked: number[] = [];
    const c = new TrainingController({
      createWorker: () => { const w = new CostedWorker([Array(30).fill(1)]); workers.push(w); return w; },
      requestTimeoutMs: 1000,
      setTimer: (fn, ms) => { asked.push(ms); return setTimeout(fn, ms); },
    });
    const per = (n: number) => Math.round(1000 + TRAIN_TIMEOUT_SLOWDOWN * 1000 * n * STEP_SECONDS);
    for (const round of [0, 1]) {
      asked.length = 0;
      const from = workers[0]?.posted.length ?? 0;
      const l = listen();
      await c.start([cfg], l);
      expect(l.doneRuns?.[0].stepsDone).toBe(30);
      const posted = workers[0].posted.slice(from);
      expect(asked).toHaveLength(posted.length);
      posted.forEach((m, k) => {
        // create: the floor before any estimate is known, then one step's work; a chunk of n steps: n steps' work
        if (m.kind === 'create') expect(asked[k]).toBe(round === 0 ? 1000 : per(1));
        else if (m.kind === 'step') expect(asked[k]).toBe(per(m.params.n as number));
        // finish: evaluate's 8 and analysis' 8 held-out sequences forward, in batches of 2 at stepSeconds / 3 each
        else if (m.kind === 'finish') expect(asked[k]).toBe(Math.round(1000 + TRAIN_TIMEOUT_SLOWDOWN * 1000 * (16 / 2) * (STEP_SECONDS / 3)));
        else expect(asked[k]).toBe(1000);
      });
    }
  });
  it('a crash during the budget check rejects with a TrainingWorkerError (crash), not a refusal', async () => {
    const w = new FakeWorker([[1]]);
    w.postMessage = () => { setTimeout(() => w.onerror?.({ preventDefault() {} } as unknown as Event), 0); };
    const c = new TrainingController({ createWorker: () => w });
    const e = await c.check([cfg]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TrainingWorkerError);
    expect((e as TrainingWorkerError).kind).toBe('crash');
  });
});
