// The interview's claim checker (issue 10, part 5): one row per claim box of the panels (C1–C11;
// C3 and C8 have two), with the article's number, the live numbers, the verdict and the rule that
// decided it, and the panel that shows the same numbers. Claims, requests and rules all come from
// web/src/claims.ts, the module the panels' claim boxes use, so the table and the boxes agree.
// The seed is `cseed` in the link; the claims that depend on a draw move with it.
import type { State, StateKey } from '../state/state.ts';
import { toHash, withPatch } from '../state/state.ts';
import type { PanelCtx } from './kit.ts';
import { scrollTable, workerFailure } from './kit.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { SCHEMA } from '../state/schema.js';
import { h, setText } from '../dom.ts';
import { fmt, pct } from '../format.ts';
import { CoreError } from '../compute.ts';
import { CLAIMS, CLAIM_IDS } from '../claims.ts';
import type { ClaimId, Live, Verdict } from '../claims.ts';
import './drill.css';

/** Live numbers that are shares of rows, shown as percentages. */
const SHARES: ReadonlySet<string> = new Set(['sqrtShare', 'noneShare', 'online', 'naive16', 'iidSqrt', 'iidInv', 'rhoSqrt', 'rhoInv']);
export function formatLive(l: Live): Record<string, string> {
  return Object.fromEntries(Object.entries(l).map(([k, v]) => [k, SHARES.has(k) ? pct(v) : fmt(v)]));
}

/** The state a claim is computed at (and its "show me" link opens), for the page's state and a seed. */
export function claimState(base: State, id: ClaimId, seed: number): State {
  return withPatch({ ...base, embed: false }, CLAIMS[id].patch(seed));
}

export function mountClaimChecker(host: HTMLElement, { t, store, compute }: PanelCtx): { update(state: State, changed: Set<StateKey> | null): void; destroy(): void } {
  const uid = Math.random().toString(36).slice(2, 8);
  const seedId = `chk-seed-${uid}`;
  const spec = SCHEMA.cseed;
  const seedIn = h('input', { type: 'number', id: seedId, min: spec.min, max: spec.max, step: 1, inputMode: 'numeric', class: 'seed', 'data-checker-seed': '' }) as HTMLInputElement;
  const seedErr = h('span', { class: 'err', role: 'alert', 'data-err-for': 'cseed' });
  seedIn.addEventListener('change', () => {
    const v = Number(seedIn.value.trim());
    if (seedIn.value.trim() !== '' && Number.isInteger(v) && v >= spec.min && v <= spec.max) { setText(seedErr, ''); store.set({ cseed: v }, 'cseed'); }
    else setText(seedErr, t('common.badInteger', { value: seedIn.value.slice(0, 40) || '(empty)', min: spec.min, max: spec.max }));
  });
  const reroll = h('button', { type: 'button', class: 'mini', 'data-checker-reroll': '', text: t('chk.reroll') }) as HTMLButtonElement;
  reroll.addEventListener('click', () => {
    const r = new Uint32Array(1);
    crypto.getRandomValues(r);
    store.set({ cseed: r[0] }, 'cseed');
  });

  const table = h('table', { class: 'table checker-table', 'data-checker': '' });
  const cols = ['claim', 'article', 'live', 'verdict', 'rule', 'link'] as const;
  table.append(h('thead', {}, h('tr', {}, ...cols.map((c) => h('th', { scope: 'col', 'data-col': c, text: t(`chk.th.${c}` as MessageKey) })))));
  const tbody = h('tbody');
  const rows = new Map<ClaimId, { tr: HTMLElement; live: HTMLElement; verdict: HTMLElement; link: HTMLAnchorElement }>();
  for (const id of CLAIM_IDS) {
    const d = CLAIMS[id];
    const live = h('td', { 'data-col': 'live', 'data-label': t('chk.th.live') });
    const verdict = h('td', { 'data-col': 'verdict', 'data-label': t('chk.th.verdict') });
    const link = h('a', { 'data-claim-link': id, text: t('chk.show') }) as HTMLAnchorElement;
    const tr = h('tr', { 'data-claim-row': id, 'data-panel-of': d.panel },
      h('th', { scope: 'row', 'data-col': 'claim' }, h('strong', { text: `${d.claim} ` }), t(`chk.${id}.claim` as MessageKey)),
      h('td', { 'data-col': 'article', 'data-label': t('chk.th.article'), text: t(`chk.${id}.article` as MessageKey) }),
      live, verdict,
      h('td', { 'data-col': 'rule', 'data-label': t('chk.th.rule'), class: 'rule', text: t(`chk.${id}.rule` as MessageKey) }),
      h('td', { 'data-col': 'link', 'data-label': t('chk.th.link') }, link));
    tbody.append(tr);
    rows.set(id, { tr, live, verdict, link });
  }
  table.append(tbody);
  const el = h('section', { class: 'checker', 'data-claim-checker': '' },
    h('h3', { id: `chk-h-${uid}`, text: t('chk.title') }),
    h('p', { class: 'lede', text: t('chk.lede') }),
    h('div', { class: 'control', 'data-key': 'cseed' },
      h('label', { for: seedId, text: t('chk.seed') }),
      h('div', { class: 'control-row' }, seedIn, reroll), seedErr),
    scrollTable(table, t('chk.title')));
  host.append(el);

  let gen = 0;
  let key = '';

  const setVerdict = (id: ClaimId, v: Verdict | null | 'pending') => {
    const row = rows.get(id)!;
    row.tr.dataset.verdict = v === null ? 'manual' : v;
    setText(row.verdict, t(v === null ? 'chk.verdict.manual' : `chk.verdict.${v}` as MessageKey));
  };

  function run(state: State) {
    const my = ++gen;
    for (const id of CLAIM_IDS) {
      const d = CLAIMS[id];
      const at = claimState(state, id, state.cseed);
      const row = rows.get(id)!;
      row.link.href = toHash(at);
      const reqs = d.requests(at);
      if (reqs.length === 0) {
        setText(row.live, t(`chk.${id}.live` as MessageKey));
        delete row.live.dataset.values;
        setVerdict(id, null);
        continue;
      }
      setVerdict(id, 'pending');
      setText(row.live, '–');
      delete row.live.dataset.values;
      // one channel per request of a row: a re-roll supersedes the previous seed's calls not yet sent
      Promise.all(reqs.map((r, j) => compute.get(r.worker, r.kind, r.params as never, `interview:chk:${id}:${j}`))).then((results) => {
        if (my !== gen) return;
        const live = d.extract(results, at);
        row.live.dataset.values = JSON.stringify(live);
        setText(row.live, t(`chk.${id}.live` as MessageKey, formatLive(live)));
        setVerdict(id, d.verdict(live));
      }, (e: unknown) => {
        if (my !== gen || (e instanceof CoreError && e.kind === 'superseded')) return;
        setText(row.live, workerFailure(e, t) ?? t('drill.failed', { message: e instanceof Error ? e.message : String(e) }));
        row.tr.dataset.verdict = 'error';
        setText(row.verdict, '–');
      });
    }
  }

  return {
    update(next: State, changed: Set<StateKey> | null) {
      const v = String(next.cseed);
      if (seedIn.value !== v && document.activeElement !== seedIn) seedIn.value = v;
      // what the requests depend on: the seed, and the kernel of the page
      const k = `${next.cseed}:${next.kernel}`;
      if (k !== key || changed === null) { key = k; run(next); }
    },
    destroy() { gen++; el.remove(); },
  };
}
