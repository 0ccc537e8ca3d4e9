// Embed mode: tells the host page the height of the content, so the host's embed script
// (public/embed.js) can size the iframe to fit — no inner scrollbar. The message carries only a
// number; the host checks that it comes from the iframe it sized.

export const HEIGHT_MESSAGE = 'sqrtdk:height';
export const ASK_MESSAGE = 'sqrtdk:ask-height';

export function reportHeight(): void {
  if (window.parent === window) return;
  let last = -1;
  const send = (again = false) => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last && !again) return;
    last = height;
    window.parent.postMessage({ type: HEIGHT_MESSAGE, height }, '*');
  };
  new ResizeObserver(() => send()).observe(document.documentElement);
  window.addEventListener('load', () => send());
  // the host's embed script asks when it starts (it may load after this frame settled)
  window.addEventListener('message', (ev) => {
    if (ev.source === window.parent && ev.data && ev.data.type === ASK_MESSAGE) send(true);
  });
  send();
}
