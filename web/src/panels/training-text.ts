// The training lab's words: the configuration in the text's sentences, what the runs showed (or will test), and the live verdicts of claims C9 (the alternatives train as well) and C10 (no scale → NaN).
import type { AttentionVariant } from '../../../wasm/js/core.js';
import type { State } from '../state/state.ts';
import type { T } from '../i18n/messages.ts';
import { fmt, pct } from '../format.ts';
import { setText } from '../dom.ts';
import type { ClaimBox } from './kit.ts';
import { c9Verdict, c10Verdict } from '../claims.ts';
import type { RunSeries } from '../training/series.ts';
import { lastFiniteLoss } from '../training/series.ts';

/** The text and the two claims the training lab writes to. */
export interface TrainingWords {
  t: T;
  text: HTMLElement;
  c9: ClaimBox;
  c10: ClaimBox;
  /** an embed without its controls: the text does not ask the reader to change a setting */
  noControls: boolean;
}

/** The configuration's words and numbers in the text's sentences (train.text, train.plan). */
export function configVars(t: T, cfg: State): Record<string, string | number> {
  return {
    task: t(`train.task.${cfg.trtask}`), T: cfg.trlen, layers: cfg.trlayers, dm: cfg.trdm, heads: cfg.trheads,
    dk: fmt(cfg.trdm / cfg.trheads, 3), softmax: t(`train.softmax.${cfg.trsm}`), seed: cfg.trseed,
  };
}

/** Before a run: the text and the claims say what the runs will test — the configuration, and the why of each verdict. */
export function planWords({ t, text, c9, c10, noControls }: TrainingWords, state: State): void {
  setText(text, t('train.text', { ...configVars(t, state), runs: t('train.idleStatic') }));
  c10.set(t('train.live10.idle'), null, state.trvar.includes('none') ? t(state.trsm === 'safe' ? (noControls ? 'train.why10.safeStatic' : 'train.why10.safe') : 'train.why10.naive') : undefined);
  c9.set(t('train.live9.idle'), null, state.trvar.some((v) => v === 'learnable_temperature' || v === 'qk_layernorm' || v === 'qk_l2') ? t('train.why9') : undefined);
}

/** What the runs of configuration `cfg` showed so far (`done`: they all ended), and the claims' verdicts. */
export function runWords({ t, text, c9, c10, noControls }: TrainingWords, runs: RunSeries[], cfg: State, done: boolean): void {
  const vname = (v: AttentionVariant) => t(`train.v.${v}`);
  const dk = cfg.trdm / cfg.trheads;
  const parts: string[] = [];
  const byV = (v: AttentionVariant) => runs.find((r) => r.variant === v);
  for (const r of runs) {
    parts.push(r.firstNonfinite !== null
      ? t('train.text.diverged', { variant: vname(r.variant), step: r.firstNonfinite, last: fmt(lastFiniteLoss(r), 3) })
      : t('train.text.run', { variant: vname(r.variant), steps: r.stepsDone, loss: fmt(r.loss[r.loss.length - 1] ?? NaN, 3),
        acc: r.evaluation ? pct(r.evaluation.tokenAccuracy) : '–' }));
  }
  let iid = '';
  const ref = byV('inv_sqrt_dk') ?? runs.find((r) => r.analysis);
  if (ref?.analysis) {
    const a = ref.analysis.layers[0];
    iid = t('train.text.iid', { variant: vname(ref.variant), v: fmt(a.logitMoments.variance, 3), qk: fmt(a.qk.variance, 3), iidQk: fmt(a.iidQkVariance, 3), dk });
  }
  setText(text, t('train.text', { ...configVars(t, cfg), runs: parts.join(' ') }) + (iid ? ' ' + iid : '') + (done ? '' : ' ' + t('train.text.partial')));
  // C10: the article says: no scale → NaN within 10 steps
  const none = byV('none');
  if (!none) c10.set(t('train.live10.absent'), null);
  else if (!done && none.firstNonfinite === null) c10.set(t('train.live10.running', { steps: none.stepsDone }), null);
  else {
    const live = none.firstNonfinite === null
      ? t('train.live10.finite', { steps: none.stepsDone, dk, softmax: t(`train.softmax.${cfg.trsm}`), loss: fmt(none.loss[none.loss.length - 1], 3), clip: cfg.trclip, warm: cfg.trwarm })
      : t('train.live10.nan', { step: none.firstNonfinite, dk, softmax: t(`train.softmax.${cfg.trsm}`), clip: cfg.trclip, warm: cfg.trwarm });
    c10.set(live, c10Verdict(none.firstNonfinite), t(cfg.trsm === 'safe' ? (noControls ? 'train.why10.safeStatic' : 'train.why10.safe') : 'train.why10.naive'));
  }
  // C9: the alternatives train as well as the fixed scale?
  const alts = runs.filter((r) => r.variant === 'learnable_temperature' || r.variant === 'qk_layernorm' || r.variant === 'qk_l2');
  const base = byV('inv_sqrt_dk');
  if (!alts.length) c9.set(t('train.live9.absent'), null);
  else if (!done) c9.set(t('train.live9.running'), null);
  else {
    const list = alts.map((r) => t('train.live9.item', { variant: vname(r.variant), loss: fmt(r.loss[r.loss.length - 1], 3), acc: r.evaluation ? pct(r.evaluation.tokenAccuracy) : '–' })).join('; ');
    const baseText = base ? t('train.live9.base', { loss: fmt(base.loss[base.loss.length - 1], 3), acc: base.evaluation ? pct(base.evaluation.tokenAccuracy) : '–' }) : '';
    const ok = c9Verdict(alts.map((r) => ({ finite: r.firstNonfinite === null, accuracy: r.evaluation?.tokenAccuracy ?? null })), base?.evaluation?.tokenAccuracy ?? null);
    c9.set(`${list}. ${baseText}`, ok, t('train.why9'));
  }
}
