// Golden results of a fixed set of links. A link's numbers depend on the core (its random
// streams, its algorithms), and a link says which core made it (`cv=`, web/src/app/link-version.ts). For
// each link below this test parses the hash as the page does, builds the very requests the
// panels send (the panels' own param functions) and runs them through the worker's handler on the
// built core, and compares every number with tests/web/golden-links.json, recorded for the
// version named in that file.
// - An unintended change of numbers fails here, naming the link and the request.
// - An intended one: bump the core version (wasm/js/version.js, wasm/src/experiments.hpp kVersion,
//   package.json), then record: UPDATE_GOLDEN=1 npx vitest run --config vite.config.ts tests/web/golden-links.test.ts
//   Recording refuses to overwrite different numbers under an unchanged version.
// - What moved, number by number: GOLDEN_DUMP=file.json writes every number of every result (12
//   significant digits, in the fingerprint's order); run it on the old and the new core and compare
//   with node scripts/golden-diff.mjs old.json new.json (scripts/records/golden-changes-*.txt).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadCore, CORE_VERSION } from '../../wasm/js/core.js';
import type { Core, LongContextResult } from '../../wasm/js/core.js';
import { run } from '../../web/src/worker/handler.ts';
import type { Request } from '../../web/src/worker/protocol.ts';
import { parseHash } from '../../web/src/state/state.ts';
import type { State } from '../../web/src/state/state.ts';
import { varianceSweepParams, variancePointParams, sweepParams, pointParams, articleParams } from '../../web/src/requests/attention.ts';
import { precisionParams } from '../../web/src/requests/precision.ts';
import { longRequest, longResultOf, METHODS } from '../../web/src/requests/longctx.ts';
import { gqaStatsParams, headsKvOf, GQA_SEQ_LEN } from '../../web/src/requests/gqa.ts';
import { LAYOUTS } from '../../web/src/requests/results.ts';
import { trainingConfigs } from '../../web/src/training/config.ts';
import { mupVarianceParams, mupSweepParams } from '../../web/src/requests/mup.ts';
import { BUGS, bugParams } from '../../web/src/requests/wild.ts';

const GOLDEN_PATH = new URL('./golden-links.json', import.meta.url);
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const DUMP = process.env.GOLDEN_DUMP;
const dumped: Record<string, Record<string, { paths: string[]; values: string[] }>> = {};

/** A request, and the results held under their own labels (`parts`: the long-context panel's one request for several methods). */
type Call = { label: string; kind: Request['kind']; params: unknown; parts?: (result: unknown) => [string, unknown][] };
/** The requests the page sends for a link's state (the panel in `exp`), in a stable order. */
function requestsOf(s: State): Call[] {
  switch (s.exp) {
    case 'variance':
      return [{ label: 'sweep', kind: 'scoreVariance', params: varianceSweepParams(s) }, { label: 'point', kind: 'scoreVariance', params: variancePointParams(s) }];
    case 'saturation':
      return [{ label: 'sweep', kind: 'saturationSweep', params: sweepParams(s) }, { label: 'point', kind: 'attentionStats', params: pointParams(s) }];
    case 'gradient':
      return [{ label: 'point', kind: 'attentionStats', params: pointParams(s) }, { label: 'gap', kind: 'softmaxJacobian', params: { logits: [s.gap, 0] } }];
    case 'article':
      return [{ label: 'check', kind: 'saturationSweep', params: articleParams(s) }];
    case 'precision':
      return [{ label: 'main', kind: 'precisionLab', params: precisionParams(s) }];
    case 'longctx':
      // one request for the four methods (the panel's, requests/longctx.ts), each method's points held under its name
      return [{
        label: 'methods', kind: 'longContext', params: longRequest(s, METHODS),
        parts: (r) => METHODS.map((m) => [m, longResultOf(r as LongContextResult, METHODS, m)]),
      }];
    case 'gqa':
      return LAYOUTS.flatMap((l) => [
        { label: `stats-${l}`, kind: 'attentionStats' as const, params: gqaStatsParams(s, l, s.gdk) },
        { label: `var-${l}`, kind: 'groupedLogits' as const, params: { heads: s.hq, headsKv: headsKvOf(l, s), seqLen: GQA_SEQ_LEN, dk: s.gdk, seed: 0 } },
      ]);
    case 'mup':
      return [
        { label: 'iid', kind: 'scoreVariance', params: mupVarianceParams(s, 0) },
        { label: 'corr', kind: 'scoreVariance', params: mupVarianceParams(s, s.rho) },
        { label: 'sweep', kind: 'saturationSweep', params: mupSweepParams(s) },
      ];
    case 'wild':
      return [
        { label: 'catalogue', kind: 'modelScales', params: {} },
        ...BUGS.flatMap((b) => (['wrong', 'right'] as const).map((w) => ({ label: `bug-${b.id}-${w}`, kind: 'attentionStats' as const, params: bugParams(s, b, w) }))),
      ];
    default:
      throw new Error(`no requests for panel ${s.exp}`);
  }
}

