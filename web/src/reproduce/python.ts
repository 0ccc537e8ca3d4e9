// Python literals for the exported scripts: every value from the state reaches a script only through these
// (a checked number, or an identifier picked from a fixed list), and the readout formatting of format.ts in Python.

/** A finite number as a Python literal (ints without a point, −∞/+∞ as float('-inf')); throws on NaN or a non-number. */
export function pyNum(x: unknown, what: string): string {
  if (typeof x !== 'number' || Number.isNaN(x)) throw new TypeError(`${what} = ${String(x)} is not a number`);
  if (x === -Infinity) return "float('-inf')";
  if (x === Infinity) return "float('inf')";
  if (Number.isInteger(x) && Math.abs(x) < 2 ** 53) return String(x);
  const s = String(x);  // the shortest round-trip decimal: a valid Python float literal once "e+" is spelled "e"
  if (!/^-?\d+(\.\d+)?(e[+-]?\d+)?$/.test(s)) throw new TypeError(`${what} = ${s} is not a plain number`);
  return s.replace('e+', 'e');
}

/** An integer in [min, max] as a Python literal; throws otherwise. */
export function pyInt(x: unknown, what: string, min: number, max: number): string {
  if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < min || x > max) throw new RangeError(`${what} = ${String(x)} must be an integer in [${min}, ${max}]`);
  return String(x);
}

/** A boolean as Python's True/False; throws on anything else. */
export function pyBool(x: unknown, what: string): 'True' | 'False' {
  if (typeof x !== 'boolean') throw new TypeError(`${what} = ${String(x)} is not a boolean`);
  return x ? 'True' : 'False';
}

/** The entry of `allowed` equal to x (the list's own string, never the input); throws when none is. */
export function pyChoice<T extends string>(x: unknown, allowed: readonly T[], what: string): T {
  const i = allowed.indexOf(x as T);
  if (i < 0) throw new RangeError(`${what} = ${String(x)} is not one of ${allowed.join(', ')}`);
  return allowed[i];
}

/**
 * A Python string literal of any text: double-quoted, with backslash, quote, every control character,
 * DEL, C1 controls and the Unicode line and paragraph separators escaped, so the text can never end
 * the literal or the line it is on.
 */
export function pyStr(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || (c >= 0xd800 && c <= 0xdfff)) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}

/** format.ts's fmt and pct in Python, digit for digit (JavaScript rounds halves away from zero on the exact binary value). */
export const PY_FORMAT = `def _js_round(x, digits):
    """x rounded to \`digits\` significant digits as JavaScript's toPrecision does (half away from zero, on the exact value)."""
    d = Decimal(x)
    return d.quantize(Decimal(1).scaleb(d.adjusted() - digits + 1), rounding=ROUND_HALF_UP)


def _js_string(v):
    """String(v) of JavaScript for a float in [1e-7, 1e21): the shortest round-trip digits, no '.0'."""
    r = repr(float(v))
    return r[:-2] if r.endswith(".0") else r


def fmt(x, sig=4):
    """The page's readout format (web/src/format.ts fmt): sig significant digits, exponent outside [1e-4, 1e5)."""
    if x != x:
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    if abs(x) >= 1e5 or abs(x) < 1e-4:
        q = _js_round(x, sig)
        e = q.adjusted()
        return f"{q.scaleb(-e):.{sig - 1}f}e{e}"
    return _js_string(_js_round(x, sig))


def pct(x):
    """A share as the page prints it (web/src/format.ts pct): 1 decimal from 10 %, else 2 significant digits."""
    if x != x or math.isinf(x):
        return fmt(x)
    v = x * 100
    if v == 0 or v >= 10:
        return f"{Decimal(v).quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)} %"
    q = _js_round(v, 2)
    e = q.adjusted()
    return (f"{q.scaleb(-e):.1f}e{e}" if e < -6 else f"{q:f}") + " %"
`;
