// The KV-cache calculator: 2 · layers · heads_kv · d_head · bytes per element, per token.
import { describe, it, expect } from 'vitest';
import { kvCacheBytes, kvLayouts, formatBytes } from '../../web/src/kvcache.ts';

describe('kvCacheBytes', () => {
  it('follows 2 · layers · heads_kv · d_head · bytes', () => {
    // 32 layers, 8 K/V heads of 128, fp16: 2·32·8·128·2 = 131072 B per token
    expect(kvCacheBytes({ layers: 32, headsKv: 8, dHead: 128, bytesPerElement: 2, tokens: 8192 })).toEqual({ bytesPerToken: 131072, totalBytes: 131072 * 8192 });
    expect(kvCacheBytes({ layers: 1, headsKv: 1, dHead: 1, bytesPerElement: 0.5, tokens: 1 })).toEqual({ bytesPerToken: 1, totalBytes: 1 });
  });
  it('MHA, GQA and MQA scale with heads_kv', () => {
    const per = (kv: number) => kvCacheBytes({ layers: 46, headsKv: kv, dHead: 128, bytesPerElement: 2, tokens: 4096 }).bytesPerToken;
    const [mha, gqa, mqa] = kvLayouts(32, 16).map((l) => per(l.headsKv));
    expect(kvLayouts(32, 16).map((l) => l.id)).toEqual(['mha', 'gqa', 'mqa']);
    expect(mha / gqa).toBe(2);
    expect(mha / mqa).toBe(32);
  });
  it('refuses what is not a size', () => {
    expect(() => kvCacheBytes({ layers: 0, headsKv: 1, dHead: 1, bytesPerElement: 2, tokens: 1 })).toThrow(RangeError);
    expect(() => kvCacheBytes({ layers: 1, headsKv: 1.5, dHead: 1, bytesPerElement: 2, tokens: 1 })).toThrow(/headsKv/);
    expect(() => kvCacheBytes({ layers: 1, headsKv: 1, dHead: 1, bytesPerElement: NaN, tokens: 1 })).toThrow(/bytesPerElement/);
  });
  it('formats in binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(131072)).toBe('128 KiB');
    expect(formatBytes(1.25 * 2 ** 30)).toBe('1.25 GiB');
    expect(formatBytes(16 * 2 ** 40)).toBe('16 TiB');
  });
});