/** Links whose numbers are held (no `cv=`: the golden file names the version). */
const LINKS = [
  '#v=1&exp=variance&dk=128&samples=1000&seed=3',
  '#v=1&exp=saturation&dk=256&heads=2&seqLen=64&seed=7&scale=none',
  '#v=1&exp=gradient&dk=64&heads=2&seqLen=32&seed=5&scale=inv_dk&gq=grad&gap=4',
  '#v=1&exp=article&aseed=11',
  '#v=1&exp=precision&pmode=random&pdk=256&pseqLen=64&pscale=none&pblock=16&pseed=4',
  '#v=1&exp=precision&pmode=logits&plogits=100,90,80&pblock=2',
  // q = 𝟏, keys 227/128·𝟏 and 226/128·𝟏 at d_k 128, accumulate float32 (issue 27's bfloat16 example through the page):
  // core 0.4.0 holds c as a float32 constant, bfloat16 safe [0.53125, 0.46875, 0]; 0.3.0 rounded c first, [0.5, 0.5, 0]
  '#v=1&exp=precision&pmode=qk&pdk=128&pq=1&pk=1.7734375,1.765625,0&pacc=float32',
  '#v=1&exp=longctx&ldk=32&ltrain=256',
  '#v=1&exp=gqa&hq=8&hkv=2&gdk=32',
  '#v=1&exp=mup&rho=0.3&mpow=0.33&seed=2',
  '#v=1&exp=wild',
  '#v=1&exp=training&trsteps=25&trlen=8&trdm=32&trheads=2&trmlp=32&trlayers=1&trseed=2&trvar=none,inv_sqrt_dk,qk_layernorm',
] as const;

/** Every number of a result, depth first in key order (typed arrays element by element); `paths` gets each one's path. */
function numbers(value: unknown, out: number[] = [], paths?: string[], at = ''): number[] {
  if (typeof value === 'number') { out.push(value); paths?.push(at); }
  else if (ArrayBuffer.isView(value)) Array.from(value as unknown as ArrayLike<number>).forEach((x, i) => { out.push(x); paths?.push(`${at}[${i}]`); });
  else if (Array.isArray(value)) value.forEach((v, i) => numbers(v, out, paths, `${at}[${i}]`));
  else if (value !== null && typeof value === 'object') for (const k of Object.keys(value).sort()) numbers((value as Record<string, unknown>)[k], out, paths, at ? `${at}.${k}` : k);
  return out;
}
const digits12 = (x: number) => (Number.isFinite(x) ? x.toPrecision(12) : String(x));
/** With GOLDEN_DUMP: keep every number of a result under its link and label. */
function dump(hash: string, label: string, value: unknown): void {
  if (!DUMP) return;
  const paths: string[] = [];
  const values = numbers(value, [], paths).map(digits12);
  (dumped[hash] ??= {})[label] = { paths, values };
}
/** A fingerprint of a result: how many numbers, a digest of all of them (12 significant digits) and the first few. */
function fingerprint(value: unknown): { n: number; digest: string; head: string[] } {
  const xs = numbers(value).map((x) => (Number.isFinite(x) ? x.toPrecision(12) : String(x)));
  return { n: xs.length, digest: createHash('sha256').update(xs.join(',')).digest('hex').slice(0, 24), head: xs.slice(0, 4) };
}

