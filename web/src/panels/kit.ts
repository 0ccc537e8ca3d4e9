// The panel kit: the frame every panel shares (title, lede, controls, charts, readouts, formula, "what
// this shows" text and claim checks; each part carries data-part so embed mode can hide parts).
import { h, setText } from '../dom.ts';
import type { T } from '../i18n/messages.ts';
import { translator } from '../i18n/catalogue.ts';
import type { Panel, State, StateKey } from '../state/state.ts';
import type { Store } from '../state/store.ts';
import type { Compute } from '../compute.ts';
import type { ChartPage } from '../charts/page.ts';
import type { Engine } from '../engine.ts';
import { CoreError } from '../compute.ts';
import { showError, clearErrors, controlVisible } from '../controls.ts';
import { slotOfMessage, refusalSlot } from './refusal.ts';
import type { Verdict } from '../claims.ts';
import type { KeyFigure } from '../requests/key-figures.ts';

export interface PanelCtx {
  t: T;
  store: Store;
  compute: Compute;
  /** the page's charts (draw queue, viewport observer): every ChartBox of the view is made with it */
  charts: ChartPage;
  /** the engine that computes (the core's info: kernel, version, build) */
  engine: Engine;
  /** starts a module worker of the build (worker/spawn.ts: from a blob: script where the origin is opaque), counted with the page's workers */
  spawnWorker: (url: string, name: string) => Worker;
  /** what the view keeps across its rebuilds (a language switch rebuilds it): made once per page by `make`, under the view's own `key` */
  keep: <V>(key: string, make: () => V) => V;
}
export interface PanelView {
  id: Panel;
  el: HTMLElement;
  update(state: State, changed: Set<StateKey> | null, source?: StateKey): void;
  destroy(): void;
  /**
   * The key figures the view shows now (requests/key-figures.ts, from its last full results), the
   * most telling first: the share-as-image poster draws the first three. Empty before a result.
   */
  keyFigures?(): KeyFigure[];
}

export interface Shell {
  el: HTMLElement;
  controls: HTMLElement;
  charts: HTMLElement;
  readouts: HTMLElement;
  text: HTMLElement;
  claims: HTMLElement;
  formula: HTMLElement;
}

export type FormulaKey = 'ivDerivation' | 'ivJacobian' | 'variance' | 'saturation' | 'gradient' | 'twoLogit' | 'article' | 'precision' | 'longctx' | 'gqa' | 'tensors' | 'training' | 'trainingOpt';
const FORMULA_MODULES = {
  en: () => import('virtual:formulas/en'),
  'zh-CN': () => import('virtual:formulas/zh-CN'),
} as const;

/** The longest the formulas wait for the first chart (a core that cannot load draws none). */
const FIRST_CHART_WAIT_MS = 4000;
/**
 * Resolves once the page has drawn a chart (a canvas with data-renders, charts/chartbox.ts), at
 * once for a panel without charts, or after FIRST_CHART_WAIT_MS: what only explains the chart
 * (the formulas and KaTeX's stylesheet) is fetched and laid out after it, not before. The page's
 * wait is one, kept by its charts (ChartPage.firstChart).
 */
function afterFirstChart(box: HTMLElement, page: ChartPage): Promise<void> {
  const drawn = () => document.querySelector('canvas[data-renders]') !== null;
  if (page.firstChart === null) {
    page.firstChart = new Promise((resolve) => {
      const done = () => { clearTimeout(timer); obs.disconnect(); resolve(); };
      const obs = new MutationObserver(() => { if (drawn()) done(); });
      const timer = setTimeout(done, FIRST_CHART_WAIT_MS);
      obs.observe(document.documentElement, { subtree: true, attributes: true, attributeFilter: ['data-renders'] });
    });
  }
  // the panel's charts are appended after its shell is built: look once it is
  return new Promise((resolve) => setTimeout(() => {
    const panel = box.closest('[data-panel]') ?? box;
    if (drawn() || panel.querySelector('[data-chart-box]') === null) resolve(); else void page.firstChart!.then(resolve);
  }, 0));
}

/**
 * Fills a formula block with the build-time KaTeX HTML of web/src/formulas.js (trusted, no URL
 * input), loaded per language after the page's first chart (afterFirstChart), so that no formula
 * delays it. Each formula comes in pieces that wrap on a phone.
 */
export function fillFormulas(box: HTMLElement, keys: FormulaKey[], lang: 'en' | 'zh-CN', page: ChartPage): void {
  box.setAttribute('aria-busy', 'true');
  void afterFirstChart(box, page).then(() => FORMULA_MODULES[lang]()).then(({ default: html }) => {
    box.replaceChildren(...keys.map((k) => {
      const div = h('div', { class: 'katex-block' });
      div.innerHTML = html[k];
      return div;
    }));
    box.removeAttribute('aria-busy');
  }, () => {
    box.removeAttribute('aria-busy');
    box.replaceChildren(staleNotice());
    // offline (a first visit, before the precache): tried again once the browser is back online
    window.addEventListener('online', () => { if (box.isConnected) fillFormulas(box, keys, lang, page); }, { once: true });
  });
}

