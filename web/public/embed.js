/*! √dk Lab embed script (MIT). Sizes every <iframe data-sqrtdk-embed> on the page to the height
 * its √dk Lab panel reports, so a reader never gets a scroll box inside the post. Without this
 * script the iframe keeps the fixed height of the snippet. It reads one number per message and
 * only from the iframe it sizes (same window, same origin as the iframe's src). */
(function () {
  'use strict';
  if (window.__sqrtdkEmbed) return;
  window.__sqrtdkEmbed = true;
  window.addEventListener('message', function (ev) {
    var d = ev.data;
    if (!d || d.type !== 'sqrtdk:height' || typeof d.height !== 'number' || !(d.height > 0) || d.height > 20000) return;
    var frames = document.querySelectorAll('iframe[data-sqrtdk-embed]');
    for (var i = 0; i < frames.length; i++) {
      var f = frames[i];
      if (f.contentWindow !== ev.source) continue;
      var origin;
      try { origin = new URL(f.src, location.href).origin; } catch (e) { return; }
      if (origin !== ev.origin) return;
      f.style.height = Math.ceil(d.height) + 'px';
      f.setAttribute('data-sqrtdk-sized', String(Math.ceil(d.height)));
      return;
    }
  });
  // A frame that settled before this script ran has already sent its height: ask every frame
  // once now, and each again when it (re)loads. The answer is a message like any other above.
  function ask(f) {
    try { f.contentWindow.postMessage({ type: 'sqrtdk:ask-height' }, new URL(f.src, location.href).origin); } catch (e) { /* not loaded yet */ }
  }
  function watch() {
    var frames = document.querySelectorAll('iframe[data-sqrtdk-embed]');
    for (var i = 0; i < frames.length; i++) {
      var f = frames[i];
      if (!f.__sqrtdkWatched) { f.__sqrtdkWatched = true; f.addEventListener('load', ask.bind(null, f)); }
      ask(f);
    }
  }
  watch();
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch);
})();
