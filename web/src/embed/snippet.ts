// The embed snippet of a panel: an iframe with only the keys the panel reads, a fallback height
// that fits the frame to its content at any column width without the script (hosts that strip
// scripts or forbid them with a CSP), and the site's own embed script that sizes the iframe
// exactly where it runs. Pure, so unit tests check the snippet.
import type { State, Panel } from '../state/state.ts';
import { embedHash } from '../state/state.ts';
import { htmlSnippet } from './formats.ts';
import type { EmbedTarget } from './formats.ts';
import { EMBED_FIT } from './heights.ts';
import type { FitPoints } from './heights.ts';

/** The column width whose content height the `height` attribute carries (browsers without container queries use it). */
export const ATTR_WIDTH = 720;

/**
 * The measured points of the parts shown, in the frame's language (an embed shows the language it
 * was made in; Chinese text wraps to other heights): the charts alone, or every part (any other
 * choice of parts is at most that).
 */
export function fitPoints(state: Pick<State, 'exp' | 'lang' | 'show'>): FitPoints {
  const f = EMBED_FIT[state.lang][state.exp];
  return state.show.length === 1 && state.show[0] === 'charts' ? f.charts : f.all;
}

/** Linear interpolation of the points at width `w` (constant outside them). */
export function heightAt(points: FitPoints, w: number): number {
  if (w <= points[0][0]) return points[0][1];
  for (let i = 1; i < points.length; i++) {
    const [w0, h0] = points[i - 1], [w1, h1] = points[i];
    if (w <= w1) return h0 + (h1 - h0) * (w - w0) / (w1 - w0);
  }
  return points[points.length - 1][1];
}

/** The `height` attribute: the content height at a 720 px column, for browsers without container queries. */
export function fallbackHeight(state: State): number {
  return Math.ceil(heightAt(fitPoints(state), ATTR_WIDTH));
}

const px = (x: number) => `${Number(x.toFixed(2))}px`;

/**
 * The frame's height as CSS of its own width (100cqw: the snippet's wrapper is an inline-size
 * container): the piecewise-linear interpolation of the measured (width, height) points, written
 * as max over segments of min(cap, line, cut), where the line runs through the segment's two
 * points, the cap is the segment's upper height and the cut drops steeply after the segment's
 * right end (so a step where the layout changes stays a step). Points must be sorted by width;
 * the heights are first made non-increasing from the right (a wider column never needs more).
 */
export function fitCss(points: FitPoints): string {
  const hs = points.map((p) => p[1]);
  for (let i = hs.length - 2; i >= 0; i--) hs[i] = Math.max(hs[i], hs[i + 1]);
  const terms: string[] = [px(hs[hs.length - 1])];
  for (let i = 0; i + 1 < points.length; i++) {
    const w0 = points[i][0], w1 = points[i + 1][0], h0 = hs[i], h1 = hs[i + 1];
    if (h0 === h1) { terms.push(`min(${px(h0)}, calc(${px(h0 + 1e4 * w1)} - ${1e6}cqw))`); continue; }
    const slope = (h1 - h0) / (w1 - w0);  // px of height per px of width (≤ 0)
    const line = `calc(${px(h0 - slope * w0)} - ${Number((-slope * 100).toFixed(4))}cqw)`;
    terms.push(`min(${px(h0)}, ${line}, calc(${px(h1 + 1e4 * w1)} - ${1e6}cqw))`);
  }
  return `max(${terms.join(', ')})`;
}

/** `base` is the page's URL without the hash (the directory the site is served from, with index.html or not). */
export function embedSnippet(state: State, base: string, title: string): string {
  return htmlSnippet(embedTarget(state, base, title));
}

/** The view to embed in every format (formats.ts): the site's directory, the embed's hash, title, fallback height and its fit. */
export function embedTarget(state: State, base: string, title: string): EmbedTarget {
  return { site: base.replace(/[^/]*$/, ''), page: base, hash: embedHash(state), title, height: fallbackHeight(state), fit: fitCss(fitPoints(state)) };
}
