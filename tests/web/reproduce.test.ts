// "Copy as code": the exported NumPy script of every computing view prints the page's readouts digit for digit, for
// default and non-default links (the page's numbers from the panels' own request functions and the worker's handler on
// the built core, as golden-links.test.ts gets them); the PyTorch flavour's statistics fall within the sampling error it
// states; a hostile link exports nothing but the documented computation. The scripts run in one Python process.
import { describe, it, expect, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadCore, CORE_VERSION } from '../../wasm/js/core.js';
import type { Core, AttentionStatsResult, ScoreVarianceResult, SaturationSweepResult, PrecisionLabResult, LongContextResult } from '../../wasm/js/core.js';
import { run } from '../../web/src/worker/handler.ts';
import type { Request } from '../../web/src/worker/protocol.ts';
import { parseHash } from '../../web/src/state/state.ts';
import type { State } from '../../web/src/state/state.ts';
import { translator } from '../../web/src/i18n/messages.ts';
import type { Lang } from '../../web/src/i18n/messages.ts';
import { precisionParams, cellText, rowSumText } from '../../web/src/requests/precision.ts';
import { longRequest, longResultOf, PANEL_METHODS } from '../../web/src/requests/longctx.ts';
import { gqaStatsParams, headsKvOf, GQA_SEQ_LEN } from '../../web/src/requests/gqa.ts';
import { LAYOUTS } from '../../web/src/requests/results.ts';
import type { GroupedLogitsResult } from '../../web/src/worker/protocol.ts';
import { cellOf, FORMATS, ALGORITHMS } from '../../web/src/requests/results.ts';
import { variancePointParams, saturationPointParams, pointParams, articleParams } from '../../web/src/requests/attention.ts';
import { varianceFigures, saturationFigures, gradientFigures, articleFigures, precisionFigures, longContextFigures, gqaLayoutFigures } from '../../web/src/requests/key-figures.ts';
import type { KeyFigure } from '../../web/src/requests/key-figures.ts';
import { exportCode, CODE_VIEWS, hasCode } from '../../web/src/reproduce/code.ts';
import { useCostCore } from '../../web/src/worker/cost.ts';
import { mupVarianceParams, mupSweepParams, MUP_QUOTE_DKS } from '../../web/src/requests/mup.ts';
import { mupMomentFigures, mupSweepFigures, MUP_COLUMNS } from '../../web/src/requests/key-figures.ts';
import type { MupColumn } from '../../web/src/requests/key-figures.ts';
import { rhoLabel, powerLabel } from '../../web/src/charts/mup.ts';
import { normalisersParams, normalisersRowParams, qkClipParams, CHECK_ROWS } from '../../web/src/requests/normalisers.ts';
import { normaliserFigures, normaliserCheckFigures, qkClipFigures } from '../../web/src/requests/key-figures.ts';
import type { NormalisersResult, QkClipResult, TensorStatsResult } from '../../wasm/js/core.js';
import { readFileSync } from 'node:fs';
import { readTensorFile, pairTensors } from '../../web/src/tensors/read.ts';
import { EXAMPLE_PAIRS } from '../../web/src/tensors/examples.js';
import { tensorFigures } from '../../web/src/requests/key-figures.ts';
import type { CodeLang, CodeData } from '../../web/src/reproduce/code.ts';
import type { ModelScale } from '../../wasm/js/core.js';
import { wildModelParams, wildReferenceParams } from '../../web/src/requests/wild.ts';
import { wildModelFigures } from '../../web/src/requests/key-figures.ts';
import { modelOfState, numbersOf, yourModelParams, wildCatalogue } from '../../web/src/requests/your-model.ts';
import { yourModelName } from '../../web/src/reproduce/code.ts';

const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** Where the scripts run: the site's example tensors (web/public/examples) lie there, as a reader who downloaded them would have them. */
const EXAMPLES = new URL('../../web/public/examples/', import.meta.url).pathname;

