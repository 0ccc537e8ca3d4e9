// The module Web Worker that reads one file of own tensors off the page's thread: the page posts the File itself (a handle, not its bytes), this worker reads its bytes and parses them (read.ts: .npy or CSV), and the tensor's values go back transferred — a 5 MiB CSV parsed on the page blocked it for 1.24 s.
import { readTensorFile, TensorFileError } from './read.ts';

self.onmessage = async (ev: MessageEvent) => {
  const file = (ev.data as { file?: unknown } | null)?.file;
  if (!(file instanceof File)) {
    self.postMessage({ ok: false, message: 'the file reader was sent no file' });
    return;
  }
  try {
    const tensor = readTensorFile(file.name, await file.arrayBuffer());
    (self as unknown as Worker).postMessage({ ok: true, tensor }, [tensor.data.buffer]);
  } catch (e) {
    self.postMessage(e instanceof TensorFileError
      ? { ok: false, code: e.code, vars: e.vars }
      : { ok: false, message: e instanceof Error ? e.message : String(e) });
  }
};
