// The language switch in the header: English / 简体中文, with the other language's catalogue fetched when the reader reaches for it.
import { select } from '../controls.ts';
import type { Control } from '../controls.ts';
import { loadCatalogue } from '../i18n/catalogue.ts';
import type { AppState } from './state.ts';

export function languageSwitch(app: AppState): Control {
  const { store } = app;
  const control = select(store, null, 'lang', app.t('app.lang'), [{ value: 'en', label: 'English', lang: 'en' }, { value: 'zh-CN', label: '简体中文', lang: 'zh-CN' }]);
  // the other language's catalogue is fetched when the reader reaches for the menu, so a switch
  // rebuilds the page at once (the page loads only its own language's)
  const prefetch = () => { for (const l of ['en', 'zh-CN'] as const) if (l !== store.state.lang) void loadCatalogue(l, store.state.exp).catch(() => {}); };
  control.el.addEventListener('pointerenter', prefetch, { once: true });
  control.el.addEventListener('focusin', prefetch, { once: true });
  return control;
}