/** Runs scripts in one Python process (each in its own namespace, as __main__, in EXAMPLES); returns each one's stdout or error. */
function runScripts(scripts: string[]): { out: string; error: string }[] {
  const driver = `
import contextlib, io, json, sys, traceback
res = []
for src in json.loads(sys.stdin.read()):
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(src, "<exported>", "exec"), {"__name__": "__main__"})
        res.append({"out": buf.getvalue(), "error": ""})
    except BaseException:
        res.append({"out": buf.getvalue(), "error": traceback.format_exc()})
sys.stdout.write(json.dumps(res))
`;
  const r = spawnSync(PYTHON, ['-c', driver], { cwd: EXAMPLES, input: JSON.stringify(scripts), encoding: 'utf8', maxBuffer: 64 * 2 ** 20, timeout: 300_000 });
  if (r.status !== 0) throw new Error(`${PYTHON} failed: ${r.error?.message ?? ''} ${r.stderr}`);
  return JSON.parse(r.stdout);
}
function pythonHas(module: string): string | null {
  const r = spawnSync(PYTHON, ['-c', `import ${module}`], { encoding: 'utf8' });
  return r.status === 0 ? null : (r.error?.message ?? r.stderr.trim().split('\n').pop() ?? 'import failed');
}

let core: Core;
beforeAll(async () => { core = await loadCore({ kernel: 'auto' }); useCostCore(core); });

function ask<R>(kind: Request['kind'], params: unknown): R {
  const r = run(core, { id: 0, kind, params } as Request);
  if (!r.ok) throw new Error(`${kind}: ${r.error.name}: ${r.error.message}`);
  return r.result as R;
}

