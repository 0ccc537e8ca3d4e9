// The interview's drill (issue 10, part 4): one question at a time, chosen by `dq` and drawn from
// `dseed` (both in the link). The reader commits to a prediction — a number, typed or dragged on a
// log-scale slider, or one option — and only then sees the live number, the score by the stated
// rule, why, and the panel that shows it. The core's answer is requested as soon as the question
// shows (so the reveal is instant) but stays hidden until the reader commits. Progress lives in
// localStorage only.
import type { State, StateKey } from '../state/state.ts';
import { toHash, panelHash, withPatch } from '../state/state.ts';
import type { PanelCtx } from './kit.ts';
import { workerFailure } from './kit.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { h, setText } from '../dom.ts';
import { fmt } from '../format.ts';
import { exp, ln } from '../portable-math.ts';
import { CoreError } from '../compute.ts';
import {
  QUESTION_IDS, QUESTIONS_BY_ID, questionState, scoreNumber, scoreChoice, closeness,
  clearProgress, recordAnswer, summarise,
  mergeProgress, missesAnswers, storageWorks, PROGRESS_KEY, PROGRESS_LIMITS, ProgressStore,
} from '../interview/questions.ts';
import type { Question, QuestionId, Params, StorageLike } from '../interview/questions.ts';
import './drill.css';

const SLIDER_STEPS = 1000;

function storage(): StorageLike | null {
  try { return window.localStorage; } catch { return null; }
}

/** A value on the log slider's scale: position 0..SLIDER_STEPS between lo and hi. */
export function toSlider(x: number, [lo, hi]: [number, number]): number {
  const f = (ln(x) - ln(lo)) / (ln(hi) - ln(lo));
  return Math.round(Math.min(1, Math.max(0, f)) * SLIDER_STEPS);
}
export function fromSlider(pos: number, [lo, hi]: [number, number]): number {
  return Number(exp(ln(lo) + (pos / SLIDER_STEPS) * (ln(hi) - ln(lo))).toPrecision(3));  // portable: the same value in every engine
}

const PCT_FACTS: ReadonlySet<string> = new Set(['share', 'sqrtDrift', 'invDrift']);
const fmtFacts = (f: Record<string, number>) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, PCT_FACTS.has(k) ? `${(v * 100).toFixed(1)} %` : fmt(v)]));

