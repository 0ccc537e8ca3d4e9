// "Copy as code" under a computing view's readouts: NumPy and PyTorch buttons that copy the view's Python script for
// the current link (reproduce/code.ts, loaded on the first click), and the same for the embed dialog.
import { h } from '../dom.ts';
import { copyText } from '../copy.ts';
import { hasCode, CODE_LANGS, AGREE_SIGMAS } from '../reproduce/views.ts';
import type { CodeLang, CodeData } from '../reproduce/views.ts';
import type { State } from '../state/state.ts';
import type { AppState } from './state.ts';
import { wildCatalogue } from '../requests/your-model.ts';
import type { T } from '../i18n/messages.ts';
import { CORE_VERSION } from './link-version.ts';

/** What the script of `state`'s view needs of the core beyond the state (Scales in the wild: its catalogue). */
export async function codeData(app: Pick<AppState, 'compute'>, state: State): Promise<CodeData> {
  return state.exp === 'wild' ? { catalogue: wildCatalogue(await app.compute.get('live', 'modelScales', {})) } : {};
}

/** The script of `state`'s view for `link` in flavour `lang` (the generator loads on the first call). */
export async function codeOf(app: Pick<AppState, 'compute'>, state: State, lang: CodeLang, t: T, link: string): Promise<string> {
  const [{ exportCode }, data] = await Promise.all([import('../reproduce/code.ts'), codeData(app, state)]);
  const code = exportCode(state, lang, t, link, CORE_VERSION, data);
  if (code === null) throw new RangeError(`the view ${state.exp} exports no code`);
  return code;
}

/**
 * The bar of a view that exports code (null for one that does not): a label, a button per flavour (each a
 * keyboard-reachable <button> whose name says what it copies) and the text box the script is shown in where the
 * clipboard is refused. `link` gives the view's link at the moment of the click.
 */
export function codeBar(app: Pick<AppState, 'compute'>, state: State, t: T, link: () => string, current: () => State): HTMLElement | null {
  if (!hasCode(state.exp)) return null;
  const fallback = h('textarea', { class: 'copy-fallback', readOnly: true, rows: 6, hidden: true, spellcheck: false, 'aria-label': t('code.fallback') }) as HTMLTextAreaElement;
  const buttons = CODE_LANGS.map((lang) => {
    const b = h('button', {
      type: 'button', class: 'button ghost', 'data-action': 'copy-code', 'data-code-lang': lang,
      'aria-label': t(`code.${lang}.name`), title: t(`code.${lang}.title`, { sigmas: AGREE_SIGMAS }), text: t(`code.${lang}`),
    }) as HTMLButtonElement;
    b.addEventListener('click', () => {
      void codeOf(app, current(), lang, t, link()).then((code) => copyText(code, b, fallback, t), () => { fallback.hidden = false; fallback.value = t('app.copyFailed'); });
    });
    return b;
  });
  return h('div', { class: 'code-export', 'data-code-export': '' },
    h('span', { class: 'code-export-label small muted', text: t('code.label') }), ...buttons,
    h('span', { class: 'small muted code-export-note', text: t('code.note', { sigmas: AGREE_SIGMAS }) }), fallback);
}
