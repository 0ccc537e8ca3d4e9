// The device panel's chart and table rows, built from a result by pure functions (no DOM).
import type { ChartSpec, Cell, Dataset } from '../charts/kit.ts';
import { axis, baseOptions } from '../charts/kit.ts';
import type { T, MessageKey } from '../i18n/messages.ts';
import type { DeviceResult, Measure, Shape } from './bench.ts';
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
  const csvRows: Cell[][] = rows.map((x) => [x.measure, x.label, x.gflops, x.ms, x.calls, x.measure === 'peak' ? '' : r.flops, x.ofPeak ?? '']);
  return gflopsBars(rows.map((x) => x.measure), rows.map((x) => x.gflops), csvRows, r.shape, t);
}

/** The chart before a run: the axes and one empty bar slot per measure the run will time. */
export function buildDevicePlan(measures: readonly Measure[], shape: Shape, t: T): ChartSpec {
  return gflopsBars(measures, [], [], shape, t);
}

function gflopsBars(measures: readonly Measure[], gflops: number[], csvRows: Cell[][], shape: Shape, t: T): ChartSpec {
  const datasets: Dataset[] = [{
    label: t('dev.series'), data: gflops,
    backgroundColor: measures.map((m) => MEASURE_COLOURS[m]), borderWidth: 0,
  }];
  const x = axis('', 'category', { title: { display: false } });
  const y = axis(t('dev.axis'), 'linear', { min: 0 });
  return {
    config: { type: 'bar', data: { labels: measures.map((m) => measureLabel(t, m)), datasets }, options: baseOptions(x, y, { plugins: { legend: { display: false } } }) },
    csv: { header: ['measure', 'label', 'gflops', 'median_ms_per_call', 'calls', `flop_per_call (h ${shape.heads}, L ${shape.seqLen}, dk ${shape.dk})`, 'share_of_peak'], rows: csvRows },
    points: gflops.length,
  };
}
