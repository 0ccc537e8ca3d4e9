// "Your model", the first section of Scales in the wild: paste or drop a config.json (or pick a saved one), and see
// the scale the model applies (modelConfig, read in the browser), its ratio to 1/√d_head, every modifier with its
// field, the fields not understood, the entropy at L = wlen on iid inputs, and links opening saturation, long
// context and precision with its settings. A bad file gets its message beside the drop zone and loses nothing.
import type { AttentionStatsResult, ModelConfigResult } from '../../../wasm/js/core.js';
import { MODEL_CONFIG_LIMITS } from '../../../wasm/js/model-config.js';
import type { SavedModel, State } from '../state/state.ts';
import { toHash, withPatch } from '../state/state.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { fmt } from '../format.ts';
import { h, setText } from '../dom.ts';
import { busy, scrollTable } from './kit.ts';
import type { PanelCtx } from './kit.ts';
import { CoreError } from '../compute.ts';
import { SAVED_CONFIGS, readConfig, pastedPatch, modelOfState, numbersOf, yourModelParams, yourModelLinks } from '../requests/your-model.ts';
import type { YourModel } from '../requests/your-model.ts';

export interface YourModelSection { el: HTMLElement; update(s: State): void; destroy(): void }

/**
 * The section: its DOM, and update(state) redrawing it when ym, ymdh, ymsc, ymcap, wlen, the kernel or the language
 * change. `root` is the view's element, whose data-pending counts the section's requests in flight (kit.ts busy).
 */
