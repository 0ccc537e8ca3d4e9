// Copying text for the reader: the clipboard where the browser allows it, else the text shown in a
// fallback text box to select by hand; the button says which for 1.5 s, then reads as before.
import type { T } from './i18n/messages.ts';

/** Copies text; `button` shows app.copied / app.copyFailed (label and aria-label restored after 1.5 s). */
export async function copyText(text: string, button: HTMLButtonElement, fallback: HTMLTextAreaElement, t: T): Promise<void> {
  const children = [...button.childNodes];
  const label = button.getAttribute('aria-label');
  let said: string;
  try {
    await navigator.clipboard.writeText(text);
    said = t('app.copied');
    fallback.hidden = true;
  } catch {
    said = t('app.copyFailed');
    fallback.hidden = false;
  }
  button.replaceChildren(said);
  if (label) button.setAttribute('aria-label', said);
  fallback.value = text;
  setTimeout(() => { button.replaceChildren(...children); if (label) button.setAttribute('aria-label', label); }, 1500);
}
