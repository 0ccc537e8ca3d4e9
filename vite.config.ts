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
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readFileSync, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { createHash } from 'node:crypto';
import { FORMULAS, FORMULAS_ZH } from './web/src/formulas.js';
import { pwaPlugins, buildId } from './scripts/pwa-config.ts';
import { integrationFiles } from './web/src/embed/formats.ts';
import { withHeightCap } from './web/src/embed/height-cap.ts';
import { sharePages } from './scripts/share-pages.ts';
import { bootFallback } from './scripts/boot-fallback.ts';
import { oldLink } from './scripts/old-link.ts';
import { SITE_PLACEHOLDER } from './web/src/share/meta.ts';
import { FIRST_PART_VIEWS } from './web/src/worker/cost.ts';
import { htmlWithCors, htmlWithOrigin, siteOrigin } from './scripts/csp.mjs';
import { htmlWithSiteTags, oembedWithSite } from './scripts/site-tags.mjs';

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
 * Preloads the core with the page, so its download starts with the HTML and the page's
 * WebAssembly.compileStreaming (web/src/worker/boot.ts) finds it under way — the part the view
 * starts with: the SIMD128 core's first part on a view of FIRST_PART_VIEWS (the variance view:
 * 28 KB gzip; the full core, 128 KB, follows when another view or the idle page asks for it), the
 * full SIMD128 core on every other view (the root's interview landing among them). One index.html
 * serves every view (the hash says which), so a small classic script of the build
 * (assets/preload-core-<hash>.js, async: it never holds the parser) reads the view from the hash
 * (or a share page's data-page-exp) and adds the <link rel=preload> of that .wasm and the
 * <link rel=modulepreload> of its loader; a script that cannot run costs only the head start. Only
 * the SIMD128 build: the baseline is fetched only where SIMD128 is missing. Also the charts' chunk
 * (Chart.js), which the first view's code imports, as a plain modulepreload.
 */
function preloadCore(): Plugin {
  let script: string | null = null;
  let chart: string | null = null;
  return {
    name: 'sqrtdk-preload-core',
    apply: 'build',
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        const fileOf = (re: RegExp) => Object.keys(bundle).find((f) => re.test(f));
        const chunkOf = (end: string) => Object.values(bundle).find((c) => c.type === 'chunk' && c.moduleIds.some((id) => id.endsWith(end)));
        const first = fileOf(/sqrtdk-simd-first[^/]*\.wasm$/), full = fileOf(/sqrtdk-simd-(?!first)[^/]*\.wasm$/);
        const firstLoader = chunkOf('/sqrtdk-simd-first.mjs')?.fileName, fullLoader = chunkOf('/sqrtdk-simd.mjs')?.fileName;
        chart = chunkOf('/charts/chartbox.ts')?.fileName ?? null;
        if (!first || !full || !firstLoader || !fullLoader) return;  // the worker bundle
        const base = (f: string) => f.slice(f.lastIndexOf('/') + 1);
        const code = `// The core's preloads for the view this page opens (vite.config.ts preloadCore).
(function () {
  var d = document, exp = d.documentElement.getAttribute('data-page-exp'), m = /[#&]exp=([^&]*)/.exec(location.hash), s = d.currentScript;
  // the page already asked for its core (worker/boot.ts): a preload now would fetch it a second time
  if (d.documentElement.hasAttribute('data-core-asked')) return;
  if (m) exp = m[1];
  var first = ${JSON.stringify(FIRST_PART_VIEWS)}.indexOf(exp) >= 0;
  function add(rel, file, as) {
    var l = d.createElement('link');
    l.rel = rel; l.href = new URL(file, s ? s.src : location.href).href; l.crossOrigin = '';
    if (as) { l.as = as; l.type = 'application/wasm'; }
    d.head.appendChild(l);
  }
  add('preload', first ? ${JSON.stringify(base(first))} : ${JSON.stringify(base(full))}, 'fetch');
  add('modulepreload', first ? ${JSON.stringify(base(firstLoader))} : ${JSON.stringify(base(fullLoader))});
})();
`;
        script = `assets/preload-core-${createHash('sha256').update(code).digest('base64url').slice(0, 8)}.js`;
        this.emitFile({ type: 'asset', fileName: script, source: code });
      },
    },
    transformIndexHtml: {
      order: 'post',
      handler() {
        return [
          ...(script ? [{ tag: 'script', attrs: { src: `./${script}`, async: true }, injectTo: 'head' as const }] : []),
          // the chunk of Chart.js and the chart box, which every view with a chart imports: fetched
          // and compiled beside the entry instead of after it, when the view's own import asks for it
          ...(chart ? [{ tag: 'link', attrs: { rel: 'modulepreload', href: `./${chart}`, crossorigin: '' }, injectTo: 'head' as const }] : []),
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
 * The experiments' declaration (wasm/js/experiments.js, which assembles its families' files,
 * wasm/js/experiments/*.js) documents each parameter and each field of each result for the generated
 * types (scripts/gen-experiments.mjs); the page and its workers read only the rest (names, calls,
 * parts, each parameter's type, default and range, how a request is planned). The built page gets
 * that rest: the module as Node loads it (families included, so the families' files are not in the
 * bundle), every `doc`, `ts`, `result`, `flags` and `example` left out and RECORDS empty (about 9 KB
 * gzip of the first view and of each worker). A page module that imported a family's file directly
 * would bundle its docs: the build refuses it.
 */
function experimentsWithoutDocs(): Plugin {
  const file = fileURLToPath(new URL('./wasm/js/experiments.js', import.meta.url));
  const families = fileURLToPath(new URL('./wasm/js/experiments/', import.meta.url));
  const dropped = new Set(['doc', 'ts', 'optional', 'result', 'flags', 'example', 'convert']);
  /** A value as frozen JS source, without the dropped keys (throws on what JSON cannot hold). */
  const source = (v: unknown): string => {
    if (Array.isArray(v)) return `Object.freeze([${v.map(source).join(', ')}])`;
    if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v).filter(([k]) => !dropped.has(k));
      return `Object.freeze({ ${entries.map(([k, x]) => `${JSON.stringify(k)}: ${source(x)}`).join(', ')} })`;
    }
    if (typeof v === 'number' && !Number.isFinite(v)) throw new Error(`experimentsWithoutDocs: ${v} has no JSON form`);
    return JSON.stringify(v) ?? 'undefined';
  };
  return {
    name: 'sqrtdk-experiments-without-docs',
    apply: 'build',
    async transform(_code, id) {
      const path = id.split('?')[0];
      if (path.startsWith(families)) this.error(`${path}: import wasm/js/experiments.js, not a family's file (its docs would be bundled)`);
      if (path !== file) return null;
      const m: Record<string, unknown> = await import(`${pathToFileURL(file).href}?build=${Date.now()}`);
      const lines = ['// wasm/js/experiments.js without its docs (vite.config.ts, experimentsWithoutDocs)'];
      for (const [name, v] of Object.entries(m)) {
        if (typeof v === 'function') lines.push(`export ${v.toString()}`);
        else lines.push(`export const ${name} = ${name === 'RECORDS' ? 'Object.freeze({})' : source(v)};`);
      }
      return { code: lines.join('\n'), map: null };
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
      const site = process.env.SITE_URL ? process.env.SITE_URL.replace(/\/?$/, '/') : SITE_PLACEHOLDER;
      for (const f of integrationFiles(site)) this.emitFile({ type: 'asset', fileName: `integrations/${f.path}`, source: f.text });
    },
  };
}

/**
 * The host pages' scripts, embed.js and the <sqrtdk-lab> element's sqrtdk-lab.js, at the site's
 * root: their sources (web/src/embed/host/) with the one height cap written in
 * (web/src/embed/height-cap.ts MAX_EMBED_HEIGHT, which the MDX component uses too).
 */
function hostScripts(): Plugin {
  return {
    name: 'sqrtdk-host-scripts',
    apply: 'build',
    async generateBundle() {
      for (const name of ['embed.js', 'sqrtdk-lab.js']) {
        const file = fileURLToPath(new URL(`./web/src/embed/host/${name}`, import.meta.url));
        this.addWatchFile(file);
        this.emitFile({ type: 'asset', fileName: name, source: withHeightCap(await readFile(file, 'utf8')) });
      }
    },
  };
}

/**
 * `npm start` (vite preview) answers only the pages the build has, as a static host does: a share
 * page asked for without its trailing slash (p/saturation) is redirected to it, and any other
 * address is a 404 (appType 'mpa' below) — not the root page, whose relative assets would then
 * resolve under the wrong directory and 404 (a spinner that never stopped).
 */
function previewNearMiss(): Plugin {
  const dist = fileURLToPath(new URL('./dist/', import.meta.url));
  return {
    name: 'sqrtdk-preview-near-miss',
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        let u: URL, pathname: string;
        try { u = new URL('http://x' + (req.url ?? '/')); pathname = decodeURIComponent(u.pathname); } catch { next(); return; }
        if (req.method !== 'GET' || pathname.endsWith('/') || /\.[a-z0-9]+$/i.test(pathname) || pathname.includes('..')
          || !existsSync(dist + pathname.slice(1) + '/index.html')) { next(); return; }
        res.writeHead(301, { location: u.pathname + '/' + u.search });
        res.end();
      });
    },
  };
}

