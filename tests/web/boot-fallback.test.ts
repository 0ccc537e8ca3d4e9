// The script of a frame that fails well (scripts/boot-fallback.ts, issue 31): the address it shows a
// reader, every view named in every language, and a source that parses as a classic script.
import { describe, it, expect } from 'vitest';
import { bootFallbackSource, readerAddress, viewNames } from '../../scripts/boot-fallback.ts';
import { SCHEMA } from '../../web/src/state/schema.js';

describe('boot fallback', () => {
  it('the reader’s address: the link without the embed flag and without what WordPress appended', () => {
    const site = 'https://lab.example/sqrtdk/';
    expect(readerAddress(`${site}#v=1&exp=variance&dk=256&embed=1#?secret=Ab3dE6gH9j`)).toBe(`${site}#v=1&exp=variance&dk=256`);
    expect(readerAddress(`${site}p/saturation/#v=1&embed=1&exp=saturation`)).toBe(`${site}p/saturation/#v=1&exp=saturation`);
    expect(readerAddress(`${site}#embed=1`)).toBe(site);
    expect(readerAddress(site)).toBe(site);
    // a key that merely ends in embed=1 stays
    expect(readerAddress(`${site}#v=1&xembed=1`)).toBe(`${site}#v=1&xembed=1`);
  });

  it('names every view in every language, and its source is a classic script', () => {
    const names = viewNames();
    expect(Object.keys(names).sort()).toEqual([...SCHEMA.exp.values].sort());
    for (const exp of SCHEMA.exp.values) {
      for (const lang of SCHEMA.lang.values) expect(names[exp][lang], `${exp} ${lang}`).toMatch(/\S/);
    }
    const src = bootFallbackSource(names);
    expect(() => new Function(src)).not.toThrow();
    expect(src).not.toMatch(/^\s*(import|export)\s/m);
    expect(src.length).toBeLessThan(6000);
  });
});
