// The page's entry (index.html): reads the state from the hash, starts the workers and the page's core, creates the one AppState and wires the store, the URL and the browser's events to the app's modules; the first view mounts once its code is in.
import '../style.css';
// the views' own stylesheets stay in the page's (they are small): loaded with a view's chunk they
// would come before this one in the document and lose to it where rules tie (the interview's
// print sheet grew from 2 A4 pages to 5)
import '../panels/interview.css';
import '../panels/drill.css';
import '../panels/device.css';
import '../panels/scales.css';
import '../embed/formats.css';
import { parseHash, langFromNavigator, issuesToShow } from '../state/state.ts';
import { Store } from '../state/store.ts';
import { bindUrl } from '../state/url.ts';
import { translator, loadCatalogue } from '../i18n/catalogue.ts';
import { Compute, defaultPoolSize } from '../compute.ts';
import { CoreSource, coreWorker } from '../worker/boot.ts';
import { FIRST_PART_VIEWS } from '../worker/cost.ts';
import { poolOverride, backoffOverride } from '../worker/pool.ts';
import { moduleWorker, pageThreadOverride } from '../worker/spawn.ts';
import { InThreadCore } from '../worker/in-thread.ts';
import coreWorkerUrl from '../worker/worker.ts?worker&url';
import { reportHeight } from '../embed/report.ts';
import { wordpressSecret } from '../embed/wordpress.ts';
import { applyTheme, onSystemScheme } from '../theme.ts';
import { simdSupported } from '../../../wasm/js/core.js';
import { checkLinkVersion, isOwnAddress, markOwnAddress } from './link-version.ts';
import { startPwa } from './pwa.ts';
import { FIRST_FINAL_DRAW_EVENT } from '../charts/events.ts';
import { pageContext, withPageView } from '../share/url.ts';
import { takeFirstPaint } from '../share/firstpaint.ts';
import { createAppState } from './state.ts';
import type { AppState } from './state.ts';
import { showStatus } from './status.ts';
import { showRestart, showStartNotice, checkKernel, retryCore } from './notices.ts';
import { embedProblem } from './embed.ts';
import { loadView } from './views.ts';
import { costCore, whenIdle, requestInfo } from './core.ts';
import { mount, recovered, startSizing } from './mount.ts';
import { onStateChange, onBrowserHash } from './routing.ts';

const root = document.getElementById('app')!;
// a share page (p/<exp>/, zh-CN/p/<exp>/) opens its view in its language unless the hash says otherwise
const page = pageContext(document.documentElement);
const firstPaint = takeFirstPaint(root);
const navLang = page.lang ?? langFromNavigator(navigator.languages ?? [navigator.language]);
const linkReads = { count: 0 };
// the reader's own address after a reload (an update among others) is not flagged as another core's link
const initial = checkLinkVersion(parseHash(withPageView(location.hash, page), navLang), linkReads, isOwnAddress());
markOwnAddress();
/** WordPress's secret in the address the frame was opened with (the address is rewritten below) */
const wpSecret = wordpressSecret(location.hash);
const store = new Store(initial.state);

