// The page's half of starting the core: compile the WebAssembly.Module once, streaming, while the
// page loads (index.html preloads the SIMD128 build), and hand it to each worker of the pool,
// which only instantiates it. simdSupported() (wasm-feature-detect) decides the build: the
// baseline .wasm is fetched only where the engine lacks SIMD128 or exception handling. The
// download reports its progress (a slow network shows how far it got, never a false failure); bytes that do not compile (a cache entry
// left by a captive portal) are evicted from the page's caches and fetched once more; and a core
// that the workers reject (not this version or build) is evicted and compiled again once too.
import type { WorkerLike } from './protocol.ts';
import { loadCore, simdSupported } from '../../../wasm/js/core.js';
import type { Core } from '../../../wasm/js/core.js';
import { fetchCore } from './fetch-core.ts';

/** The compiled core for the workers, or why there is none: `fatal` (an HTTP error: no worker retries the fetch). */
export type CoreInit = { module: WebAssembly.Module; build: 'simd128' | 'baseline' } | { fatal: string };

const SIMD_WASM = new URL('../../../wasm/dist/sqrtdk-simd.wasm', import.meta.url);
const BASE_WASM = new URL('../../../wasm/dist/sqrtdk-base.wasm', import.meta.url);

/** Bytes of the core received so far, and the whole size when the server says it (else null). */
export type OnProgress = (loaded: number, total: number | null) => void;

/** Deletes `url` from every cache of this origin (the service worker's precache included); whether any held it. */
export async function evictCached(url: string): Promise<boolean> {
  if (typeof caches === 'undefined') return false;
  let any = false;
  try {
    for (const name of await caches.keys()) {
      if (await (await caches.open(name)).delete(url, { ignoreSearch: true })) any = true;
    }
  } catch { /* no cache access (an opaque origin): nothing to evict */ }
  return any;
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

/** One fetch and compile of `url`: the module, or a thrown Error (`http` set for an HTTP status). */
async function fetchCompile(url: URL, fresh: boolean, onProgress?: OnProgress): Promise<WebAssembly.Module> {
  const res = await fetch(url, { credentials: 'same-origin', ...(fresh ? { cache: 'reload' as RequestCache } : {}) });
  if (!res.ok) throw Object.assign(new Error(`the core's .wasm answered HTTP ${res.status}`), { http: res.status });
  const streaming = (res.headers.get('content-type') ?? '').split(';')[0].trim() === 'application/wasm';
  const counted = withProgress(res, onProgress);
  // a server without the application/wasm type: compile the bytes
  return streaming ? WebAssembly.compileStreaming(counted) : WebAssembly.compile(await counted.arrayBuffer());
}

/**
 * Compiles the core's module for this engine. Bytes that do not compile are evicted from the caches
 * and fetched again once (bypassing the HTTP cache); an HTTP error gives { fatal } (the workers do
 * not fetch it again); a network error gives null (each worker then tries the fetch itself).
 */
export async function compileCore(onProgress?: OnProgress, fresh = false): Promise<CoreInit | null> {
  let url = SIMD_WASM;
  let build: 'simd128' | 'baseline' = 'simd128';
  try {
    build = (await simdSupported()) ? 'simd128' : 'baseline';
    url = build === 'simd128' ? SIMD_WASM : BASE_WASM;
    return { module: await fetchCompile(url, fresh, onProgress), build };
  } catch (e) {
    const http = (e as { http?: number }).http;
    if (http !== undefined) return { fatal: (e as Error).message };
    if (e instanceof WebAssembly.CompileError && !fresh) {
      await evictCached(url.href);
      return compileCore(onProgress, true);
    }
    if (e instanceof WebAssembly.CompileError) return { fatal: `the core's .wasm is not WebAssembly (${e.message})` };
    return null;
  }
}

/**
 * The compiled core, shared by the pool's workers: compiled once; compiled again when a new worker
 * starts after the last compile failed (the network is back), and — once per page — evicted from
 * the caches and compiled afresh when the workers rejected the module it gave (another version).
 */
export class CoreSource {
  private current: Promise<CoreInit | null> | null = null;
  private evicted = false;
  constructor(private readonly onProgress?: OnProgress) {}

  get(): Promise<CoreInit | null> {
    this.current ??= compileCore(this.onProgress);
    return this.current;
  }

  /** A worker could not start with what get() gave: the next get() compiles again (evicting a rejected module's bytes, once). */
  async failed(): Promise<void> {
    const was = this.current;
    if (!was) return;
    const init = await was.catch(() => null);
    if (this.current !== was) return;
    if (init && 'module' in init) {
      if (this.evicted) return;  // evicted and compiled afresh once already: keep it (the pool gives up)
      this.evicted = true;
      await evictCached((init.build === 'simd128' ? SIMD_WASM : BASE_WASM).href);
      if (this.current === was) this.current = compileCore(this.onProgress, true);
      return;
    }
    this.current = null;
  }
}

/** A core worker, sent the compiled module (or null, or why there is none) as its first message. */
export function coreWorker(make: () => Worker, init: Promise<CoreInit | null>): WorkerLike {
  const w = make();
  void init.then((i) => w.postMessage({ init: i }), () => w.postMessage({ init: null }));
  return w as unknown as WorkerLike;
}

/**
 * The page's own instance of the core, for its cost estimates only (requests/cost.ts: core.cost
 * computes nothing): the same compiled module the workers get, instantiated once more here, or the
 * fetched bytes when the page could not compile it.
 */
export async function pageCore(init: Promise<CoreInit | null>): Promise<Core> {
  const i = await init.catch(() => null);
  if (i && 'fatal' in i) throw new Error(i.fatal);
  return i ? loadCore({ build: i.build, kernel: 'auto', wasmModule: i.module }) : (await fetchCore()).core;
}