/** The view's readouts as the page computes them: the panel's request, its key figures. */
function pageFigures(s: State): KeyFigure[] {
  const t = translator(s.lang as Lang);
  switch (s.exp) {
    case 'variance': return varianceFigures(ask<ScoreVarianceResult>('scoreVariance', variancePointParams(s)).rows[0], t);
    case 'saturation': return saturationFigures(ask<AttentionStatsResult>('attentionStats', saturationPointParams(s)), t);
    case 'gradient': return gradientFigures(ask<AttentionStatsResult>('attentionStats', pointParams(s)), s.gq, t);
    case 'article': return articleFigures(ask<SaturationSweepResult>('saturationSweep', articleParams(s)), t);
    case 'gqa':
      return LAYOUTS.flatMap((l) => gqaLayoutFigures(l, s, ask<AttentionStatsResult>('attentionStats', gqaStatsParams(s, l, s.gdk)),
        ask<GroupedLogitsResult>('groupedLogits', { heads: s.hq, headsKv: headsKvOf(l, s), seqLen: GQA_SEQ_LEN, dk: s.gdk, seed: 0 }), t));
    case 'longctx': {
      const r = ask<LongContextResult>('longContext', longRequest(s, PANEL_METHODS));
      return longContextFigures(Object.fromEntries(PANEL_METHODS.map((m) => [m, longResultOf(r, PANEL_METHODS, m)])), PANEL_METHODS, t);
    }
    case 'precision': {
      // the readouts, then the table: each cell's text and each format's Σp column
      const r = ask<PrecisionLabResult>('precisionLab', precisionParams(s));
      return [
        ...precisionFigures(r, t),
        ...FORMATS.flatMap((f) => ALGORITHMS.map((a) => ({ id: `${f}-${a}`, label: `${f} · ${a}`, value: cellText(cellOf(r, f, a)) }))),
        ...FORMATS.map((f) => ({ id: `sum-${f}`, label: `${f} · Σp`, value: rowSumText(cellOf(r, f, 'safe')) })),
      ];
    }
    case 'mup': {
      // the panel's table, row by row (panels/mup.ts keyFigures), its column titles at the state
      const title = (c: MupColumn): string => ({
        var0: t('mup.th.var', { rho: rhoLabel(0) }), var: t('mup.th.var', { rho: rhoLabel(s.rho) }), mean: t('mup.th.mean', { rho: rhoLabel(s.rho) }),
        sqrt: t('mup.th.entropy', { scale: t('scale.inv_sqrt_dk') }), inv: t('mup.th.entropy', { scale: t('scale.inv_dk') }),
        power: t('mup.th.entropy', { scale: `× ${powerLabel(s.mpow)}` }), maxw: t('mup.th.maxw', { scale: t('scale.inv_sqrt_dk') }),
      })[c];
      const iid = ask<ScoreVarianceResult>('scoreVariance', mupVarianceParams(s, 0));
      const cor = s.rho === 0 ? iid : ask<ScoreVarianceResult>('scoreVariance', mupVarianceParams(s, s.rho));
      const sp = mupSweepParams(s);
      const figs = new Map([...mupMomentFigures(MUP_QUOTE_DKS, iid, cor, title), ...mupSweepFigures(MUP_QUOTE_DKS, ask<SaturationSweepResult>('saturationSweep', sp), sp.dks, title)].map((f) => [f.id, f]));
      return MUP_QUOTE_DKS.flatMap((dk) => MUP_COLUMNS.map((c) => figs.get(`mup-${c}-${dk}`)!));
    }
    case 'sumone':
      // the normalisers' table, the sources' closed-form rows, QK-Clip (panels/sumone.ts: each as its request answers)
      return [
        ...normaliserFigures(ask<NormalisersResult>('normalisers', normalisersParams(s)), t),
        ...CHECK_ROWS.flatMap((row) => normaliserCheckFigures(row.id, ask<NormalisersResult>('normalisers', normalisersRowParams(s, row.logits)), t)),
        ...qkClipFigures(ask<QkClipResult>('qkClip', qkClipParams(s)), t),
      ];
    case 'wild': {
      // the catalogue's table, row by row (panels/wild.ts keyFigures): each model's scale, its entropy and 1/√d_head's
      const cat = wildCatalogue(ask<ModelScale[]>('modelScales', {}));
      const figs = cat.flatMap((m, i) => wildModelFigures(i, m, ask<AttentionStatsResult>('attentionStats', wildModelParams(s, m)).summary.entropy.mean,
        ask<AttentionStatsResult>('attentionStats', wildReferenceParams(s, m.dHead)).summary.entropy.mean, s.wlen, t));
      // the Your-model section (panels/your-model.ts): its c to 6 digits, its entropy and 1/√d_head's at L = wlen
      const yours = modelOfState(s);
      if (!yours) return figs;
      const n = numbersOf(yours), p = yourModelParams(s, yours);
      const m = { model: yourModelName(t, yours), dHead: n.dHead, scale: n.scale } as ModelScale;
      return [...figs, ...wildModelFigures(cat.length, m, ask<AttentionStatsResult>('attentionStats', p.own).summary.entropy.mean,
        ask<AttentionStatsResult>('attentionStats', p.ref).summary.entropy.mean, s.wlen, t)];
    }
    case 'tensors': {
      // the example pair of the link, read as the page reads it (tensors/read.ts), then the panel's two requests
      const read = (name: string) => { const b = readFileSync(`${EXAMPLES}${name}`); return readTensorFile(name, b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)); };
      const names = EXAMPLE_PAIRS[s.tex as 'structured' | 'iid'];
      const p = pairTensors(read(names.q), read(names.k));
      const shape = { heads: p.heads, seqLen: p.seqLen, dk: p.dk, scale: s.tscale, seed: 0 };
      return tensorFigures(p, ask<TensorStatsResult>('tensorStats', { q: p.q, k: p.k, ...shape }), ask<AttentionStatsResult>('attentionStats', { ...shape, perRow: true, heatmapSize: 1 }), t);
    }
    default: throw new Error(`no readouts for ${s.exp}`);
  }
}

