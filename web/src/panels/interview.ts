// The interview view (issue 10), the landing view of a link without exp: the answer to “why divide
// by √d_k?” at three depths, the follow-ups, the wrong answers that sound right, the drill and the
// claim checker (mounted from web/src/interview/), and the take-away (copy as Markdown, print).
// Every number is one field of a core request made when the view opens (web/src/interview/live.ts),
// shown as <span data-live=id data-value=raw>; its "show me" link opens the panel that proves it
// with the state of that same request.
import trainingWorkerUrl from '../training/worker.ts?worker&url';
import './interview.css';
import { copyText } from '../copy.ts';
import { h, setText } from '../dom.ts';
import type { State, StateKey, Panel } from '../state/state.ts';
import { defaultState, shareHash } from '../state/state.ts';
import { pageContext, shareUrl, siteRoot } from '../share/url.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { fillFormulas, workerFailure } from './kit.ts';
import { seedInput } from '../controls.ts';
import { fmt, pct } from '../format.ts';
import type { MessageKey, T } from '../i18n/messages.ts';
import { panelTitle } from '../i18n/titles.ts';
import { CoreError } from '../compute.ts';
import { mountDrill } from './drill.ts';
import { mountClaimChecker } from './checker.ts';
import { liveRequests, liveNumbers, linkState, shortHash, trainingRequest, LINKS, NUMBERS, READOUTS } from '../interview/live.ts';
import { TrainingController, TrainingWorkerError } from '../training/controller.ts';
import { CoreBack } from './core-back.ts';
import type { WorkerLike } from '../worker/protocol.ts';
import type { LinkId, NumberId, LiveRequest } from '../interview/live.ts';
import type { SaturationSweepResult } from '../../../wasm/js/core.js';
import { ChartBox } from '../charts/chartbox.ts';
import { buildSaturationLine } from '../charts/saturation.ts';
import { ALL_SCALES, ARTICLE_SCALES } from '../requests/results.ts';
import { sweepParams, logitRuleParams } from '../requests/attention.ts';

/** Numbers shown as a share (per cent); the rest with fmt(). */
const SHARES: ReadonlySet<string> = new Set(['precBad32None']);
/** Numbers that need more digits than fmt's 4 to be told from 1 (p₁ of [10, 0] is 0.99995), or the 3 of the split-KV panel's readouts. */
const DIGITS: Partial<Record<string, number>> = { p10: 6, mlaScale: 6, mlaInv: 6, lmDiff: 3, lmLse: 3, lmBase2: 3, lmEmpty: 3 };
export function formatLive(id: NumberId, x: number): string {
  return SHARES.has(id) ? pct(x) : fmt(x, DIGITS[id] ?? 4);
}

/** The view's key figures (its poster's numbers): three numbers of the 30-second answer, with their labels. */
const KEY_FIGURES: readonly (readonly [NumberId, 'share.iv.std512' | 'share.iv.entNone512' | 'share.iv.entSqrt512'])[] = [
  ['std512', 'share.iv.std512'], ['entNone512', 'share.iv.entNone512'], ['entSqrt512', 'share.iv.entSqrt512'],
];

/** One item of the view: a message (or one of two, picked by the numbers) and the link that proves it. */
interface Item {
  id: string; text: (n: Record<NumberId, number>) => MessageKey; link: LinkId; q?: MessageKey;
  /** on screen only: left out of the two-page printed cheat sheet */
  screenOnly?: boolean;
  /** the shorter text the printed cheat sheet shows instead (the same live numbers) */
  print?: MessageKey;
}
const fixed = (k: MessageKey) => () => k;

