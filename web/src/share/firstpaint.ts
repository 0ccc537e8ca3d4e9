// The app's side of the first paint (issue 18): the build puts the view's heading, lede and a
// static picture of its key chart at the default state into <div id="app"> (web/src/share/card.ts).
// The app takes that picture out before it mounts, and lays it over the view's first live chart —
// absolutely positioned inside the chart's fixed-height canvas box, so nothing moves — with the
// "computing in your browser…" status, until that chart has drawn; then it is removed.
import type { State } from '../state/state.ts';
import { defaultState, panelHash } from '../state/state.ts';

export interface FirstPaint {
  /** Lays the picture over the first chart of the view just mounted (once; only for the view and state it shows). */
  place(view: HTMLElement, state: State): void;
}

/** Takes the build's first paint out of `root` (call before the app replaces root's content). */
export function takeFirstPaint(root: HTMLElement): FirstPaint {
  const fp = root.querySelector<HTMLElement>('[data-first-paint]');
  const exp = fp?.dataset.firstPaint ?? '';
  // the page's language as built (the app sets <html lang> to the state's when it builds the page)
  const lang = document.documentElement.lang;
  const wide = fp?.querySelector<SVGElement>('svg.fp-wide') ?? null;
  const narrow = fp?.querySelector<SVGElement>('svg.fp-narrow') ?? null;
  const status = fp?.querySelector<HTMLElement>('.fp-status') ?? null;
  let used = !wide;
  return {
    place(view, state) {
      if (used) return;
      used = true;
      // the picture is of the default state of its view: a link to another view or other settings waits for its own chart
      // and in its language: a root page (English) opened with lang=zh-CN waits for the live chart
      if (state.lang !== lang || state.exp !== exp || panelHash(state) !== panelHash({ ...defaultState(state.lang), exp: state.exp, kernel: state.kernel })) return;
      const box = view.querySelector<HTMLElement>('[data-chart-box] .chart-canvas');
      const canvas = box?.querySelector<HTMLCanvasElement>('canvas');
      if (!box || !canvas || Number(canvas.dataset.renders ?? 0) > 0) return;
      const overlay = document.createElement('div');
      overlay.className = 'fp-overlay';
      overlay.dataset.firstPaintOverlay = '';
      overlay.setAttribute('aria-hidden', 'true');
      // the drawing whose proportions suit the chart's box, as new nodes: moving the first paint's
      // own nodes into the box would count as a layout shift of theirs (a slow machine paints the
      // first paint and the mounted view in different frames)
      const svg = (narrow && box.clientWidth < 520 ? narrow : wide!).cloneNode(true) as SVGElement;
      overlay.append(svg, ...(status ? [status.cloneNode(true) as HTMLElement] : []));
      box.append(overlay);
      const done = () => { overlay.remove(); obs.disconnect(); };
      const obs = new MutationObserver(() => { if (Number(canvas.dataset.renders ?? 0) > 0) done(); });
      obs.observe(canvas, { attributes: true, attributeFilter: ['data-renders'] });
    },
  };
}
