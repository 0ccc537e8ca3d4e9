// Embed mode: tells the host page the height of the content, so the host's embed script
// (embed.js, web/src/embed/host/) can size the iframe to fit — no inner scrollbar. The message carries only a
// number; the host checks that it comes from the iframe it sized. In a frame WordPress made (its
// secret in the address, wordpress.ts) it also speaks WordPress's height protocol.
import { wordpressMessage, isWordPressReady, followLinksThroughHost, viewInFrame } from './wordpress.ts';

export const HEIGHT_MESSAGE = 'sqrtdk:height';
export const ASK_MESSAGE = 'sqrtdk:ask-height';

/** `secret`: WordPress's, read from the address the frame was opened with (wordpressSecret), or null. */
export function reportHeight(secret: string | null = null): void {
  if (window.parent === window) return;
  let last = -1;
  let lastWordPress = '';
  const send = (again = false) => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== last || again) {
      last = height;
      window.parent.postMessage({ type: HEIGHT_MESSAGE, height }, '*');
    }
    if (!secret) return;
    const m = wordpressMessage(height, window.innerHeight, secret, viewInFrame());
    const said = `${m.message} ${m.value ?? ''}`;
    if (said === lastWordPress && !again) return;
    lastWordPress = said;
    window.parent.postMessage(m, '*');
  };
  new ResizeObserver(() => send()).observe(document.documentElement);
  window.addEventListener('load', () => send());
  // the host's embed script asks when it starts (it may load after this frame settled); so does WordPress's
  window.addEventListener('message', (ev) => {
    if (ev.source !== window.parent || !ev.data) return;
    if (ev.data.type === ASK_MESSAGE || (secret && isWordPressReady(ev.data, secret))) send(true);
  });
  if (secret) {
    followLinksThroughHost(secret);
    // the view replacing the first paint may keep the page's height: say it anyway
    const seen = new MutationObserver(() => { if (viewInFrame()) { seen.disconnect(); send(); } });
    seen.observe(document.getElementById('app') ?? document.body, { childList: true, subtree: true });
  }
  send();
}
