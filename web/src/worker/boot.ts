// The page's half of starting the core: compile the WebAssembly.Module once, streaming, while the
// page loads (index.html preloads the SIMD128 build), and hand it to each worker of the pool,
// which only instantiates it. simdSupported() (wasm-feature-detect) decides the build: the
// baseline .wasm is fetched only where the engine lacks SIMD128 or exception handling. The
// download reports its progress (a slow network shows how far it got, never a false failure); bytes that do not compile (a cache entry
// left by a captive portal) are evicted from the page's caches and fetched once more; and a core
// that the workers reject (not this version or build) is evicted and compiled again once too.
//
// Two parts (issue 20: the first view ≤ 250 KB gzip): on the variance view the SIMD128 build starts
// with the core's first part (sqrtdk-simd-first: scoreVariance and its cost, 28 KB gzip instead of
// 128), and the full core is compiled when a view, a request or the page's idle time needs it
// (CoreSource.full()), then handed to the workers ({ full } after { init }) and to the page's
// cost model. Both are the same objects and flags: the same numbers (tests/node/first-core.test.mjs).
import type { WorkerLike } from './protocol.ts';
import { simdSupported } from '../../../wasm/js/core.js';
import type { Core } from '../../../wasm/js/core.js';
import { coreOf, needsFull } from './parts.ts';
import type { CoreInit } from './parts.ts';


const SIMD_WASM = new URL('../../../wasm/dist/sqrtdk-simd.wasm', import.meta.url);
const FIRST_WASM = new URL('../../../wasm/dist/sqrtdk-simd-first.wasm', import.meta.url);
const BASE_WASM = new URL('../../../wasm/dist/sqrtdk-base.wasm', import.meta.url);

const wasmOf = (build: 'simd128' | 'baseline', part: 'first' | 'full') => (build === 'baseline' ? BASE_WASM : part === 'first' ? FIRST_WASM : SIMD_WASM);

/** Bytes of the core received so far, and the whole size when the server says it (else null). */
export type OnProgress = (loaded: number, total: number | null) => void;

/** Where a cache held an entry: the cache's name and the entry's own request (its key there). */
export interface CachedAt { cache: string; request: Request }

/**
 * Deletes `url` from every cache of this origin (the service worker's precache included); returns
 * where it was, so that the bytes fetched afresh can be put back in its place (putBack): a repaired
 * precache holds every file it held before (offline, the views of the full core kept working only
 * until the next deployment when the repair left the core out of it).
 */
export async function evictCached(url: string): Promise<CachedAt[]> {
  if (typeof caches === 'undefined') return [];
  const at: CachedAt[] = [];
  try {
    for (const name of await caches.keys()) {
      const c = await caches.open(name);
      for (const request of await c.keys(url, { ignoreSearch: true })) {
        if (await c.delete(request)) at.push({ cache: name, request });
      }
    }
  } catch { /* no cache access (an opaque origin): nothing to evict */ }
  return at;
}

/** Puts `res` (fresh bytes that compiled) back where evictCached found the entry it replaces; a failure leaves the entry out (it is fetched from the network). */
async function putBack(res: Response, at: readonly CachedAt[]): Promise<void> {
  for (let i = 0; i < at.length; i++) {
    try {
      await (await caches.open(at[i].cache)).put(at[i].request, i === at.length - 1 ? res : res.clone());
    } catch { /* quota, or the cache went away: the network serves it */ }
  }
}

/** A response whose body reports its progress as it is read (the compile consumes it, streaming). */
function withProgress(res: Response, onProgress: OnProgress | undefined): Response {
  if (!onProgress || !res.body) return res;
  const len = Number(res.headers.get('content-length'));
  const total = Number.isFinite(len) && len > 0 ? len : null;
  let loaded = 0;
  onProgress(0, total);
  const counted = res.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, ctl) { loaded += chunk.byteLength; onProgress(loaded, total); ctl.enqueue(chunk); },
  }));
  return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/**
 * One fetch and compile of `url`: the module, or a thrown Error (`http` set for an HTTP status).
 * `restore`: where evicted bytes were cached; the fresh bytes go back there once they compile.
 */
