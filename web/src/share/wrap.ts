// Line breaking of English and Chinese, written once for every picture the page draws itself: the
// link card and the first paint (widths estimated, share/card.ts) and the poster (widths measured on
// its canvas, share/poster.ts). Pure: the caller hands the width of a string.

/** CJK characters and full-width signs: a line may break between any two of them. */
const CJK_CLASS = '\\u2e80-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef\\u3000-\\u303f';
/**
 * The pieces a line is made of: one CJK character with the closing sign that follows it (a line
 * never starts with "，" or "。"), a word with the spaces after it, or a run of spaces.
 */
const TOKENS = new RegExp(`[${CJK_CLASS}][，。：；、）」”！？]?|[^\\s${CJK_CLASS}]+\\s*|\\s+`, 'g');

/**
 * Lines no wider than `width` (as `measure` reads a string's width): English breaks between words
 * (a word longer than a line, such as a URL, between characters), Chinese between any two
 * characters. With `maxLines`, text past that many lines is cut and the last line ends in "…"
 * (still within `width`, without a trailing space or comma before it).
 */
export function wrapText(text: string, width: number, measure: (s: string) => number, maxLines = Infinity): string[] {
  const lines: string[] = [];
  let line = '';
  const push = () => { if (line.trim() !== '') lines.push(line.trimEnd()); line = ''; };
  for (const tok of text.match(TOKENS) ?? []) {
    if (measure((line + tok).trimEnd()) <= width) { line = line.trim() === '' ? tok.trimStart() : line + tok; continue; }
    push();
    if (measure(tok.trimEnd()) <= width) { line = tok.trimStart(); continue; }
    for (const ch of tok) {
      if (line !== '' && measure(line + ch) > width) push();
      line += ch;
    }
  }
  push();
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, Math.max(1, maxLines));
  let last = kept[kept.length - 1];
  while (last.length > 1 && measure(last + '…') > width) last = [...last].slice(0, -1).join('');
  kept[kept.length - 1] = last.replace(/[\s,;:，；：]+$/, '') + '…';
  return kept;
}
