// Embed mode: tells the host page the height of the content, so the host's embed script
// (public/embed.js) can size the iframe to fit — no inner scrollbar. The message carries only a
// number; the host checks that it comes from the iframe it sized.

export const HEIGHT_MESSAGE = 'sqrtdk:height';

export function reportHeight(): void {
  if (window.parent === window) return;
  let last = -1;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: HEIGHT_MESSAGE, height }, '*');
  };
  new ResizeObserver(send).observe(document.documentElement);
  window.addEventListener('load', send);
  send();
}
