// The page's state: one object, created at boot (app/boot.ts) and passed to every module of app/ — the view shown and its frame, the link's notices, the core's start and the counters that keep late answers out.
import type { Store } from '../state/store.ts';
import type { UrlBinding } from '../state/url.ts';
import type { Lang, Panel, ParseIssue } from '../state/state.ts';
import type { T } from '../i18n/messages.ts';
import type { Compute } from '../compute.ts';
import type { CoreSource } from '../worker/boot.ts';
import type { StartState } from '../worker/pool.ts';
import type { Control } from '../controls.ts';
import type { PanelView, PanelCtx } from '../panels/kit.ts';
import type { CoreInfo } from '../../../wasm/js/core.js';
import type { PageContext } from '../share/url.ts';
import type { FirstPaint } from '../share/firstpaint.ts';
import type { EmbedFormat } from '../embed/formats.ts';
import type { LinkReads } from './link-version.ts';
import type { BlobFailures } from '../worker/spawn.ts';
import { ChartPage } from '../charts/page.ts';
import { Engine } from '../engine.ts';

/** A view's factory (the default export of its chunk). */
export type Factory = (ctx: PanelCtx) => PanelView;

/** The page's frame that follows the state: the language control, the core's status line, the tabs and the phone menu. */
export interface Chrome { controls: Control[]; status: HTMLElement; nav: HTMLElement; menu: HTMLSelectElement }

/** In embed mode: the raw exp (or show) of a link that named no panel (or no part). */
export type BadEmbed = { key: 'exp' | 'show' | 'hash'; raw: string; used?: string } | null;

/** The download of the core (bytes so far, whole size or null) until it is compiled. */
export type Download = { loaded: number; total: number | null } | null;

export interface AppState {
  // what the page is made of (set at boot, never replaced)
  /** the page's element (#app) */
  readonly root: HTMLElement;
  /** a share page (p/<exp>/, zh-CN/p/<exp>/): its view and language */
  readonly page: PageContext;
  /** the language the browser asks for (a link without lang opens in it) */
  readonly navLang: Lang;
  /** the build's first paint, laid over the first view's first chart */
  readonly firstPaint: FirstPaint;
  readonly store: Store;
  readonly url: UrlBinding;
  readonly compute: Compute;
  /** the core's compiled module, posted to every worker (its first part, then the full core) */
  readonly coreSource: CoreSource;
  /** the page started on a view of the core's first part */
  readonly startsWithFirstPart: boolean;
  /** the links read so far (app/link-version.ts: only the newest link's notice shows) */
  readonly linkReads: LinkReads;
  /** the snippet format chosen last in the embed dialog (a blogger embeds several views in one format) */
  readonly embedChoice: { format: EmbedFormat };
  /** blob: workers that failed before answering (worker/spawn.ts): the pool's cores then run on the page's thread */
  readonly blobFailures: BlobFailures;
  /** the engine that computes: the workers' answer to `info` (status bar, device panel, <html data-engine>) */
  readonly engine: Engine;
  /** the page's charts: draw queue, viewport observer, first final draw (handed to every view) */
  readonly charts: ChartPage;
  /** what each view keeps across its rebuilds (PanelCtx.keep), by the view's key */
  readonly kept: Map<string, unknown>;
  /** each view's code, loaded once (app/views.ts) */
  readonly viewCode: Map<Panel, Promise<Factory>>;

  // the view and the page around it
  /** the page language's translator (replaced when the page is built in another language) */
  t: T;
  view: PanelView | null;
  /** the <main> that holds the view */
  viewHost: HTMLElement | null;
  chrome: Chrome | null;
  /** counts the views asked for (showPanel, mount): a view whose code arrives after a newer one was asked for is not shown */
  viewSeq: number;
  /** the viewSeq of the view mounted now: it gets the state's changes only while no newer view is loading */
  shownSeq: number;
  /** the page can size requests (its core answers cost estimates, or could not load): a mounted view gets its state */
  sizing: boolean;
  /** counts the page builds asked for: one waiting for its language's catalogue is dropped once a newer one is asked for */
  mountSeq: number;
  /** a page build waits for its catalogue (the page shown, if any, is about to be replaced) */
  mountPending: boolean;

  // the link
  /** the unusable parts of the link that opened the view (its notice) */
  pendingIssues: ParseIssue[];
  badEmbed: BadEmbed;

  // the core
  info: CoreInfo | null;
  infoError: string;
  download: Download;
  /** views waiting for the full core (waitForFull): the status bar says the core is loading meanwhile */
  waitingFull: number;
  /** the workers' start after a failure: retrying with a backoff, or given up (unavailable) */
  start: StartState;
  /** the page's own instance of the core answers the cost model */
  costCoreLoaded: boolean;
  /** the page's cost model runs on the full core (a view beyond the first part asked for it, or the page was idle) */
  costOnFull: Promise<void> | null;
  /** the full core is loaded, or asked for in idle time, or never in idle time (an embed) */
  fullSoon: boolean;
  /** the engine has WebAssembly SIMD128 (null until known) */
  simdOk: boolean | null;

  // the notices
  restartNotice: HTMLElement | null;
  /** a worker restart reported while no view was on screen yet (shown with the view that comes) */
  pendingRestart: 'timeout' | 'crash' | null;
  startNotice: HTMLElement | null;
  kernelNotice: HTMLElement | null;
  /** a link's kernel=simd fell back to the scalar kernel (its notice shows until dismissed) */
  kernelFellBack: boolean;
}

/** What the page is made of; the rest of the state starts empty. */
export type AppParts = Pick<AppState, 'root' | 'page' | 'navLang' | 'firstPaint' | 'store' | 'url' | 'compute' | 'coreSource' | 'startsWithFirstPart' | 'linkReads' | 'blobFailures' | 't' | 'pendingIssues' | 'badEmbed'>;

export function createAppState(parts: AppParts): AppState {
  return {
    ...parts,
    viewCode: new Map(),
    charts: new ChartPage(),
    engine: new Engine(),
    kept: new Map(),
    embedChoice: { format: 'html' },
    view: null, viewHost: null, chrome: null,
    viewSeq: 0, shownSeq: 0, sizing: false, mountSeq: 0, mountPending: false,
    info: null, infoError: '', download: null, waitingFull: 0, start: { state: 'ready' },
    costCoreLoaded: false, costOnFull: null,
    // an embed shows its one view (a blog post may hold several): the full core only if its state
    // turns to another view (viewReady), never in idle time for nothing
    fullSoon: !parts.startsWithFirstPart || parts.store.state.embed,
    simdOk: null,
    restartNotice: null, pendingRestart: null, startNotice: null, kernelNotice: null, kernelFellBack: false,
  };
}
