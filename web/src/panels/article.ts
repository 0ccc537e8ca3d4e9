// Panel 4, the article's own check (claim C4): q, k ~ randn(1, 8, 128, 512), the mean row
// entropy for no scaling, ÷√d_k and ÷d_k beside ln 128, with the seed shown and re-rollable.
import { articleFigures } from '../requests/key-figures.ts';
import type { KeyFigure } from '../requests/key-figures.ts';
import type { SaturationSweepResult } from '../../../wasm/js/core.js';
import { ChartBox } from '../charts/chartbox.ts';
import { buildArticle } from '../charts/article.ts';
import { ARTICLE_SCALES } from '../requests/results.ts';
import type { ArticleResult } from '../charts/article.ts';
import { seedInput } from '../controls.ts';
import type { State, StateKey } from '../state/state.ts';
import { fmt } from '../format.ts';
import { CLAIMED, CLAIMS, near } from '../claims.ts';
import { h, setText } from '../dom.ts';
import { shell, claimBox, track, scrollTable, showFigures } from './kit.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { articleParams, ARTICLE_SHAPE } from '../requests/attention.ts';

export { ARTICLE_SHAPE };

export function articlePanel({ t, store, compute, charts }: PanelCtx): PanelView {
  const s = shell('article', 4, t('art.title'), t('art.lede'), ['article'], t, charts);
  const seed = seedInput(store, 'article', 'aseed', t('art.seedIs'), t('common.reroll'));
  s.controls.append(seed.el);
  const chart = new ChartBox(charts, 'article-entropy', '', t, { height: 280 });
  const table = h('table', { class: 'table' });
  const thead = h('thead', {}, h('tr', {}, ...(['art.th.scale', 'art.th.entropy', 'art.th.maxw', 'art.th.share'] as const).map((k) => h('th', { text: t(k) }))));
  const cells = ARTICLE_SCALES.map((sc) => {
    const tds = [h('td', { text: t(`scale.${sc}`) }), h('td', { 'data-readout': `art-entropy-${sc}`, text: '–' }), h('td', { 'data-readout': `art-maxw-${sc}`, text: '–' }), h('td', { 'data-readout': `art-share-${sc}`, text: '–' })];
    return tds;
  });
  table.append(thead, h('tbody', {}, ...cells.map((tds) => h('tr', {}, ...tds))));
  s.charts.append(h('div', { class: 'chart-pair' }, chart.el, scrollTable(table, t('art.title'), { 'data-part': 'charts' })));
  s.readouts.remove();
  const c4 = claimBox(s.claims, 'C4', t('art.claim'), t);

  let results: ArticleResult[] | null = null;
  let sweep: SaturationSweepResult | null = null;
  let key = '';
  let figures: KeyFigure[] = [];
  let state = store.state;

  // false while the chart shows a first estimate from one head of eight (worker/plan.ts)
  let final = true;
  const draw = () => {
    if (!results) return;
    chart.setTitle(t('art.chart', { seed: state.aseed }));
    chart.set(buildArticle(results, t), !final);
    s.readouts.classList.toggle('refining', !final);
    if (!final) return;  // the table and the claim quote full results only
    figures = articleFigures(sweep!, t);
    showFigures(table, figures);
    const l = CLAIMS.C4.extract([sweep], state);  // the rule of web/src/claims.ts
    setText(s.text, t('art.agreeNone', { none: fmt(l.none) }));
    c4.set(t('art.live', { none: fmt(l.none), sqrt: fmt(l.sqrt), inv: fmt(l.inv), lnL: fmt(l.lnL) }),
      CLAIMS.C4.verdict(l),
      near(l.sqrt, CLAIMED.c4EntropySqrt, 0.02) ? '' : t('art.why', { pred: fmt(l.lnL - 0.5), inv: fmt(l.inv) }), l);
  };

  return {
    id: 'article',
    keyFigures: () => figures,
    el: s.el,
    update(next: State, changed: Set<StateKey> | null, source?: StateKey) {
      state = next;
      seed.sync(next);
      const base = articleParams(next);
      const k = JSON.stringify(base);
      if (k !== key) {
        key = k;
        const got = (isFinal: boolean) => (sw: SaturationSweepResult) => {
          if (k !== key) return;
          sweep = sw;
          results = sw.points.map((pts) => ({ summary: pts[0], logSeqLen: sw.logSeqLen }));
          final = isFinal;
          draw();
        };
        track(s.el, 'art', compute.get('live', 'saturationSweep', base, 'art', undefined, got(false)), source, t, got(true));
      } else if (changed === null || changed.has('lang')) draw();
    },
    destroy() { chart.destroy(); },
  };
}
