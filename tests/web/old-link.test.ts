// Old links land well (scripts/old-link.ts, issue 31): which share page an old-style root link opens,
// run as the built script runs it (its source, in a stand-in for the page), and what it leaves alone.
import { describe, it, expect } from 'vitest';
import { oldLinkSource } from '../../scripts/old-link.ts';
import { MAX_HASH_LENGTH } from '../../web/src/state/state.ts';

/** Runs the script's source on a root page at `href` for a reader whose browser prefers `languages`; the address it replaces the page's with, or null. */
function run(href: string, languages: string[] = ['en-US'], pageExp = false): string | null {
  const u = new URL(href);
  let replaced: string | null = null;
  const location = { href, hash: u.hash, search: u.search, replace: (to: string) => { replaced = to; } };
  const document = { documentElement: { hasAttribute: (a: string) => pageExp && a === 'data-page-exp' } };
  new Function('location', 'navigator', 'document', oldLinkSource())(location, { languages, language: languages[0] }, document);
  return replaced;
}

const SITE = 'https://you.github.io/sqrtdk/';

describe('old-style root links', () => {
  it('open the share page of their view in the link’s language, hash and query kept', () => {
    expect(run(`${SITE}#v=1&exp=precision&lang=zh-CN&dk=256`)).toBe(`${SITE}zh-CN/p/precision/#v=1&exp=precision&lang=zh-CN&dk=256`);
    expect(run(`${SITE}#v=1&exp=saturation&lang=en`, ['zh-CN'])).toBe(`${SITE}p/saturation/#v=1&exp=saturation&lang=en`);
    expect(run(`${SITE}index.html?pool=2#v=1&exp=gqa`)).toBe(`${SITE}p/gqa/?pool=2#v=1&exp=gqa`);
    // the last value of a key counts, as in the app's parser
    expect(run(`${SITE}#exp=interview&exp=training`)).toBe(`${SITE}p/training/#exp=interview&exp=training`);
  });

  it('without lang: the reader’s browser language, as the app chooses it', () => {
    expect(run(`${SITE}#v=1&exp=gradient`, ['zh-TW', 'en'])).toBe(`${SITE}zh-CN/p/gradient/#v=1&exp=gradient`);
    expect(run(`${SITE}#v=1&exp=gradient`, ['fr', 'en-GB'])).toBe(`${SITE}p/gradient/#v=1&exp=gradient`);
    // a lang the schema does not have: the reader's (the app names the bad value there)
    expect(run(`${SITE}#v=1&exp=gradient&lang=fr`, ['zh-CN'])).toBe(`${SITE}zh-CN/p/gradient/#v=1&exp=gradient&lang=fr`);
    // the landing in Chinese has its own page; in English the root is it
    expect(run(`${SITE}#v=1&exp=interview`, ['zh-CN'])).toBe(`${SITE}zh-CN/p/interview/#v=1&exp=interview`);
    expect(run(`${SITE}#v=1&exp=interview&dk=128`)).toBeNull();
  });

  it('leave the root alone: no exp, an unknown view, an embed, a share page, a hash over the limit', () => {
    expect(run(SITE)).toBeNull();
    expect(run(`${SITE}#v=1&lang=zh-CN&dk=256`)).toBeNull();
    expect(run(`${SITE}#v=1&exp=nope&lang=zh-CN`)).toBeNull();
    expect(run(`${SITE}#v=1&expx=gqa`)).toBeNull();
    expect(run(`${SITE}#v=1&exp=gqa&embed=1`)).toBeNull();
    // WordPress's suffix after a second '#' is not the link's
    expect(run(`${SITE}#v=1&exp=interview&embed=1#?secret=Ab3dE6gH9j&exp=gqa`)).toBeNull();
    expect(run(`${SITE}p/gqa/#v=1&exp=saturation`, ['en'], true)).toBeNull();
    const long = `#v=1&exp=gqa&${'x=1&'.repeat(MAX_HASH_LENGTH / 4)}`;
    expect(run(`${SITE}${long}`)).toBeNull();
    // a bad escape elsewhere does not stop it
    expect(run(`${SITE}#v=1&seed=%E0%A4%A&exp=mup`)).toBe(`${SITE}p/mup/#v=1&seed=%E0%A4%A&exp=mup`);
  });

  it('is a small classic script', () => {
    const src = oldLinkSource();
    expect(src).not.toMatch(/^\s*(import|export)\s/m);
    expect(src.length).toBeLessThan(4000);
  });
});
