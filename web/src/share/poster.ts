// "Share as image": a tall 1080×1350 PNG of the view as it is now, for the places that take a
// picture and no iframe (a WeChat article, a Zhihu answer, Xiaohongshu, a slide): the view's
// title, its main chart as shown (the chart's own PNG export, charts/chartbox.ts), three live
// numbers with their labels (the view's key figures, requests/key-figures.ts), a QR code of the exact link (the qrcode package) and that link in
// text, in the page's language. From the interview view, the 30-second answer with its numbers.
// Also the text for WeChat/Zhihu: the answer or the view's numbers, with the link as a footnote.
import QRCode from 'qrcode';
import type { ChartBox } from '../charts/chartbox.ts';
import { chartBoxOf } from '../charts/chartbox.ts';
import { chartColours } from '../theme.ts';
import { wrapText } from './wrap.ts';
import type { PosterModel, PosterNumber } from './text.ts';
import type { KeyFigure } from '../requests/key-figures.ts';

export type { PosterModel, PosterNumber };

export const POSTER_WIDTH = 1080;
export const POSTER_HEIGHT = 1350;

/**
 * The key figures each view puts on its poster first, in order (then the view's others, in its
 * order); an id ending in '*' stands for every figure whose id starts with what precedes it, in the
 * view's order (the training lab's final loss of each variant it runs, so the poster compares them).
 */
export const POSTER_FIGURES: Partial<Record<string, string[]>> = {
  saturation: ['sat-entropy', 'sat-maxw', 'sat-share'],
  article: ['art-entropy-none', 'art-entropy-inv_sqrt_dk', 'art-entropy-inv_dk'],
  precision: ['prec-maxlogit', 'prec-rows', 'prec-jac64'],
  variance: ['var-var', 'var-std', 'var-sqrt'],
  training: ['train-final-*'],
};

/**
 * The poster's three numbers: the view's key figures (PanelView.keyFigures, from its results —
 * never read back from the page) that hold a value, the view's chosen ones first.
 */
export function posterNumbers(figures: readonly KeyFigure[], panel: string): PosterNumber[] {
  const all = figures.filter((f) => f.value.trim() !== '' && f.value !== '–' && f.value !== '…');
  const matches = (id: string, want: string) => (want.endsWith('*') ? id.startsWith(want.slice(0, -1)) : id === want);
  const chosen = (POSTER_FIGURES[panel] ?? []).flatMap((want) => all.filter((f) => matches(f.id, want)));
  return [...new Set([...chosen, ...all])].slice(0, 3).map(({ id, label, value }) => ({ id, label, value }));
}

/**
 * The band of the poster the chart fills, in poster px (the title and lede above it, the numbers
 * below), and the scale it is drawn at: CSS px × CHART_SCALE = poster px, so that the chart's
 * 12 px labels stay legible when the poster is shown at a phone's width.
 */
export const CHART_BAND = { width: POSTER_WIDTH - 2 * 56, height: 520 };
export const CHART_SCALE = 2;

/** The main chart drawn for the poster: its spec at the poster's band (ChartBox.exportCanvas). */
export function posterChart(box: ChartBox): HTMLCanvasElement | null {
  // the export adds a title band (28 CSS px) and a foot (6 CSS px) to the chart
  const width = Math.round(CHART_BAND.width / CHART_SCALE);
  const height = Math.round(CHART_BAND.height / CHART_SCALE) - 34;
  return box.exportCanvas(false, { width, height, scale: CHART_SCALE });
}

/** The view's main chart: its first chart box shown with data (drawn on screen or not yet scrolled to). */
export function mainChart(view: HTMLElement): ChartBox | undefined {
  for (const el of view.querySelectorAll('[data-chart-box]')) {
    if ((el as HTMLElement).closest('[hidden]')) continue;
    const box = chartBoxOf(el);
    if (box?.current && box.current.points > 0) return box;
  }
  return undefined;
}

function fontFamily(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--font-sans').trim() || 'system-ui, sans-serif';
}

