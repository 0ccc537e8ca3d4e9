// WordPress's paste-a-link path (issue 31): WordPress embeds a provider it does not know in
// <iframe sandbox="allow-scripts">, appends "#?secret=<10 letters and digits>" to the frame's
// address, drops the snippet's embed.js and its fitted height, and sizes the frame only from the
// messages its host script (wp-embed) listens for: { message: 'height', value, secret } posted to
// the parent, the height then clamped by WordPress to 200..1000 px (any message of the frame with its
// secret makes the host show the frame, hidden until then); the host script also sends
// { message: 'ready', secret } to its frames when it starts, and follows { message: 'link', value,
// secret } to an address on the frame's own host (a sandbox without allow-popups opens no new tab).
// The embed speaks this protocol beside its own (report.ts) when its address carries a secret.

/** WordPress's secret in a frame's hash ("…&embed=1#?secret=Ab3dE6gH9j"), else null. Pure. */
export function wordpressSecret(hash: string): string | null {
  const m = /[#&?]secret=([A-Za-z0-9]{10})(?=$|[&#])/.exec(hash);
  return m ? m[1] : null;
}

/** The heights WordPress's host script sets: a value is clamped to this range. */
export const WORDPRESS_HEIGHTS = { min: 200, max: 1000 } as const;

/**
 * The message for WordPress's host script, for content `height` in a frame now `frameHeight` tall,
 * once the view is in the frame (`viewIn`; the first paint before it is shorter). Any message of
 * the frame with its secret makes the host show the frame (hidden until then); a 'height' message
 * sets its height, clamped to 200..1000 px, and a frame cut to 1000 px never grows back. So: before
 * the view, only "shown"; then the content's height where WordPress can give it; for content
 * taller than 1000 px, 1000 only where the frame is shorter than that, else "shown", keeping the
 * height the frame has (the snippet's height attribute, the content's height at a 720 px column)
 * instead of cutting it to 1000. Pure.
 */
export function wordpressMessage(height: number, frameHeight: number, secret: string, viewIn: boolean): { message: string; value?: number; secret: string } {
  const value = Math.ceil(height);
  if (!viewIn || (value > WORDPRESS_HEIGHTS.max && frameHeight >= WORDPRESS_HEIGHTS.max)) return { message: 'sqrtdk:shown', secret };
  return { message: 'height', value, secret };
}

/** Whether the view (or the embed's message in its place) is in the frame, not the build's first paint. */
export function viewInFrame(): boolean {
  return document.querySelector('#app [data-panel], #app [data-embed-error]') !== null;
}

/** True for WordPress's host script saying it has started (it then wants the frame's height). */
export function isWordPressReady(data: unknown, secret: string): boolean {
  const d = data as { message?: unknown; secret?: unknown } | null;
  return typeof d === 'object' && d !== null && d.message === 'ready' && d.secret === secret;
}

/**
 * In a frame WordPress sized: a click on a link that opens a new tab (blocked by WordPress's
 * sandbox) asks the host script to follow it instead, as WordPress's own embeds do (it goes only
 * to an address on the frame's host: the lab's own links).
 */
export function followLinksThroughHost(secret: string): void {
  document.addEventListener('click', (ev) => {
    if (ev.defaultPrevented || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
    const a = (ev.target as Element | null)?.closest?.('a[target="_blank"]') as HTMLAnchorElement | null;
    if (!a || !a.href) return;
    ev.preventDefault();
    window.parent.postMessage({ message: 'link', value: a.href, secret }, '*');
  });
}
