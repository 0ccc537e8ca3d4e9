// Elementary functions whose every bit is the same in every engine, for the numbers the page computes,
// shows and exports in JavaScript (the normal densities over histograms, the ln L lines and readouts,
// Gemma's soft-capped logit, the drill's log slider): FreeBSD msun's
// exp and log as ported by @stdlib, written in IEEE-754 +, −, ×, ÷ and bit reads, which every
// engine rounds alike. Math.exp and Math.log are not: Firefox's (and Node's) last bit differs from
// Chromium's for about one argument in ten, so a data table or CSV would depend on the browser.
import stdlibExp from '@stdlib/math-base-special-exp';
import stdlibLn from '@stdlib/math-base-special-ln';

const SQRT_2PI = Math.sqrt(2 * Math.PI);  // Math.sqrt is correctly rounded in every engine (ECMA-262)

/** e^x, the same bits in every engine. */
export const exp: (x: number) => number = stdlibExp;
/** ln x, the same bits in every engine. */
export const ln: (x: number) => number = stdlibLn;

/** The N(0, std²) density at x, the same bits in every engine. */
export function normalDensity(x: number, std = 1): number {
  const z = x / std;
  return exp(-0.5 * z * z) / (std * SQRT_2PI);
}

/**
 * tanh x, the same bits in every engine: (e^{2|x|} − 1) / (e^{2|x|} + 1) with the exp above, the odd
 * series x − x³/3 + 2x⁵/15 below |x| = 10⁻³ (where the difference would lose digits), ±1 beyond |x| = 20
 * (tanh is within 10⁻¹⁷ of 1 there). Relative error below 10⁻¹³; Math.tanh is not portable (no engine
 * promises its last bit).
 */
export function tanh(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const a = Math.abs(x);
  let t: number;
  if (a > 20) t = 1;
  else if (a < 1e-3) {
    const a2 = a * a;
    t = a * (1 - a2 * (1 / 3 - a2 * (2 / 15)));
  } else {
    const e = exp(2 * a);
    t = (e - 1) / (e + 1);
  }
  return x < 0 ? -t : x === 0 ? x : t;  // odd, and tanh(−0) = −0
}