export const POINTS_30S: Item[] = [
  { id: 'p1', text: fixed('iv.a30.p1'), link: 'var512' },
  { id: 'p2', text: fixed('iv.a30.p2'), link: 'satNone512' },
  { id: 'p3', text: (n) => (n.gqMeanNone512 > n.gqMeanSqrt512 ? 'iv.a30.p3.larger' : 'iv.a30.p3.smaller'), link: 'gradqNone512' },
  { id: 'p4', text: fixed('iv.a30.p4'), link: 'var512' },
];
export const TWO_MINUTES: Item[] = [
  { id: 'whySqrt', text: fixed('iv.a2.whySqrt'), link: 'satInv512' },
  { id: 'whyHead', text: fixed('iv.a2.whyHead'), link: 'satModel64' },
  { id: 'breaks', text: fixed('iv.a2.breaks'), link: 'trainSmall' },
];
export const DEEP: Panel[] = ['variance', 'saturation', 'gradient', 'article', 'followups', 'precision', 'longctx', 'gqa', 'tensors', 'training'];
export const FOLLOWUPS: Item[] = [
  { id: 'dk1024', q: 'iv.fu.dk1024.q', text: fixed('iv.fu.dk1024.a'), link: 'var1024' },
  { id: 'invdk', q: 'iv.fu.invdk.q', text: fixed('iv.fu.invdk.a'), link: 'satInv512' },
  { id: 'dmodel', q: 'iv.fu.dmodel.q', text: fixed('iv.fu.dmodel.a'), link: 'satModel64' },
  { id: 'gqa', q: 'iv.fu.gqa.q', text: fixed('iv.fu.gqa.a'), link: 'gqa' },
  { id: 'overflow', q: 'iv.fu.overflow.q', text: fixed('iv.fu.overflow.a'), link: 'precNone' },
  { id: 'sigma', q: 'iv.fu.sigma.q', text: fixed('iv.fu.sigma.a'), print: 'iv.fu.sigma.p', link: 'var64' },
  { id: 'causal', q: 'iv.fu.causal.q', text: fixed('iv.fu.causal.a'), print: 'iv.fu.causal.p', link: 'satCausal64' },
  { id: 'long', q: 'iv.fu.long.q', text: fixed('iv.fu.long.a'), print: 'iv.fu.long.p', link: 'longctx' },
  { id: 'alt', q: 'iv.fu.alt.q', text: fixed('iv.fu.alt.a'), print: 'iv.fu.alt.p', link: 'training' },
  { id: 'softcap', q: 'iv.fu.softcap.q', text: fixed('iv.fu.softcap.a'), print: 'iv.fu.softcap.p', link: 'satCap512' },
  { id: 'init', q: 'iv.fu.init.q', text: fixed('iv.fu.init.a'), print: 'iv.fu.init.p', link: 'trainSmall' },
  { id: 'tail', q: 'iv.fu.tail.q', text: fixed('iv.fu.tail.a'), print: 'iv.fu.tail.p', link: 'gradqNone512' },
  { id: 'when', q: 'iv.fu.when.q', text: fixed('iv.fu.when.a'), link: 'jac10' },
  { id: 'cbrt', q: 'iv.fu.cbrt.q', text: fixed('iv.fu.cbrt.a'), print: 'iv.fu.cbrt.p', link: 'mupCbrt' },
  { id: 'wqwk', q: 'iv.fu.wqwk.q', text: fixed('iv.fu.wqwk.a'), print: 'iv.fu.wqwk.p', link: 'mupSelf' },
  { id: 'mup', q: 'iv.fu.mup.q', text: fixed('iv.fu.mup.a'), print: 'iv.fu.mup.p', link: 'mup02' },
  { id: 't5', q: 'iv.fu.t5.q', text: fixed('iv.fu.t5.a'), print: 'iv.fu.t5.p', link: 'wild' },
  { id: 'sink', q: 'iv.fu.sink.q', text: fixed('iv.fu.sink.a'), print: 'iv.fu.sink.p', link: 'satSink64' },
  { id: 'mla', q: 'iv.fu.mla.q', text: fixed('iv.fu.mla.a'), print: 'iv.fu.mla.p', link: 'wild' },
  { id: 'sumone', q: 'iv.fu.sumone.q', text: fixed('iv.fu.sumone.a'), print: 'iv.fu.sumone.p', link: 'sumone' },
  // 2026 attention (issue 27): short on paper, like the answers above with a printed version, so the sheet stays at two A4 pages
  { id: 'qkclip', q: 'iv.fu.qkclip.q', text: fixed('iv.fu.qkclip.a'), print: 'iv.fu.qkclip.p', link: 'sumone' },
  { id: 'lse', q: 'iv.fu.lse.q', text: fixed('iv.fu.lse.a'), print: 'iv.fu.lse.p', link: 'longctx' },
  { id: 'alibi', q: 'iv.fu.alibi.q', text: fixed('iv.fu.alibi.a'), print: 'iv.fu.alibi.p', link: 'longAlibi' },
];
export const WRONG: Item[] = [
  { id: 'overflow', q: 'iv.w.overflow.claim', text: fixed('iv.w.overflow.a'), print: 'iv.w.overflow.p', link: 'precNone' },
  { id: 'invdk', q: 'iv.w.invdk.claim', text: fixed('iv.w.invdk.a'), link: 'satInv512' },
  { id: 'unit', q: 'iv.w.unit.claim', text: fixed('iv.w.unit.a'), link: 'satSqrt512' },
  { id: 'dmodel', q: 'iv.w.dmodel.claim', text: fixed('iv.w.dmodel.a'), link: 'satModel64' },
  { id: 'trained', q: 'iv.w.trained.claim', text: fixed('iv.w.trained.a'), print: 'iv.w.trained.p', link: 'trainSmall' },
  { id: 'lnL', q: 'iv.w.lnL.claim', text: fixed('iv.w.lnL.a'), print: 'iv.w.lnL.p', link: 'article' },
  { id: 'mupalways', q: 'iv.w.mupalways.claim', text: fixed('iv.w.mupalways.a'), print: 'iv.w.mupalways.p', link: 'mupCbrt' },
  { id: 'heads', q: 'iv.w.heads.claim', text: fixed('iv.w.heads.a'), print: 'iv.w.heads.p', link: 'satModel64' },
  { id: 'sumone', q: 'iv.w.sumone.claim', text: fixed('iv.w.sumone.a'), print: 'iv.w.sumone.p', link: 'sumone' },
  { id: 'qkcap', q: 'iv.w.qkcap.claim', text: fixed('iv.w.qkcap.a'), print: 'iv.w.qkcap.p', link: 'sumone' },
  { id: 'alibiscale', q: 'iv.w.alibiscale.claim', text: fixed('iv.w.alibiscale.a'), print: 'iv.w.alibiscale.p', link: 'longAlibi' },
  { id: 'grad', q: 'iv.w.grad.claim', text: (n) => (n.gqMeanNone512 > n.gqMeanSqrt512 ? 'iv.w.grad.a.larger' : 'iv.w.grad.a.smaller'), link: 'gradqNone512' },
];

