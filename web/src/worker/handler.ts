// What the worker does with one request: calls the core and turns a throw into an error message.
// Pure apart from the core it is given, so unit tests run it against the real core under Node.
import type { Core } from '../../../wasm/js/core.js';
import { isRequest } from './protocol.ts';
import type { Response, JacobianCurveResult } from './protocol.ts';

export function run(core: Core, msg: unknown): Response {
  const id = msg !== null && typeof msg === 'object' && typeof (msg as { id?: unknown }).id === 'number'
    ? (msg as { id: number }).id : -1;
  if (!isRequest(msg)) return { id, ok: false, error: { name: 'TypeError', message: 'malformed request' } };
  const t0 = performance.now();
  try {
    let result: unknown;
    switch (msg.kind) {
      case 'info': result = core.info(); break;
      case 'scoreVariance': result = core.scoreVariance(msg.params); break;
      case 'attentionStats': result = core.attentionStats(msg.params); break;
      case 'saturationSweep': result = core.saturationSweep(msg.params); break;
      case 'softmaxJacobian': result = core.softmaxJacobian(msg.params.logits); break;
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
    }
    return { id, ok: true, result, ms: performance.now() - t0 };
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    return { id, ok: false, error: { name: err.name, message: err.message } };
  }
}
