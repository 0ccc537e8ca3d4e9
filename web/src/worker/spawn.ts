// Starting the page's module workers where the page's origin may be opaque: an embed inside
// <iframe sandbox="allow-scripts"> without allow-same-origin (WordPress wraps unknown providers so)
// has the origin "null", and `new Worker(url)` of the site's own script then throws a SecurityError
// ("cannot be accessed from origin 'null'"). There the worker is a blob: module (a blob URL made by
// this document may start a worker in any origin) whose one line imports the real worker script by
// its absolute URL: the script, its own imports and the .wasm it fetches resolve against that URL
// and load as CORS requests (the host must send Access-Control-Allow-Origin: *, README "Embedding").

/** True when this document's origin is opaque (a sandboxed frame without allow-same-origin). */
export function opaqueOrigin(): boolean {
  return typeof self !== 'undefined' && self.origin === 'null';
}

/** The one-line module a blob: worker runs: a static import of the worker script (absolute URL). */
export function importerSource(absoluteUrl: string): string {
  return `import ${JSON.stringify(absoluteUrl)};\n`;
}

/**
 * A module worker running the built script at `url` (a `?worker&url` import: relative to the page
 * or absolute). Same origin: a plain module worker. Opaque origin: a blob: module importing the
 * script. Throws what the Worker constructor throws when neither may start (a Content Security
 * Policy without blob:, a browser without module workers).
 */
export function moduleWorker(url: string, name: string): Worker {
  const abs = new URL(url, document.baseURI);
  if (!opaqueOrigin() && abs.origin === location.origin) return new Worker(abs, { type: 'module', name });
  const blob = URL.createObjectURL(new Blob([importerSource(abs.href)], { type: 'text/javascript' }));
  const w = new Worker(blob, { type: 'module', name });
  // a blob: worker whose import fails (the host sends no CORS header) errs before it ever answers
  let answered = false;
  w.addEventListener('message', () => { answered = true; }, { once: true });
  w.addEventListener('error', () => { if (!answered) blobFailures += 1; });
  // the worker fetches its blob: module soon after it is constructed; then the URL may go
  setTimeout(() => URL.revokeObjectURL(blob), 30000);
  return w;
}

let blobFailures = 0;
/** How many blob: workers of this page failed before answering (the page then runs the core itself). */
export function blobWorkerFailures(): number { return blobFailures; }