/**
 * Every HTML page's Content-Security-Policy names the site's origin beside 'self' (scripts/csp.mjs:
 * WebKit matches 'self' in a sandboxed embed against its opaque origin and blocks every script):
 * at build time from SITE_URL, and at serve time by `npm start` (vite preview) with the origin the
 * page is reached at (its Host header), which also sends Access-Control-Allow-Origin: *.
 */
function cspOrigin(): Plugin {
  let outDir = '';
  const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
  return {
    name: 'sqrtdk-csp-origin',
    enforce: 'post',
    configResolved(c) { outDir = path.resolve(c.root, c.build.outDir); },
    generateBundle: {
      order: 'post',
      handler(_opts, bundle) {
        if (!process.env.SITE_URL) return;
        const origin = siteOrigin(process.env.SITE_URL.trim());
        for (const f of Object.values(bundle)) if (f.type === 'asset' && f.fileName.endsWith('.html')) f.source = htmlWithOrigin(String(f.source), origin);
      },
    },
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        const host = req.headers.host ?? '';
        if ((req.method !== 'GET' && req.method !== 'HEAD') || !HOST.test(host)) { next(); return; }
        let p: string;
        try { p = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname); } catch { next(); return; }
        if (p.endsWith('/')) p += 'index.html';
        const file = path.resolve(outDir, '.' + p);
        const json = p.endsWith('/oembed.json');
        if (!(p.endsWith('.html') || json) || !file.startsWith(outDir + path.sep)) { next(); return; }
        // a build without SITE_URL: its cards, og:url, oEmbed discovery and answers with this server's origin (scripts/site-tags.mjs)
        const here = `http://${host}${p.replace(/index\.html$/, '')}`;
        readFile(file, 'utf8').then((text) => {
          res.setHeader('Content-Type', json ? 'application/json' : 'text/html; charset=utf-8');
          res.setHeader('Cache-Control', 'no-cache');
          res.setHeader('Access-Control-Allow-Origin', '*');
          const body = json ? oembedWithSite(text, here) : htmlWithSiteTags(htmlWithCors(htmlWithOrigin(text, `http://${host}`)), here);
          res.end(req.method === 'HEAD' ? undefined : body);
        }, () => next());
      });
    },
  };
}