async function fetchCompile(url: URL, fresh: boolean, onProgress?: OnProgress, restore: readonly CachedAt[] = []): Promise<WebAssembly.Module> {
  // the build's async preload script (vite.config.ts preloadCore) skips its <link rel=preload> once
  // the page has asked for a core itself: a preload added after this fetch would download it again
  if (typeof document !== 'undefined') document.documentElement.setAttribute('data-core-asked', '');
  const res = await fetch(url, { credentials: 'same-origin', ...(fresh ? { cache: 'reload' as RequestCache } : {}) });
  if (!res.ok) throw Object.assign(new Error(`the core's .wasm answered HTTP ${res.status}`), { http: res.status });
  const streaming = (res.headers.get('content-type') ?? '').split(';')[0].trim() === 'application/wasm';
  // a copy of the bytes for the caches they were evicted from (read as the compile reads the other)
  const copy = restore.length > 0 ? res.clone() : null;
  const counted = withProgress(res, onProgress);
  // a server without the application/wasm type: compile the bytes
  const module = await (streaming ? WebAssembly.compileStreaming(counted) : WebAssembly.compile(await counted.arrayBuffer()));
  if (copy) await putBack(copy, restore);
  return module;
}

/**
 * Compiles the core's module for this engine. Bytes that do not compile are evicted from the caches
 * and fetched again once (bypassing the HTTP cache); an HTTP error gives { fatal } (the workers do
 * not fetch it again); a network error gives null (each worker then tries the fetch itself).
 */
export async function compileCore(onProgress?: OnProgress, fresh = false, wanted: 'first' | 'full' = 'full', restore: readonly CachedAt[] = []): Promise<CoreInit | null> {
  let url = SIMD_WASM;
  let build: 'simd128' | 'baseline' = 'simd128';
  try {
    build = (await simdSupported()) ? 'simd128' : 'baseline';
    // the baseline build (engines without SIMD128) has no first part: it loads whole
    const part = build === 'simd128' ? wanted : 'full';
    url = wasmOf(build, part);
    return { module: await fetchCompile(url, fresh, onProgress, restore), build, part };
  } catch (e) {
    const http = (e as { http?: number }).http;
    if (http !== undefined) return { fatal: (e as Error).message };
    if (e instanceof WebAssembly.CompileError && !fresh) {
      const at = await evictCached(url.href);
      return compileCore(onProgress, true, wanted, at);
    }
    if (e instanceof WebAssembly.CompileError) return { fatal: `the core's .wasm is not WebAssembly (${e.message})` };
    return null;
  }
}

/**
 * The compiled core, shared by the pool's workers: compiled once; compiled again when a new worker
 * starts after the last compile failed (the network is back), and — once per page, and again at
 * each Retry — evicted from the caches and compiled afresh when the workers rejected the module it
 * gave (another version or build): a Retry never hands the workers the module they refused.
 */
export class CoreSource {
  private current: Promise<CoreInit | null> | null = null;
  private whole: Promise<CoreInit | null> | null = null;
  private readonly wantFull = new Set<() => void>();
  private evicted = false;
  /** the module the workers rejected last (kept by failed() once evicted already; retry() fetches past it) */
  private rejected: { module: WebAssembly.Module; build: 'simd128' | 'baseline'; part?: 'first' | 'full' } | null = null;
  /** the next compile bypasses the HTTP cache (after the reader's Retry) */
  private fresh = false;
  /** `first`: start with the core's first part (the first view is one of FIRST_PART_VIEWS). */
  constructor(private readonly onProgress?: OnProgress, private readonly first = false) {}

  /** The module the workers start with: the first part, or the full core. */
  get(): Promise<CoreInit | null> {
    if (!this.current) {
      this.current = compileCore(this.onProgress, this.fresh, this.first ? 'first' : 'full');
      this.fresh = false;
    }
    return this.current;
  }

