// Keeping focus and scroll position across a rebuild of the page (a language switch rebuilds
// every string): the focused element is found again by its path of child indices under the app
// root, which a rebuild in another language does not change.

export interface FocusMark { path: number[]; top: number }

export function focusPath(root: HTMLElement): FocusMark | null {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement) || !root.contains(el) || el === root) return null;
  const path: number[] = [];
  for (let n: Element = el; n !== root; n = n.parentElement!) path.unshift([...n.parentElement!.children].indexOf(n));
  return { path, top: el.getBoundingClientRect().top };
}

export function restoreFocus(root: HTMLElement, mark: FocusMark | null): void {
  if (!mark) return;
  let n: Element | undefined = root;
  for (const i of mark.path) { n = n?.children[i]; if (!n) return; }
  if (!(n instanceof HTMLElement)) return;
  n.focus({ preventScroll: true });
  window.scrollBy(0, n.getBoundingClientRect().top - mark.top);
}
