// The KV-cache calculator of the GQA panel: pure, unit-tested (tests/web/kvcache.test.ts).
// Each layer caches one K and one V vector of d_head elements per K/V head and token, so
//   bytes per token = 2 · layers · heads_kv · d_head · bytes per element (layers · heads_kv · (d_head + d_v) · bytes when V's
// head size d_v differs, as in DeepSeek's MLA expanded).
// MHA has heads_kv = heads_q, MQA (Shazeer 2019) heads_kv = 1, GQA (Ainslie et al. 2023) between.

export interface KvCacheParams {
  layers: number;
  headsKv: number;
  dHead: number;
  /** 4 (fp32), 2 (fp16/bf16), 1 (fp8/int8), 0.5 (int4) */
  bytesPerElement: number;
  /** context length in tokens (per sequence) */
  tokens: number;
  /** d_v, the head size of V, when it is not d_head (DeepSeek's MLA expanded: K 192, V 128); absent: d_head */
  dV?: number;
}
export interface KvCache { bytesPerToken: number; totalBytes: number }

export function kvCacheBytes(p: KvCacheParams): KvCache {
  for (const [k, v] of Object.entries(p)) {
    if (!(typeof v === 'number' && Number.isFinite(v) && v > 0)) throw new RangeError(`kvCacheBytes: ${k} = ${v} must be a positive number`);
  }
  for (const k of ['layers', 'headsKv', 'dHead', 'tokens', 'dV'] as const) {
    if (p[k] === undefined) continue;
    if (!Number.isInteger(p[k])) throw new RangeError(`kvCacheBytes: ${k} = ${p[k]} must be an integer`);
  }
  const bytesPerToken = p.dV === undefined ? 2 * p.layers * p.headsKv * p.dHead * p.bytesPerElement : p.layers * p.headsKv * (p.dHead + p.dV) * p.bytesPerElement;
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

/**
 * Bytes per token of MLA's cache (DeepSeek-V2/V3, Kimi K2): one compressed latent of kv_lora_rank entries and the shared
 * rotary key of qk_rope_head_dim entries per layer, whatever the heads (512 + 64 in both configs).
 */
export function mlaLatentBytesPerToken(layers: number, kvLoraRank: number, ropeDim: number, bytesPerElement: number): number {
  for (const [k, v] of Object.entries({ layers, kvLoraRank, ropeDim, bytesPerElement })) {
    if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`mlaLatentBytesPerToken: ${k} = ${v} must be a positive number`);
  }
  return layers * (kvLoraRank + ropeDim) * bytesPerElement;
}
