// A tiny static file server for dist/ on 127.0.0.1 and a random free port (browser tests and
// bench:ui). Serves the page under a sub-path too (/sub/dir/…), to prove that dist/ works there.
// Every file carries Access-Control-Allow-Origin: * as GitHub Pages and Netlify send it (a
// sandboxed embed, origin "null", loads its scripts, fonts and .wasm with CORS).
// setRoot() swaps the folder served (a new deployment, for the service worker's update test).
// `site: true` serves the HTML as `npm start` does: its CSP names the server's origin beside 'self'
// (scripts/csp.mjs: what WebKit needs to start a sandboxed embed), and a build without SITE_URL gets
// its cards, og:url and oEmbed answers with the server's origin (scripts/site-tags.mjs). `headScript` is the source of a
// script served beside the pages and loaded by each, right after its CSP (the engines layer's
// error capture where the browser's driver reports no console events).
import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { htmlWithCors, htmlWithOrigin } from '../../scripts/csp.mjs';
import { htmlWithSiteTags, oembedWithSite } from '../../scripts/site-tags.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.woff2': 'font/woff2', '.woff': 'font/woff',
  '.ttf': 'font/ttf', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json',
};

const HEAD_SCRIPT = '__head-script.js';

/** @param {string} root @param {{ prefix?: string, cors?: boolean, site?: boolean, headScript?: string }} [opts] (cors: false sends no Access-Control-Allow-Origin; site: HTML as npm start serves it) @returns {Promise<{ url: string, origin: string, setRoot: (dir: string) => void, close: () => Promise<void> }>} */
export async function serve(root, opts = {}) {
  const prefix = opts.prefix ?? '/';
  let base = path.resolve(root);
  let origin = '';
  const server = http.createServer(async (req, res) => {
    try {
      const u = new URL(req.url ?? '/', 'http://127.0.0.1');
      let p = decodeURIComponent(u.pathname);
      if (!p.startsWith(prefix)) { res.writeHead(404).end('not found'); return; }
      p = p.slice(prefix.length);
      if (p === '' || p.endsWith('/')) p += 'index.html';
      if (opts.headScript !== undefined && p === HEAD_SCRIPT) {
        res.writeHead(200, { 'content-type': TYPES['.js'], 'cache-control': 'no-store', ...(opts.cors === false ? {} : { 'access-control-allow-origin': '*' }) });
        res.end(opts.headScript);
        return;
      }
      const file = path.resolve(base, p);
      if (!file.startsWith(base + path.sep)) { res.writeHead(403).end('forbidden'); return; }
      const st = await stat(file);
      if (!st.isFile()) { res.writeHead(404).end('not found'); return; }
      let body = await readFile(file);
      if (opts.site && file.endsWith('oembed.json')) body = Buffer.from(oembedWithSite(body.toString('utf8'), origin + u.pathname));
      if (opts.site && file.endsWith('.html')) {
        const html = htmlWithSiteTags(htmlWithOrigin(body.toString('utf8'), origin), origin + u.pathname);
        body = Buffer.from(opts.cors === false ? html : htmlWithCors(html));
      }
      if (opts.headScript !== undefined && file.endsWith('.html')) {
        body = Buffer.from(body.toString('utf8').replace(/(<meta http-equiv="Content-Security-Policy"[^>]*>)/, `$1<script src="${prefix}${HEAD_SCRIPT}"></script>`));
      }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-length': body.length, 'cache-control': 'no-store', ...(opts.cors === false ? {} : { 'access-control-allow-origin': '*' }) });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: origin + prefix,
    setRoot: (dir) => { base = path.resolve(dir); },
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}
