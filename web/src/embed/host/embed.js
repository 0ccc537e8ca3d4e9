/*! √dk Lab embed script (MIT). Sizes every <iframe data-sqrtdk-embed> on the page to the height
 * its √dk Lab panel reports, so a reader never gets a scroll box inside the post. Without this
 * script the iframe keeps the snippet's height, a CSS function of its width (cqw) that fits the
 * panel's measured heights. It reads one number per message, and
 * only from a frame of the lab itself: the frame's src is on the origin this script was served
 * from, the message comes from that frame's window and that origin (or from the opaque origin
 * "null" when the frame is sandboxed without allow-same-origin, as WordPress frames it). A height is capped at
 * MAX_HEIGHT (the tallest panel, the interview view, is about 9,000 px at a phone's width). */
(function () {
  'use strict';
  if (window.__sqrtdkEmbed) return;
  window.__sqrtdkEmbed = true;
  var MAX_HEIGHT = __SQRTDK_MAX_EMBED_HEIGHT__;  // web/src/embed/height-cap.ts, written in by the build
  // The lab's origin: where this script came from (a copy served by the host itself has no lab
  // origin to check against, and then trusts only frames of the host's own origin).
  var script = document.currentScript;
  var lab;
  try { lab = new URL(script && script.src ? script.src : location.href, location.href).origin; } catch (e) { return; }
  // a frame sandboxed without allow-same-origin runs at the opaque origin "null"
  function opaque(f) {
    var sb = f.getAttribute('sandbox');
    return sb !== null && !/(^|\s)allow-same-origin(\s|$)/i.test(sb);
  }
  function originOf(f) {
    try { return new URL(f.getAttribute('src') || '', location.href).origin; } catch (e) { return null; }
  }
  window.addEventListener('message', function (ev) {
    var d = ev.data;
    if ((ev.origin !== lab && ev.origin !== 'null') || !d || d.type !== 'sqrtdk:height' || typeof d.height !== 'number' || !(d.height > 0) || !isFinite(d.height)) return;
    var frames = document.querySelectorAll('iframe[data-sqrtdk-embed]');
    for (var i = 0; i < frames.length; i++) {
      var f = frames[i];
      if (f.contentWindow !== ev.source) continue;
      if (originOf(f) !== lab || (ev.origin === 'null') !== opaque(f)) return;
      var h = Math.min(MAX_HEIGHT, Math.ceil(d.height));
      f.style.height = h + 'px';
      f.setAttribute('data-sqrtdk-sized', String(h));
      return;
    }
  });
  // Whether the frame's document is the lab's: one of another origin (it has navigated away from
  // its first about:blank), or the lab's own URL where the lab shares the host's origin. A message
  // with the lab as target origin to a frame still on about:blank is an error in the host's console
  // (Firefox: "The target origin provided … does not match the recipient window's origin").
  function showsLab(f) {
    try {
      var href = f.contentWindow.location.href;
      return href !== 'about:blank' && new URL(href).origin === lab;
    } catch (e) { return true; }
  }
  // A frame that settled before this script ran has already sent its height: ask every frame of
  // the lab that shows it now, and each again when it (re)loads. The answer is a message like any other above.
  function ask(f) {
    if (originOf(f) !== lab || !f.contentWindow || (!opaque(f) && !showsLab(f))) return;
    // an opaque-origin frame only receives a message sent to "*" (the question carries nothing)
    try { f.contentWindow.postMessage({ type: 'sqrtdk:ask-height' }, opaque(f) ? '*' : lab); } catch (e) { /* not loaded yet */ }
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
