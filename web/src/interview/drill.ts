// Section 4 of the interview view, the drill (predict, then reveal). Placeholder: the heading only;
// the drill itself is built on the branch interview-drill, which replaces this file.
import { h } from '../dom.ts';
import type { PanelCtx } from '../panels/shell.ts';
import type { State, StateKey } from '../state/state.ts';

export interface SlotView { update(state: State, changed: Set<StateKey> | null): void; destroy(): void }

export function mountDrill(host: HTMLElement, ctx: PanelCtx): SlotView {
  host.replaceChildren(h('h3', { text: ctx.t('iv.drill.title') }));
  return { update() {}, destroy() { host.replaceChildren(); } };
}
