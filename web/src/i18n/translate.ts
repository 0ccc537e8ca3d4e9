// Filling a catalogue's message: the one rule of t() for the page (./catalogue.ts) and for Node and
// the tests (./messages.ts).
import type { MessageKey } from './keys.ts';

/** A translator bound to one language. */
export type T = (key: MessageKey, vars?: Record<string, string | number>) => string;

/** A language's messages: every key of the English catalogue. */
export type Catalogue = Readonly<Record<MessageKey, string>>;

/**
 * The message of `key` in `cat` (or, where it has none, in `fallback`; else the key itself), its
 * {name} placeholders filled from `vars` as text; a placeholder without a value stays as written.
 */
export function fill(cat: Catalogue | undefined, fallback: Catalogue | undefined, key: MessageKey, vars?: Record<string, string | number>): string {
  const s = cat?.[key] ?? fallback?.[key] ?? key;
  if (!vars) return s;
  return s.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}
