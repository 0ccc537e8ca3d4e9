// Light and dark colour schemes. `auto` follows prefers-color-scheme; an embed can force one
// (theme=light|dark). The page's colours are CSS variables (style.css); charts read the resolved
// scheme here, since a canvas does not inherit CSS.
import type { State } from './state/state.ts';

export interface ChartColours { text: string; grid: string; background: string; marker: string }

const LIGHT: ChartColours = { text: '#374151', grid: '#e5e7eb', background: '#ffffff', marker: 'rgba(17, 24, 39, 0.45)' };
const DARK: ChartColours = { text: '#d1d5db', grid: '#374151', background: '#161b22', marker: 'rgba(229, 231, 235, 0.55)' };

/** The event on `document` when the scheme in force changes (a theme key, or the system's setting under auto). */
const THEME_CHANGE_EVENT = 'sqrtdk-theme-change';

/** Calls `fn` whenever the scheme in force changes; returns the unsubscribe. */
export function onThemeChange(fn: () => void): () => void {
  if (typeof document === 'undefined') return () => {};
  const listener = () => fn();
  document.addEventListener(THEME_CHANGE_EVENT, listener);
  return () => document.removeEventListener(THEME_CHANGE_EVENT, listener);
}

function systemDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/** The scheme of `theme`: the chosen one, or the system's for `auto`. */
function schemeOf(theme: State['theme']): 'light' | 'dark' {
  return theme === 'auto' ? (systemDark() ? 'dark' : 'light') : theme;
}

/** The scheme in force: the one the page shows (<html data-theme>, set by applyTheme), else the system's. */
export function resolvedScheme(): 'light' | 'dark' {
  const shown = typeof document === 'undefined' ? undefined : document.documentElement.dataset.theme;
  return shown === 'dark' || shown === 'light' ? shown : schemeOf('auto');
}

export function chartColours(): ChartColours {
  return resolvedScheme() === 'dark' ? DARK : LIGHT;
}

/** Puts `theme` in force on the page (the app calls it as it builds the page, and again when the system's setting changes). */
export function applyTheme(theme: State['theme']): void {
  const el = document.documentElement;
  const before = el.dataset.theme;
  el.dataset.theme = schemeOf(theme);
  el.style.colorScheme = schemeOf(theme);
  if (before !== undefined && before !== el.dataset.theme) document.dispatchEvent(new Event(THEME_CHANGE_EVENT));
}

/** Calls `fn` when the system's colour scheme changes (the app then applies the state's theme again). */
export function onSystemScheme(fn: () => void): void {
  if (typeof matchMedia === 'function') matchMedia('(prefers-color-scheme: dark)').addEventListener('change', fn);
}

/** True when the reader asked for less motion (no smooth scrolling, no chart animation). */
export function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}
