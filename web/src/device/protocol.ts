// Messages between the device panel and its worker. The panel asks for one slice at a time
// (a few tens of milliseconds of calls), so Cancel takes effect between slices: the panel simply
// sends no next slice, and the worker is never busy with work nobody waits for.
import type { Measure } from './bench.ts';

export type DeviceRequest =
  | { id: number; kind: 'info' }
  /** run `measure` for about sliceMs (at least minCalls calls) and return every call's time */
  | { id: number; kind: 'slice'; measure: Measure; sliceMs: number; minCalls: number };

export interface DeviceInfo { simd: boolean; build: 'simd128' | 'baseline'; version: string }
export interface SliceResult { measure: Measure; times: number[]; flopPerCall: number }

export type DeviceReply =
  | { id: number; ok: true; result: DeviceInfo | SliceResult }
  | { id: number; ok: false; error: { name: string; message: string } };

const MEASURE_SET: ReadonlySet<string> = new Set(['simd', 'scalar', 'js', 'peak']);
export function isDeviceRequest(m: unknown): m is DeviceRequest {
  if (m === null || typeof m !== 'object') return false;
  const r = m as Record<string, unknown>;
  if (typeof r.id !== 'number') return false;
  if (r.kind === 'info') return true;
  return r.kind === 'slice' && typeof r.measure === 'string' && MEASURE_SET.has(r.measure)
    && typeof r.sliceMs === 'number' && r.sliceMs >= 0 && r.sliceMs <= 1000
    && Number.isInteger(r.minCalls) && (r.minCalls as number) >= 1 && (r.minCalls as number) <= 100;
}