export default defineConfig({
  root,
  base: './',
  // web/public/ holds only the example tensors of the "your own tensors" panel
  // (scripts/make-examples.mjs); Vite copies it into dist/examples/.
  publicDir: fileURLToPath(new URL('./web/public', import.meta.url)),
  plugins: [katexWoff2Only(), katexPrerender(), schemaWithoutDocs(), experimentsWithoutDocs(), preloadCore(), bootFallback(), integrations(), hostScripts(), sharePages(), oldLink(), previewNearMiss(), cspOrigin(), ...pwaPlugins()],
  // the build label (SQRTDK_BUILD_ID, else the package version): the page shows it as
  // <html data-build>, and a new label means a new service worker (tests/e2e/offline.test.mjs)
  define: { __SQRTDK_BUILD__: JSON.stringify(buildId(pkg.version)) },
  worker: { format: 'es', plugins: () => [schemaWithoutDocs(), experimentsWithoutDocs()] },
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
  // no single-page fallback: an address the build has no page for is a 404 (previewNearMiss)
  appType: 'mpa',
  test: {
    root: repo,
    include: ['tests/web/**/*.test.ts'],
    setupFiles: ['tests/web/setup-cost.ts'],
    environment: 'node',
    // two files at a time even on two cores (vitest's default there is one): the Copy-as-code file
    // spends most of its time in Python, which the other files then run beside
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
