// The poster's words, pure (no DOM): what a poster shows (PosterModel), the text for WeChat and
// Zhihu with the link as a footnote (its lines are broken by share/wrap.ts).

import type { KeyFigure } from '../requests/key-figures.ts';

/** A number on the poster: one of the view's key figures (its id, label and the text the page shows for it). */
export type PosterNumber = KeyFigure;

/** Everything the poster shows, read from the view on screen. */
export interface PosterModel {
  lang: 'en' | 'zh-CN';
  brand: string;
  title: string;
  lede: string;
  /** the interview's 30-second answer, one string per point (numbers as shown); empty for a lab view */
  points: string[];
  pointsTitle: string;
  numbers: PosterNumber[];
  /** the exact link (QR code and text) */
  link: string;
  scan: string;
  madeWith: string;
}

/** The sign between a label and what it labels: Chinese text takes the full-width colon, with no space after it. */
export function colonOf(lang: PosterModel['lang']): string {
  return lang === 'zh-CN' ? '：' : ': ';
}

/** The text for WeChat / Zhihu: title, the answer or the numbers, and the link as footnote [1]. */
export function posterText(m: PosterModel, footnote: string): string {
  const colon = colonOf(m.lang);
  const body = m.points.length > 0
    ? [m.pointsTitle, ...m.points.map((p, i) => `${i + 1}. ${p}`)]
    : [m.lede, ...m.numbers.map((n) => `· ${n.label}${colon}${n.value}`)];
  return [`${m.title} [1]`, '', ...body, '', `[1] ${footnote}${colon}${m.link}`, m.madeWith].join('\n');
}
