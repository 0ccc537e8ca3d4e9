/// <reference types="vitest/config" />
// Vite config of the page: root web/, output dist/ at the repo root, relative base so dist/ works
// from any sub-path, module workers in ES format (the core is loaded by dynamic import), the
// example tensors copied from web/public/, and a tiny plugin that renders the page's KaTeX
// formulas at build time, the share pages with their link cards and first paint
// (scripts/share-pages.ts), and the Progressive Web App (scripts/pwa-config.ts: manifest, icons,
// service worker).
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
import katex from 'katex';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { FORMULAS, FORMULAS_ZH } from './web/src/formulas.js';
import { pwaPlugins, buildId } from './scripts/pwa-config.ts';
import { integrationFiles } from './web/src/embed/formats.ts';
import { sharePages } from './scripts/share-pages.ts';

const root = fileURLToPath(new URL('./web', import.meta.url));
const repo = fileURLToPath(new URL('.', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * The page's formulas rendered by KaTeX at build time, one module per language
 * ('virtual:formulas/en', 'virtual:formulas/zh-CN', loaded by the panel shell once the first chart
 * is drawn, with KaTeX's CSS), so the page ships HTML + KaTeX's CSS and fonts, not KaTeX's parser,
 * and no formula is on the path to the first chart.
 */
function katexPrerender(): Plugin {
  const prefix = 'virtual:formulas/';
  // Each formula is cut at its top-level \quad / \qquad into pieces, each rendered as
  // \displaystyle math in its own inline box: on a wide screen the pieces stand on one centred
  // line like display math, on a phone the line wraps between them.
  const render = (tex: string) => tex.split(/\\q?quad(?![a-zA-Z])/).map((x) => x.trim()).filter((x) => x !== '')
    .map((x) => `<span class="piece">${katex.renderToString('\\displaystyle ' + x, { displayMode: false, throwOnError: true, strict: false, output: 'htmlAndMathml' })}</span>`).join(' ');
  return {
    name: 'sqrtdk-katex-prerender',
    resolveId(source) { return source.startsWith(prefix) ? '\0' + source : null; },
    load(resolved) {
      if (!resolved.startsWith('\0' + prefix)) return null;
      this.addWatchFile(fileURLToPath(new URL('./web/src/formulas.js', import.meta.url)));
      const lang = resolved.slice(1 + prefix.length);
      // Chinese where the words differ, English for the rest (symbols only)
      const src = lang === 'zh-CN' ? { ...FORMULAS, ...FORMULAS_ZH } : FORMULAS;
      // KaTeX's stylesheet (and through it its fonts) comes with the formulas, not with the page
      return `import 'katex/dist/katex.min.css';\nexport default ${JSON.stringify(Object.fromEntries(Object.entries(src).map(([k, tex]) => [k, render(tex)])))};`;
    },
  };
}

/**
 * KaTeX's stylesheet names each font as woff2, woff and ttf; every browser that runs WebAssembly
 * SIMD reads woff2, so only woff2 is kept (dist/ ships 20 font files instead of 60).
 */
function katexWoff2Only(): Plugin {
  return {
    name: 'sqrtdk-katex-woff2-only',
    enforce: 'pre',
    transform(code, id) {
      if (!/katex(\.min)?\.css$/.test(id.split('?')[0])) return null;
      return { code: code.replace(/,\s*url\([^)]*\.woff\)\s*format\("woff"\)/g, '').replace(/,\s*url\([^)]*\.ttf\)\s*format\("truetype"\)/g, ''), map: null };
    },
  };
}

/**
 * Preloads the SIMD128 core with the page (<link rel=preload as=fetch>), so its download starts
 * with the HTML and the page's WebAssembly.compileStreaming (web/src/worker/boot.ts) finds it
 * under way. Only the SIMD128 build: the baseline is fetched only where SIMD128 is missing. Also
 * the charts' chunk (Chart.js), which the first view's code imports, and the core's loader.
 */
function preloadCore(): Plugin {
  return {
    name: 'sqrtdk-preload-core',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const wasm = Object.keys(ctx.bundle ?? {}).find((f) => /sqrtdk-simd[^/]*\.wasm$/.test(f));
        if (!wasm) return [];
        // the chunk of Chart.js and the chart box, which every view with a chart imports: fetched
        // and compiled beside the entry instead of after it, when the view's own import asks for it
        // and the SIMD128 core's loader, which the page's core imports once the module is compiled
        const chunkOf = (end: string) => Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.moduleIds.some((id) => id.endsWith(end)));
        const modules = [chunkOf('/charts/chartbox.ts'), chunkOf('/sqrtdk-simd.mjs')].filter((c) => c !== undefined);
        return [
          { tag: 'link', attrs: { rel: 'preload', href: `./${wasm}`, as: 'fetch', type: 'application/wasm', crossorigin: '' }, injectTo: 'head' },
          ...modules.map((c) => ({ tag: 'link', attrs: { rel: 'modulepreload', href: `./${c.fileName}`, crossorigin: '' }, injectTo: 'head' as const })),
        ];
      },
    },
  };
}

