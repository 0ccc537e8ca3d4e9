// The embed snippet of a panel: an iframe with only the keys the panel reads, a fixed fallback
// height (for hosts that do not load the script), and the site's own embed script that sizes the
// iframe to its content. Pure, so unit tests check the snippet.
import type { State, Panel } from '../state/state.ts';
import { embedHash } from '../state/state.ts';

/**
 * Fallback heights in CSS px of each panel's embed at a 720 px wide column, with every part shown
 * (`all`) and with the charts only (`charts`): the content heights measured by
 * `node scripts/embed-heights.mjs` on the built page (English), plus 100 px for longer text, rounded
 * up to 20 px. The e2e suite checks that each panel's content fits its fallback height.
 */
export const EMBED_HEIGHTS: Record<Panel, { all: number; charts: number }> = {
  interview: { all: 4000, charts: 1400 },  // a long reading view, not measured by embed-heights.mjs
  variance: { all: 1280, charts: 760 },
  saturation: { all: 1800, charts: 860 },
  gradient: { all: 1680, charts: 1000 },
  article: { all: 900, charts: 480 },
  followups: { all: 1260, charts: 1260 },
  precision: { all: 2120, charts: 1120 },
  longctx: { all: 2020, charts: 960 },
  gqa: { all: 1800, charts: 780 },
  tensors: { all: 1540, charts: 700 },
  training: { all: 1340, charts: 1000 },  // charts: the curves of a finished run, not the empty lab
  device: { all: 900, charts: 260 },
  mup: { all: 1560, charts: 940 },
  wild: { all: 3040, charts: 2820 },  // all: after a run (861 px at 720 px); charts alone have no Run button: the readouts
};

export function fallbackHeight(state: State): number {
  const h = EMBED_HEIGHTS[state.exp];
  return state.show.length === 1 && state.show[0] === 'charts' ? h.charts : h.all;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `base` is the page's URL without the hash (the directory the site is served from, with index.html or not). */
export function embedSnippet(state: State, base: string, title: string): string {
  const src = base + embedHash(state);
  const dir = base.replace(/[^/]*$/, '');
  return `<iframe src="${esc(src)}" title="${esc(title)}" width="100%" height="${fallbackHeight(state)}" style="border:0;width:100%" loading="lazy" data-sqrtdk-embed></iframe>\n`
    + `<script src="${esc(dir)}embed.js" async></script>`;
}
