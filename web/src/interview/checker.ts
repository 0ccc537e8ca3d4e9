// Section 5 of the interview view, the claim checker (C1–C11 with live numbers and verdicts).
// Placeholder: the heading only; the checker is built on the branch interview-drill, which replaces this file.
import { h } from '../dom.ts';
import type { PanelCtx } from '../panels/shell.ts';
import type { State, StateKey } from '../state/state.ts';

export function mountClaimChecker(host: HTMLElement, ctx: PanelCtx): { update(state: State, changed: Set<StateKey> | null): void; destroy(): void } {
  host.replaceChildren(h('h3', { text: ctx.t('iv.claims.title') }));
  return { update() {}, destroy() { host.replaceChildren(); } };
}
