// The embed in every format a blog takes: raw HTML (iframe + embed.js), the <sqrtdk-lab> custom
// element (web/src/embed/host/sqrtdk-lab.js), a Hugo shortcode, a Jekyll include, an MDX/React component
// the oEmbed link, a notebook output cell (Jupyter, Colab, VS Code, marimo) and a Quarto block. For each: the line(s) a blogger writes in a post (`usage`) and, where the
// format needs one, the file dropped once into the site (`file`: its path in the blog and its
// text). Pure, no DOM: the dialog shows them, the build writes the files into dist/integrations/
// (vite.config.ts), and tests/web/formats.test.ts renders each template through its variables.
//
// Hugo, Jekyll and MDX receive the view as four short parameters: exp, lang, show, and `state`,
// the panel's other keys exactly as in its link ("dk=256&seed=1&…"); the custom element takes
// every key as its own attribute (HTML lower-cases attribute names: ELEMENT_KEY_CASE restores them).
import { MAX_EMBED_HEIGHT } from './height-cap.ts';

export type EmbedFormat = 'html' | 'element' | 'hugo' | 'jekyll' | 'mdx' | 'oembed' | 'notebook' | 'quarto';
export const EMBED_FORMATS: readonly EmbedFormat[] = ['html', 'element', 'hugo', 'jekyll', 'mdx', 'oembed', 'notebook', 'quarto'];

/** The view to embed, as the dialog has it. */
export interface EmbedTarget {
  /** the site's directory URL, ending in "/" (where index.html, embed.js and sqrtdk-lab.js are) */
  site: string;
  /** the page's address without the hash (the site's directory, or its index.html) */
  page: string;
  /** the embed's hash (state.ts embedHash): "#v=1&exp=…&embed=1…" with only the panel's keys */
  hash: string;
  /** the iframe's accessible title */
  title: string;
  /** the fixed fallback height in CSS px (snippet.ts fallbackHeight): the content height at a 720 px column */
  height: number;
  /**
   * The HTML snippet's height as CSS of the frame's own width (snippet.ts fitCss), so the frame fits
   * at any column width without embed.js; absent: the fixed height alone.
   */
  fit?: string;
}

/** The file a format needs in the blog: where it goes and its text. */
export interface IntegrationFile { path: string; text: string }
export interface FormatSnippet { usage: string; file: IntegrationFile | null }

/** The parts shown when a link has no `show` (every part). */
export const ALL_PARTS = 'controls,charts,formula,text';

/** Keys whose names have capitals, as HTML attributes (lower-cased by the parser) → the link's key. */
export const ELEMENT_KEY_CASE: Readonly<Record<string, string>> = { seqlen: 'seqLen', pseqlen: 'pseqLen' };

