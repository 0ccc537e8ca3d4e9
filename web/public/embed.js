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
})();
