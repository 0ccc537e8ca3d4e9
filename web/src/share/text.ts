// The poster's words, pure (no DOM): what a poster shows (PosterModel), the text for WeChat and
// Zhihu with the link as a footnote, and the line breaking of English and Chinese on the canvas.

/** A number on the poster: its label and the text the page shows for it. */
export interface PosterNumber { id: string; label: string; value: string }

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

/** The text for WeChat / Zhihu: title, the answer or the numbers, and the link as footnote [1]. */
export function posterText(m: PosterModel, footnote: string): string {
  const body = m.points.length > 0
    ? [m.pointsTitle, ...m.points.map((p, i) => `${i + 1}. ${p}`)]
    : [m.lede, ...m.numbers.map((n) => `· ${n.label}: ${n.value}`)];
  return [`${m.title} [1]`, '', ...body, '', `[1] ${footnote}: ${m.link}`, m.madeWith].join('\n');
}

const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/;
/**
 * Lines no wider than `width`: English breaks between words (a word longer than a line, such as a
 * URL, between characters), Chinese between any two characters.
 */
export function wrapText(text: string, width: number, measure: (s: string) => number): string[] {
  const tokens = text.match(/[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]+\s*|\s+/g) ?? [];
  const lines: string[] = [];
  let line = '';
  const push = () => { if (line.trim() !== '') lines.push(line.trimEnd()); line = ''; };
  for (const tok of tokens) {
    if (measure((line + tok).trimEnd()) <= width) { line += tok; continue; }
    if (line !== '') push();
    if (measure(tok.trimEnd()) <= width) { line = CJK.test(tok) || tok.trim() !== '' ? tok : ''; continue; }
    for (const ch of tok) {
      if (line !== '' && measure(line + ch) > width) push();
      line += ch;
    }
  }
  push();
  return lines;
}

