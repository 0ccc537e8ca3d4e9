// The Progressive Web App part of the build (imported by vite.config.ts): the icons of the web
// app manifest, rendered from the one SVG web/assets/icon.svg by resvg (WebAssembly, no native
// binary), and vite-plugin-pwa (Workbox generateSW) with a service worker that precaches the
// app shell, both wasm builds, the KaTeX woff2 fonts and the example tensors. Everything is
// relative to the page, so dist/ keeps working from any sub-path of a static host, and nothing
// is fetched from another host (Workbox's runtime is emitted beside sw.js). Every install
// fetches every entry again (Workbox), so a bad cached .wasm is replaced at the next update; the
// page itself evicts one that does not compile or is not its core (web/src/worker/boot.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin, PluginOption } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { Resvg } from '@resvg/resvg-wasm';
import { resvgReady } from './resvg.ts';

const ICON_SVG = fileURLToPath(new URL('../web/assets/icon.svg', import.meta.url));

/** Theme colours: the page's accent in light mode, a darker shade of it for a dark system theme. */
export const THEME = { light: '#2f6fb0', dark: '#1b3f66', background: '#f6f7f9' } as const;

/** One icon file the build renders: its name under dist/, size in px, and manifest purpose. */
interface IconFile { file: string; size: number; purpose: 'any' | 'maskable' | null }
export const ICONS: readonly IconFile[] = [
  { file: 'icons/icon-192.png', size: 192, purpose: 'any' },
  { file: 'icons/icon-512.png', size: 512, purpose: 'any' },
  { file: 'icons/maskable-512.png', size: 512, purpose: 'maskable' },
  { file: 'icons/apple-touch-icon-180.png', size: 180, purpose: null },
];

/**
 * The SVG of one variant: the source is full-bleed (the maskable icon, which the platform crops);
 * the "any" icons get rounded corners (rx = 18.75 % of the side) on the background square.
 */
export function iconSvg(source: string, purpose: IconFile['purpose']): string {
  if (purpose === 'maskable') return source;
  const out = source.replace('<rect id="bg" ', '<rect id="bg" rx="96" ry="96" ');
  if (out === source) throw new Error('web/assets/icon.svg: no <rect id="bg" …> to round');
  return out;
}

/** Renders web/assets/icon.svg into every PNG of ICONS and emits them, plus the SVG as favicon. */
function pwaIcons(): Plugin {
  return {
    name: 'sqrtdk-pwa-icons',
    apply: 'build',
    async generateBundle() {
      this.addWatchFile(ICON_SVG);
      await resvgReady();
      const source = readFileSync(ICON_SVG, 'utf8');
      for (const icon of ICONS) {
        const r = new Resvg(iconSvg(source, icon.purpose), { fitTo: { mode: 'width', value: icon.size } });
        const img = r.render();
        if (img.width !== icon.size || img.height !== icon.size) throw new Error(`${icon.file}: rendered ${img.width}×${img.height}, expected ${icon.size}²`);
        this.emitFile({ type: 'asset', fileName: icon.file, source: img.asPng() });
        img.free();
        r.free();
      }
      this.emitFile({ type: 'asset', fileName: 'icons/icon.svg', source: iconSvg(source, 'any') });
    },
  };
}

/** The build label shown by the page (data-build) and baked into the service worker's precache. */
export function buildId(version: string): string {
  return process.env.SQRTDK_BUILD_ID || version;
}

export function pwaPlugins(): PluginOption[] {
  return [
    pwaIcons(),
    VitePWA({
      // registration lives in web/src/app/pwa.ts (prompt: a new version waits until the user reloads)
      injectRegister: false,
      registerType: 'prompt',
      strategies: 'generateSW',
      filename: 'sw.js',
      manifestFilename: 'manifest.webmanifest',
      includeManifestIcons: false, // the icons are in globPatterns already
      manifest: {
        // no `id`: a manifest id resolves against the origin (not the manifest), so './' would make
        // every deployment on a host one app; without it the id is start_url, i.e. the sub-path
        name: '√dk Lab — why attention divides by √d_k',
        short_name: '√dk Lab',
        description: 'Live, reproducible experiments on the 1/√d_k scale of Transformer attention, computed in the browser with WebAssembly.',
        lang: 'en',
        start_url: './',
        scope: './',
        display: 'standalone',
        theme_color: THEME.light,
        background_color: THEME.background,
        icons: ICONS.filter((i) => i.purpose !== null).map((i) => ({
          src: i.file, sizes: `${i.size}x${i.size}`, type: 'image/png', purpose: i.purpose!,
        })).concat([{ src: 'icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }]),
      },
      workbox: {
        // the app shell, both wasm builds (simd, base), KaTeX's woff2 fonts (the browser never
        // asks for its woff/ttf fallbacks), the example tensors, and the icons (the plugin adds the manifest)
        globPatterns: ['**/*.{html,js,css,wasm,woff2,npy,png,svg}'],
        // the blog integrations and the custom element's script are for host pages, and the share
        // pages' link cards for crawlers and chat previews, not for the app offline
        globIgnores: ['**/*.woff', '**/*.ttf', 'integrations/**', 'sqrtdk-lab.js', '**/card.png'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        navigateFallback: 'index.html',
        // deploy-safe: a tab of the previous version keeps loading its own files after an update
        // (web/public/sw-keep.js copies them aside on install; this route serves them when the new
        // precache, matched first, no longer has them; anything else under assets/ is fetched)
        importScripts: ['sw-keep.js'],
        runtimeCaching: [{
          urlPattern: ({ url, sameOrigin }: { url: URL; sameOrigin: boolean }) => sameOrigin && url.pathname.includes('/assets/'),
          handler: async ({ request }: { request: Request }) => (await caches.match(request, { cacheName: 'sqrtdk-previous-version' })) ?? fetch(request),
        }],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: false,
        // the page's hash carries the state: one index.html serves every link and embed
        ignoreURLParametersMatching: [/.*/],
        sourcemap: false,
        mode: 'production',
        inlineWorkboxRuntime: false,
      },
      devOptions: { enabled: false },
    }),
  ];
}