/** Draws the poster of a model (and the chart's export canvas, if any) onto a new 1080×1350 canvas. */
export async function drawPoster(m: PosterModel, chart: HTMLCanvasElement | null): Promise<HTMLCanvasElement> {
  const W = POSTER_WIDTH;
  const H = POSTER_HEIGHT;
  const M = 56;
  const out = document.createElement('canvas');
  out.width = W;
  out.height = H;
  const ctx = out.getContext('2d')!;
  const c = chartColours();
  const dark = c.background !== '#ffffff';
  const accent = dark ? '#7fb2e5' : '#2f6fb0';
  const muted = dark ? '#9ca3af' : '#6b7280';
  const ff = fontFamily();
  const font = (px: number, weight = 400) => `${weight} ${px}px ${ff}`;
  const text = (s: string, x: number, y: number, px: number, colour: string, weight = 400, maxW = W - 2 * M) => {
    ctx.font = font(px, weight);
    ctx.fillStyle = colour;
    ctx.fillText(s, x, y, maxW);
  };
  // the lines of a text at a font (at most maxLines, the last ending in "…" when cut)
  const lines = (s: string, px: number, weight: number, width: number, maxLines = Infinity) => {
    ctx.font = font(px, weight);
    return wrapText(s, width, (x) => ctx.measureText(x).width, maxLines);
  };
  ctx.fillStyle = c.background;
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = accent;
  ctx.fillRect(0, 0, W, 12);
  ctx.textBaseline = 'alphabetic';

  // brand, title, lede
  let y = 84;
  text(m.brand, M, y, 30, accent, 700);
  y += 26;
  for (const l of lines(m.title, 56, 700, W - 2 * M, 2)) { y += 66; text(l, M, y, 56, c.text, 700); }
  const ledeLines = lines(m.points.length > 0 ? m.pointsTitle : m.lede, 28, 400, W - 2 * M, 3);
  y += 14;
  for (const l of ledeLines) { y += 38; text(l, M, y, 28, muted); }
  y += 28;

  const footTop = H - 300;
  const numbersTop = footTop - (m.numbers.length > 0 ? 190 : 0);
  if (m.points.length > 0) {
    // the 30-second answer: the points, as large as they fit above the numbers
    for (let px = 30; px >= 18; px -= 2) {
      const blocks = m.points.map((p, i) => lines(`${i + 1}. ${p}`, px, 400, W - 2 * M));
      const lh = Math.round(px * 1.42);
      const need = blocks.reduce((a, b) => a + b.length * lh + Math.round(px * 0.6), 0);
      if (need <= numbersTop - y - 16 || px === 18) {
        for (const b of blocks) {
          for (const l of b) { y += lh; text(l, M, y, px, c.text); }
          y += Math.round(px * 0.6);
        }
        break;
      }
    }
  } else if (chart) {
    // the main chart (drawn for this band by posterChart), scaled to fit it
    const room = { w: W - 2 * M, h: numbersTop - y - 24 };
    const k = Math.min(room.w / chart.width, room.h / chart.height);
    const w = chart.width * k;
    const h = chart.height * k;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(chart, M + (room.w - w) / 2, y + (room.h - h) / 2, w, h);
    ctx.strokeStyle = c.grid;
    ctx.lineWidth = 2;
    ctx.strokeRect(M + (room.w - w) / 2, y + (room.h - h) / 2, w, h);
  }

  // three numbers with their labels
  if (m.numbers.length > 0) {
    const gap = 24;
    const bw = (W - 2 * M - gap * (m.numbers.length - 1)) / m.numbers.length;
    m.numbers.forEach((n, i) => {
      const x = M + i * (bw + gap);
      ctx.fillStyle = dark ? '#1f2937' : '#f1f5f9';
      ctx.fillRect(x, numbersTop, bw, 166);
      let px = 54;
      ctx.font = font(px, 700);
      while (px > 24 && ctx.measureText(n.value).width > bw - 32) { px -= 2; ctx.font = font(px, 700); }
      text(n.value, x + 16, numbersTop + 16 + px, px, accent, 700, bw - 32);
      lines(n.label, 23, 400, bw - 32, 3).forEach((l, j) => text(l, x + 16, numbersTop + 104 + j * 28, 23, c.text, 400, bw - 32));
    });
  }

  // the QR code of the link, the link in text, the note
  const qrSize = 236;
  const qr = document.createElement('canvas');
  await QRCode.toCanvas(qr, m.link, { errorCorrectionLevel: 'M', margin: 2, width: qrSize, color: { dark: '#111827', light: '#ffffff' } });
  const qx = W - M - qrSize;
  const qy = H - M - qrSize;
  ctx.drawImage(qr, qx, qy, qrSize, qrSize);
  ctx.fillStyle = c.grid;
  ctx.fillRect(M, footTop - 2, W - 2 * M, 2);
  let fy = qy + 8;
  for (const l of lines(m.scan, 32, 700, qx - M - 32, 2)) { fy += 40; text(l, M, fy, 32, c.text, 700, qx - M - 32); }
  fy += 10;
  // the link in text, as large as it fits above the note (a long link ends in "…"; the QR code has it whole)
  const noteY = qy + qrSize - 4;
  const shown = m.link.replace(/^https?:\/\//, '');
  for (let px = 22; px >= 14; px -= 2) {
    const lh = Math.round(px * 1.36);
    const room = Math.floor((noteY - 30 - fy) / lh);
    if (lines(shown, px, 400, qx - M - 32).length > room && px > 14) continue;
    for (const l of lines(shown, px, 400, qx - M - 32, room)) { fy += lh; text(l, M, fy, px, accent, 400, qx - M - 32); }
    break;
  }
  text(m.madeWith, M, noteY, 20, muted, 400, qx - M - 32);
  return out;
}
