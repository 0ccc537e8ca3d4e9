/// <reference types="vitest/config" />
// Vite config of the page: root web/, output dist/ at the repo root, relative base so dist/ works
// from any sub-path, module workers in ES format (the core is loaded by dynamic import), the
// example tensors copied from web/public/, and a tiny plugin that renders the page's KaTeX
// formulas at build time, and the Progressive Web App (scripts/pwa-config.ts: manifest, icons,
// service worker).
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
import katex from 'katex';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { FORMULAS } from './web/src/formulas.js';
import { pwaPlugins, buildId } from './scripts/pwa-config.ts';

const root = fileURLToPath(new URL('./web', import.meta.url));
const repo = fileURLToPath(new URL('.', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

function katexPrerender(): Plugin {
  const id = 'virtual:formulas';
  return {
    name: 'sqrtdk-katex-prerender',
    resolveId(source) { return source === id ? '\0' + id : null; },
    load(resolved) {
      if (resolved !== '\0' + id) return null;
      this.addWatchFile(fileURLToPath(new URL('./web/src/formulas.js', import.meta.url)));
      const html = Object.fromEntries(Object.entries(FORMULAS).map(([k, tex]) => [
        k, katex.renderToString(tex, { displayMode: true, throwOnError: true, output: 'htmlAndMathml' }),
      ]));
      return `export default ${JSON.stringify(html)};`;
    },
  };
}

export default defineConfig({
  root,
  base: './',
  // web/public/ holds only the example tensors of the "your own tensors" panel
  // (scripts/make-examples.mjs); Vite copies it into dist/examples/.
  publicDir: fileURLToPath(new URL('./web/public', import.meta.url)),
  plugins: [katexPrerender(), ...pwaPlugins()],
  // the build label (SQRTDK_BUILD_ID, else the package version): the page shows it as
  // <html data-build>, and a new label means a new service worker (tests/e2e/offline.test.mjs)
  define: { __SQRTDK_BUILD__: JSON.stringify(buildId(pkg.version)) },
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 400,
  },
  server: { host: '127.0.0.1', fs: { allow: [repo] } },
  preview: { host: '127.0.0.1' },
  test: {
    root: repo,
    include: ['tests/web/**/*.test.ts'],
    environment: 'node',
  },
});
