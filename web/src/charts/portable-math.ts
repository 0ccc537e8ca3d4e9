// Elementary functions whose every bit is the same in every engine, for the curves the page draws
// and exports in JavaScript (the normal densities over histograms, the ln L line): FreeBSD msun's
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
