// Starting the page's module workers where the page's origin may be opaque: an embed inside
// <iframe sandbox="allow-scripts"> without allow-same-origin (WordPress wraps unknown providers so)
// has the origin "null", and `new Worker(url)` of the site's own script then throws a SecurityError
// ("cannot be accessed from origin 'null'"). A module worker from a blob: URL fails there too
// (its module fetch must be same-origin, and an opaque origin is same-origin with nothing), but a
// classic worker from a blob: URL starts: its few lines import() the real worker module by its
// absolute URL, holding the messages that arrive meanwhile and replaying them once the module has
// set its handler. The module, its own imports and the .wasm it fetches resolve against that URL
// and load as CORS requests (the host must send Access-Control-Allow-Origin: *, README "Embedding").

/** True when this document's origin is opaque (a sandboxed frame without allow-same-origin). */
export function opaqueOrigin(): boolean {
  return typeof self !== 'undefined' && self.origin === 'null';
}

/**
 * The classic script a blob: worker runs: queue the messages, import() the worker module at
 * `absoluteUrl`, then replay the queue to the handler the module set; a failed import is thrown
 * outside any promise, so it reaches the page as the worker's error event.
 */
export function importerSource(absoluteUrl: string): string {
  return `'use strict';
var queued = [];
self.onmessage = function (e) { queued.push(e); };
import(${JSON.stringify(absoluteUrl)}).then(function () {
  var q = queued; queued = null;
  for (var i = 0; i < q.length; i++) self.dispatchEvent(new MessageEvent('message', { data: q[i].data, ports: q[i].ports }));
}, function (e) { setTimeout(function () { throw e; }); });
`;
}

/** The page's count of blob: workers that failed before answering (the page then runs the core itself); the app's state holds it. */
export interface BlobFailures { count: number }

/**
 * A module worker running the built script at `url` (a `?worker&url` import: relative to the page
 * or absolute). Same origin: a plain module worker. Opaque origin: a classic blob: worker that
 * imports the module, whose failure before any answer counts in `failures`. Throws what the Worker
 * constructor throws when neither may start (a Content Security Policy without blob:, a browser
 * without module workers).
 */
export function moduleWorker(url: string, name: string, failures: BlobFailures): Worker {
  const abs = new URL(url, document.baseURI);
  if (!opaqueOrigin() && abs.origin === location.origin) return new Worker(abs, { type: 'module', name });
  const blob = URL.createObjectURL(new Blob([importerSource(abs.href)], { type: 'text/javascript' }));
  const w = new Worker(blob, { name });
  // a blob: worker whose import fails (the host sends no CORS header) errs before it ever answers
  let answered = false;
  w.addEventListener('message', () => { answered = true; }, { once: true });
  w.addEventListener('error', () => { if (!answered) failures.count += 1; });
  // the worker fetches its blob: script soon after it is constructed; then the URL may go
  setTimeout(() => URL.revokeObjectURL(blob), 30000);
  return w;
}

/**
 * `?core=page` in the query runs the core on the page's thread (tests of that fallback), as
 * `?pool=N` sizes the pool: not part of a link's state, which lives in the hash.
 */
export function pageThreadOverride(search: string): boolean {
  return new URLSearchParams(search).get('core') === 'page';
}
