// bench's peers (scripts/bench.mjs): onnxruntime-web and tfjs-wasm running the same attention forward — a
// minimal ONNX graph written by hand (MatMul, Mul, Softmax, MatMul) and tfjs-core ops on its wasm backend.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------
// ONNX: a minimal protobuf writer for the handful of ModelProto fields the graph needs
// (field numbers from onnx/onnx.proto; proto2, so repeated scalars are written unpacked).
const pb = {
  varint(v) {
    const out = [];
    let x = BigInt.asUintN(64, BigInt(v));  // int64 two's complement (axis = −1 takes 10 bytes)
    do {
      let b = Number(x & 0x7fn);
      x >>= 7n;
      if (x) b |= 0x80;
      out.push(b);
    } while (x);
    return out;
  },
  key: (field, wire) => pb.varint((field << 3) | wire),
  int: (field, v) => [...pb.key(field, 0), ...pb.varint(v)],
  bytes: (field, bytes) => [...pb.key(field, 2), ...pb.varint(bytes.length), ...bytes],
  str: (field, s) => pb.bytes(field, [...Buffer.from(s, 'utf8')]),
  msg: (field, parts) => pb.bytes(field, parts.flat()),
  f32: (field, v) => [...pb.key(field, 5), ...new Uint8Array(new Float32Array([v]).buffer)],
};
const FLOAT = 1;  // TensorProto.DataType.FLOAT
const ATTR_INT = 2;
const ATTR_INTS = 7;

function valueInfo(field, name, dims) {
  const shape = dims.map((d) => pb.msg(1, [pb.int(1, d)]));           // TensorShapeProto.dim
  const tensorType = [pb.int(1, FLOAT), pb.msg(2, shape)];             // TypeProto.Tensor
  return pb.msg(field, [pb.str(1, name), pb.msg(2, [pb.msg(1, tensorType)])]);
}
function node(opType, inputs, outputs, attrs = []) {
  return pb.msg(1, [...inputs.map((s) => pb.str(1, s)), ...outputs.map((s) => pb.str(2, s)),
    pb.str(3, `${opType}_${outputs[0]}`), pb.str(4, opType), ...attrs]);
}

// scores = (Q · Kᵀ) · scale; P = Softmax(scores, axis = −1); O = P · V.
function attentionOnnx(h, l, d, scale) {
  const dims = [h, l, d];
  const graph = [
    node('Transpose', ['K'], ['Kt'], [pb.msg(5, [pb.str(1, 'perm'), pb.int(20, ATTR_INTS), ...[0, 2, 1].map((p) => pb.int(8, p))])]),
    node('MatMul', ['Q', 'Kt'], ['S']),
    node('Mul', ['S', 'scale'], ['Ss']),
    node('Softmax', ['Ss'], ['P'], [pb.msg(5, [pb.str(1, 'axis'), pb.int(20, ATTR_INT), pb.int(3, -1)])]),
    node('MatMul', ['P', 'V'], ['O']),
    pb.str(2, 'attention'),
    pb.msg(5, [pb.int(2, FLOAT), pb.str(8, 'scale'), pb.bytes(9, [...new Uint8Array(new Float32Array([scale]).buffer)])]),
    valueInfo(11, 'Q', dims), valueInfo(11, 'K', dims), valueInfo(11, 'V', dims),
    valueInfo(12, 'O', dims),
  ];
  const model = [pb.int(1, 8), pb.str(2, 'sqrtdk-bench'), pb.msg(7, graph), pb.msg(8, [pb.str(1, ''), pb.int(2, 17)])];
  return Uint8Array.from(model.flat());
}

export async function loadOrt() {
  const ort = await import('onnxruntime-web');  // Node resolves to dist/ort.node.min.mjs
  const dist = path.dirname(require.resolve('onnxruntime-web'));
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  // The loader would fetch() the .wasm by URL, which Node cannot do for a file: hand it the bytes.
  ort.env.wasm.wasmBinary = readFileSync(path.join(dist, 'ort-wasm-simd-threaded.wasm'));
  return ort;
}

export async function ortRunner(ort, [h, l, d], q, k, v, scale) {
  const session = await ort.InferenceSession.create(attentionOnnx(h, l, d, scale), {
    executionProviders: ['wasm'], graphOptimizationLevel: 'all', intraOpNumThreads: 1, interOpNumThreads: 1,
  });
  const dims = [h, l, d];
  // session.run is async (a promise around a synchronous wasm call): time it with await.
  const run = async () => {
    const r = await session.run({
      Q: new ort.Tensor('float32', q, dims), K: new ort.Tensor('float32', k, dims), V: new ort.Tensor('float32', v, dims),
    });
    return r.O.data;
  };
  return { run, release: () => session.release() };
}

// ---------------------------------------------------------------------------------------------
// tfjs-backend-wasm. Its BatchMatMul (src/cc/batch_mat_mul_impl.cc) runs XNNPACK's fully-connected
// operator only when transposeA = transposeB = false and both operands have batch 1; anything
// else (a [heads, L, d] batch, or matMul(q, k, false, true)) falls to a naive blocked triple loop.
// So each head is its own 2-D product: S = Q_h · (K_h)ᵀ with Kᵀ materialised by tf.transpose,
// then P = softmax(scale · S) (XNNPACK softmax), then P · V_h. XNNPACK packs its "weights"
// operand (Kᵀ, V_h) when the operator is created and caches it per tensor; fresh tensors every call
// keep that honest (a real forward pass gets new K, V every time).
export async function loadTfjs() {
  const tf = require('@tensorflow/tfjs-core');
  const backend = require('@tensorflow/tfjs-backend-wasm');
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);  // the single-threaded SIMD binary
  backend.setThreadsCount?.(1);
  await tf.setBackend('wasm');
  await tf.ready();
  return { tf, backend };
}

export function tfjsAttention(tf, [h, l, d], q, k, v, scale) {
  const per = l * d;
  const out = new Float32Array(h * per);
  for (let i = 0; i < h; ++i) {
    const o = tf.tidy(() => {
      const qh = tf.tensor2d(q.subarray(i * per, (i + 1) * per), [l, d]);
      const kh = tf.tensor2d(k.subarray(i * per, (i + 1) * per), [l, d]);
      const vh = tf.tensor2d(v.subarray(i * per, (i + 1) * per), [l, d]);
      const s = tf.mul(tf.matMul(qh, tf.transpose(kh)), scale);
      return tf.matMul(tf.softmax(s), vh);
    });
    out.set(o.dataSync(), i * per);
    o.dispose();
  }
  return out;
}
