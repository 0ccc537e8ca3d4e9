/** The event on `document` when the page's first chart has drawn final data (once per page): app/boot.ts starts deferred work then (the service worker). Its own module, so app/ need not import chartbox (and Chart.js). */
export const FIRST_FINAL_DRAW_EVENT = 'sqrtdk:first-final-draw';