  /**
   * The full core: the module get() gave when it is the full one, else compiled now (once; again
   * after a failure), and announced to every worker of the pool (onFull). A network failure gives
   * null (each worker then fetches it itself), an HTTP error { fatal }.
   */
  async full(): Promise<CoreInit | null> {
    const start = await this.get().catch(() => null);
    if (!(start && 'module' in start && start.part === 'first')) return start;
    if (!this.whole) {
      // its progress too (the page shows it while a view waits for this core: app/core.ts)
      const p = compileCore(this.onProgress, false, 'full');
      this.whole = p;
      void p.then((i) => { if (i === null && this.whole === p) this.whole = null; });  // offline: try again next time
      for (const f of this.wantFull) f();
    }
    return this.whole;
  }

  /** Calls `f` when the full core is asked for (at once if it was); returns the unsubscribe. */
  onFull(f: () => void): () => void {
    this.wantFull.add(f);
    if (this.whole) f();
    return () => this.wantFull.delete(f);
  }

  /** A worker could not start with what get() gave: the next get() compiles again (evicting a rejected module's bytes, once). */
  async failed(): Promise<void> {
    const was = this.current;
    if (!was) return;
    const init = await was.catch(() => null);
    if (this.current !== was) return;
    if (init && 'module' in init) {
      // evicted and compiled afresh once already: kept (the pool gives up), but retry() fetches past it
      if (this.evicted) { this.rejected = init; return; }
      this.evicted = true;
      this.current = this.afresh(init);
      return;
    }
    this.current = null;
  }

  /**
   * The reader's Retry (or the browser back online) while the workers cannot start: the next start fetches
   * the core again past the HTTP cache, and a module the workers rejected is evicted from the
   * caches first (the server may serve the right one now), never handed to them again.
   */
  retry(): void {
    this.fresh = true;
    const rejected = this.rejected;
    if (!rejected) return;  // a failed fetch left nothing to reuse: the next get() fetches
    this.rejected = null;
    this.current = this.afresh(rejected);
  }

  /** `init`'s bytes evicted from the caches, then the core fetched past the HTTP cache and compiled (put back in the caches once it compiles). */
  private async afresh(init: { build: 'simd128' | 'baseline'; part?: 'first' | 'full' }): Promise<CoreInit | null> {
    const at = await evictCached(wasmOf(init.build, init.part ?? 'full').href);
    return compileCore(this.onProgress, true, this.first ? 'first' : 'full', at);
  }
}

/**
 * A core worker, sent the compiled module (or null, or why there is none) as its first message.
 * When it started with the first part, it is sent the full core ({ full }) once the page has it:
 * when a request it is sent needs it (needsFull), or when the page asked for it (source.full()).
 */
export function coreWorker(make: () => Worker, source: CoreSource): WorkerLike {
  const w = make();
  const init = source.get();
  void init.then((i) => w.postMessage({ init: i }), () => w.postMessage({ init: null }));
  let sent = false;
  const sendFull = () => {
    if (sent) return;
    sent = true;
    void init.then((i) => {
      if (!(i && 'module' in i && i.part === 'first')) return;
      void source.full().then((f) => w.postMessage({ full: f }), () => w.postMessage({ full: null }));
    }, () => {});
  };
  const unsubscribe = source.onFull(sendFull);
  return {
    postMessage(message: unknown, transfer?: Transferable[]) {
      const kind = (message as { kind?: unknown } | null)?.kind;
      if (typeof kind === 'string' && needsFull(kind)) sendFull();
      w.postMessage(message, transfer ?? []);
    },
    terminate() { unsubscribe(); w.terminate(); },
    get onmessage() { return w.onmessage; },
    set onmessage(f) { w.onmessage = f; },
    get onerror() { return w.onerror as WorkerLike['onerror']; },
    set onerror(f) { w.onerror = f as Worker['onerror']; },
  };
}

/**
 * The page's own instance of the core, for its cost estimates only (worker/cost.ts: core.cost
 * computes nothing): the same compiled module the workers get, instantiated once more here, or the
 * fetched bytes when the page could not compile it.
 */
export async function pageCore(init: Promise<CoreInit | null>): Promise<Core> {
  const i = await init.catch(() => null);
  return coreOf(i);
}
