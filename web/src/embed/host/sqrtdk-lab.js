/*! √dk Lab custom element (MIT): <sqrtdk-lab exp="saturation" dk="256" show="charts" lang="en"></sqrtdk-lab>
 * Load once per page: <script src="https://…/sqrtdk-lab.js" async></script> (served beside √dk Lab's
 * index.html). Each element becomes a sized iframe of that view: every attribute but height, title
 * and site is a key of the view's link (README "URL keys"); height is the fixed height used until
 * the lab reports its content height, which sizes the frame from then on (only messages from the
 * element's own iframe window and the lab's origin count; a height is capped at MAX_HEIGHT, as embed.js
 * caps it). site overrides where √dk Lab is served. */
(function () {
  'use strict';
  if (!window.customElements || window.customElements.get('sqrtdk-lab')) return;
  var script = document.currentScript;
  var defaultSite = script && script.src ? new URL('./', script.src).href : new URL('./', location.href).href;
  // HTML lower-cases attribute names; the link's keys with capitals (web/src/embed/formats.ts keeps this list)
  var KEY_CASE = { seqlen: 'seqLen', pseqlen: 'pseqLen' };
  var NOT_KEYS = { height: 1, title: 1, site: 1, style: 1, class: 1, id: 1, hidden: 1 };
  var MAX_HEIGHT = __SQRTDK_MAX_EMBED_HEIGHT__;  // web/src/embed/height-cap.ts, written in by the build

  class SqrtdkLab extends HTMLElement {
    /** The iframe's address: the site, then v=1, the attributes as keys, embed=1. */
    src() {
      const parts = ['v=1'];
      for (const a of this.attributes) {
        if (NOT_KEYS[a.name] || a.name.startsWith('data-') || a.name.startsWith('aria-')) continue;
        parts.push((KEY_CASE[a.name] || a.name) + '=' + encodeURIComponent(a.value).replace(/%2C/g, ','));
      }
      parts.push('embed=1');
      return this.site().replace(/#.*$/, '') + '#' + parts.join('&');
    }
    // only an http(s) address may be the lab's site (a javascript: or data: one would run in the post)
    site() {
      var given = this.getAttribute('site');
      if (given) {
        try {
          var u = new URL(given, location.href);
          if (u.protocol === 'https:' || u.protocol === 'http:') return u.href;
        } catch (e) { /* not an address */ }
        if (window.console) console.warn('sqrtdk-lab: site must be an http(s) address; using ' + defaultSite);
      }
      return new URL(defaultSite, location.href).href;
    }
    origin() { return new URL(this.site()).origin; }

    connectedCallback() {
      if (!this.frame) {
        const f = document.createElement('iframe');
        f.title = this.getAttribute('title') || '√dk Lab';
        f.width = '100%';
        f.setAttribute('loading', 'lazy');
        f.style.cssText = 'border:0;width:100%;display:block';
        f.style.height = (Number(this.getAttribute('height')) || 860) + 'px';
        f.addEventListener('load', () => this.ask());
        this.frame = f;
        if (!this.style.display) this.style.display = 'block';
        // the address before the frame joins the page: a frame added without one first loads
        // about:blank, and a question to the lab's origin then is an error in the host's console
        f.src = this.src();
        this.appendChild(f);
        this.onMessage = (ev) => {
          const d = ev.data;
          if (ev.source !== this.frame.contentWindow || ev.origin !== this.origin()) return;
          if (!d || d.type !== 'sqrtdk:height' || typeof d.height !== 'number' || !(d.height > 0) || !isFinite(d.height)) return;
          const h = Math.min(MAX_HEIGHT, Math.ceil(d.height));
          this.frame.style.height = h + 'px';
          this.setAttribute('data-sized', String(h));
        };
      }
      const src = this.src();
      if (this.frame.src !== src) this.frame.src = src;
      window.addEventListener('message', this.onMessage);
    }
    disconnectedCallback() { window.removeEventListener('message', this.onMessage); }
    /** Asks the lab for its height (it may have settled before this element listened). */
    ask() {
      var w = this.frame.contentWindow;
      if (!w) return;
      // only a frame that shows the lab (another origin's document, or the lab's own address): a
      // message to the lab's origin while it still shows about:blank would be refused with an error
      try { if (w.location.href === 'about:blank') return; } catch (e) { /* another origin: the lab */ }
      try { w.postMessage({ type: 'sqrtdk:ask-height' }, this.origin()); } catch (e) { /* not loaded yet */ }
    }
  }
  window.customElements.define('sqrtdk-lab', SqrtdkLab);
})();