/** A default and a few non-default links per view (small shapes: the whole file runs in seconds). */
const LINKS = [
  '#v=1&exp=variance',
  '#v=1&exp=variance&dk=512&samples=5000&seed=9',
  '#v=1&exp=variance&dk=3&samples=100&seed=4294967295&lang=zh-CN',
  '#v=1&exp=saturation',
  '#v=1&exp=saturation&dk=256&heads=2&seqLen=64&seed=7&scale=none',
  '#v=1&exp=saturation&dk=32&heads=3&seqLen=40&seed=2&causal=1&softcap=5&sink=0.5',
  '#v=1&exp=saturation&dk=128&heads=2&seqLen=32&seed=11&sscale=0.0625&scale=inv_dk&lang=zh-CN',
  '#v=1&exp=saturation&dk=64&heads=4&seqLen=16&scale=inv_sqrt_d_model',
  '#v=1&exp=gradient',
  '#v=1&exp=gradient&dk=64&heads=2&seqLen=32&seed=5&scale=inv_dk&gq=grad',
  '#v=1&exp=gradient&dk=512&heads=1&seqLen=64&seed=3&scale=none',
  '#v=1&exp=article',
  '#v=1&exp=article&aseed=11',
  '#v=1&exp=longctx',
  '#v=1&exp=longctx&ldk=32&ltrain=256&sink=1.5&lang=zh-CN',
  '#v=1&exp=gqa',
  '#v=1&exp=gqa&hq=8&hkv=2&gdk=32&kvl=46&kvctx=131072&kvdt=fp8',
  '#v=1&exp=gqa&hq=12&hkv=4&gdk=64&kvdt=int4&kvctx=1000&lang=zh-CN',
  '#v=1&exp=precision',
  '#v=1&exp=precision&plogits=11,11&pmasked=zero',
  '#v=1&exp=precision&plogits=-inf,-inf&pmasked=zero&pblock=1',
  '#v=1&exp=precision&pmode=random&pdk=256&pseqLen=64&pscale=none&pblock=16&pseed=4',
  '#v=1&exp=precision&pmode=random&pdk=64&pseqLen=128&pscale=inv_sqrt_dk&pacc=float32&lang=zh-CN',
  '#v=1&exp=mup',
  '#v=1&exp=mup&rho=0&mpow=0.5&seed=3',
  '#v=1&exp=mup&rho=-0.9&mpow=1.25&seed=7&lang=zh-CN',
  '#v=1&exp=tensors',
  '#v=1&exp=tensors&tex=iid&tscale=none',
  '#v=1&exp=tensors&tex=iid&tscale=inv_dk&lang=zh-CN',
  '#v=1&exp=wild&wlen=256',
  '#v=1&exp=wild&wlen=512&kernel=scalar&ym=gemma-3-27b&lang=zh-CN',
  '#v=1&exp=wild&wlen=256&ym=none&ymdh=128&ymsc=0.0625&ymcap=30',
  '#v=1&exp=sumone',
  '#v=1&exp=sumone&dk=32&seqLen=64&heads=3&seed=5&scale=none&nsink=-2&nlambda=1.5&ngate=2&qcgain=5&qctau=50&qchkv=4',
  '#v=1&exp=sumone&dk=512&seqLen=1024&heads=1&seed=9&scale=inv_dk&nsink=20&nlambda=0&ngate=-5&qcgain=100&qctau=1&qchkv=8&lang=zh-CN',
  // the scalar family's softmax (its exp, the sum in double) beside the SIMD128 family's of the links above
  '#v=1&exp=sumone&dk=32&seqLen=64&heads=3&seed=5&nsink=-2&kernel=scalar',
] as const;

/**
 * Links of the precision lab's q/k mode whose float16/bfloat16 cells depend on how the scale enters those formats:
 * the script applies it as a float32 constant (as PyTorch does, and as the core does from the change of branch
 * frontier-core on); a core that rounds the scale to the format first may show other cells for these.
 */
const QK_LINKS = [
  '#v=1&exp=precision&pmode=qk',
  '#v=1&exp=precision&pmode=qk&pscaleat=query',
  '#v=1&exp=precision&pmode=qk&pdk=16&pq=0&pk=0&pkrep=4096&pscale=inv_sqrt_dk',
  '#v=1&exp=precision&pmode=qk&pdk=64&pq=3&pk=3,1,-2&pkrep=2&pscale=inv_sqrt_dk&pacc=float32&pscaleat=query',
  '#v=1&exp=precision&pmode=qk&pdk=128&pq=1.5&pk=3.5,0&pscale=inv_sqrt_dk',
  // the scale as a float32 constant in bfloat16/float16 cells (core 0.4.0), and √c on q and on k
  '#v=1&exp=precision&pmode=qk&pdk=128&pq=1&pk=1.7734375,1.765625,0&pacc=float32',
  '#v=1&exp=precision&pmode=qk&pdk=128&pq=1&pk=1.7734375,1.765625,0&pacc=float32&pscaleat=both',
  '#v=1&exp=precision&pmode=qk&pdk=64&pq=3&pk=3,1,-2&pkrep=2&pscale=inv_sqrt_dk&pscaleat=both',
] as const;

