// The pieces that make a link's numbers and a sandboxed embed the same in every engine: the CSP
// naming the site's origin (scripts/csp.mjs) and the elementary functions of the JS-drawn curves
// (web/src/portable-math.ts), whose bits are fixed here as Node computes them.
import { describe, expect, it } from 'vitest';
import { htmlWithCors, htmlWithOrigin, policyWithOrigin, siteOrigin } from '../../scripts/csp.mjs';
import { exp, ln, normalDensity, tanh } from '../../web/src/portable-math.ts';

const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; object-src 'none'";

describe('the CSP names the site’s origin beside every \'self\'', () => {
  it('adds the origin of SITE_URL, once, and nothing else', () => {
    const p = policyWithOrigin(POLICY, 'https://you.github.io/sqrtdk/');
    expect(p).toBe("default-src 'self' https://you.github.io; script-src 'self' https://you.github.io 'wasm-unsafe-eval'; worker-src 'self' https://you.github.io blob:; object-src 'none'");
    expect(policyWithOrigin(p, 'https://you.github.io')).toBe(p);
  });
  it('refuses what is not an http(s) URL, naming it', () => {
    expect(() => siteOrigin('you.github.io')).toThrow(/"you\.github\.io" is not an absolute URL/);
    expect(() => siteOrigin('javascript:alert(1)')).toThrow(/not an http\(s\) URL/);
  });
  it('rewrites the page’s meta and drops the failure message’s sentence about the cause it removes', () => {
    const html = `<meta http-equiv="Content-Security-Policy" content="${POLICY}"><p>could not start.<span data-boot-cors> CORS.</span><span data-boot-csp> CSP.</span></p>`;
    const out = htmlWithOrigin(html, 'http://127.0.0.1:5173');
    expect(out).toContain("script-src 'self' http://127.0.0.1:5173 'wasm-unsafe-eval'");
    expect(out).toContain('data-boot-cors');
    expect(out).not.toContain('data-boot-csp');
    expect(htmlWithCors(out)).toBe(out.replace('<span data-boot-cors> CORS.</span>', ''));
  });
});

describe('exp, ln and the normal density are plain IEEE-754 arithmetic', () => {
  it('gives fixed bits (Math.exp gives others in Chromium for these)', () => {
    expect(normalDensity(-22, 8)).toBe(0.0011366953126988818);
    expect(normalDensity(-15.9125)).toBe(4.145396947831093e-56);
    expect(normalDensity(0, 2)).toBe(1 / (2 * Math.sqrt(2 * Math.PI)));
    expect(exp(0)).toBe(1);
    expect(exp(-Infinity)).toBe(0);
    expect(ln(1)).toBe(0);
    expect(ln(8192)).toBe(13 * Math.LN2);
  });
});

describe('tanh is plain IEEE-754 arithmetic on the portable exp', () => {
  it('gives fixed bits, odd, within 1e-13 of the true value on both sides of its series', () => {
    expect(tanh(2)).toBe(0.9640275800758169);  // Gemma 2's cap 50 on the gap 100: 50 · tanh(2) = 48.2014
    expect(tanh(0.5)).toBe(0.4621171572600098);
    expect(tanh(-3)).toBe(-tanh(3));
    expect(Object.is(tanh(-0), -0)).toBe(true);
    expect(tanh(25)).toBe(1);
    expect(tanh(-Infinity)).toBe(-1);
    expect(Number.isNaN(tanh(NaN))).toBe(true);
    // reference values (mpmath, 30 digits) rounded to double
    const ref: [number, number][] = [[1e-4, 9.99999996666666680e-5], [0.001, 9.99999666666799999e-4], [0.0011, 1.09999955633354807e-3], [0.5, 0.462117157260009758], [2, 0.964027580075816884]];
    for (const [x, y] of ref) expect(Math.abs(tanh(x) - y) / y, `tanh(${x})`).toBeLessThan(1e-13);
  });
});