/** A view's hash cut into the short parameters of the templates. */
export interface ViewParams { exp: string; lang: string; show: string; state: string; pairs: [string, string][] }
export function viewParams(hash: string): ViewParams {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const rest: [string, string][] = [];
  for (const [k, v] of q) if (!['v', 'exp', 'lang', 'show', 'embed'].includes(k)) rest.push([k, v]);
  const enc = (v: string) => encodeURIComponent(v).replace(/%2C/g, ',');
  return {
    exp: q.get('exp') ?? 'interview',
    lang: q.get('lang') ?? 'en',
    show: q.get('show') ?? ALL_PARTS,
    state: rest.map(([k, v]) => `${k}=${enc(v)}`).join('&'),
    pairs: rest,
  };
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** HTML: the iframe with its fallback height (fitted to the column's width where `fit` is given) and the site's embed.js, which sizes it exactly. */
export function htmlSnippet(t: EmbedTarget): string {
  const frame = `<iframe src="${esc(t.page + t.hash)}" title="${esc(t.title)}" width="100%" height="${t.height}" style="border:0;width:100%${t.fit ? `;height:${t.fit}` : ''}" loading="lazy" data-sqrtdk-embed></iframe>`;
  // the wrapper is the inline-size container whose width the fit's cqw units read
  return (t.fit ? `<div style="container-type:inline-size">${frame}</div>` : frame) + '\n'
    + `<script src="${esc(t.site)}embed.js" async></script>`;
}

/** The custom element: the site's sqrtdk-lab.js, then one element with the view's keys as attributes. */
export function elementSnippet(t: EmbedTarget): string {
  const p = viewParams(t.hash);
  const attrs = [['exp', p.exp], ['lang', p.lang], ...p.pairs, ...(p.show !== ALL_PARTS ? [['show', p.show]] : []), ['height', String(t.height)], ['title', t.title]];
  return `<script src="${esc(t.site)}sqrtdk-lab.js" async></script>\n`
    + `<sqrtdk-lab ${attrs.map(([k, v]) => `${k.toLowerCase()}="${esc(v)}"`).join(' ')}></sqrtdk-lab>`;
}

/** Hugo: layouts/shortcodes/sqrtdk.html, used as {{< sqrtdk exp="…" state="…" … >}}. */
export function hugoShortcode(site: string): string {
  return `{{- /* √dk Lab embed (MIT): layouts/shortcodes/sqrtdk.html
   In a post, the shortcode sqrtdk with exp="saturation" state="dk=256&seed=1" show="charts" lang="en" height="860".
   "state" holds the view's other keys exactly as in its link; "site" overrides where √dk Lab is served. */ -}}
{{- $site := .Get "site" | default "${site}" -}}
{{- $src := printf "%s#v=1&exp=%s&lang=%s&%s&embed=1&show=%s" $site (.Get "exp") (.Get "lang" | default "en") (.Get "state" | default "") (.Get "show" | default "${ALL_PARTS}") -}}
<iframe src="{{ $src }}" title="{{ .Get "title" | default "√dk Lab" }}" width="100%" height="{{ .Get "height" | default "860" }}" style="border:0;width:100%" loading="lazy" data-sqrtdk-embed></iframe>
<script src="{{ $site }}embed.js" async></script>
`;
}
export function hugoUsage(t: EmbedTarget): string {
  const p = viewParams(t.hash);
  return `{{< sqrtdk exp="${p.exp}" state="${p.state}" show="${p.show}" lang="${p.lang}" height="${t.height}" title="${t.title.replace(/"/g, "'")}" >}}`;
}

/** Jekyll: _includes/sqrtdk.html, used as {% include sqrtdk.html exp="…" state="…" … %}. */
export function jekyllInclude(site: string): string {
  return `{%- comment -%} √dk Lab embed (MIT): _includes/sqrtdk.html
  In a post, include sqrtdk.html with exp="saturation" state="dk=256&seed=1" show="charts" lang="en" height="860".
  "state" holds the view's other keys exactly as in its link; "site" overrides where √dk Lab is served. {%- endcomment -%}
{%- assign sqrtdk_site = include.site | default: "${site}" -%}
<iframe src="{{ sqrtdk_site }}#v=1&amp;exp={{ include.exp }}&amp;lang={{ include.lang | default: "en" }}&amp;{{ include.state | replace: "&", "&amp;" }}&amp;embed=1&amp;show={{ include.show | default: "${ALL_PARTS}" }}" title="{{ include.title | default: "√dk Lab" | escape }}" width="100%" height="{{ include.height | default: 860 }}" style="border:0;width:100%" loading="lazy" data-sqrtdk-embed></iframe>
<script src="{{ sqrtdk_site }}embed.js" async></script>
`;
}
export function jekyllUsage(t: EmbedTarget): string {
  const p = viewParams(t.hash);
  return `{% include sqrtdk.html exp="${p.exp}" state="${p.state}" show="${p.show}" lang="${p.lang}" height="${t.height}" title="${t.title.replace(/"/g, "'")}" %}`;
}

/**
 * MDX / React (Docusaurus, Astro with React, Next.js): src/components/SqrtdkLab.js, plain
 * React.createElement (no JSX step needed). It sizes its iframe from the lab's height messages,
 * taken only from its own iframe's window and the lab's origin.
 */
export function mdxComponent(site: string): string {
  return `// √dk Lab embed (MIT): src/components/SqrtdkLab.js, for MDX (Docusaurus, Astro, Next.js)
// In a post:  import SqrtdkLab from '@site/src/components/SqrtdkLab';
//             <SqrtdkLab exp="saturation" state="dk=256&seed=1" show="charts" lang="en" height={860} />
// "state" holds the view's other keys exactly as in its link; "site" overrides where √dk Lab is served.
import React from 'react';

export default function SqrtdkLab({ exp, state = '', show = '${ALL_PARTS}', lang = 'en', height = 860, title = '√dk Lab', site = ${JSON.stringify(site)} }) {
  const frame = React.useRef(null);
  const [h, setH] = React.useState(Number(height));
  const src = site + '#v=1&exp=' + exp + '&lang=' + lang + (state ? '&' + state : '') + '&embed=1&show=' + show;
  React.useEffect(() => {
    const origin = new URL(site, window.location.href).origin;
    const onMessage = (ev) => {
      const d = ev.data;
      if (!frame.current || ev.source !== frame.current.contentWindow || ev.origin !== origin) return;
      if (d && d.type === 'sqrtdk:height' && typeof d.height === 'number' && d.height > 0 && Number.isFinite(d.height)) setH(Math.min(${MAX_EMBED_HEIGHT}, Math.ceil(d.height)));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [site]);
  const ask = () => { try { frame.current.contentWindow.postMessage({ type: 'sqrtdk:ask-height' }, new URL(site, window.location.href).origin); } catch (e) { /* not loaded */ } };
  return React.createElement('iframe', {
    ref: frame, src, title, width: '100%', height: h, loading: 'lazy', onLoad: ask,
    style: { border: 0, width: '100%', height: h + 'px' },
  });
}
`;
}
export function mdxUsage(t: EmbedTarget): string {
  const p = viewParams(t.hash);
  return `import SqrtdkLab from '@site/src/components/SqrtdkLab';\n\n`
    + `<SqrtdkLab exp="${p.exp}" state="${p.state}" show="${p.show}" lang="${p.lang}" height={${t.height}} title="${t.title.replace(/"/g, "'")}" />`;
}

/**
 * The oEmbed link: the view's share page (`p/<exp>/`, `zh-CN/p/<exp>/` in Chinese) with the hash of
 * the view's settings. Hosts that discover oEmbed (WordPress, Ghost, Notion, Discord) read the
 * page's <link rel="alternate" type="application/json+oembed"> and embed the view.
 */
export function oembedLink(t: EmbedTarget): string {
  const p = viewParams(t.hash);
  const q = new URLSearchParams(t.hash.replace(/^#/, ''));
  q.delete('embed');
  q.delete('show');
  const hash = '#' + [...q].map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ',')}`).join('&');
  return `${t.site}${p.lang === 'zh-CN' ? 'zh-CN/' : ''}p/${p.exp}/${hash}`;
}

/** A Python string literal of any text (JSON's escapes are Python's; every non-ASCII character escaped too). */
function pyLiteral(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A notebook's output cell (Jupyter, JupyterLab, Colab, VS Code, marimo): IPython.display.IFrame of the embed's
 * address, as wide as the cell and as tall as the web component (the content height at a 720 px column). Colab
 * and some notebook viewers drop raw iframes from Markdown cells; a cell's output keeps them.
 */
export function notebookCell(t: EmbedTarget): string {
  return `# √dk Lab: ${t.title.replace(/[\r\n\u2028\u2029]/g, ' ')} (run the cell: its output is the live view)\n`
    + `from IPython.display import IFrame\n\n`
    + `IFrame(${pyLiteral(t.page + t.hash)}, width="100%", height=${t.height})`;
}

/** The view's link card (the share page's card.png, 1200×630) and its share page with the view's settings. */
export function cardOf(t: EmbedTarget): { png: string; link: string } {
  const p = viewParams(t.hash);
  const page = `${t.site}${p.lang === 'zh-CN' ? 'zh-CN/' : ''}p/${p.exp}/`;
  return { png: `${page}card.png`, link: oembedLink(t) };
}

/**
 * Quarto: a raw HTML block (kept in HTML output only) with the iframe and embed.js, and for every other output
 * (PDF, Word) the view's link card as an image linking to the view.
 */
export function quartoBlock(t: EmbedTarget): string {
  const card = cardOf(t);
  const alt = t.title.replace(/[[\]\r\n]/g, ' ');
  return '```{=html}\n' + htmlSnippet(t) + '\n```\n\n'
    + '::: {.content-visible unless-format="html"}\n'
    + `[![${alt}](${card.png})](${card.link})\n`
    + ':::';
}

/** The files of the formats that need one, with `site` as their default address of √dk Lab. */
export function integrationFiles(site: string): IntegrationFile[] {
  return [
    { path: 'hugo/layouts/shortcodes/sqrtdk.html', text: hugoShortcode(site) },
    { path: 'jekyll/_includes/sqrtdk.html', text: jekyllInclude(site) },
    { path: 'mdx/src/components/SqrtdkLab.js', text: mdxComponent(site) },
  ];
}

/** The snippet of one format for a view. */
export function formatSnippet(format: EmbedFormat, t: EmbedTarget): FormatSnippet {
  const files = integrationFiles(t.site);
  switch (format) {
    case 'html': return { usage: htmlSnippet(t), file: null };
    case 'element': return { usage: elementSnippet(t), file: null };
    case 'hugo': return { usage: hugoUsage(t), file: files[0] };
    case 'jekyll': return { usage: jekyllUsage(t), file: files[1] };
    case 'mdx': return { usage: mdxUsage(t), file: files[2] };
    case 'oembed': return { usage: oembedLink(t), file: null };
    case 'notebook': return { usage: notebookCell(t), file: null };
    case 'quarto': return { usage: quartoBlock(t), file: null };
  }
}
