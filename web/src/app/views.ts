// The views' code: each view's chunk loaded once when it is first opened, with the parts of the page language's catalogue it needs (and the full core for a view beyond the first part).
import type { Panel } from '../state/state.ts';
import { loadCatalogue } from '../i18n/catalogue.ts';
import { FIRST_PART_VIEWS } from '../worker/cost.ts';
import type { AppState, Factory } from './state.ts';
import { waitForFull } from './core.ts';

/**
 * Each view's code, loaded when the view is first opened (its chunk, and the chunks it shares with
 * other views: Chart.js, the chart builders, the claims), so the first view does not wait for the
 * other twelve; the service worker precaches them all for offline use.
 */
const VIEW_CODE: Readonly<Record<Panel, () => Promise<Factory>>> = {
  interview: () => import('../panels/interview.ts').then((m) => m.interviewPanel),
  variance: () => import('../panels/variance.ts').then((m) => m.variancePanel),
  saturation: () => import('../panels/saturation.ts').then((m) => m.saturationPanel),
  gradient: () => import('../panels/gradient.ts').then((m) => m.gradientPanel),
  article: () => import('../panels/article.ts').then((m) => m.articlePanel),
  followups: () => import('../panels/followups.ts').then((m) => m.followupsPanel),
  precision: () => import('../panels/precision.ts').then((m) => m.precisionPanel),
  longctx: () => import('../panels/longctx.ts').then((m) => m.longctxPanel),
  gqa: () => import('../panels/gqa.ts').then((m) => m.gqaPanel),
  tensors: () => import('../panels/tensors.ts').then((m) => m.tensorsPanel),
  training: () => import('../panels/training.ts').then((m) => m.trainingPanel),
  device: () => import('../panels/device.ts').then((m) => m.devicePanel),
  mup: () => import('../panels/mup.ts').then((m) => m.mupPanel),
  wild: () => import('../panels/wild.ts').then((m) => m.wildPanel),
  sumone: () => import('../panels/sumone.ts').then((m) => m.sumonePanel),
};

/** The factory of a view, its code loaded once (a failed load is tried again the next time the view is opened). */
export function loadView(app: AppState, p: Panel): Promise<Factory> {
  const { viewCode } = app;
  let got = viewCode.get(p);
  if (!got) {
    got = VIEW_CODE[p]();
    viewCode.set(p, got);
    got.catch(() => { if (viewCode.get(p) === got) viewCode.delete(p); });
  }
  return got;
}

/** A view's code and the parts of the page language's catalogue it needs, both in (its factory). */
export function viewReady(app: AppState, p: Panel): Promise<Factory> {
  // a view beyond the core's first part sizes its requests with the full core's cost model
  const cost = app.startsWithFirstPart && !FIRST_PART_VIEWS.includes(p) ? waitForFull(app) : undefined;
  return Promise.all([loadView(app, p), loadCatalogue(app.store.state.lang, p), cost]).then(([factory]) => factory);
}
