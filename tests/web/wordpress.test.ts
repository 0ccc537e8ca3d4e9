// WordPress's paste-a-link path (web/src/embed/wordpress.ts): the secret WordPress appends to the
// frame's address, and the messages its host script reads (a browser test, share.test.mjs, runs
// the whole path against a host page that applies WordPress's treatment).
import { describe, it, expect } from 'vitest';
import { wordpressSecret, wordpressMessage, isWordPressReady, WORDPRESS_HEIGHTS } from '../../web/src/embed/wordpress.ts';

describe('WordPress frames', () => {
  it('reads the secret WordPress appends after the link\'s own hash, and nothing else', () => {
    expect(wordpressSecret('#v=1&exp=saturation&embed=1#?secret=Ab3dE6gH9j')).toBe('Ab3dE6gH9j');
    expect(wordpressSecret('#?secret=0123456789')).toBe('0123456789');
    expect(wordpressSecret('#v=1&exp=saturation&embed=1')).toBeNull();
    expect(wordpressSecret('#v=1&embed=1#?secret=short')).toBeNull();
    expect(wordpressSecret('#v=1&embed=1#?secret=Ab3dE6gH9jX')).toBeNull();  // 11 characters: not WordPress's
    expect(wordpressSecret('#v=1&embed=1#?secret=Ab3dE"gH9j')).toBeNull();
  });

  it('tells WordPress the content\'s height once the view is in, never cutting a taller frame to its 1000 px cap', () => {
    const s = 'Ab3dE6gH9j';
    // before the view (the first paint): only "shown", so the frame keeps its height attribute
    expect(wordpressMessage(300, 2166, s, false)).toEqual({ message: 'sqrtdk:shown', secret: s });
    // content WordPress can give: its height (WordPress raises under 200 px to 200)
    expect(wordpressMessage(799.2, 1047, s, true)).toEqual({ message: 'height', value: 800, secret: s });
    expect(wordpressMessage(150, 1047, s, true)).toEqual({ message: 'height', value: 150, secret: s });
    // taller than the cap: a frame already that tall keeps its height; a shorter one gets the most WordPress gives
    expect(wordpressMessage(2091, 2166, s, true)).toEqual({ message: 'sqrtdk:shown', secret: s });
    expect(wordpressMessage(2091, 600, s, true)).toEqual({ message: 'height', value: 2091, secret: s });
    expect(WORDPRESS_HEIGHTS).toEqual({ min: 200, max: 1000 });
  });

  it('answers WordPress\'s "ready" with its own secret only', () => {
    expect(isWordPressReady({ message: 'ready', secret: 'Ab3dE6gH9j' }, 'Ab3dE6gH9j')).toBe(true);
    expect(isWordPressReady({ message: 'ready', secret: 'Zz3dE6gH9j' }, 'Ab3dE6gH9j')).toBe(false);
    expect(isWordPressReady({ message: 'height', secret: 'Ab3dE6gH9j' }, 'Ab3dE6gH9j')).toBe(false);
    expect(isWordPressReady(null, 'Ab3dE6gH9j')).toBe(false);
    expect(isWordPressReady('ready', 'Ab3dE6gH9j')).toBe(false);
  });
});