/** Values computed from the parameters alone (not measurements): shown as plain numbers. */
const CALC: Record<string, string> = { sqrt512: fmt(Math.sqrt(512)) };

/** The pieces of a message: text, and placeholders of live numbers. */
export function pieces(template: string): ({ text: string } | { id: string })[] {
  const out: ({ text: string } | { id: string })[] = [];
  let last = 0;
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    if (m.index! > last) out.push({ text: template.slice(last, m.index) });
    out.push({ id: m[1] });
    last = m.index! + m[0].length;
  }
  if (last < template.length) out.push({ text: template.slice(last) });
  return out;
}

/** A message as Markdown-ready plain text with its live numbers (… where one is missing). */
export function plainText(t: T, key: MessageKey, n: Record<NumberId, number>): string {
  // without the word joiners (U+2060) that keep a formula on one line on the page: copied, they hide inside words
  return pieces(t(key)).map((p) => ('text' in p ? p.text : p.id in CALC ? CALC[p.id] : Number.isFinite(n[p.id as NumberId]) ? formatLive(p.id as NumberId, n[p.id as NumberId]) : '…')).join('').replace(/\u2060/g, '');
}

/**
 * The view's training run, kept across re-renders (a language switch rebuilds the view): the
 * training lab's worker and controller, one small run per config key. A run whose worker could not
 * load its core (`loadFailed`) is not kept as the key's answer: the next ask runs it again.
 */