export function mountDrill(host: HTMLElement, { t, store, compute }: PanelCtx): { update(state: State, changed: Set<StateKey> | null): void; destroy(): void } {
  const uid = Math.random().toString(36).slice(2, 8);
  const pickId = `drill-pick-${uid}`;
  const pick = h('select', { id: pickId, 'data-drill-pick': '' }) as HTMLSelectElement;
  QUESTION_IDS.forEach((id, i) => pick.append(h('option', { value: id, text: `${i + 1}. ${t(`drill.qname.${id}` as MessageKey)}` })));
  pick.addEventListener('change', () => store.set({ dq: pick.value as QuestionId }, 'dq'));
  const another = h('button', { type: 'button', class: 'mini', 'data-drill-another': '', text: t('drill.another') }) as HTMLButtonElement;
  another.addEventListener('click', () => {
    const r = new Uint32Array(1);
    crypto.getRandomValues(r);
    store.set({ dseed: r[0] }, 'dseed');
  });
  const next = h('button', { type: 'button', class: 'mini', 'data-drill-next': '', text: t('drill.next') }) as HTMLButtonElement;
  next.addEventListener('click', () => {
    const i = QUESTION_IDS.indexOf(store.state.dq as QuestionId);
    store.set({ dq: QUESTION_IDS[(i + 1) % QUESTION_IDS.length] }, 'dq');
  });
  const progress = h('p', { class: 'drill-progress', 'data-drill-progress': '', 'aria-live': 'polite' });
  // The answers of this visit: counted even where storage is blocked or full, and merged into what
  // is stored on every write (two tabs answering at once keep every answer).
  let session: Record<string, number> = {};
  let kept = storageWorks(storage());
  const notKept = h('p', { class: 'note drill-not-kept', 'data-drill-storage': '', role: 'status', text: t('drill.notKept'), hidden: kept });
  const privacy = h('p', { class: 'note', text: t('drill.privacy'), hidden: !kept });
  // the store, parsed only when its text changed, in bounded time whatever it holds
  const stored = new ProgressStore(storage);
  const ignored = h('p', { class: 'note', 'data-drill-ignored': '', role: 'status', hidden: true,
    text: t('drill.ignored', { answers: PROGRESS_LIMITS.answers.toLocaleString('en-US'), kib: PROGRESS_LIMITS.chars / 1024 }) });
  const current = () => {
    const p = mergeProgress(stored.read(), session);
    ignored.hidden = !stored.ignored;
    return p;
  };
  /** Writes the stored progress merged with this visit's answers; says so when it cannot be kept. */
  function save(): void {
    if (!kept) return;
    if (!stored.write(current())) { kept = false; notKept.hidden = false; privacy.hidden = true; }
  }
  // Another tab wrote (or reset) the progress: show it; if its write lacks an answer of this visit
  // (it read before this tab wrote), write the merge again.
  const onStorage = (ev: StorageEvent) => {
    if (ev.key !== null && ev.key !== PROGRESS_KEY) return;
    if (ev.newValue === null) session = {};  // reset there: forgotten here too
    else if (missesAnswers(stored.read(), session)) save();
    showProgress();
  };
  window.addEventListener('storage', onStorage);
  // The reset asks first (a click in a frame the reader cannot see must not wipe the progress).
  const reset = h('button', { type: 'button', class: 'mini', 'data-drill-reset': '', text: t('drill.reset') }) as HTMLButtonElement;
  const confirmYes = h('button', { type: 'button', class: 'mini', 'data-drill-reset-yes': '', text: t('drill.resetYes') }) as HTMLButtonElement;
  const confirmNo = h('button', { type: 'button', class: 'mini', 'data-drill-reset-no': '', text: t('drill.resetNo') }) as HTMLButtonElement;
  const confirmText = h('span', { class: 'drill-confirm-q', 'data-drill-reset-q': '' });
  const confirmBox = h('span', { class: 'drill-confirm', role: 'group', hidden: true }, confirmText, confirmYes, confirmNo);
  const askReset = (on: boolean) => {
    confirmBox.hidden = !on;
    reset.hidden = on;
    if (on) { setText(confirmText, t('drill.resetAsk', { n: summarise(current()).answered })); confirmNo.focus(); } else reset.focus();
  };
  reset.addEventListener('click', () => askReset(true));
  confirmNo.addEventListener('click', () => askReset(false));
  confirmYes.addEventListener('click', () => {
    clearProgress(storage());
    session = {};
    askReset(false);
    showProgress(t('drill.resetDone'));
  });

  const meta = h('p', { class: 'drill-meta', 'data-drill-meta': '' });
  const qText = h('p', { class: 'drill-q', 'data-drill-question': '', id: `drill-q-${uid}` });
  const inputs = h('div', { class: 'drill-inputs' });
  const ruleText = h('p', { class: 'drill-rule', 'data-drill-rule': '' });
  const err = h('p', { class: 'err', role: 'alert', 'data-drill-err': '' });
  const reveal = h('button', { type: 'submit', class: 'button', 'data-drill-reveal': '', text: t('drill.reveal') }) as HTMLButtonElement;
  const form = h('form', { class: 'drill-form', 'data-drill-form': '', 'aria-labelledby': `drill-q-${uid}` },
    meta, qText, inputs, ruleText, h('div', { class: 'drill-actions' }, reveal), err);
  form.setAttribute('novalidate', '');  // the page's own messages, in the reader's language, not the browser's
  // the reveal region exists from the start so screen readers announce what is written into it
  const result = h('div', { class: 'drill-result', 'data-drill-result': '', 'aria-live': 'polite', 'aria-atomic': 'true' });
  const linkA = h('a', { 'data-drill-link': '', text: t('drill.link') }) as HTMLAnchorElement;
  const el = h('section', { class: 'drill', 'data-drill': '' },
    h('h3', { id: `drill-h-${uid}`, text: t('drill.title') }),
    h('p', { class: 'lede', text: t('drill.lede') }),
    h('div', { class: 'drill-bar' },
      h('div', { class: 'control' }, h('label', { for: pickId, text: t('drill.pick') }), h('div', { class: 'control-row' }, pick, another, next))),
    form, result,
    h('p', { class: 'drill-share' }, linkA, ' · ', h('span', { text: t('drill.linkNote') })),
    h('div', { class: 'drill-foot' }, progress, reset, confirmBox),
    ignored, notKept, privacy);
  host.append(el);

  let state = store.state;
  let q: Question = QUESTIONS_BY_ID.std;
  let seed = 0;
  let params: Params = {};
  let key = '';
  let answer: Promise<unknown> | null = null;
  let revealed = false;
  let gen = 0;
  // the current prediction
  let numInput: HTMLInputElement | null = null;
  let slider: HTMLInputElement | null = null;
  let radios: HTMLInputElement[] = [];

  function showProgress(note?: string) {
    const s = summarise(current());
    const base = s.answered === 0 ? t('drill.progressNone') : t('drill.progress', { n: s.answered, score: String(s.score) });
    setText(progress, note ? `${note} ${base}` : base);
    progress.dataset.answered = String(s.answered);
    progress.dataset.score = String(s.score);
  }

  function buildInputs() {
    inputs.replaceChildren();
    numInput = null; slider = null; radios = [];
    if (q.kind === 'number') {
      const range = q.range;
      const numId = `drill-num-${uid}`;
      numInput = h('input', { type: 'number', id: numId, min: 0, step: 'any', inputMode: 'decimal', class: 'seed', 'data-drill-number': '' }) as HTMLInputElement;
      slider = h('input', { type: 'range', min: 0, max: SLIDER_STEPS, step: 1, 'data-drill-slider': '', 'aria-label': t('drill.slider') }) as HTMLInputElement;
      const start = Math.sqrt(range[0] * range[1]);
      slider.value = String(toSlider(start, range));
      slider.setAttribute('aria-valuetext', String(fromSlider(Number(slider.value), range)));
      const s = slider, n = numInput;
      s.addEventListener('input', () => {
        const v = fromSlider(Number(s.value), range);
        n.value = String(v);
        s.setAttribute('aria-valuetext', String(v));
        setText(err, '');
      });
      n.addEventListener('input', () => {
        const v = Number(n.value);
        if (v > 0 && Number.isFinite(v)) { s.value = String(toSlider(v, range)); s.setAttribute('aria-valuetext', String(v)); }
        setText(err, '');
      });
      inputs.append(h('div', { class: 'control' },
        h('label', { for: numId, text: t('drill.predict') }),
        h('div', { class: 'control-row drill-number' }, numInput, slider)));
      setText(ruleText, t('drill.rule.factor', { full: q.rule.full, half: q.rule.half }));
    } else {
      const name = `drill-opt-${uid}`;
      const fs = h('fieldset', { class: 'drill-options' }, h('legend', { text: t('drill.predict') }));
      for (let i = 0; i < q.options; i++) {
        const r = h('input', { type: 'radio', name, value: String(i), 'data-drill-option': String(i) }) as HTMLInputElement;
        r.addEventListener('change', () => setText(err, ''));
        radios.push(r);
        fs.append(h('label', { class: 'check' }, r, h('span', { text: t(`drill.o.${q.id}.${i}` as MessageKey) })));
      }
      inputs.append(fs);
      setText(ruleText, t('drill.rule.choice'));
    }
  }

  function setQuestion(next: State) {
    const id = (QUESTION_IDS as readonly string[]).includes(next.dq) ? (next.dq as QuestionId) : 'std';
    q = QUESTIONS_BY_ID[id];
    seed = next.dseed;
    const qs = questionState(next, q, seed);
    params = qs.params;
    const k = `${q.id}:${seed}`;
    const fresh = k !== key;
    key = k;
    pick.value = q.id;
    form.dataset.q = q.id;
    form.dataset.seed = String(seed);
    setText(meta, t('drill.seedIs', { num: QUESTION_IDS.indexOf(q.id) + 1, total: QUESTION_IDS.length, seed }));
    setText(qText, t(`drill.q.${q.id}` as MessageKey, fmtFacts(params)));
    linkA.href = panelHash(withPatch({ ...next, embed: false }, { exp: next.exp, dq: q.id, dseed: seed }));
    if (fresh) {
      gen++;
      revealed = false;
      buildInputs();
      result.replaceChildren();
      delete result.dataset.score;
      reveal.disabled = false;
      setText(err, '');
      const r = qs.request;
      answer = compute.get(r.worker, r.kind, r.params as never, 'interview:drill');  // another question supersedes it
      answer.catch(() => {});
    }
  }

  function prediction(): { ok: true; value: number } | { ok: false; msg: string } {
    if (q.kind === 'number') {
      const raw = numInput?.value.trim() ?? '';
      const v = Number(raw);
      if (raw === '' || !(v > 0) || !Number.isFinite(v)) return { ok: false, msg: t('drill.bad', { example: fmt(Math.sqrt(q.range[0] * q.range[1]), 2) }) };
      return { ok: true, value: v };
    }
    const i = radios.findIndex((r) => r.checked);
    return i < 0 ? { ok: false, msg: t('drill.choose') } : { ok: true, value: i };
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (revealed || !answer) return;
    const p = prediction();
    if (!p.ok) {
      setText(err, p.msg);
      (q.kind === 'number' ? numInput : radios[0])?.focus();
      return;
    }
    setText(err, '');
    revealed = true;
    reveal.disabled = true;
    for (const x of [numInput, slider, ...radios]) if (x) x.disabled = true;
    result.replaceChildren(h('p', { text: t('drill.computing') }));
    const my = gen;
    const question = q, ps = params, k = key;
    answer.then((r) => {
      if (my !== gen) return;
      let score: number;
      let liveLine: string;
      let live: number;
      const facts = fmtFacts(question.facts(r, ps));
      if (question.kind === 'number') {
        live = question.answer(r, ps);
        score = scoreNumber(p.value, live, question.rule);
        liveLine = t('drill.live', { live: fmt(live), pred: fmt(p.value), factor: fmt(closeness(p.value, live), 3) });
        facts.answer = fmt(live);
      } else {
        live = question.correct(r, ps);
        score = scoreChoice(p.value, live);
        liveLine = t('drill.liveChoice', { answer: t(`drill.o.${question.id}.${live}` as MessageKey), pred: t(`drill.o.${question.id}.${p.value}` as MessageKey) });
      }
      const rec = recordAnswer(current(), k, score);
      if (rec.counted) { session[k] = score; save(); }
      showProgress();
      const show = h('a', { class: 'button', 'data-drill-show': '', text: t('drill.show') }) as HTMLAnchorElement;
      const target = questionState(state, question, Number(k.split(':')[1])).state;
      show.href = toHash(target);
      result.dataset.score = String(score);
      result.dataset.live = String(live);
      result.replaceChildren(
        h('p', { class: 'drill-live', 'data-drill-live': '', 'data-value': String(live), text: liveLine }),
        h('p', { class: 'drill-score', 'data-drill-score': String(score), text: t(`drill.score.${score}` as MessageKey) + (rec.counted ? '' : ' ' + t('drill.again')) }),
        h('p', { class: 'drill-why', 'data-drill-why': '', text: t(`drill.why.${question.id}` as MessageKey, facts) }),
        show);
    }, (e: unknown) => {
      if (my !== gen) return;
      if (e instanceof CoreError && e.kind === 'superseded') return;
      revealed = false;
      reveal.disabled = false;
      result.replaceChildren(h('p', { class: 'err', text: workerFailure(e, t) ?? t('drill.failed', { message: e instanceof Error ? e.message : String(e) }) }));
    });
  });

  return {
    update(next: State, changed: Set<StateKey> | null) {
      state = next;
      if (changed === null || changed.has('dq') || changed.has('dseed') || changed.has('kernel') || changed.has('lang')) setQuestion(next);
      if (changed === null) showProgress();
    },
    destroy() { gen++; window.removeEventListener('storage', onStorage); el.remove(); },
  };
}