type Golden = { coreVersion: string; links: Record<string, Record<string, ReturnType<typeof fingerprint>>> };
const golden: Golden = JSON.parse(readFileSync(GOLDEN_PATH, 'utf8'));
const recorded: Golden = { coreVersion: CORE_VERSION, links: {} };

let core: Core;
beforeAll(async () => { core = await loadCore({ kernel: 'auto' }); });

function resultsOf(hash: string): Record<string, ReturnType<typeof fingerprint>> {
  const parsed = parseHash(hash, 'en');
  expect(parsed.issues, `${hash} parses without issues`).toEqual([]);
  const s = parsed.state;
  const out: Record<string, ReturnType<typeof fingerprint>> = {};
  if (s.exp === 'training') {
    for (const config of trainingConfigs(s)) {
      const runHandle = core.createTrainingRun(config);
      try {
        const steps = runHandle.step(config.steps!);
        const result = { loss: steps.loss, gradNorm: steps.gradNorm, eval: runHandle.evaluate() };
        out[`train-${config.attention}`] = fingerprint(result);
        dump(hash, `train-${config.attention}`, result);
      } finally { runHandle.dispose(); }
    }
    return out;
  }
  requestsOf(s).forEach((c, i) => {
    const r = run(core, { id: i, kind: c.kind, params: c.params } as Request);
    if (!r.ok) throw new Error(`${hash} ${c.label}: ${r.error.name}: ${r.error.message}`);
    for (const [label, part] of c.parts ? c.parts(r.result) : [[c.label, r.result] as [string, unknown]]) {
      out[label] = fingerprint(part);
      dump(hash, label, part);
    }
  });
  return out;
}

describe('golden results of fixed links', () => {
  it('the golden file was recorded for this core version (a bump needs new goldens: UPDATE_GOLDEN=1)', () => {
    if (UPDATE) return;
    expect(golden.coreVersion, 'the core version changed: record the goldens of the new version').toBe(CORE_VERSION);
  });

  for (const hash of LINKS) {
    it(`${hash} gives the recorded numbers`, () => {
      const got = resultsOf(hash);
      recorded.links[hash] = got;
      if (UPDATE) return;
      expect(Object.keys(got).length).toBeGreaterThan(0);
      expect(got, `numbers of ${hash} changed under core ${CORE_VERSION}: if intended, bump the core version and record new goldens`).toEqual(golden.links[hash]);
    }, 60_000);
  }

  it('holds every link it lists and no other', () => {
    if (UPDATE) return;
    expect(Object.keys(golden.links).sort()).toEqual([...LINKS].sort());
  });

  afterAll(() => {
    if (DUMP) writeFileSync(DUMP, JSON.stringify({ coreVersion: CORE_VERSION, links: dumped }) + '\n');
    if (!UPDATE) return;
    if (golden.coreVersion === CORE_VERSION) {
      const changed = Object.keys(recorded.links).filter((k) => golden.links[k] && JSON.stringify(golden.links[k]) !== JSON.stringify(recorded.links[k]));
      if (changed.length > 0) throw new Error(`refusing to record new numbers under the same core version ${CORE_VERSION} (changed: ${changed.join(' ')}): bump the version first`);
    }
    writeFileSync(GOLDEN_PATH, JSON.stringify(recorded, null, 2) + '\n');
  });
});