/**
 * What a part of the page that could not be loaded shows: a chunk of this version is gone from
 * the site (a new version was deployed) and from the caches — the reload, not a broken piece.
 */
export function staleNotice(): HTMLElement {
  const lang = document.documentElement.lang === 'zh-CN' ? 'zh-CN' : 'en';
  const t = translator(lang);
  const reload = h('button', { type: 'button', class: 'button', 'data-action': 'stale-reload', text: t('notice.unavailable.reload') });
  reload.addEventListener('click', () => location.reload());
  return h('div', { class: 'notice', role: 'status', 'data-notice': 'stale' }, h('p', { text: t('notice.stale') }), reload);
}

export function shell(id: Panel, num: number, title: string, lede: string, formulaKeys: FormulaKey[], t: T, chartPage: ChartPage): Shell {
  const controls = h('div', { class: 'controls', 'data-part': 'controls' });
  const charts = h('div', { class: 'charts', 'data-part': 'charts' });
  const readouts = h('dl', { class: 'readouts', 'data-part': 'charts' });
  const text = h('p', { class: 'explain' });
  const claims = h('div', { class: 'claims' });
  const formula = h('div', { class: 'formula', 'data-part': 'formula' });
  if (formulaKeys.length > 0) fillFormulas(formula, formulaKeys, document.documentElement.lang === 'zh-CN' ? 'zh-CN' : 'en', chartPage);
  const el = h('section', { class: 'panel', id: `panel-${id}`, 'data-panel': id },
    h('header', { class: 'panel-head' },
      h('span', { class: 'panel-num', text: String(num) }),
      h('div', {}, h('h2', { text: title }), h('p', { class: 'lede', text: lede }))),
    controls,
    h('span', { class: 'err panel-err', 'data-err-for': 'panel', role: 'alert' }),
    charts,
    readouts,
    formula,
    h('div', { class: 'text', 'data-part': 'text' },
      h('h3', { text: t('common.whatThisShows') }), text, claims),
  );
  return { el, controls, charts, readouts, text, claims, formula };
}

/** Writes key figures into the readouts under `root` by id (a figure with no readout there is skipped). */
export function showFigures(root: HTMLElement, figs: readonly KeyFigure[]): void {
  for (const f of figs) {
    const el = root.querySelector<HTMLElement>(`[data-readout="${CSS.escape(f.id)}"]`);
    if (el) setText(el, f.value);
  }
}

/** A readout: <dt>label</dt><dd data-readout=id>value</dd>. */
export function readout(dl: HTMLElement, id: string, label: string, wide = false): HTMLElement {
  const dd = h('dd', { 'data-readout': id, text: '–' });
  dl.append(h('div', { class: wide ? 'ro wide' : 'ro' }, h('dt', { text: label }), dd));
  return dd;
}

/**
 * A claim box: the article's words, the live numbers, and a verdict — agree, partly or disagree, by
 * the rule of web/src/claims.ts (true/false read as agree/disagree; null = not decided). `values`,
 * the live numbers the verdict was decided from, go in data-values (the claim checker shows the same).
 */
export interface ClaimBox { el: HTMLElement; set(live: string, verdict: Verdict | boolean | null, extra?: string, values?: Record<string, number>): void }
export function claimBox(parent: HTMLElement, id: string, claim: string, t: T): ClaimBox {
  const live = h('p', { class: 'live' });
  const verdictEl = h('p', { class: 'verdict' });
  const extraEl = h('p', { class: 'why' });
  const el = h('div', { class: 'claim', 'data-claim': id },
    h('p', { class: 'quote' }, h('strong', { text: `${t('common.claim')} · ` }), claim),
    live, verdictEl, extraEl);
  parent.append(el);
  return {
    el,
    set(text, verdict, extra, values) {
      const v: Verdict | null = verdict === true ? 'agree' : verdict === false ? 'disagree' : verdict;
      setText(live, text);
      el.dataset.verdict = v ?? '';
      if (values) el.dataset.values = JSON.stringify(values); else delete el.dataset.values;
      setText(verdictEl, v === null ? '' : t(v === 'partly' ? 'chk.box.partly' : `common.verdict.${v}`));
      setText(extraEl, extra ?? '');
    },
  };
}

// The latest request of each owner, per panel root: only its outcome may show or clear a refusal.
// The panel root keeps them (owner → the generation of its latest request).
type TrackedRoot = HTMLElement & { sqrtdkLatest?: Map<string, number> };
function bump(root: HTMLElement, owner: string): number {
  const m = ((root as TrackedRoot).sqrtdkLatest ??= new Map());
  const gen = (m.get(owner) ?? 0) + 1;
  m.set(owner, gen);
  return gen;
}
const isLatest = (root: HTMLElement, owner: string, gen: number) => (root as TrackedRoot).sqrtdkLatest?.get(owner) === gen;

/** The slot where request `owner`'s refusal stands now, if any. */
function slotOf(root: HTMLElement, owner: string): string | undefined {
  for (const el of root.querySelectorAll<HTMLElement>('[data-err-for]')) if (el.dataset.errOwner === owner && el.textContent !== '') return el.dataset.errFor;
  return undefined;
}

