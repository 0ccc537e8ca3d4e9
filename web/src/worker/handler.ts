// What the worker does with one request: calls the core and turns a throw into an error message.
// Pure apart from the core it is given, so unit tests run it against the real core under Node.
import { LIMITS } from '../../../wasm/js/core.js';
import type { Core } from '../../../wasm/js/core.js';
import { isRequest, PASS_THROUGH_KINDS } from './protocol.ts';
import type { Response, JacobianCurveResult, GroupedLogitsParams, GroupedLogitsResult } from './protocol.ts';
import { splitKv } from './split-kv.ts';
import { dvCheck } from './dv-check.ts';
import { alibiEntropy, alibiScales } from './alibi.ts';

/**
 * GQA logits: q [h, L, d], k [h_kv, L, d] iid N(0, 1), the core's draws of streams 1 and 2 of the seed (attentionStats'
 * own Q and K of that shape, in every engine the same bits); K repeated per group, then tensorStats.
 */
export function groupedLogits(core: Core, p: GroupedLogitsParams): GroupedLogitsResult {
  const { heads, headsKv, seqLen, dk, seed } = p;
  // the shape first, in the core's ranges (tensorStats' own): a refusal names heads, seqLen or dk, not the draws' n
  for (const [name, v] of [['heads', heads], ['seqLen', seqLen], ['dk', dk]] as const) {
    const [lo, hi] = LIMITS[name];
    if (!Number.isInteger(v) || v < lo || v > hi) throw new RangeError(`groupedLogits: ${name} = ${v} is outside ${lo}..${hi}`);
  }
  if (!Number.isInteger(headsKv) || headsKv < 1 || heads % headsKv !== 0) {
    throw new RangeError(`groupedLogits: headsKv = ${headsKv} must divide heads = ${heads}`);
  }
  const per = seqLen * dk;
  const q = Float32Array.from(core.normalDraws({ n: heads * per, seed, stream: 1 }).values);
  const kv = Float32Array.from(core.normalDraws({ n: headsKv * per, seed, stream: 2 }).values);
  const k = new Float32Array(heads * per);
  const group = heads / headsKv;
  for (let h = 0; h < heads; h++) k.set(kv.subarray(Math.floor(h / group) * per, (Math.floor(h / group) + 1) * per), h * per);
  const r = core.tensorStats({ q, k, heads, seqLen, dk, scale: 'inv_sqrt_dk', seed });
  return { qk: r.qk, scaledVariance: r.qk.variance / dk, entropy: r.summary.entropy.mean, maxWeight: r.summary.maxWeight.mean };
}

export function run(core: Core, msg: unknown): Response {
  const id = msg !== null && typeof msg === 'object' && typeof (msg as { id?: unknown }).id === 'number'
    ? (msg as { id: number }).id : -1;
  if (!isRequest(msg)) return { id, ok: false, error: { name: 'TypeError', message: 'malformed request' } };
  const t0 = performance.now();
  try {
    let result: unknown;
    if ((PASS_THROUGH_KINDS as readonly string[]).includes(msg.kind)) {
      result = (core[msg.kind as keyof Core] as (params: unknown) => unknown).call(core, msg.params);  // experiments.js: call 'params'
    } else {
      switch (msg.kind) {
        case 'info': result = core.info(); break;
        case 'softmaxJacobian': result = core.softmaxJacobian(msg.params.logits, msg.params.softcap === undefined ? {} : { softcap: msg.params.softcap }); break;
        case 'jacobianCurve': {
          const gaps = Float64Array.from(msg.params.gaps);
          const out: JacobianCurveResult = { gaps, frobenius: new Float64Array(gaps.length), spectral: new Float64Array(gaps.length) };
          gaps.forEach((g, i) => {
            const r = core.softmaxJacobian([g, 0]);
            out.frobenius[i] = r.frobenius;
            out.spectral[i] = r.spectral;
          });
          result = out;
          break;
        }
        case 'groupedLogits': result = groupedLogits(core, msg.params); break;
        case 'modelScales': result = core.modelScales(); break;
        case 'splitKv': result = splitKv(core, msg.params); break;
        case 'dvCheck': result = dvCheck(core, msg.params); break;
        case 'alibiEntropy': result = alibiEntropy(core, msg.params); break;
        case 'alibiScales': result = alibiScales(core, msg.params); break;
        default: throw new TypeError(`no handler for request kind '${msg.kind}'`);
      }
    }
    return { id, ok: true, result, ms: performance.now() - t0 };
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    return { id, ok: false, error: { name: err.name, message: err.message } };
  }
}