const stateOf = (hash: string) => {
  const p = parseHash(hash, 'en');
  expect(p.issues, hash).toEqual([]);
  return p.state;
};
/** What the page gives the exporter beside the state (app/code-export.ts codeData): Scales in the wild's catalogue. */
const dataOf = (s: State): CodeData => (s.exp === 'wild' ? { catalogue: wildCatalogue(ask<ModelScale[]>('modelScales', {})) } : {});
const scriptOf = (hash: string, lang: CodeLang) => {
  const s = stateOf(hash);
  const code = exportCode(s, lang, translator(s.lang as Lang), `https://example.org/p/${s.exp}/${hash}`, CORE_VERSION, dataOf(s));
  expect(code, hash).not.toBeNull();
  return code!;
};

describe('Copy as code (NumPy): the page\'s readouts, digit for digit', () => {
  const numpy = pythonHas('numpy');
  it.skipIf(numpy !== null)(`every computing view, ${LINKS.length} links${numpy ? ` (skipped: ${PYTHON} has no NumPy: ${numpy}; apt-get install python3-numpy)` : ''}`, () => {
    for (const v of CODE_VIEWS.filter((x) => x !== 'training')) expect(LINKS.some((l) => l.includes(`exp=${v}&`) || l.endsWith(`exp=${v}`)), `a link of ${v}`).toBe(true);
    const results = runScripts(LINKS.map((h) => scriptOf(h, 'numpy')));
    LINKS.forEach((hash, i) => {
      const { out, error } = results[i];
      expect(error, `${hash}: the script ran`).toBe('');
      const lines = out.trimEnd().split('\n');
      expect(lines[0], 'it names its link').toContain(hash);
      const want = pageFigures(stateOf(hash)).map((f) => `${f.label}: ${f.value}`);
      expect(lines.slice(1), hash).toEqual(want);
    });
  }, 300_000);
});

describe('Copy as code (NumPy): the precision lab\'s q/k mode, the scale a float32 constant', () => {
  const numpy = pythonHas('numpy');
  it.skipIf(numpy !== null)(`${QK_LINKS.length} links`, () => {
    const results = runScripts(QK_LINKS.map((h) => scriptOf(h, 'numpy')));
    QK_LINKS.forEach((hash, i) => {
      const { out, error } = results[i];
      expect(error, `${hash}: the script ran`).toBe('');
      const want = pageFigures(stateOf(hash)).map((f) => `${f.label}: ${f.value}`);
      const got = out.trimEnd().split('\n').slice(1);
      expect(got, hash).toEqual(want);
    });
  }, 120_000);
});

