// Light and dark colour schemes. `auto` follows prefers-color-scheme; an embed can force one
// (theme=light|dark). The page's colours are CSS variables (style.css); charts read the resolved
// scheme here, since a canvas does not inherit CSS.
import type { State } from './state/state.ts';

export interface ChartColours { text: string; grid: string; background: string; marker: string }

const LIGHT: ChartColours = { text: '#374151', grid: '#e5e7eb', background: '#ffffff', marker: 'rgba(17, 24, 39, 0.45)' };
const DARK: ChartColours = { text: '#d1d5db', grid: '#374151', background: '#161b22', marker: 'rgba(229, 231, 235, 0.55)' };

let chosen: State['theme'] = 'auto';
const listeners = new Set<() => void>();

/** Calls `fn` whenever the scheme in force changes (a theme key, or the system's setting under auto); returns the unsubscribe. */
export function onThemeChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => { listeners.delete(fn); };
}

function systemDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/** The scheme in force: the chosen one, or the system's for `auto`. */
export function resolvedScheme(): 'light' | 'dark' {
  return chosen === 'auto' ? (systemDark() ? 'dark' : 'light') : chosen;
}

export function chartColours(): ChartColours {
  return resolvedScheme() === 'dark' ? DARK : LIGHT;
}

export function applyTheme(theme: State['theme']): void {
  chosen = theme;
  const el = document.documentElement;
  const before = el.dataset.theme;
  el.dataset.theme = resolvedScheme();
  el.style.colorScheme = resolvedScheme();
  if (before !== undefined && before !== el.dataset.theme) for (const fn of [...listeners]) fn();
}

if (typeof matchMedia === 'function') {
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyTheme(chosen));
}

/** True when the reader asked for less motion (no smooth scrolling, no chart animation). */
export function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}
