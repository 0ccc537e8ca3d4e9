// Panel 10, the training lab (claims C9 and C10): a small Transformer trained in the browser with
// every ticked attention variant from the same seed — same initial weights where shapes allow, same
// batches — in a dedicated worker, chunk by chunk (web/src/training/controller.ts). This file runs
// the view: Run / Cancel, the core's budget check, the draw loop; its settings, results, words and
// kept session are training-controls.ts, training-results.ts, training-text.ts, training-session.ts.
import type { State, StateKey } from '../state/state.ts';
import { fmt } from '../format.ts';
import { h, setText } from '../dom.ts';
import { shell, claimBox } from './kit.ts';
import type { PanelCtx, PanelView } from './kit.ts';
import { showError, clearErrors, controlVisible } from '../controls.ts';
import { slotOfMessage } from './refusal.ts';
import { TrainingWorkerError } from '../training/controller.ts';
import type { RunSeries } from '../training/series.ts';
import { emptySeries } from '../training/series.ts';
import { trainingConfigs, runKey, refusals, TRAIN_KEYS, RUN_KEYS } from '../training/config.ts';
import { newSession, sessionController } from './training-session.ts';
import { CoreBack } from './core-back.ts';
import { trainingControls } from './training-controls.ts';
import { TrainingResults } from './training-results.ts';
import { configVars, planWords, runWords } from './training-text.ts';
import type { TrainingWords } from './training-text.ts';

