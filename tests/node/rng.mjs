// A small JS generator for test inputs only (Mulberry32 + Box–Muller); the core has its own.
export class Rng {
  constructor(seed) { this.a = seed >>> 0; this.spare = null; }
  uniform() {
    let t = (this.a = (this.a + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  }
  normal() {
    if (this.spare !== null) { const v = this.spare; this.spare = null; return v; }
    const r = Math.sqrt(-2 * Math.log(this.uniform()));
    const th = 2 * Math.PI * this.uniform();
    this.spare = r * Math.sin(th);
    return r * Math.cos(th);
  }
}
