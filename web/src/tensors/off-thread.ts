// Reading a file of own tensors off the page's thread (worker.ts): the File is posted to a module worker that reads and parses it, and the tensor comes back with its values transferred; where no worker may start (or it fails), the file is read here as before.
import tensorWorkerUrl from './worker.ts?worker&url';
import { readTensorFile, TensorFileError } from './read.ts';
import type { Tensor, TensorErrorCode } from './read.ts';

/** The worker's reply, checked at the boundary: a tensor whose values fit its shape, or why the file was refused. */
function tensorOf(m: unknown): Tensor | TensorFileError | Error {
  const r = m as { ok?: unknown; tensor?: Tensor; code?: unknown; vars?: unknown; message?: unknown } | null;
  if (r?.ok === true && r.tensor) {
    const x = r.tensor;
    const dims = [x.heads, x.seqLen, x.dk];
    if (dims.every((n) => Number.isInteger(n) && n > 0) && x.data instanceof Float32Array && x.data.length === x.heads * x.seqLen * x.dk
      && (x.rank === 2 || x.rank === 3) && typeof x.name === 'string') return x;
    return new Error('the file reader answered a tensor that does not fit its shape');
  }
  if (r?.ok === false && typeof r.code === 'string') return new TensorFileError(r.code as TensorErrorCode, (r.vars ?? {}) as Record<string, string | number>);
  return new Error(typeof r?.message === 'string' ? r.message : 'the file reader did not answer');
}

/**
 * Reads `file` (.npy or CSV, read.ts) in a worker started by `spawn`; rejects with a
 * TensorFileError the page translates. Falls back to this thread where no worker starts.
 */
export function readTensorOffThread(file: File, spawn: (url: string, name: string) => Worker): Promise<Tensor> {
  const here = () => file.arrayBuffer().then((b) => readTensorFile(file.name, b));
  let w: Worker;
  try { w = spawn(tensorWorkerUrl, 'sqrtdk-tensor-file'); } catch { return here(); }
  return new Promise<Tensor>((resolve, reject) => {
    w.onmessage = (ev: MessageEvent) => {
      w.terminate();
      const x = tensorOf(ev.data);
      if (x instanceof Error) reject(x); else resolve(x);
    };
    // the worker's script did not start (a sandboxed frame whose host sends no CORS headers)
    w.onerror = (ev: ErrorEvent) => { ev.preventDefault(); w.terminate(); here().then(resolve, reject); };
    w.postMessage({ file });
  });
}