interface InterviewTraining { controller: TrainingController | null; key: string; result: unknown; error: string; loadFailed: boolean; waiters: (() => void)[] }
const newTraining = (): InterviewTraining => ({ controller: null, key: '', result: null, error: '', loadFailed: false, waiters: [] });
function trainOnce(training: InterviewTraining, spawnWorker: PanelCtx['spawnWorker'], key: string, configs: Parameters<TrainingController['start']>[0]): Promise<void> {
  if (training.key === key && (training.result || (training.error && !training.loadFailed))) return Promise.resolve();
  const p = new Promise<void>((resolve) => training.waiters.push(resolve));
  if (training.key === key && !training.loadFailed) return p;
  training.key = key;
  training.result = null;
  training.error = '';
  training.loadFailed = false;
  training.controller ??= new TrainingController({
    createWorker: () => spawnWorker(trainingWorkerUrl, 'sqrtdk-training') as unknown as WorkerLike,
    chunkMs: 200,
  });
  const settle = () => { const ws = training.waiters; training.waiters = []; for (const w of ws) w(); };
  void training.controller.start(configs, {
    progress() {},
    done(runs) { if (training.key === key) { training.result = { analysis: runs[0].analysis, evaluation: runs[0].evaluation }; settle(); } },
    error(message, _runs, cause) {
      if (training.key !== key) return;
      training.error = message;
      training.loadFailed = cause instanceof TrainingWorkerError && cause.kind === 'load';
      settle();
    },
  });
  return p;
}

