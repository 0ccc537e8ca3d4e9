// The text alternative of a chart: what it shows, in numbers, generated from exactly the CSV that
// the chart exports (so the words, the data table and the download never disagree). Pure.
import type { Csv, Cell } from './kit.ts';
import { fmt } from '../format.ts';
import type { T } from '../i18n/messages.ts';

const num = (c: Cell) => (typeof c === 'number' ? c : Number(c));
const show = (c: Cell) => (typeof c === 'number' ? fmt(c) : c);

function range(xs: number[]): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (const x of xs) if (Number.isFinite(x)) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
  return [lo, hi];
}

/**
 * One sentence per series for a long-form CSV (series, x, y): the number of points, the x range and
 * y from the first point to the last with its extremes; for a table: the row count and each numeric
 * column's range. At most `maxSeries` series are described, then "and N more".
 */
export function chartSummary(csv: Csv, t: T, maxSeries = 6, axes: { x?: string; y?: string } = {}): string {
  if (csv.rows.length === 0) return t('chart.summary.empty');
  // the words of the UI: the chart's axis titles for a long-form CSV, the catalogue's column names for a table
  const col = (name: string) => { const k = `chart.col.${name}`; const w = t(k as never); return w === k ? name : w; };
  if (csv.header[0] === 'series' && csv.header.length === 3) {
    const xName = axes.x || col(csv.header[1]), yName = axes.y || col(csv.header[2]);
    const groups = new Map<string, Cell[][]>();
    for (const r of csv.rows) {
      const k = String(r[0]);
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k)!.push(r);
    }
    const parts: string[] = [];
    for (const [label, rows] of [...groups].slice(0, maxSeries)) {
      const [xlo, xhi] = range(rows.map((r) => num(r[1])));
      const ys = rows.map((r) => num(r[2]));
      const [ylo, yhi] = range(ys);
      parts.push(rows.length === 1
        ? t('chart.summary.point', { series: label, x: show(rows[0][1]), xName, y: show(rows[0][2]), yName })
        : t('chart.summary.series', { series: label, n: rows.length, xName, x0: fmt(xlo), x1: fmt(xhi), yName, first: fmt(ys[0]), last: fmt(ys[ys.length - 1]), min: fmt(ylo), max: fmt(yhi) }));
    }
    if (groups.size > maxSeries) parts.push(t('chart.summary.more', { n: groups.size - maxSeries }));
    return parts.join(' ');
  }
  const cols: string[] = [];
  csv.header.forEach((name, i) => {
    const xs = csv.rows.map((r) => num(r[i]));
    if (xs.every((x) => Number.isNaN(x))) return;
    const [lo, hi] = range(xs);
    if (Number.isFinite(lo)) cols.push(t('chart.summary.column', { name: col(name), min: fmt(lo), max: fmt(hi) }));
  });
  return t('chart.summary.table', { n: csv.rows.length, columns: cols.join('; ') });
}
