// The chart kit: what a chart is (ChartSpec: a Chart.js config, the CSV of exactly the series drawn,
// its point count), the scale colours, axes, options, datasets, the CSV and the log-axis ticks every
// builder uses. No DOM and no Chart.js runtime here, so unit tests run the builders under Node.
import type { ScaleName } from '../state/state.ts';

export type Cell = number | string;
export interface Csv { header: string[]; rows: Cell[][] }
export interface Point { x: number; y: number }
export interface Dataset {
  label: string;
  data: (Point | number)[];
  [option: string]: unknown;
}
export interface ChartConfig {
  type: 'line' | 'bar';
  data: { labels?: string[]; datasets: Dataset[] };
  options: Record<string, unknown>;
}
export interface ChartSpec {
  config: ChartConfig;
  csv: Csv;
  /** number of data points drawn (tests: a chart "with data") */
  points: number;
}

export const SCALE_COLOURS: Record<ScaleName, string> = {
  none: '#d1495b',
  inv_sqrt_dk: '#2f6fb0',
  inv_dk: '#3a9a5b',
  inv_sqrt_d_model: '#8e5cc2',
};
export const GREY = '#6b7280';
/** An explicit numeric scale, or d_k^−p: neither of the named scales. */
export const EXPLICIT_COLOUR = '#c77d14';

export function alpha(hex: string, a: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

export function axis(title: string, type: 'linear' | 'logarithmic' | 'category' = 'linear', extra: Record<string, unknown> = {}) {
  return { type, title: { display: true, text: title }, grid: { color: '#eceef2' }, ...extra };
}

export function baseOptions(x: object, y: object, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    parsing: true,
    normalized: true,
    interaction: { mode: 'nearest', intersect: false },
    plugins: {
      // a series with nothing drawn (a sweep cut short) has no legend entry
      legend: { position: 'bottom', labels: { boxWidth: 12, boxHeight: 12, font: { size: 11 }, filter: (item: { datasetIndex?: number }, data: { datasets: { data: unknown[] }[] }) => (data.datasets[item.datasetIndex ?? 0]?.data.length ?? 1) > 0 } },
      tooltip: { enabled: true },
      ...((extra.plugins as object) ?? {}),
    },
    scales: { x, y },
    ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== 'plugins')),
  };
}

export function countPoints(datasets: Dataset[]): number {
  return datasets.reduce((n, d) => n + d.data.length, 0);
}

/** A CSV in long form: one row per drawn point (series, x, y). */
export function longCsv(xName: string, yName: string, datasets: Dataset[]): Csv {
  const rows: Cell[][] = [];
  for (const d of datasets) {
    for (const p of d.data) {
      if (typeof p === 'number') continue;
      rows.push([d.label, p.x, p.y]);
    }
  }
  return { header: ['series', xName, yName], rows };
}

export function csvText(csv: Csv): string {
  const cell = (c: Cell) => {
    const s = typeof c === 'number' ? String(c) : c;
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [csv.header, ...csv.rows].map((r) => r.map(cell).join(',')).join('\n') + '\n';
}

export const line = (label: string, colour: string, data: Point[], extra: Record<string, unknown> = {}): Dataset => ({
  label, data, borderColor: colour, backgroundColor: colour, borderWidth: 2, pointRadius: 0, ...extra,
});
export const dots = (label: string, colour: string, data: Point[], extra: Record<string, unknown> = {}): Dataset => ({
  label, data, borderColor: colour, backgroundColor: colour, showLine: false, pointRadius: 3.5, pointHoverRadius: 5, ...extra,
});

/** A number to three significant digits, as a legend shows a standard deviation or a gap. */
export function sig3(s: number): string {
  return String(Number(s.toPrecision(3)));
}

const SUP: Record<string, string> = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
/** 10 to the power n with a superscript exponent: 10⁻³. */
export function pow10Label(n: number): string {
  return '10' + String(n).split('').map((c) => SUP[c] ?? c).join('');
}

/**
 * Tick label of a log axis of values (variances, weights, norms): only powers of ten are labelled,
 * and every label of one axis has the same form — plain decimals when the axis stays within
 * [0.001, 10⁴], powers of ten (10⁻⁶) otherwise. Chart.js passes (value, index, ticks).
 */
export function logTick(value: number | string, _index?: number, ticks?: { value: number }[]): string {
  const v = Number(value);
  const l = Math.log10(v);
  if (!(Math.abs(l - Math.round(l)) < 1e-9)) return '';
  const vals = (ticks ?? []).map((x) => x.value).filter((x) => x > 0);
  const lo = vals.length ? Math.min(...vals) : v, hi = vals.length ? Math.max(...vals) : v;
  if (lo >= 1e-3 && hi <= 1e4) return String(Number(v.toPrecision(1)));
  return pow10Label(Math.round(l));
}

/**
 * A log axis over powers of two (d_k, d_head, L): ticks exactly at powers of 2 (every other one
 * when the range is wide), all labelled as plain integers and never skipped, so a narrow chart
 * still has labels.
 */
export function pow2Ticks(min: number, max: number, maxTicks = 7): Record<string, unknown> {
  const e0 = Math.ceil(Math.log2(min) - 1e-9), e1 = Math.floor(Math.log2(max) + 1e-9);
  const stride = Math.max(1, Math.ceil((e1 - e0 + 1) / maxTicks));
  const values: number[] = [];
  for (let e = e1; e >= e0; e -= stride) values.unshift(2 ** e);
  return {
    min, max,
    afterBuildTicks: (a: { ticks: { value: number }[] }) => { a.ticks = values.map((value) => ({ value })); },
    ticks: { callback: (v: number | string) => String(Number(v)), autoSkip: false, maxRotation: 0 },
  };
}

/** A callout between two values at one x (chartbox.ts draws it): the bracket from y0 to y1 and its text. */
export interface GapLabel { x: number; y0: number; y1: number; text: string }