describe('Copy as code (PyTorch): torch\'s own draws agree within the stated sampling error', () => {
  const torch = pythonHas('torch');
  if (torch !== null) console.log(`PyTorch flavour skipped: ${PYTHON} cannot import torch (${torch}); apt-get install python3-torch`);
  const links = ['#v=1&exp=variance&dk=512&samples=5000&seed=9', '#v=1&exp=saturation', '#v=1&exp=gradient&dk=64&heads=2&seqLen=32&seed=5&scale=inv_dk&gq=grad', '#v=1&exp=gradient', '#v=1&exp=article', '#v=1&exp=precision&plogits=11,11', '#v=1&exp=longctx&ldk=128&ltrain=1024', '#v=1&exp=gqa&hq=8&hkv=2&gdk=32',
    '#v=1&exp=mup', '#v=1&exp=mup&rho=-0.9&mpow=1.25&seed=7', '#v=1&exp=wild&wlen=256', '#v=1&exp=tensors', '#v=1&exp=tensors&tex=iid&tscale=none', '#v=1&exp=sumone',
    '#v=1&exp=sumone&dk=32&seqLen=64&heads=3&seed=5&scale=none&nsink=-2&nlambda=1.5&ngate=2&qcgain=5&qctau=50&qchkv=4'];
  it.skipIf(torch !== null)('variance, saturation, gradient (both quantities), the article\'s check, the precision lab, long context, GQA, own tensors (the iid column), μP and sum-to-one', () => {
    const results = runScripts(links.map((h) => scriptOf(h, 'torch')));
    links.forEach((hash, i) => {
      const { out, error } = results[i];
      expect(error, `${hash}: ${out}`).toBe('');
      const lines = out.trimEnd().split('\n');
      const want = pageFigures(stateOf(hash)).map((f) => `${f.label}: ${f.value}`);
      expect(lines.slice(1, 1 + want.length), `${hash}: the lab's readouts first`).toEqual(want);
      if (hash.includes('exp=precision')) {  // the same rows in torch's float16/bfloat16 kernels: no sampling, nothing to agree within
        expect(lines.filter((l) => l.startsWith('torch torch.float16, ')).length, hash).toBe(2);
        return;
      }
      const checks = lines.filter((l) => / torch .* within \dσ$/.test(l));
      expect(checks.length, `${hash}: torch's statistics printed`).toBeGreaterThan(0);
      for (const c of checks) expect(c, hash).toMatch(/ agree within/);
    });
  }, 300_000);

  // the training lab's script is a description in PyTorch (its own draws and kernels): it runs, trains every ticked
  // variant for the link's steps and prints a finite loss each; 1/√d_k learns the copy task below a uniform guess
  const training = ['#v=1&exp=training&trsteps=80&trvar=inv_sqrt_dk,qk_l2,learnable_temperature', '#v=1&exp=training&trtask=assoc_recall&trnorm=post&trsm=naive&trcap=30&trsteps=10&trvar=none,qk_layernorm,inv_dk&lang=zh-CN'];
  it.skipIf(torch !== null)('the training lab: a faithful description that trains', () => {
    for (const hash of training) expect(scriptOf(hash, 'numpy'), 'one script for both flavours').toBe(scriptOf(hash, 'torch'));
    const results = runScripts(training.map((h) => scriptOf(h, 'torch')));
    training.forEach((hash, i) => {
      const { out, error } = results[i];
      expect(error, `${hash}: ${out}`).toBe('');
      const s = stateOf(hash);
      const lines = out.trimEnd().split('\n').slice(1);
      expect(lines.map((l) => l.split(':')[0]), hash).toEqual(s.trvar);
      for (const l of lines) {
        const m = / loss after (\d+) steps (\S+) /.exec(l);
        expect(m, l).not.toBeNull();
        expect(Number(m![1]), l).toBe(s.trsteps);
        expect(Number.isFinite(Number(m![2])), l).toBe(true);
        if (l.startsWith('inv_sqrt_dk:') && s.trtask === 'copy') expect(Number(m![2]), l).toBeLessThan(Math.log(s.trvocab + 1));
      }
    });
  }, 300_000);
});

