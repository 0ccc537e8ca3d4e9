// The device panel's chart and table rows, built from a result by pure functions (no DOM).
import type { ChartSpec, Cell, Dataset } from '../charts/builders.ts';
import { axis, baseOptions } from '../charts/builders.ts';
import type { T, MessageKey } from '../i18n/messages.ts';
import type { DeviceResult, Measure } from './bench.ts';
import { ofPeak } from './bench.ts';

export const MEASURE_COLOURS: Record<Measure, string> = { simd: '#2f6fb0', scalar: '#8e5cc2', js: '#d1495b', peak: '#6b7280' };
export const measureLabel = (t: T, m: Measure): string => t(`dev.m.${m}` as MessageKey);

/** One row per measure: label, GFLOP/s, median ms per call, calls, share of the peak (null for the peak itself or without one). */
export function deviceRows(r: DeviceResult, t: T): { measure: Measure; label: string; gflops: number; ms: number; calls: number; ofPeak: number | null }[] {
  return r.timings.map((x) => ({ measure: x.measure, label: measureLabel(t, x.measure), gflops: x.gflops, ms: x.medianMs, calls: x.calls, ofPeak: ofPeak(r.timings, x.measure) }));
}

/** Bars of GFLOP/s per measure; the CSV holds every figure of the table (and the shape and FLOP count). */
export function buildDevice(r: DeviceResult, t: T): ChartSpec {
  const rows = deviceRows(r, t);
  const datasets: Dataset[] = [{
    label: t('dev.series'), data: rows.map((x) => x.gflops),
    backgroundColor: rows.map((x) => MEASURE_COLOURS[x.measure]), borderWidth: 0,
  }];
  const x = axis('', 'category', { title: { display: false } });
  const y = axis(t('dev.axis'), 'linear', { min: 0 });
  const csvRows: Cell[][] = rows.map((x) => [x.measure, x.label, x.gflops, x.ms, x.calls, x.measure === 'peak' ? '' : r.flops, x.ofPeak ?? '']);
  return {
    config: { type: 'bar', data: { labels: rows.map((x) => x.label), datasets }, options: baseOptions(x, y, { plugins: { legend: { display: false } } }) },
    csv: { header: ['measure', 'label', 'gflops', 'median_ms_per_call', 'calls', `flop_per_call (h ${r.shape.heads}, L ${r.shape.seqLen}, dk ${r.shape.dk})`, 'share_of_peak'], rows: csvRows },
    points: rows.length,
  };
}
