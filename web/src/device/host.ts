// What the device worker does with one request: times slices of calls of one measure on the core
// it is given. Pure apart from the core and the clock, so unit tests run it against the real core
// under Node.
import type { Core } from '../../../wasm/js/core.js';
import { DEVICE_SHAPE, PEAK_ITERS, attentionFlops, attentionJs, deviceInputs } from './bench.ts';
import type { Measure } from './bench.ts';
import { isDeviceRequest } from './protocol.ts';
import type { DeviceReply, DeviceInfo, SliceResult } from './protocol.ts';
import { requestId, errorInfo } from '../worker/protocol.ts';

export class DeviceHost {
  private readonly inputs: ReturnType<typeof deviceInputs>;
  private readonly out = new Float32Array(DEVICE_SHAPE.heads * DEVICE_SHAPE.seqLen * DEVICE_SHAPE.dk);
  private readonly scale = 1 / Math.sqrt(DEVICE_SHAPE.dk);
  /** the last output or peak sum, kept so no call's work can be dropped as unused */
  sink = 0;

  constructor(private readonly core: Core, private readonly simd: boolean, private readonly now: () => number = () => performance.now()) {
    this.inputs = deviceInputs(core, DEVICE_SHAPE);
  }

  /** FLOPs of one call of `measure`; runs it once. */
  private call(m: Measure): number {
    const { q, k, v } = this.inputs;
    const s = DEVICE_SHAPE;
    if (m === 'peak') {
      const r = this.core.simdPeak({ iters: PEAK_ITERS });
      this.sink = r.sum;
      return r.flop;
    }
    if (m === 'js') {
      this.sink = attentionJs(q, k, v, s, this.scale, this.out)[0];
    } else {
      const r = this.core.attention({ q, k, v, heads: s.heads, seqLen: s.seqLen, dk: s.dk, scale: 'inv_sqrt_dk', kernel: m, weights: false });
      this.sink = r.output[0];
    }
    return attentionFlops(s);
  }

  handle(msg: unknown): DeviceReply {
    const id = requestId(msg);
    if (!isDeviceRequest(msg)) return { id, ok: false, error: { name: 'TypeError', message: 'malformed device request' } };
    try {
      if (msg.kind === 'info') {
        const i = this.core.info();
        const result: DeviceInfo = { simd: this.simd, build: i.build, version: i.version };
        return { id, ok: true, result };
      }
      if ((msg.measure === 'simd' || msg.measure === 'peak') && this.core.info().build !== 'simd128') {
        throw new RangeError(`device: ${msg.measure} needs WebAssembly SIMD128, which this engine does not validate`);
      }
      const times: number[] = [];
      let flopPerCall = 0;
      const start = this.now();
      while (times.length < msg.minCalls || this.now() - start < msg.sliceMs) {
        const t0 = this.now();
        flopPerCall = this.call(msg.measure);
        times.push(this.now() - t0);
      }
      const result: SliceResult = { measure: msg.measure, times, flopPerCall };
      return { id, ok: true, result };
    } catch (e) {
      return { id, ok: false, error: errorInfo(e) };
    }
  }
}