/**
 * The state schema's `doc` of each URL key (web/src/state/schema.js) is the README's table of URL
 * keys (scripts/url-keys.mjs); the page never shows it, so the built page goes without it (2.5 KB
 * gzip of the first view, issue 20). Each doc is a line `doc: '…',` of its key's spec.
 */
function schemaWithoutDocs(): Plugin {
  return {
    name: 'sqrtdk-schema-without-docs',
    apply: 'build',
    transform(code, id) {
      if (!id.split('?')[0].endsWith('/web/src/state/schema.js')) return null;
      return { code: code.replace(/^[ \t]*doc: (['"])(?:\\.|(?!\1).)*\1,[ \t]*$/gm, ''), map: null };
    },
  };
}

/**
 * The blog integrations (web/src/embed/formats.ts) as files in dist/integrations/: the Hugo
 * shortcode, the Jekyll include and the MDX component, whose default address of √dk Lab is
 * SITE_URL (the build setting of the share pages) or, without it, a placeholder each file names.
 * The embed dialog shows the same files with the address the page is served from.
 */
function integrations(): Plugin {
  return {
    name: 'sqrtdk-integrations',
    apply: 'build',
    generateBundle() {
      const site = process.env.SITE_URL ? process.env.SITE_URL.replace(/\/?$/, '/') : 'https://YOUR-SITE.example/sqrtdk/';
      for (const f of integrationFiles(site)) this.emitFile({ type: 'asset', fileName: `integrations/${f.path}`, source: f.text });
    },
  };
}

export default defineConfig({
  root,
  base: './',
  // web/public/ holds only the example tensors of the "your own tensors" panel
  // (scripts/make-examples.mjs); Vite copies it into dist/examples/.
  publicDir: fileURLToPath(new URL('./web/public', import.meta.url)),
  plugins: [katexWoff2Only(), katexPrerender(), schemaWithoutDocs(), preloadCore(), integrations(), sharePages(), ...pwaPlugins()],
  // the build label (SQRTDK_BUILD_ID, else the package version): the page shows it as
  // <html data-build>, and a new label means a new service worker (tests/e2e/offline.test.mjs)
  define: { __SQRTDK_BUILD__: JSON.stringify(buildId(pkg.version)) },
  worker: { format: 'es', plugins: () => [schemaWithoutDocs()] },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 400,
  },
  server: { host: '127.0.0.1', fs: { allow: [repo] } },
  // npm start serves dist/ with the header a sandboxed embed (origin "null") needs to load the
  // page's module script, stylesheet, fonts, workers and .wasm (README "Embedding")
  preview: { host: '127.0.0.1', headers: { 'Access-Control-Allow-Origin': '*' } },
  test: {
    root: repo,
    include: ['tests/web/**/*.test.ts'],
    setupFiles: ['tests/web/setup-cost.ts'],
    environment: 'node',
  },
});
