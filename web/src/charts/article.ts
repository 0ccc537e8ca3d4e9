// Chart builder of the article's check: the mean entropy of each scale against ln L (results +
// translator → ChartSpec, no DOM).
import type { AttentionStatsResult } from '../../../wasm/js/core.js';
import type { T } from '../i18n/messages.ts';
import { ARTICLE_SCALES } from '../requests/results.ts';
import { fmt } from '../format.ts';
import type { Dataset, ChartSpec, GapLabel } from './kit.ts';
import { SCALE_COLOURS, GREY, axis, baseOptions } from './kit.ts';

/** One scale of the article's check: its summary and ln L. */
export type ArticleResult = Pick<AttentionStatsResult, 'summary' | 'logSeqLen'>;
export function buildArticle(results: ArticleResult[], t: T): ChartSpec {
  const labels = ARTICLE_SCALES.map((s) => t(`scale.${s}`));
  const ent = results.map((r) => r.summary.entropy.mean);
  const lnL = results[0]?.logSeqLen ?? 0;
  const datasets: Dataset[] = [
    { label: t('art.series.entropy'), data: ent, backgroundColor: ARTICLE_SCALES.map((s) => SCALE_COLOURS[s]), type: 'bar', order: 2 },
    { label: t('art.series.lnL'), data: labels.map(() => lnL), type: 'line', borderColor: GREY, borderDash: [5, 4], borderWidth: 2, pointRadius: 0, order: 1 },
  ];
  const x = axis('', 'category', { title: { display: false } });
  const y = axis(t('sat.axis.entropy'), 'linear', { min: 0, suggestedMax: lnL * 1.1 });
  // the gap under ln L of the ÷√d_k bar, the number that corrects the article's "≈ ln L"
  const hs = ent[ARTICLE_SCALES.indexOf('inv_sqrt_dk')];
  const gap: GapLabel | undefined = Number.isFinite(hs) && lnL - hs >= 0 && lnL - hs <= 0.2 * lnL
    ? { x: ARTICLE_SCALES.indexOf('inv_sqrt_dk'), y0: hs, y1: lnL, text: t('chart.gap', { gap: fmt(lnL - hs, 3) }) } : undefined;
  return {
    config: { type: 'bar', data: { labels, datasets }, options: baseOptions(x, y, {
      interaction: { mode: 'index', intersect: false },
      // one legend entry per bar colour (a scale), then ln L
      plugins: { legend: { position: 'bottom', onClick: null, labels: { boxWidth: 12, boxHeight: 12, font: { size: 11 }, generateLabels: () => [
        ...ARTICLE_SCALES.map((s, i) => ({ text: labels[i], fillStyle: SCALE_COLOURS[s], strokeStyle: SCALE_COLOURS[s], lineWidth: 0, datasetIndex: 0, index: i })),
        { text: t('art.series.lnL'), fillStyle: 'rgba(0,0,0,0)', strokeStyle: GREY, lineWidth: 2, lineDash: [5, 4], datasetIndex: 1 },
      ] } }, ...(gap ? { gapLabel: gap } : {}) },
    }) },
    csv: { header: ['scale', 'mean_entropy_nats', 'ln_L'], rows: ARTICLE_SCALES.map((s, i) => [s, ent[i], lnL]) },
    points: ent.length + 1,
  };
}
