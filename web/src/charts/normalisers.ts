// Chart builders of "Does attention have to sum to one?": the six normalisers' row sum and first-key mass as bars, and QK-Clip's largest logit per head before and after (results + translator → ChartSpec, no DOM).
import type { NormalisersResult, QkClipResult, NormaliserName } from '../../../wasm/js/core.js';
import type { T, MessageKey } from '../i18n/messages.ts';
import type { ChartSpec, Dataset } from './kit.ts';
import { axis, baseOptions, alpha, SCALE_COLOURS, EXPLICIT_COLOUR, GREY } from './kit.ts';

/** The label of a normaliser in the page's language. */
export function normaliserLabel(t: T, name: NormaliserName): string {
  return t(`sum.n.${name}` as MessageKey);
}

/** Row sum and mass on the first key, one bar pair per normaliser (null figures drawn as gaps). */
export function buildNormalisers(r: NormalisersResult, t: T): ChartSpec {
  const labels = r.rows.map((x) => normaliserLabel(t, x.name));
  const datasets: Dataset[] = [
    { label: t('sum.series.rowSum'), data: r.rows.map((x) => x.rowSum ?? NaN), backgroundColor: alpha(SCALE_COLOURS.inv_sqrt_dk, 0.75) },
    { label: t('sum.series.firstMass'), data: r.rows.map((x) => x.firstMass ?? NaN), backgroundColor: alpha(EXPLICIT_COLOUR, 0.8) },
  ];
  return {
    config: { type: 'bar', data: { labels, datasets }, options: baseOptions(axis('', 'category', { title: { display: false } }), axis(t('sum.axis'), 'linear', { suggestedMin: 0, suggestedMax: 1 })) },
    csv: { header: ['normaliser', 'row_sum', 'first_key_mass', 'entropy_nats', 'output_norm'], rows: r.rows.map((x) => [x.name, x.rowSum ?? '', x.firstMass ?? '', x.entropy ?? 'n/a', x.outputNorm ?? '']) },
    points: 2 * r.rows.length,
  };
}

/** QK-Clip: each head's largest logit before and after clipping (τ in the title). */
export function buildQkClip(r: QkClipResult, t: T): ChartSpec {
  const heads = Array.from(r.maxLogit, (_, h) => `${t('sum.qc.head')} ${h}`);
  const datasets: Dataset[] = [
    { label: t('sum.qc.before'), data: Array.from(r.maxLogit), backgroundColor: alpha(SCALE_COLOURS.none, 0.75) },
    { label: t('sum.qc.after'), data: Array.from(r.clippedMax), backgroundColor: alpha(GREY, 0.8) },
  ];
  return {
    config: { type: 'bar', data: { labels: heads, datasets }, options: baseOptions(axis('', 'category', { title: { display: false } }), axis(t('sum.qc.axis'), 'linear', { suggestedMin: 0 })) },
    csv: { header: ['head', 'max_logit_before', 'gamma', 'max_logit_after'], rows: Array.from(r.maxLogit, (m, h) => [h, m, r.gamma[h], r.clippedMax[h]]) },
    points: 2 * r.maxLogit.length,
  };
}

/** The normalisers in the core's order (NormalisersResult.rows). */
export const NORMALISER_NAMES: readonly NormaliserName[] = ['softmax', 'offByOne', 'sink', 'sigmoid', 'gated', 'differential'];