/**
 * Runs request `owner` (e.g. 'sat:point') of a panel: ignores superseded ones, shows a refusal
 * beside the control of the parameter it names (refusal.ts; the last good chart stays), and on
 * success clears only the errors this same request left, so a refusal of one request survives
 * the success of another. Only the owner's latest request counts: an older one that fails or
 * succeeds late (a cached state answered first) neither shows nor clears anything.
 */
export function track<R>(root: HTMLElement, owner: string, p: Promise<R>, source: StateKey | undefined, t: T, onOk: (r: R) => void): void {
  const gen = bump(root, owner);
  busy(root, p.then((r) => {
    if (isLatest(root, owner, gen)) clearErrors(root, owner);
    onOk(r);
  }, (e: unknown) => {
    if (e instanceof CoreError && e.kind === 'superseded') return;
    if (!isLatest(root, owner, gen)) return;
    const msg = e instanceof Error ? e.message : String(e);
    const panel = (root.dataset.panel ?? '') as Panel;
    // a crash, a timeout or a core that could not load is not a refusal of the reader's values:
    // said as what it is, in the page's language, beside the panel (no parameter is to blame)
    const failed = workerFailure(e, t);
    if (failed !== null) { showError(root, 'panel', failed, owner); return; }
    showError(root, slotOfMessage(panel, msg, source, (k) => controlVisible(root, k), slotOf(root, owner)), t('common.refused', { message: msg }), owner);
  }));
}

/**
 * A panel's request that is made again only when its key (the params as a string) changes, and
 * computed progressively: `got` receives the first estimate (final = false), then the full result
 * (final = true), never an answer to a key asked before the latest. Errors go through track()
 * (beside the control named, under the owner). The saturation sweeps and the attention points of
 * the saturation, gradient and μP panels.
 */
export class KeyedRequest<R> {
  private key = '';
  constructor(private readonly root: HTMLElement, private readonly owner: string, private readonly t: T) {}
  /**
   * Asks `request(onStep)` (a Compute.get with onStep) unless `key` is the key asked last; returns
   * whether it asked. `got(result, final)` draws.
   */
  ask(key: string, request: (onStep: (r: R) => void) => Promise<R>, source: StateKey | undefined, got: (r: R, final: boolean) => void): boolean {
    if (key === this.key) return false;
    this.key = key;
    const answer = (final: boolean) => (r: R) => { if (key === this.key) got(r, final); };
    track(this.root, this.owner, request(answer(false)), source, this.t, answer(true));
    return true;
  }
  /** The next ask() asks even for the last key (after a refusal shown instead, its success must clear it). */
  forget(): void { this.key = ''; }
}

/**
 * What the reader is told of a request that failed without the core refusing it — a crash, a
 * timeout, a core that could not be loaded — in the page's language; null for a refusal (and a
 * superseded request), whose message names the parameter.
 */
export function workerFailure(e: unknown, t: T): string | null {
  if (!(e instanceof CoreError) || e.kind === 'core' || e.kind === 'superseded') return null;
  return t(`common.failed.${e.kind}`);
}

/**
 * Counts work of a panel in flight (its requests, an example file being fetched) in the panel's
 * data-pending attribute, decremented once the work and what it draws are done: "0" means the
 * panel shows the outcome of its current state (the browser tests wait on it).
 */
export function busy(root: HTMLElement, p: Promise<unknown>): void {
  root.dataset.pending = String(Number(root.dataset.pending ?? 0) + 1);
  const done = () => { root.dataset.pending = String(Math.max(0, Number(root.dataset.pending) - 1)); };
  p.then(done, (e: unknown) => { done(); throw e; });  // a failure of the drawing still reaches the console
}

/**
 * A refusal the page makes itself before asking the core (a cost over the page's budget), as
 * request `owner`: shown beside the control of one of the parameters that drive it (`named`,
 * core parameter names; the one the reader moved if it is among them), and cleared by the next
 * success of the same owner. It supersedes the owner's request in flight.
 */
export function refuse(root: HTMLElement, owner: string, named: readonly string[], source: StateKey | undefined, message: string): void {
  bump(root, owner);
  const panel = (root.dataset.panel ?? '') as Panel;
  showError(root, refusalSlot(panel, named, source, (k) => controlVisible(root, k), slotOf(root, owner)), message, owner);
}

/** Request `owner` is no longer needed in this state: whatever refusal it left is gone. */
export function settle(root: HTMLElement, owner: string): void {
  bump(root, owner);
  clearErrors(root, owner);
}

/**
 * A table in a labelled, focusable scroll box (role=region): on a narrow screen it scrolls
 * sideways inside the box, with the first column sticky and a shadow that shows there is more.
 */
export function scrollTable(table: HTMLElement, label: string, attrs: Record<string, string> = {}): HTMLElement {
  return h('div', { class: 'table-wrap', role: 'region', 'aria-label': label, tabIndex: 0, ...attrs }, table);
}