export function interviewPanel(ctx: PanelCtx): PanelView {
  const { t, store, compute, charts } = ctx;
  // the view's training run outlives its rebuilds (a language switch): kept by the app
  const training = ctx.keep('interview.training', newTraining);
  // its worker could not load the core: the run is asked again when the core may be back
  const trainBack: { again: () => void; back: CoreBack } = { again: () => {}, back: new CoreBack(ctx.engine, () => trainBack.again()) };
  let state = store.state;
  let nums = liveNumbers({});
  const results: Record<string, unknown> = {};
  let reqKey = '';
  /** the lazy requests of the current key (LiveRequest.lazy) and their answers, once asked */
  let lazyReqs: LiveRequest[] = [];
  let lazyAsked: Promise<void> | null = null;

  const seed = seedInput(store, 'interview', 'iseed', t('iv.seed'), t('common.reroll'));
  const seedNote = h('p', { class: 'iv-seed-note', 'data-part': 'text' });
  const printBase = h('p', { class: 'iv-print-base', 'aria-hidden': 'true' });
  const fallback = h('textarea', { class: 'copy-fallback', readOnly: true, rows: 6, hidden: true, 'aria-label': t('app.copyFallback') }) as HTMLTextAreaElement;
  const copyBtn = h('button', { type: 'button', class: 'button', 'data-action': 'copy-answer', text: t('iv.copy') }) as HTMLButtonElement;
  // the sheet prints once the lazy requests' numbers are in (asked now if not yet: askLazy)
  const print = () => { void askLazy().then(() => window.print()); };
  const printBtn = h('button', { type: 'button', class: 'button ghost', 'data-action': 'print', text: t('iv.print'), onclick: print });
  copyBtn.addEventListener('click', () => { void copyAnswer(); });

  /** Every block whose text holds numbers: rebuilt when numbers arrive. */
  const blocks: { el: HTMLElement; item: Item }[] = [];
  const links: { a: HTMLAnchorElement; id: LinkId }[] = [];
  const deepLinks: { a: HTMLAnchorElement; p: Panel }[] = [];

  const showMe = (id: LinkId): HTMLAnchorElement => {
    const target = LINKS[id].exp as Panel;
    const a = h('a', { class: 'show-me', 'data-show': id, 'data-target': target, 'aria-label': t('iv.showMeOf', { panel: panelTitle(t, target) }), text: t('iv.showMe') }) as HTMLAnchorElement;
    links.push({ a, id });
    return a;
  };
  const textBlock = (item: Item, tag: 'p' | 'span' = 'p', cls = ''): HTMLElement => {
    const el = h(tag, { class: cls ? `iv-text ${cls}` : 'iv-text' });
    blocks.push({ el, item });
    return el;
  };
  const entry = (item: Item, kind: string): HTMLElement => h('li', { class: item.screenOnly ? 'iv-item iv-screen-only' : 'iv-item', 'data-item': `${kind}-${item.id}` },
    item.q ? h('p', { class: 'iv-q', text: t(item.q) }) : null,
    // an item with a shorter printed text: the full one on screen, the short one on paper
    ...(item.print
      ? [textBlock(item, 'p', 'iv-screen-only'), textBlock({ ...item, text: fixed(item.print) }, 'p', 'iv-print-only')]
      : [textBlock(item)]),
    h('p', { class: 'iv-link' }, showMe(item.link)));

  // 1. the answer
  const derive = h('div', { class: 'formula iv-formula', 'data-formula': 'ivDerivation' });
  fillFormulas(derive, ['ivDerivation'], state.lang, charts);
  const jac = h('div', { class: 'formula iv-formula', 'data-formula': 'ivJacobian' });
  fillFormulas(jac, ['ivJacobian'], state.lang, charts);
  const deriveLive: Item = { id: 'live', text: fixed('iv.a2.live'), link: 'var512' };
  // the 30-second answer is open; the 2-minute answer and the deep dive are sections one opens
  // (all open on paper: interview.css and the beforeprint handler below)
  const more = (section: string, title: MessageKey, ...body: (HTMLElement | null)[]): HTMLElement => h('details', { class: 'iv-more', 'data-more': section },
    h('summary', {}, h('h4', { text: t(title) })), ...body);
  const answer = h('section', { class: 'iv-section', 'data-section': 'answer', 'data-part': 'text', 'aria-labelledby': 'iv-h-answer' },
    h('h3', { id: 'iv-h-answer', class: 'sr-only', text: t('iv.a.title') }),
    h('h4', { class: 'iv-a30-title', text: t('iv.a30.title') }),
    h('ol', { class: 'iv-list iv-30s', 'data-depth': '30s' }, ...POINTS_30S.map((p) => entry(p, '30s'))),
    more('2min', 'iv.a2.title', h('div', { class: 'iv-2min', 'data-depth': '2min' },
      h('p', { class: 'iv-text', text: t('iv.a2.derive') }),
      derive,
      h('p', { class: 'iv-assume', text: t('iv.formula.assume') }),
      h('p', {}, textBlock(deriveLive, 'span'), ' ', showMe('var512')),
      ...TWO_MINUTES.map((p) => h('div', { class: 'iv-item', 'data-item': `2min-${p.id}` }, textBlock(p), h('p', { class: 'iv-link' }, showMe(p.link)))))),
    more('deep', 'iv.deep.title', h('ol', { class: 'iv-list iv-deep', 'data-depth': 'deep' }, ...DEEP.map((p) => {
      const a = h('a', { 'data-deep': p, text: panelTitle(t, p) }) as HTMLAnchorElement;
      deepLinks.push({ a, p });
      return h('li', {}, a, ' — ', t(`iv.deep.${p}` as MessageKey));
    }))));

  // the landing's picture: mean entropy against d_k for no scale, 1/√d_k and 1/d_k under the ln L
  // ceiling — the saturation lab's chart and request (the same cache entry as that lab at this seed)
  const landing = new ChartBox(charts, 'interview-entropy', t('iv.chart.title'), t, { height: 250 });
  landing.el.classList.add('iv-landing');
  landing.setNote('');
  const landingLink = h('p', { class: 'iv-link iv-landing-link' }, showMe('satSqrt512'));
  landing.el.append(landingLink);
  let landingKey = '';

  // 2. follow-ups, 3. wrong answers
  const followups = h('details', { class: 'iv-section iv-more', 'data-section': 'followups', 'data-more': 'followups', 'data-part': 'text' },
    h('summary', {}, h('h3', { id: 'iv-h-fu', text: t('iv.fu.title') })),
    h('div', { class: 'iv-formula-side' }, jac),
    h('ol', { class: 'iv-list iv-cols' }, ...FOLLOWUPS.map((f) => entry(f, 'fu'))));
  const wrong = h('details', { class: 'iv-section iv-more', 'data-section': 'wrong', 'data-more': 'wrong', 'data-part': 'text' },
    h('summary', {}, h('h3', { id: 'iv-h-w', text: t('iv.w.title') })),
    h('ol', { class: 'iv-list iv-cols' }, ...WRONG.map((w) => entry(w, 'w'))));

  // 4. drill, 5. claim checker (mounted modules), 6. take it away
  const drillHost = h('section', { class: 'iv-section', 'data-slot': 'drill', 'data-part': 'text' });
  const claimsHost = h('section', { class: 'iv-section', 'data-slot': 'claims', 'data-part': 'text' });
  const take = h('section', { class: 'iv-section', 'data-section': 'take', 'data-part': 'text', 'aria-labelledby': 'iv-h-take' },
    h('h3', { id: 'iv-h-take', text: t('iv.take.title') }),
    h('p', { text: t('iv.take.text') }),
    h('div', { class: 'iv-actions' }, copyBtn, printBtn), fallback);

  const el = h('section', { class: 'panel interview', id: 'panel-interview', 'data-panel': 'interview' },
    h('header', { class: 'panel-head' },
      h('div', {}, h('h2', { text: t('iv.title') }), h('p', { class: 'lede', text: t('iv.lede') }))),
    h('span', { class: 'err panel-err', 'data-err-for': 'panel', role: 'alert' }),
    printBase,
    h('div', { class: 'charts iv-landing-row', 'data-part': 'charts' }, landing.el),
    answer,
    h('div', { class: 'controls iv-controls', 'data-part': 'controls' }, seed.el, h('div', { class: 'iv-actions' }, copyBtn.cloneNode(true), printBtn.cloneNode(true))),
    seedNote,
    followups, wrong, drillHost, claimsHost, take);
  // paper shows every section open (Chromium's print CSS opens them too: interview.css); the
  // reader's own choice comes back after printing
  const opened = new Map<HTMLDetailsElement, boolean>();
  const beforePrint = () => { void askLazy(); for (const d of el.querySelectorAll<HTMLDetailsElement>('details.iv-more')) { opened.set(d, d.open); d.open = true; } };
  // the sections that hold the lazy requests' numbers ask them when opened (if the load's numbers have not yet)
  for (const d of [followups, wrong]) d.addEventListener('toggle', () => { if ((d as HTMLDetailsElement).open) void askLazy(); });
  const afterPrint = () => { for (const [d, o] of opened) d.open = o; opened.clear(); };
  window.addEventListener('beforeprint', beforePrint);
  window.addEventListener('afterprint', afterPrint);
  // the copies in the top bar act like the originals
  const [topCopy, topPrint] = el.querySelectorAll<HTMLButtonElement>('.iv-controls .iv-actions button');
  topCopy.addEventListener('click', () => { void copyAnswer(topCopy); });
  topPrint.addEventListener('click', print);

  const slots = [mountDrill(drillHost, ctx), mountClaimChecker(claimsHost, ctx)];

  /** A link to copy: the share page of the state's view and language (its card in a chat app) with the short hash, core version included (cv). */
  const copyUrl = (s: State) => shareUrl(s, siteRoot(location.href, pageContext(document.documentElement)), shareHash(s));
  /** A printed link: the hash without the version (the page reads a link without v as the current version); the base is printed once. */
  const shortUrl = (hash: string) => hash.replace(/^#v=\d+&/, '#');

  function renderNumbers(): void {
    for (const { el: box, item } of blocks) {
      const key = item.text(nums);
      box.dataset.msg = key;
      box.replaceChildren(...pieces(t(key)).map((p) => {
        if ('text' in p) return p.text;
        if (p.id in CALC) return h('span', { class: 'calc', text: CALC[p.id] });
        const id = p.id as NumberId;
        const x = nums[id];
        return Number.isFinite(x)
          ? h('span', { class: 'live', 'data-live': id, 'data-value': String(x), text: formatLive(id, x) })
          : h('span', { class: 'live pending', 'data-live': id, 'aria-label': t('iv.pending'), text: '…' });
      }));
    }
    const ids = Object.keys(nums) as NumberId[];
    const lazy = new Set(lazyReqs.map((r) => r.id));
    const done = ids.every((k) => Number.isFinite(nums[k]));
    // the load's numbers: every one but the lazy requests' (those are asked once these are in)
    const loadDone = ids.every((k) => lazy.has(NUMBERS[k][0]) || Number.isFinite(nums[k]));
    // bench:ui reads the time from navigation start to the load's last live number (ms, performance.now()),
    // to the last number of all (the lazy ones too) …
    if (loadDone && el.dataset.loadDone !== '1') el.dataset.liveMs = String(Math.round(performance.now()));
    if (done && el.dataset.liveDone !== '1') el.dataset.allMs = String(Math.round(performance.now()));
    // … and to the load's last number of the compute workers (all but the training run's and the lazy ones)
    const coreDone = ids.every((k) => NUMBERS[k][0] === 'train' || lazy.has(NUMBERS[k][0]) || Number.isFinite(nums[k]));
    if (coreDone && !el.dataset.coreMs) el.dataset.coreMs = String(Math.round(performance.now()));
    el.dataset.loadDone = loadDone ? '1' : '0';
    // the tests read every number once this is 1
    el.dataset.liveDone = done ? '1' : '0';
    if (loadDone && lazyAsked === null) setTimeout(() => void askLazy(), 0);
  }

  function renderLinks(): void {
    for (const { a, id } of links) {
      const s = linkState(state, id);
      a.href = shortHash(s);
      a.dataset.short = shortUrl(shortHash(s, false));
      if (id in READOUTS) a.dataset.expect = JSON.stringify(READOUTS[id]);
      if (state.embed) { a.target = '_blank'; a.rel = 'noopener'; }
    }
    for (const { a, p } of deepLinks) {
      const s = { ...linkState(state, 'interview'), exp: p };
      a.href = shortHash(s);
      a.dataset.short = shortUrl(shortHash(s, false));
      if (state.embed) { a.target = '_blank'; a.rel = 'noopener'; }
    }
  }

  /** The 30-second answer as Markdown: the points with their numbers and links, and the link of this view. */
  function markdown(): string {
    const here = copyUrl({ ...defaultState(state.lang), exp: 'interview', iseed: state.iseed, kernel: state.kernel, cv: state.cv });
    const lines = [`**${t('iv.md.title')}**`, ''];
    POINTS_30S.forEach((p, i) => {
      lines.push(`${i + 1}. ${plainText(t, p.text(nums), nums)} ([${t('iv.showMe')}](${copyUrl(linkState(state, p.link))}))`);
    });
    lines.push('', t('iv.md.source', { seed: state.iseed, url: here }));
    return lines.join('\n');
  }

  async function copyAnswer(button: HTMLButtonElement = copyBtn): Promise<void> {
    const text = markdown();
    el.dataset.copied = text;
    await copyText(text, button, fallback, t);
  }

  /** The landing chart's sweep (a first estimate drawn at once, refined when the whole sweep is in). */
  function askLanding(next: State, changed: Set<StateKey> | null): void {
    const ls = linkState(next, 'satSqrt512');
    const sp = { ...sweepParams(ls), ...logitRuleParams(ls) };
    const key = JSON.stringify(sp);
    if (key === landingKey && changed !== null && !changed.has('lang')) return;
    landingKey = key;
    const got = (final: boolean) => (r: SaturationSweepResult) => {
      if (key !== landingKey) return;
      landing.set(buildSaturationLine(r, sp.dks, ALL_SCALES, 'entropy', null, ls, t, ARTICLE_SCALES), !final);
      const last = sp.dks[sp.dks.length - 1];
      landing.setNote(last < 4096 ? t('common.sweepSkipped', { dk: last }) : '');
    };
    compute.get('sweep', 'saturationSweep', sp, 'interview:landing', undefined, got(false)).then(got(true), (e: unknown) => {
      if (key !== landingKey || (e instanceof CoreError && e.kind === 'superseded')) return;
      setText(el.querySelector<HTMLElement>('[data-err-for="panel"]')!, t('iv.failed', { message: e instanceof Error ? e.message : String(e) }));
    });
  }

  /** The view's training run (its number: the trained logits' variance); asked again when its core could not load and may be back (CoreBack). */
  function askTraining(key: string, configs: Parameters<TrainingController['start']>[0], err: HTMLElement): void {
    const trainKey = JSON.stringify(configs);
    void trainOnce(training, ctx.spawnWorker, trainKey, configs).then(() => {
      if (key !== reqKey || training.key !== trainKey) return;
      if (training.error) {
        const shown = t('iv.failed', { message: training.error });
        setText(err, shown);
        if (training.loadFailed) {
          trainBack.again = () => {
            if (key !== reqKey) return;
            if (err.textContent === shown) setText(err, '');
            askTraining(key, configs, err);
          };
          trainBack.back.failed();
        }
        return;
      }
      trainBack.back.ok();
      results.train = training.result;
      nums = liveNumbers(results);
      renderNumbers();
    });
  }

  /** Asks one live request; resolves once it answered or failed (its number or the failure shown). */
  function askOne(r: LiveRequest, key: string): Promise<void> {
    const err = el.querySelector<HTMLElement>('[data-err-for="panel"]')!;
    return compute.get(r.worker, r.kind, r.params as never, `interview:${r.id}`).then((res) => {  // a new seed supersedes it
      if (key !== reqKey) return;
      results[r.id] = res;
      nums = liveNumbers(results);
      renderNumbers();
    }, (e: unknown) => {
      if (key !== reqKey || (e instanceof CoreError && e.kind === 'superseded')) return;
      setText(err, workerFailure(e, t) ?? t('iv.failed', { message: e instanceof Error ? e.message : String(e) }));
    });
  }

  /** Asks the lazy requests of the current key once (after the load's numbers, or a section opened, or a print). */
  function askLazy(): Promise<void> {
    if (lazyAsked === null) {
      const key = reqKey;
      lazyAsked = Promise.all(lazyReqs.map((r) => askOne(r, key))).then(() => {});
    }
    return lazyAsked;
  }

  function ask(next: State): void {
    const reqs = liveRequests(next);
    const train = trainingRequest(next);
    const key = JSON.stringify([reqs.map((r) => r.params), train.configs]);
    if (key === reqKey) return;
    reqKey = key;
    lazyReqs = reqs.filter((r) => r.lazy);
    lazyAsked = null;
    for (const k of Object.keys(results)) delete results[k];
    nums = liveNumbers({});
    renderNumbers();
    const err = el.querySelector<HTMLElement>('[data-err-for="panel"]')!;
    setText(err, '');
    askTraining(key, train.configs, err);
    for (const r of reqs) if (!r.lazy) void askOne(r, key);
    // a section that holds their numbers is open already (the reader's choice kept across a new seed)
    if ((followups as HTMLDetailsElement).open || (wrong as HTMLDetailsElement).open) void askLazy();
  }

  return {
    id: 'interview',
    el,
    keyFigures: () => KEY_FIGURES.filter(([id]) => Number.isFinite(nums[id])).map(([id, key]) => ({ id, label: t(key), value: formatLive(id, nums[id]) })),
    update(next: State, changed: Set<StateKey> | null) {
      state = next;
      // for the browser tests: the requests of the view and the field of each number, replayed in Node
      (window as unknown as { __sqrtdkInterview?: object }).__sqrtdkInterview = { debug: () => ({ requests: liveRequests(state), training: trainingRequest(state).configs, numbers: NUMBERS }) };
      seed.sync(next);
      setText(seedNote, t('iv.seedNote', { seed: next.iseed }));
      setText(printBase, t('iv.printBase', { base: (location.host + location.pathname).replace(/\/index\.html$/, '/') }));
      renderLinks();
      askLanding(next, changed);
      ask(next);
      for (const s of slots) s.update(next, changed);
    },
    destroy() {
      trainBack.back.destroy();
      for (const s of slots) s.destroy();
      landing.destroy();
      window.removeEventListener('beforeprint', beforePrint);
      window.removeEventListener('afterprint', afterPrint);
    },
  };
}