describe('Copy as code: what a link can put in the script', () => {
  it('only the views that compute export code', () => {
    const t = translator('en');
    for (const exp of ['interview', 'followups', 'device'] as const) {
      expect(hasCode(exp)).toBe(false);
      expect(exportCode({ ...stateOf('#v=1'), exp }, 'numpy', t, 'x', CORE_VERSION)).toBeNull();
    }
  });

  it('a hostile link reaches the script only as a quoted literal, its keys only as checked numbers', () => {
    const hostile = '#v=1&exp=saturation&dk=64");import os;os.system("id")#&seed=__import__(%22os%22)&scale=os.system&sink=1e999&softcap=-1\n&heads=2\r\nprint(1)&lang=zh-CN\u2028x';
    const parsed = parseHash(hostile, 'en');
    const s = parsed.state;
    const t = translator(s.lang as Lang);
    const link = `https://example.org/p/x/${hostile}"""'''\\\u2029\u0000`;
    for (const lang of ['numpy', 'torch'] as const) {
      const code = exportCode(s, lang, t, link, CORE_VERSION)!;
      // the link is on one line, inside one double-quoted literal with every quote and separator escaped
      const linkLine = code.split('\n').find((l) => l.startsWith('LINK = '))!;
      expect(linkLine).toMatch(/^LINK = "([^"\\]|\\.)*"$/);
      expect(code).not.toMatch(/[\u2028\u2029\r\u0000]/);
      // nothing else of the link is in the script: the same script as for the parsed state with a plain link
      const plain = exportCode(s, lang, t, 'LINK', CORE_VERSION)!;
      expect(code.replace(linkLine, 'LINK = "LINK"')).toBe(plain);
      expect(plain).not.toContain('os.system');
      expect(plain).not.toContain('__import__');
      expect(plain).not.toContain('print(1)');
    }
    // every view that exports code, the same hostile keys (and its own keys made hostile): only the parsed state gets in
    const evil = '");import os;os.system("id")#';
    for (const exp of CODE_VIEWS) {
      const h = `#v=1&exp=${exp}&rho=${evil}&mpow=__import__&nsink=${evil}&qctau=1e999&tex=${evil}&tscale=os.system&trtask=${evil}&trvar=none,${evil}&trlr=${evil}&trsteps=1e9&lang=zh-CN`;
      const st = parseHash(h, 'en').state;
      expect(st.exp, h).toBe(exp);
      for (const lang of ['numpy', 'torch'] as const) {
        const code = exportCode(st, lang, translator(st.lang as Lang), `https://example.org/${h}`, CORE_VERSION, dataOf(st))!;
        const plain = exportCode(st, lang, translator(st.lang as Lang), 'LINK', CORE_VERSION, dataOf(st))!;
        const linkLine = code.split('\n').find((l) => l.startsWith('LINK = '))!;
        expect(linkLine, exp).toMatch(/^LINK = "([^"\\]|\\.)*"$/);
        expect(code.replace(linkLine, 'LINK = "LINK"'), exp).toBe(plain);
        expect(plain, exp).not.toContain('os.system');
        expect(plain, exp).not.toContain('__import__');
      }
    }
    // a state no parser gives (a string where a number goes, an unknown scale) is refused, not written
    expect(() => exportCode({ ...s, seed: '1; import os' as unknown as number }, 'numpy', t, '', CORE_VERSION)).toThrow(/seed/);
    expect(() => exportCode({ ...s, scale: 'os.system("id")' as never }, 'numpy', t, '', CORE_VERSION)).toThrow(/scale/);
    expect(() => exportCode({ ...s, sink: [NaN] }, 'numpy', t, '', CORE_VERSION)).toThrow(/sink/);
    expect(() => exportCode({ ...s, exp: 'variance', dk: 1e9 }, 'numpy', t, '', CORE_VERSION)).toThrow(/dk/);
    expect(() => exportCode({ ...s, exp: 'mup', rho: 'os' as unknown as number }, 'numpy', t, '', CORE_VERSION)).toThrow(/rho/);
    expect(() => exportCode({ ...s, exp: 'tensors', tex: 'x.npy"); os.system("id' as never }, 'numpy', t, '', CORE_VERSION)).toThrow(/tex/);
    expect(() => exportCode({ ...s, exp: 'sumone', nsink: NaN }, 'numpy', t, '', CORE_VERSION)).toThrow(/nsink/);
    expect(() => exportCode({ ...s, exp: 'training', trvar: ['none', 'os.system("id")' as never] }, 'torch', t, '', CORE_VERSION)).toThrow(/trvar/);
    expect(() => exportCode({ ...s, exp: 'training', trsteps: 1e9 }, 'torch', t, '', CORE_VERSION)).toThrow(/trsteps/);
    // Scales in the wild: without the core's catalogue no script; a catalogue row reaches the script only as data
    const wild = { ...s, exp: 'wild' as const };
    expect(() => exportCode(wild, 'numpy', t, '', CORE_VERSION)).toThrow(/catalogue/);
    const bad = (m: Partial<ModelScale>) => ({ catalogue: [{ ...ask<ModelScale[]>('modelScales', {})[0], ...m }] });
    const evilName = exportCode(wild, 'numpy', t, '', CORE_VERSION, bad({ model: 'x"); os.system("id"); ("' }))!;
    expect(evilName.split('\n').find((l) => l.includes('os.system'))).toMatch(/^ {8}\("x\\"\); os\.system\(\\"id\\"\); \(\\"", \d+, /);
    expect(() => exportCode(wild, 'numpy', t, '', CORE_VERSION, bad({ scale: NaN }))).toThrow(/scale/);
    expect(() => exportCode(wild, 'numpy', t, '', CORE_VERSION, bad({ dHead: 1e9 }))).toThrow(/dHead/);
  });

  it('the hostile link\'s script runs and prints the documented computation at the parsed state', () => {
    if (pythonHas('numpy') !== null) return;
    const hostile = '#v=1&exp=article&aseed=1");print("pwned&lang=en';
    const s = parseHash(hostile, 'en').state;
    const [r] = runScripts([exportCode(s, 'numpy', translator('en'), `https://example.org/${hostile}`, CORE_VERSION)!]);
    expect(r.error).toBe('');
    expect(r.out).not.toMatch(/^pwned/m);
    expect(r.out.trimEnd().split('\n').slice(1)).toEqual(pageFigures(s).map((f) => `${f.label}: ${f.value}`));
  }, 120_000);
});