export function trainingPanel({ t, store, charts: chartPage, spawnWorker, keep, engine }: PanelCtx): PanelView {
  // the run outlives this view's rebuilds (a language switch): kept by the app
  const session = keep('training', newSession);
  const s = shell('training', 10, t('train.title'), t('train.lede'), ['training', 'trainingOpt'], t, chartPage);
  const paramsOut = h('span', { class: 'train-budget', 'data-train-budget': '' });
  const { controls, presets, advanced, dkOut, revealErrors } = trainingControls(store, t);
  s.controls.append(presets, advanced);

  // Run / Cancel, progress
  const runBtn = h('button', { type: 'button', class: 'button', 'data-action': 'train-run', text: t('train.run') }) as HTMLButtonElement;
  const cancelBtn = h('button', { type: 'button', class: 'button ghost', 'data-action': 'train-cancel', text: t('train.cancel'), disabled: true }) as HTMLButtonElement;
  const bar = h('progress', { max: 1, value: 0, 'data-train-progress': '', 'aria-label': t('train.steps') }) as HTMLProgressElement;
  const statusEl = h('span', { class: 'train-status', 'data-train-status': '', role: 'status' });
  const runErr = h('span', { class: 'err', 'data-err-for': 'train-run', role: 'alert' });
  // Run / Cancel beside the curves (the charts part: a charts-only embed has them too)
  const runbar = h('div', { class: 'train-runbar', 'data-key': 'train-run', 'data-part': 'charts' }, runBtn, cancelBtn, bar, statusEl, paramsOut, runErr);

  // the results: before a run, the charts' empty axes and the table's rows of the runs Run will
  // start, the plan and the core's estimate of its time in the loss chart's plot area (so a link
  // that waits for Run, trauto=0, shows what it will draw, in the space the curves will take)
  // the Run button sits with the charts, so every view of them can train (an embed without its
  // controls cannot change the settings: the text does not ask it to)
  const noControls = store.state.embed && !store.state.show.includes('controls');
  const planText = h('p', { 'data-train-plan': '' });
  const planTime = h('p', { 'data-train-estimate': '' });
  const planRun = h('button', { type: 'button', class: 'button', 'data-action': 'train-run-plan', text: t('train.run') }) as HTMLButtonElement;
  const placeholder = h('div', { class: 'train-plan-card' }, h('p', { class: 'train-placeholder', text: t('train.placeholder') }), planText, planTime, planRun);
  /** the core's estimate of the planned runs (seconds of work by its cost model), once the budget check answered */
  let estimate: number | null = null;
  const results = new TrainingResults(chartPage, t, () => session.runs, () => state.trthr);
  s.charts.append(runbar, results.el);
  const words: TrainingWords = { t, text: s.text, c9: claimBox(s.claims, 'C9', t('train.claim9'), t), c10: claimBox(s.claims, 'C10', t('train.claim10'), t), noControls };

  let state = store.state;
  /** The runs Run would start now: each ticked variant, no step done (the axes and rows before a run). */
  const plannedRuns = (): RunSeries[] => state.trvar.map((v) => emptySeries(v, state.trlayers, state.trsteps));
  let checkSeq = 0;
  let lastDraw = 0;
  let drawTimer: ReturnType<typeof setTimeout> | undefined;

  /** Static refusals and the core's budget check; Run is enabled only when both pass. */
  function validate(source?: StateKey): void {
    if (coreErrKey) { setText(s.el.querySelector(`[data-err-for="${coreErrKey}"]`), ''); coreErrKey = null; }
    clearErrors(s.el, 'train:run');  // a run's refusal belongs to the configuration it was started with
    for (const k of ['trheads', 'trwarm', 'trvar', 'train-run'] as const) {
      const slot = s.el.querySelector<HTMLElement>(`[data-err-for="${k}"]`);
      if (slot && !(k === 'trvar' && slot.textContent && state.trvar.length === 0)) setText(slot, '');
    }
    estimate = null;
    const bad = refusals(state);
    setText(dkOut, state.trdm % state.trheads === 0 ? t('train.dk', { dk: state.trdm / state.trheads }) : t('train.dkBad'));
    for (const r of bad) setText(s.el.querySelector(`[data-err-for="${r.key}"]`), t(r.msg, r.vars));
    // any earlier budget check still pending is stale now
    const seq = ++checkSeq;
    if (checkTimer !== undefined) { clearTimeout(checkTimer); checkTimer = undefined; }
    if (bad.length) { runBtn.disabled = true; runBtn.dataset.refused = '1'; setText(paramsOut, ''); autoPending = false; revealErrors(); return; }
    runBtn.dataset.refused = 'checking';
    // the budget check asks the core (the training worker): debounced, and at load deferred so
    // that the other panels' first charts come first
    if (checkTimer !== undefined) clearTimeout(checkTimer);
    const later = () => { checkTimer = setTimeout(() => { checkTimer = undefined; if (seq === checkSeq) budgetCheck(seq, source); }, first ? 600 : 250); first = false; };
    // a link that starts its run checks at once (one panel per view: nothing else computes first)
    if (autoPending) { first = false; budgetCheck(seq, source); return; }
    // the first check waits until the panel is on screen: the training worker (a third core
    // instance) is not started while the page's first charts are being computed
    if (first && typeof IntersectionObserver !== 'undefined') {
      visibility?.disconnect();
      visibility = new IntersectionObserver((entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        visibility?.disconnect();
        visibility = null;
        later();
      });
      visibility.observe(s.el);
    } else later();
  }
  let visibility: IntersectionObserver | null = null;
  // trauto (default 1): the linked run starts when the view opens, unless this configuration ran
  // or runs already (a language switch re-mounts the view); it waits for the budget check
  let autoPending = store.state.trauto && session.key !== runKey(store.state);

  let checkTimer: ReturnType<typeof setTimeout> | undefined;
  /** where the core's last refusal is shown (cleared by the next check) */
  let coreErrKey: string | null = null;
  let first = true;
  // the training worker could not load its core: the check is made again when it may be back
  const coreBack = new CoreBack(engine, () => validate());
  function budgetCheck(seq: number, source?: StateKey): void {
    sessionController(session, spawnWorker).check(trainingConfigs(state).slice(0, 1).concat(trainingConfigs(state).filter((c) => c.attention === 'qk_layernorm'))).then((infos) => {
      if (seq !== checkSeq) return;
      coreBack.ok();
      // every variant's step costs the same by the cost model (it counts the sizes, not the attention)
      estimate = (infos[0]?.stepSeconds ?? NaN) * state.trsteps * state.trvar.length;
      if (!Number.isFinite(estimate)) estimate = null;
      runBtn.dataset.refused = '';
      syncButtons();
      setText(paramsOut, '');
      // the check answers later: a reader who has left the view meanwhile is not brought back to it
      if (autoPending) { autoPending = false; if (store.state.exp === 'training') startRun(); }
    }, (e: unknown) => {
      if (seq !== checkSeq) return;
      const msg = e instanceof Error ? e.message : String(e);
      if (msg === 'cancelled' || msg === 'destroyed') { runBtn.dataset.refused = ''; syncButtons(); return; }
      // the worker died or hung during the check, or could not load its core: no verdict on the
      // configuration — Run stays available (it starts a fresh worker, or loads the core again),
      // the reader is told what happened, and a core that did not load is asked for again
      if (e instanceof TrainingWorkerError) {
        if (e.kind === 'load') coreBack.failed();
        runBtn.dataset.refused = '';
        syncButtons();
        coreErrKey = 'train-run';
        setText(s.el.querySelector(`[data-err-for="${coreErrKey}"]`), t(`train.err.${e.kind}`));
        return;
      }
      runBtn.dataset.refused = '1';
      runBtn.disabled = true;
      // beside the control of the parameter named (the one just moved, if named); a run's memory
      // grows with every size, so a memory refusal goes beside the size just moved
      let key: string = slotOfMessage('training', msg, source, (k) => controlVisible(s.el, k));
      if (/MiB/.test(msg) && source && (TRAIN_KEYS as readonly string[]).includes(source)) key = source;
      coreErrKey = key === 'panel' ? 'train-run' : key;
      setText(s.el.querySelector(`[data-err-for="${coreErrKey}"]`), t('train.err.core', { message: msg }));
      autoPending = false;
      revealErrors();
    });
  }

  function syncButtons(): void {
    const running = session.status === 'running';
    runBtn.disabled = running || runBtn.dataset.refused === '1';
    planRun.disabled = runBtn.disabled;
    cancelBtn.disabled = !running;
    s.el.dataset.training = session.status;
    if (!session.runs.length) drawPlan();
  }

  function statusText(): string {
    const runs = session.runs;
    const total = runs.reduce((n, r) => n + r.steps, 0);
    const done = runs.reduce((n, r) => n + (r.finished ? r.steps : r.stepsDone), 0);
    bar.max = Math.max(1, total);
    bar.value = done;
    const sps = fmt(session.sps, 3);
    switch (session.status) {
      case 'running': return t('train.progress', { done: runs.reduce((n, r) => n + r.stepsDone, 0), total, sps, runs: runs.length });
      case 'done': return t('train.finished', { runs: runs.length, sps });
      case 'cancelled': return t('train.cancelled', { done: runs.reduce((n, r) => n + r.stepsDone, 0), ms: fmt(session.controller?.lastCancelMs ?? NaN, 2) });
      case 'error': return t('train.failed', { message: session.error });
      default: return t(noControls ? 'train.idleStatic' : 'train.idle');
    }
  }

  function drawNow(): void {
    lastDraw = performance.now();
    drawTimer = undefined;
    setText(statusEl, statusText());
    syncButtons();
    // before the first run: the planned runs, with nothing drawn yet
    const planned = session.runs.length === 0;
    const runs = planned ? plannedRuns() : session.runs;
    const cfg = planned ? state : session.cfg ?? state;
    results.draw(runs, cfg, state.trthr, planned, placeholder);
    if (planned) { drawPlan(); return; }
    runWords(words, runs, cfg, session.status === 'done');
    s.el.dataset.stale = session.key !== runKey(state) ? '1' : '';
  }

  /** The plan in the loss chart's plot area: the runs Run starts and how long the core expects them to take. */
  function drawPlan(): void {
    const n = state.trvar.length;
    setText(planText, t('train.plan', { ...configVars(t, state), runs: n, steps: state.trsteps }));
    planWords(words, state);
    const refused = runBtn.dataset.refused === '1';
    setText(planTime, refused ? '' : estimate === null ? t('train.plan.timePending') : t('train.plan.time', { s: fmt(Math.max(estimate, 0.1), 2) }));
    planTime.dataset.seconds = estimate === null ? '' : String(estimate);
  }
  function draw(): void {
    // live updates at most every 100 ms; the final state at once
    if (session.status !== 'running') { if (drawTimer !== undefined) clearTimeout(drawTimer); drawNow(); return; }
    if (drawTimer !== undefined) return;
    drawTimer = setTimeout(drawNow, Math.max(0, 100 - (performance.now() - lastDraw)));
  }

  session.listener = () => draw();
  const listener = {
    progress(_runs: RunSeries[], sps: number) { session.sps = sps; session.listener?.('progress'); },
    done(_runs: RunSeries[], sps: number) { session.sps = sps; session.status = 'done'; session.listener?.('done'); },
    error(message: string, _runs: RunSeries[], cause?: unknown) {
      session.status = 'error';
      // a worker that died or hung is said as such, in the page's language (Run starts a fresh one)
      if (cause instanceof TrainingWorkerError) {
        session.error = t(`train.err.${cause.kind}`);
        session.listener?.('error');
        return;
      }
      session.error = message;
      // a size the core refused at create: beside its control too
      // (owner train:run: the next change of the configuration clears it)
      const root = document.querySelector<HTMLElement>('[data-panel="training"]');
      const key = root ? slotOfMessage('training', message, undefined, (k) => controlVisible(root, k)) : 'panel';
      if (root && key !== 'panel') showError(root, key, t('train.err.core', { message }), 'train:run');
      session.listener?.('error');
    },
  };

  runBtn.addEventListener('click', () => { if (!runBtn.disabled) startRun(); });
  planRun.addEventListener('click', () => { if (!runBtn.disabled) { startRun(); runBtn.focus(); } });
  function startRun(): void {
    // the link copied after a run opens at this panel
    if (store.state.exp !== 'training') store.set({ exp: 'training' }, 'exp');
    const c = sessionController(session, spawnWorker);
    session.key = runKey(state);
    session.cfg = state;
    session.status = 'running';
    session.sps = 0;
    const p = c.start(trainingConfigs(state), listener);
    session.runs = c.runs;
    draw();
    void p.then(() => { session.runs = c.runs; });
  }
  cancelBtn.addEventListener('click', () => { void cancelRun(); });

  async function cancelRun(): Promise<void> {
    if (session.status !== 'running' || !session.controller) return;
    // no redraw may delay the stop: the pending live redraw is dropped (the final one follows)
    if (drawTimer !== undefined) { clearTimeout(drawTimer); drawTimer = undefined; }
    await session.controller.cancel();
    session.status = 'cancelled';
    draw();
  }

  // a run still going from before a re-mount (language switch) keeps drawing here
  if (session.runs.length) queueMicrotask(drawNow);

  return {
    id: 'training',
    keyFigures: () => results.tableFigures,
    el: s.el,
    update(next: State, changed: Set<StateKey> | null, source?: StateKey) {
      state = next;
      for (const c of controls) c.sync(next);
      const runChanged = changed === null || RUN_KEYS.some((k) => changed.has(k));
      if (runChanged) {
        // a configuration change stops a run in progress (its curves stay, marked as another configuration)
        if (changed !== null && session.status === 'running') void cancelRun();
        validate(source);
      }
      if (changed === null || runChanged || changed.has('trthr')) draw();
      syncButtons();
    },
    destroy() {
      if (drawTimer !== undefined) clearTimeout(drawTimer);
      if (checkTimer !== undefined) clearTimeout(checkTimer);
      visibility?.disconnect();
      coreBack.destroy();
      results.destroy();
      session.listener = null;
    },
  };
}