export function yourModelSection({ t, store, compute }: PanelCtx, root: HTMLElement): YourModelSection {
  let state = store.state;
  // the last config pasted and read here (its result stays until another is read: a bad file loses nothing)
  let pasted: { result: ModelConfigResult; patch: Partial<State> | null } | null = null;
  let gen = 0;
  let drawn = '';

  const pick = h('select', { id: 'ym-pick', 'data-ym-pick': '' },
    h('option', { value: 'none', text: t('ym.pickNone') }),
    ...SAVED_CONFIGS.map((c) => h('option', { value: c.id, text: c.label, lang: 'en' }))) as HTMLSelectElement;
  pick.addEventListener('change', () => {
    store.set({ ym: pick.value as SavedModel, ymdh: 0, ymsc: 0, ymcap: 0, exp: 'wild' }, 'ym');
  });
  const text = h('textarea', { id: 'ym-text', 'data-ym-text': '', rows: 6, spellcheck: false, class: 'ym-text' }) as HTMLTextAreaElement;
  text.setAttribute('autocomplete', 'off');
  const msg = h('p', { class: 'err ym-msg', 'data-ym-msg': '', role: 'alert' });
  const readBtn = h('button', { type: 'button', class: 'button', 'data-ym-read': '', text: t('ym.read') });
  const file = h('input', { type: 'file', id: 'ym-file', 'data-ym-file': '', accept: '.json,application/json' }) as HTMLInputElement;
  const drop = h('div', { class: 'ym-drop', 'data-ym-drop': '' },
    h('label', { for: 'ym-text', text: t('ym.paste') }), text,
    h('div', { class: 'ym-actions' }, readBtn, h('label', { for: 'ym-file', class: 'ym-file', text: t('ym.file') }), file),
    msg);

  const status = h('p', { class: 'note', 'data-ym-status': '', role: 'status' });
  const dl = h('dl', { class: 'readouts ym-readouts' });
  const ro = (id: string, key: MessageKey) => {
    const dt = h('dt', { text: t(key, { L: state.wlen }) });
    const dd = h('dd', { 'data-readout': id, text: '–' });
    dl.append(h('div', { class: 'ro' }, dt, dd));
    return { dt, dd };
  };
  const r = {
    dHead: ro('ym-dhead', 'ym.k.dHead'), scale: ro('ym-scale', 'ym.k.scale'), ref: ro('ym-ref', 'ym.k.ref'), ratio: ro('ym-ratio', 'ym.k.ratio'),
    entropy: ro('ym-entropy', 'ym.k.entropy'), refEntropy: ro('ym-ref-entropy', 'ym.k.refEntropy'),
  };
  const formula = h('p', { class: 'note', 'data-ym-formula': '', lang: 'en' });
  const mods = h('table', { class: 'table wild-table', 'data-ym-mods': '' });
  const modsWrap = scrollTable(mods, t('ym.h.mods'), { class: 'table-wrap wild-wrap' });
  const fields = h('div', { class: 'ym-fields', 'data-ym-fields': '' });
  const links = h('p', { class: 'ym-links', 'data-ym-links': '' });
  const entNote = h('p', { class: 'note' });
  const out = h('div', { 'data-ym-out': '' }, status, dl, formula, h('h4', { text: t('ym.h.mods') }), modsWrap, fields, links, entNote);

  // folded until the reader opens it (or drops a file on the section): the view's first chart stays on the first screen
  const paste = h('details', { class: 'ym-paste', 'data-ym-paste': '' },
    h('summary', { text: t('ym.pasteSummary') }), h('p', { class: 'note', text: t('ym.intro') }), drop);
  const el = h('section', { class: 'ym', 'data-your-model': '', 'aria-labelledby': 'ym-h' },
    h('div', { class: 'ym-head' }, h('h3', { id: 'ym-h', text: t('ym.h') }),
      h('div', { class: 'ym-pick' }, h('label', { for: 'ym-pick', text: t('ym.pick') }), pick)),
    paste);

  const read = (content: string) => {
    if (content.trim() === '') { setText(msg, t('ym.empty')); return; }
    const got = readConfig(content);
    if (!got.ok) { setText(msg, t('ym.bad', { message: got.error.message })); return; }
    const patch = pastedPatch(got.result);
    setText(msg, patch.ok ? '' : t('ym.notLinked', { key: patch.key, value: fmt(patch.value, 6) }));
    pasted = { result: got.result, patch: patch.ok ? patch.patch : null };
    if (patch.ok) store.set({ ...patch.patch, exp: 'wild' }, 'ymdh');
    else { drawn = ''; draw(); }
  };
  const readFile = (f: File | undefined) => {
    if (!f) return;
    if (f.size > MODEL_CONFIG_LIMITS.chars) { setText(msg, t('ym.tooBig', { size: f.size, limit: MODEL_CONFIG_LIMITS.chars })); return; }
    f.text().then((content) => { text.value = content; read(content); }, (e: unknown) => setText(msg, t('ym.bad', { message: e instanceof Error ? e.message : String(e) })));
  };
  readBtn.addEventListener('click', () => read(text.value));
  file.addEventListener('change', () => { readFile(file.files?.[0]); file.value = ''; });
  // a file dropped anywhere on the section is read (the paste zone opens to show it and any message)
  el.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  el.addEventListener('dragleave', () => drop.classList.remove('over'));
  el.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    paste.open = true;
    readFile(e.dataTransfer?.files?.[0]);
  });

  /** The model the state names, with a pasted result when the state holds its numbers. */
  const current = (): YourModel | null => {
    if (state.ym === 'none' && pasted?.patch && pasted.patch.ymdh === state.ymdh && pasted.patch.ymsc === state.ymsc && pasted.patch.ymcap === state.ymcap) {
      return { from: 'pasted', label: t('ym.pasted'), result: pasted.result };
    }
    if (state.ym === 'none' && pasted && !pasted.patch && state.ymdh === 0) return { from: 'pasted', label: t('ym.pasted'), result: pasted.result };
    return modelOfState(state);
  };

  const modRows = (res: ModelConfigResult) => {
    const cols = ['kind', 'field', 'value', 'inScale', 'note'] as const;
    const head = h('thead', {}, h('tr', {}, ...cols.map((c) => h('th', { scope: 'col', text: t(`ym.th.${c}` as MessageKey) }))));
    const body = h('tbody');
    for (const m of res.modifiers) {
      const cell = (c: (typeof cols)[number], content: string | Node, lang?: string) => h('td', { 'data-col': c, 'data-label': t(`ym.th.${c}` as MessageKey), lang }, content);
      body.append(h('tr', { 'data-ym-mod': m.kind },
        h('th', { scope: 'row', 'data-col': 'kind', lang: 'en', text: m.kind }),
        cell('field', h('code', { text: m.field })),
        cell('value', typeof m.value === 'number' ? fmt(m.value, 6) : String(m.value), 'en'),
        cell('inScale', m.inScale ? t('ym.inScale', { factor: fmt(m.factor, 6) }) : t('ym.beside')),
        h('td', { 'data-col': 'note', 'data-label': t('ym.th.note'), class: 'rule' },
          h('details', {}, h('summary', { lang: 'en', text: m.note }), h('p', { lang: 'en', class: 'src', text: m.source })))));
    }
    if (res.modifiers.length === 0) body.append(h('tr', {}, h('td', { colSpan: cols.length, text: t('ym.noMods') })));
    mods.replaceChildren(head, body);
  };
  const fieldList = (key: MessageKey, names: readonly string[], attr: string) =>
    h('details', { [`data-ym-${attr}`]: '' }, h('summary', { text: t(key, { n: names.length }) }),
      h('p', { lang: 'en', class: 'src', text: names.length > 0 ? names.join(', ') : '–' }));

  const draw = () => {
    const m = current();
    pick.value = state.ym;
    for (const k of ['entropy', 'refEntropy'] as const) setText(r[k].dt, t(k === 'entropy' ? 'ym.k.entropy' : 'ym.k.refEntropy', { L: state.wlen }));
    setText(entNote, t('ym.entNote', { L: state.wlen }));
    const key = m === null ? 'none' : `${m.from}:${JSON.stringify(numbersOf(m))}:${m.from === 'link' ? '' : m.result.modelType}:${state.wlen}:${state.kernel}`;
    if (key === drawn) return;
    drawn = key;
    const my = ++gen;
    // with no model the read-outs are not in the page at all (a '–' read-out would read as one still computing)
    if (m === null) { out.remove(); return; }
    if (out.parentNode !== el) el.append(out);
    const n = numbersOf(m);
    setText(r.dHead.dd, String(n.dHead));
    setText(r.scale.dd, fmt(n.scale, 6));
    setText(r.ref.dd, fmt(1 / Math.sqrt(n.dHead), 6));
    setText(r.ratio.dd, `${fmt(n.scale * Math.sqrt(n.dHead), 4)}×`);
    if (m.from === 'link') {
      setText(status, t('ym.fromLink', { dHead: n.dHead, scale: fmt(n.scale, 6), cap: n.softcap }));
      setText(formula, '');
      modsWrap.hidden = true;
      fields.replaceChildren();
    } else {
      const res = m.result;
      setText(status, `${t('ym.readFrom', { label: m.label, type: res.modelType || '–' })}${res.known ? '' : ` ${t('ym.unknownType')}`}`);
      setText(formula, `c = ${res.formula}; d_head = ${res.dHeadFrom}`);
      modsWrap.hidden = false;
      modRows(res);
      fields.replaceChildren(fieldList('ym.fields.used', res.used, 'used'), fieldList('ym.fields.ignored', res.ignored, 'ignored'), fieldList('ym.fields.unknown', res.unknown, 'unknown'));
    }
    links.replaceChildren(...yourModelLinks(m).flatMap(({ view, patch }, i) => {
      const label = t(`ym.open.${view}` as MessageKey);
      const node = patch
        ? h('a', { 'data-ym-link': view, href: toHash(withPatch({ ...state, embed: false }, patch)), text: label, target: state.embed ? '_blank' : undefined, rel: state.embed ? 'noopener' : undefined })
        : h('span', { 'data-ym-link': view, class: 'note', text: `${label}: ${t('ym.cannot')}` });
      return i > 0 ? [' · ', node] : [node];
    }));
    for (const dd of [r.entropy.dd, r.refEntropy.dd]) { dd.textContent = '…'; dd.removeAttribute('title'); }
    const p = yourModelParams(state, m);
    const show = (dd: HTMLElement, req: Promise<AttentionStatsResult>) => {
      busy(root, req.then(() => undefined, () => undefined));
      req.then((res) => { if (my === gen) setText(dd, fmt(res.summary.entropy.mean)); }, (e: unknown) => {
        if (my !== gen || (e instanceof CoreError && e.kind === 'superseded')) return;
        setText(dd, '!');
        dd.title = e instanceof Error ? e.message : String(e);
      });
    };
    show(r.entropy.dd, compute.get('sweep', 'attentionStats', p.own, 'ym:own'));
    show(r.refEntropy.dd, compute.get('sweep', 'attentionStats', p.ref, 'ym:ref'));
  };

  return {
    el,
    update(s: State) {
      const langOrEmbed = s.lang !== state.lang || s.embed !== state.embed;
      state = s;
      if (langOrEmbed) drawn = '';
      draw();
    },
    destroy() { gen++; },
  };
}