// the core's module is compiled once, here, and posted to every worker of the pool
// on the variance view the core starts with its first part (boot.ts; the full core follows when
// another view or the page's idle time asks for it)
const startsWithFirstPart = FIRST_PART_VIEWS.includes(initial.state.exp);
// the callbacks below run after this module has created `app` (a download's progress, a worker's start)
const coreSource = new CoreSource((loaded, total) => { app.download = { loaded, total }; showStatus(app); }, startsWithFirstPart);
// blob: workers that failed before answering (worker/spawn.ts): after one, the pool's cores run on this thread
const blobFailures = { count: 0 };
const compute = new Compute({
  // one worker per core but one at most; they start as calls wait for them and as far as their
  // measured speed pays (worker/pool-size.ts), except the fixed size `?pool=N` asks for
  poolSize: poolOverride(location.search) ?? defaultPoolSize(navigator.hardwareConcurrency),
  poolGrows: poolOverride(location.search) === null,
  // a worker where one can start (from a blob: script in a sandboxed frame, worker/spawn.ts), else
  // the core on this thread with the same handler and module: the same numbers, never a blank view
  // (<html data-core-thread> says which, for tests)
  createWorker: (i) => {
    if (blobFailures.count === 0 && !pageThreadOverride(location.search)) {
      try {
        const w = coreWorker(() => moduleWorker(coreWorkerUrl, `sqrtdk-core-${i}`, blobFailures), coreSource);
        document.documentElement.dataset.coreThread ??= 'worker';
        return w;
      } catch { /* no worker may start here */ }
    }
    document.documentElement.dataset.coreThread = 'page';
    return new InThreadCore(coreSource.get(), coreSource);
  },
  announcesReady: true,
  // ?backoff=ms,… (tests) replaces the production delays between attempts (pool.ts START_BACKOFF_MS)
  ...(backoffOverride(location.search) ? { backoffMs: backoffOverride(location.search)! } : {}),
  onStartState: (s) => {
    const was = app.start.state;
    app.start = s;
    if (s.state !== 'ready') void coreSource.failed();
    showStartNotice(app);
    if (s.state === 'ready' && was === 'unavailable') recovered(app);
    showStatus(app);
  },
  onRestart: (reason) => {
    const w = window as unknown as { __sqrtdkRestarts?: number };
    w.__sqrtdkRestarts = (w.__sqrtdkRestarts ?? 0) + 1;
    showRestart(app, reason);
  },
});
// back online: the workers that could not start try again at once (during a wait, or after giving up)
window.addEventListener('online', () => retryCore(app));
// bench:ui clears the result cache between measured changes, so each one is really computed;
// tests and bench:ui read the pool size and the counters of computations per panel
(window as unknown as { __sqrtdkBench?: object }).__sqrtdkBench = { clearCache: () => compute.clearCache(), stats: () => compute.stats() };

// the store's listener comes before the URL's (bindUrl), as the page's reaction to a change comes before its history entry
store.subscribe((state, changed, source) => onStateChange(app, state, changed, source));
const url = bindUrl(store, navLang);

const app: AppState = createAppState({
  root, page, navLang, firstPaint, store, url, compute, coreSource, startsWithFirstPart, linkReads, blobFailures,
  t: translator(store.state.lang),
  pendingIssues: issuesToShow(initial),
  badEmbed: embedProblem(initial.issues, initial.present, initial.state),
});

void simdSupported().then((ok) => { app.simdOk = ok; checkKernel(app); }, () => {});

// under theme=auto the page follows the system's scheme (a theme the link names stays)
onSystemScheme(() => applyTheme(store.state.theme));
window.addEventListener('popstate', () => onBrowserHash(app));
window.addEventListener('hashchange', () => onBrowserHash(app));
if (initial.state.embed) reportHeight(wpSecret);

// Building the page keeps the main thread busy for a while, and a worker cannot start while it
// is: let the compute workers (created above) start fetching and compiling the core first. The
// view mounts as soon as its code is in, while the core compiles; its requests are sized by the
// core's cost model (worker/cost.ts), so it gets its state (and sends them) once the page's own
// instance of the core (the same compiled module) answers — or could not load: the requests then
// say why they cannot be sized.
// The first paint stays until the view's code is in, so the page's frame and the view replace it
// in one frame (the frame alone, then the view below it, would move the footer on a cold load).
// The parts of the page language's catalogue the view needs load beside its code (the page waits
// for both). They are asked for in a task after this module's: the link tags of the view's chunks,
// which the dynamic import adds, were a third of the module's first run (a 50–60 ms task).
const mountSoon = () => setTimeout(() => mount(app), 0);
setTimeout(() => void Promise.allSettled([loadView(app, initial.state.exp), loadCatalogue(initial.state.lang, initial.state.exp)]).then(mountSoon), 0);
void costCore(app).finally(() => startSizing(app));

/**
 * When the service worker registers: in idle time after the page's first chart has drawn final
 * data, or 10 s after the start if none does (a view without charts, or one that failed to load,
 * still gets its offline copy for the next visit).
 */
const firstChartDrawn = new Promise<void>((resolve) => {
  document.addEventListener(FIRST_FINAL_DRAW_EVENT, () => whenIdle(resolve), { once: true });
  setTimeout(resolve, 10_000);
});
startPwa(() => app.t, firstChartDrawn);
requestInfo(app);
