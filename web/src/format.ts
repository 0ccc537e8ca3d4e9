// Number formatting for readouts and texts: one rounding everywhere, so the same numbers read the
// same in every place (and tests can compare readouts as strings).
export function fmt(x: number, sig = 4): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e5 || a < 1e-4) return x.toExponential(sig - 1).replace('e+', 'e');
  return String(Number(x.toPrecision(sig)));
}
export function pct(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const v = x * 100;
  return `${v === 0 || v >= 10 ? v.toFixed(1) : v.toPrecision(2)} %`;
}
export function int(x: number): string {
  return String(Math.round(x));
}
