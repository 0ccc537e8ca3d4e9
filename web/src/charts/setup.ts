// Chart.js set up for the page: only the parts it uses registered (with the plugins that draw from a chart's options), the charts' font and colours, and a config themed before it is drawn (no animation when less motion is asked for).
import {
  Chart, LineController, BarController, LineElement, PointElement, BarElement,
  LinearScale, LogarithmicScale, CategoryScale, Filler, Legend, Tooltip,
} from 'chart.js';
import type { ChartConfiguration, Plugin } from 'chart.js';
import { chartColours, reducedMotion } from '../theme.ts';
import { vline, gapLabel, heatmap, background } from './plugins.ts';
import type { ChartPage } from './page.ts';

Chart.register(
  LineController, BarController, LineElement, PointElement, BarElement,
  LinearScale, LogarithmicScale, CategoryScale, Filler, Legend, Tooltip, vline, gapLabel, heatmap,
);
Chart.defaults.color = '#374151';

/**
 * The plugins of each chart of `page`, in this order after the registered ones: the hold first
 * (a held chart draws nothing, not even its background), the background, then the draw's record.
 */
export function pagePlugins(page: ChartPage): Plugin[] {
  return [page.hold, background, page.renderHook];
}

/**
 * The charts' text in the page's font stack (style.css --font-sans, a canvas does not inherit CSS):
 * the page language's, so a chart of the English page names no CJK family (each family the machine
 * lacks is a font lookup per size and weight) and a Chinese one has them. Read again after a
 * change of the page's language.
 */
export function pageFont(page: ChartPage): void {
  if (typeof document === 'undefined') return;
  const lang = document.documentElement.lang;
  if (lang === page.fontLang) return;
  const stack = typeof getComputedStyle === 'function' ? getComputedStyle(document.documentElement).getPropertyValue('--font-sans').trim() : '';
  if (stack) page.fontLang = lang;  // before the stylesheet applies: asked again at the next chart
  Chart.defaults.font.family = stack || 'system-ui, sans-serif';
}

/** The config with the scheme's text and grid colours (a canvas does not inherit CSS), and no animation when asked for less motion. */
export function themed(page: ChartPage, cfg: ChartConfiguration): ChartConfiguration {
  const c = chartColours();
  pageFont(page);
  const o = (cfg.options ??= {}) as Record<string, unknown> & { scales?: Record<string, Record<string, unknown>>; plugins?: Record<string, Record<string, unknown>> };
  Chart.defaults.color = c.text;
  for (const axis of Object.values(o.scales ?? {})) {
    const grid = (axis.grid ??= {}) as Record<string, unknown>;
    if (grid.display !== false) grid.color = c.grid;
    axis.ticks = { ...(axis.ticks as object ?? {}), color: c.text };
    if (axis.title) axis.title = { ...(axis.title as object), color: c.text };
  }
  const legend = o.plugins?.legend;
  // on a phone a long legend would squeeze the plot: smaller swatches, type and gaps
  const narrow = typeof matchMedia === 'function' && matchMedia('(max-width: 600px)').matches;
  if (legend) legend.labels = { ...(legend.labels as object ?? {}), color: c.text, ...(narrow ? { boxWidth: 9, boxHeight: 9, padding: 6, font: { size: 10 } } : {}) };
  if (reducedMotion()) o.animation = false;
  return cfg;
}
