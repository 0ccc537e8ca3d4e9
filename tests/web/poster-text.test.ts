// The poster's words: line breaking of English, Chinese and links (web/src/share/wrap.ts, measured
// here one unit per character), and the WeChat/Zhihu text with its footnote (web/src/share/text.ts).
import { describe, it, expect } from 'vitest';
import { posterText } from '../../web/src/share/text.ts';
import { wrapText } from '../../web/src/share/wrap.ts';
import { posterNumbers } from '../../web/src/share/poster.ts';
import type { PosterModel } from '../../web/src/share/text.ts';

const len = (s: string) => [...s].length;

describe('wrapText', () => {
  it('breaks English between words, never past the width', () => {
    const lines = wrapText('Large logits make softmax nearly one-hot. How sharp is attention?', 20, len);
    expect(lines).toEqual(['Large logits make', 'softmax nearly', 'one-hot. How sharp', 'is attention?']);
    expect(lines.every((l) => len(l) <= 20)).toBe(true);
  });
  it('breaks Chinese between any two characters, and keeps English words inside it whole', () => {
    const lines = wrapText('不缩放时的熵只有 0.2238，几乎是 one-hot。', 8, len);
    expect(lines.join('').replace(/\s/g, '')).toBe('不缩放时的熵只有0.2238，几乎是one-hot。');
    expect(lines.every((l) => len(l) <= 8)).toBe(true);
    expect(lines.some((l) => l.includes('one-hot'))).toBe(true);
  });
  it('cuts a link longer than a line between characters, losing none', () => {
    const url = 'lab.example.org/#v=1&exp=saturation&dk=512&seed=1&heads=4';
    const lines = wrapText(url, 16, len);
    expect(lines.join('')).toBe(url);
    expect(lines.slice(0, -1).every((l) => len(l) === 16)).toBe(true);
  });
  it('never starts a line with a closing Chinese sign, and cuts at maxLines with "…" within the width', () => {
    const lines = wrapText('缩放之后熵接近，最大权重也小。', 7, len);
    expect(lines.some((l) => /^[，。]/.test(l))).toBe(false);
    expect(lines.join('')).toBe('缩放之后熵接近，最大权重也小。');
    const cut = wrapText('Large logits make softmax nearly one-hot. How sharp is attention?', 20, len, 2);
    expect(cut).toEqual(['Large logits make', 'softmax nearly…']);
    expect(cut.every((l) => len(l) <= 20)).toBe(true);
  });
});

describe('posterText', () => {
  const base: PosterModel = {
    lang: 'en', brand: '√dk Lab', title: 'Saturation', lede: 'How sharp is attention?', points: [], pointsTitle: '',
    numbers: [{ id: 'sat-entropy', label: 'mean entropy', value: '0.2238' }], link: 'https://lab.example/#v=1&exp=saturation', scan: '', madeWith: 'Computed live',
  };
  it('a lab view: title, lede, the numbers with their labels, the link as footnote [1]', () => {
    expect(posterText(base, 'Live numbers')).toBe('Saturation [1]\n\nHow sharp is attention?\n· mean entropy: 0.2238\n\n[1] Live numbers: https://lab.example/#v=1&exp=saturation\nComputed live');
  });
  it('Chinese text takes Chinese punctuation: "复现：http…", not "复现: http…"', () => {
    const zh = posterText({ ...base, lang: 'zh-CN', title: '饱和', lede: '注意力有多尖锐？', numbers: [{ id: 'sat-entropy', label: '平均熵', value: '0.2238' }] }, '实时数字，可由此链接复现');
    expect(zh).toBe('饱和 [1]\n\n注意力有多尖锐？\n· 平均熵：0.2238\n\n[1] 实时数字，可由此链接复现：https://lab.example/#v=1&exp=saturation\nComputed live');
    expect(zh).not.toMatch(/[\u4e00-\u9fff]: /);
  });
  it('the interview: the answer, numbered', () => {
    const t = posterText({ ...base, title: 'Why?', points: ['One.', 'Two.'], pointsTitle: 'In 30 seconds' }, 'Link');
    expect(t.split('\n').slice(0, 5)).toEqual(['Why? [1]', '', 'In 30 seconds', '1. One.', '2. Two.']);
  });
});

describe('posterNumbers', () => {
  it('the training lab compares its variants: the final loss of each run, not three columns of the unscaled one', () => {
    const cols = ['steps', 'final', 'heldout', 'acc'];
    const figs = ['none', 'inv_sqrt_dk', 'qk_ln'].flatMap((v, i) => cols.map((c, j) => ({ id: `train-${c}-${v}`, label: `${v} · ${c}`, value: c === 'heldout' ? '–' : String(i * 10 + j) })));
    expect(posterNumbers(figs, 'training').map((n) => n.id)).toEqual(['train-final-none', 'train-final-inv_sqrt_dk', 'train-final-qk_ln']);
    // one run: its final loss first, then the view's other figures
    expect(posterNumbers(figs.slice(0, 4), 'training').map((n) => n.id)).toEqual(['train-final-none', 'train-steps-none', 'train-acc-none']);
  });
});
