/*! √dk Lab: part of the service worker (imported by sw.js, scripts/pwa-config.ts). A tab opened
 * before a new version was deployed keeps loading its own version's files (a lazily loaded
 * language chunk, a worker script) after the new service worker took over: on install, the files
 * of the version being replaced are copied from the precache into PREVIOUS, which serves them
 * (sw.js's runtime route for assets/) once the new precache no longer holds them. One version
 * back is kept; each install replaces it. */
self.addEventListener('install', function (event) {
  var PREVIOUS = 'sqrtdk-previous-version';
  event.waitUntil((async function () {
    var names = await caches.keys();
    var pre = names.filter(function (n) { return n.indexOf('workbox-precache') === 0; })[0];
    if (!pre) return;  // a first visit: nothing to keep
    var from = await caches.open(pre);
    var keys = await from.keys();
    await caches.delete(PREVIOUS);
    var to = await caches.open(PREVIOUS);
    for (var i = 0; i < keys.length; i++) {
      if (new URL(keys[i].url).pathname.indexOf('/assets/') < 0) continue;
      var res = await from.match(keys[i]);
      if (res) await to.put(keys[i], res);
    }
  })());
});
/*! The pages of the site open now (window clients of this worker's scope, frames included, any
 * version), answered to a page that asks ({ type: 'SQRTDK_CLIENTS' } with a MessagePort): a page
 * that finds a new version waiting and itself the only page of the old one takes the new version
 * at once (web/src/app/pwa.ts), so a plain reload or a new tab gets it. */
self.addEventListener('message', function (event) {
  var d = event.data;
  if (!d || d.type !== 'SQRTDK_CLIENTS' || !event.ports || !event.ports[0]) return;
  var port = event.ports[0];
  var scope = self.registration.scope;
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (list) {
    port.postMessage({ count: list.filter(function (c) { return c.url.indexOf(scope) === 0; }).length });
  }));
});
