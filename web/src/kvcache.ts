// The KV-cache calculator of the GQA panel: pure, unit-tested (tests/web/kvcache.test.ts).
// Each layer caches one K and one V vector of d_head elements per K/V head and token, so
//   bytes per token = 2 · layers · heads_kv · d_head · bytes per element.
// MHA has heads_kv = heads_q, MQA (Shazeer 2019) heads_kv = 1, GQA (Ainslie et al. 2023) between.

export interface KvCacheParams {
  layers: number;
  headsKv: number;
  dHead: number;
  /** 4 (fp32), 2 (fp16/bf16), 1 (fp8/int8), 0.5 (int4) */
  bytesPerElement: number;
  /** context length in tokens (per sequence) */
  tokens: number;
}
export interface KvCache { bytesPerToken: number; totalBytes: number }

export function kvCacheBytes(p: KvCacheParams): KvCache {
  for (const [k, v] of Object.entries(p)) {
    if (!(typeof v === 'number' && Number.isFinite(v) && v > 0)) throw new RangeError(`kvCacheBytes: ${k} = ${v} must be a positive number`);
  }
  for (const k of ['layers', 'headsKv', 'dHead', 'tokens'] as const) {
    if (!Number.isInteger(p[k])) throw new RangeError(`kvCacheBytes: ${k} = ${p[k]} must be an integer`);
  }
  const bytesPerToken = 2 * p.layers * p.headsKv * p.dHead * p.bytesPerElement;
  return { bytesPerToken, totalBytes: bytesPerToken * p.tokens };
}

/** The three layouts of a model with heads_q query heads: MHA, the chosen GQA, MQA. */
export function kvLayouts(headsQ: number, headsKv: number): { id: 'mha' | 'gqa' | 'mqa'; headsKv: number }[] {
  return [{ id: 'mha', headsKv: headsQ }, { id: 'gqa', headsKv }, { id: 'mqa', headsKv: 1 }];
}

/** Bytes in binary units (KiB = 1024 B), 3–4 significant digits: "128 KiB", "1.25 GiB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  const s = v >= 100 ? v.toFixed(0) : v >= 10 ? String(Number(v.toFixed(1))) : String(Number(v.toFixed(2)));
  return `${s} ${units[u]}`;
}
