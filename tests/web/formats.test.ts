// Every blog format of the embed dialog (web/src/embed/formats.ts), exercised as text through its
// template's variables: the Hugo shortcode rendered with the post's named parameters the way Hugo
// evaluates .Get, default, printf and html/template's attribute escaping; the Jekyll include with
// include.* and Liquid's default / replace / escape; the MDX component evaluated as a function
// with a minimal React (createElement, useRef, useState, useEffect). Each gives an iframe whose
// address opens exactly the view of the HTML snippet.
import { describe, it, expect } from 'vitest';
import { readFileSync, writeFileSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultState, parseHash, sameState, STATE_KEYS } from '../../web/src/state/state.ts';
import type { State } from '../../web/src/state/state.ts';
import { embedTarget } from '../../web/src/embed/snippet.ts';
import {
  formatSnippet, hugoShortcode, jekyllInclude, mdxComponent, elementSnippet, oembedLink, viewParams,
  ELEMENT_KEY_CASE, EMBED_FORMATS, integrationFiles,
} from '../../web/src/embed/formats.ts';

const SITE = 'https://lab.example.org/sqrtdk/';
const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
/** The attributes of the first <tag …> of some HTML, decoded. */
function attrs(html: string, tag: string): Record<string, string> {
  const m = new RegExp(`<${tag}\\s([^>]*)>`).exec(html);
  if (!m) throw new Error(`no <${tag}> in ${html}`);
  return Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], decode(a[2])]));
}
/** Named parameters of a shortcode / include / JSX call: name="value" or name={123}. */
function callParams(call: string): Record<string, string> {
  return Object.fromEntries([...call.matchAll(/([\w-]+)=(?:"([^"]*)"|\{([^}]*)\})/g)].map((a) => [a[1], a[2] ?? a[3]]));
}
const hashOf = (src: string) => src.slice(src.indexOf('#'));
const stateOf = (src: string): State => parseHash(hashOf(src)).state;

/** Views with each kind of key: defaults, capitals (seqLen), a comma list, Chinese, colours. */
const VIEWS: State[] = [
  { ...defaultState('en'), exp: 'saturation', dk: 256, seqLen: 64, scale: 'none', embed: true, show: ['charts'] },
  { ...defaultState('zh-CN'), exp: 'precision', plogits: [10, 0, -Infinity], pseqLen: 256, theme: 'dark', embed: true },
  { ...defaultState('en'), exp: 'gqa', hq: 16, hkv: 4, embed: true, show: ['charts', 'text'] },
];
const TITLE = '√dk Lab — "the" view';

// ---- Hugo: the subset of Go templates the shortcode uses ----
type Vars = Record<string, string>;
function hugoEval(expr: string, params: Vars, vars: Vars): string {
  const tokens = expr.match(/"(?:[^"\\]|\\.)*"|\(|\)|\||\$\w+|\.Get|[A-Za-z]+/g) ?? [];
  let i = 0;
  const atom = (): string => {
    const tok = tokens[i++];
    if (tok === '(') { const v = pipeline(); i++; return v; }
    if (tok.startsWith('"')) return JSON.parse(tok) as string;
    if (tok.startsWith('$')) { if (!(tok.slice(1) in vars)) throw new Error(`undefined ${tok}`); return vars[tok.slice(1)]; }
    if (tok === '.Get') return params[JSON.parse(tokens[i++]) as string] ?? '';
    throw new Error(`unexpected ${tok}`);
  };
  const command = (piped?: string): string => {
    const head = tokens[i];
    if (head === 'printf' || head === 'default') {
      i++;
      const args: string[] = [];
      while (i < tokens.length && tokens[i] !== '|' && tokens[i] !== ')') args.push(atom());
      if (piped !== undefined) args.push(piped);
      if (head === 'default') return args[1] === '' || args[1] === undefined ? args[0] : args[1];
      let k = 1;
      return args[0].replace(/%s/g, () => args[k++]);
    }
    return atom();
  };
  const pipeline = (): string => {
    let v = command();
    while (tokens[i] === '|') { i++; v = command(v); }
    return v;
  };
  return pipeline();
}
/** Renders a shortcode file with its named parameters; output actions are escaped as html/template does in an attribute. */
function renderHugo(template: string, params: Vars): string {
  const vars: Vars = {};
  const src = template.replace(/\s*\{\{-/g, '{{').replace(/-\}\}\s*/g, '}}');
  return src.replace(/\{\{(.*?)\}\}/gs, (_, body: string) => {
    const b = body.trim();
    if (b.startsWith('/*')) return '';
    const assign = /^\$(\w+)\s*:=\s*(.*)$/s.exec(b);
    if (assign) { vars[assign[1]] = hugoEval(assign[2], params, vars); return ''; }
    return hugoEval(b, params, vars).replace(/&/g, '&amp;').replace(/"/g, '&#34;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  });
}

// ---- Jekyll: the subset of Liquid the include uses ----
function liquidEval(expr: string, include: Vars, vars: Vars): string {
  const [head, ...filters] = expr.split('|').map((s) => s.trim());
  const value = (x: string): string => (x.startsWith('"') ? JSON.parse(x) as string : /^\d+$/.test(x) ? x : x.startsWith('include.') ? include[x.slice(8)] ?? '' : vars[x] ?? '');
  let v = value(head);
  for (const f of filters) {
    const colon = f.indexOf(':');
    const name = colon < 0 ? f : f.slice(0, colon).trim();
    const argText = colon < 0 ? '' : f.slice(colon + 1);
    const args = argText ? (argText.match(/"[^"]*"|\d+/g) ?? []).map(value) : [];
    if (name === 'default') v = v === '' ? args[0] : v;
    else if (name === 'replace') v = v.split(args[0]).join(args[1]);
    else if (name === 'escape') v = v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    else throw new Error(`filter ${name}`);
  }
  return v;
}
function renderJekyll(template: string, include: Vars): string {
  const vars: Vars = {};
  let src = template.replace(/\s*\{%-/g, '{%').replace(/-%\}\s*/g, '%}');
  src = src.replace(/\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}/gs, '');
  src = src.replace(/\{%\s*assign\s+(\w+)\s*=\s*(.*?)%\}/gs, (_, name: string, expr: string) => { vars[name] = liquidEval(expr.trim(), include, vars); return ''; });
  return src.replace(/\{\{(.*?)\}\}/gs, (_, expr: string) => liquidEval(expr.trim(), include, vars));
}

// ---- MDX: the component with a minimal React ----
interface El { type: string; props: Record<string, unknown> }
function mdxRender(source: string, props: Record<string, unknown>, win: { addEventListener: (t: string, f: unknown) => void; removeEventListener: () => void; location: { href: string } }) {
  const body = source.replace(/^import React from 'react';$/m, '').replace('export default function', 'function');
  const effects: (() => unknown)[] = [];
  const state: { h?: number } = {};
  const React = {
    createElement: (type: string, p: Record<string, unknown>): El => ({ type, props: p }),
    useRef: (v: unknown) => ({ current: v }),
    useState: (v: number) => [v, (x: number) => { state.h = x; }],
    useEffect: (f: () => unknown) => { effects.push(f); },
  };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const Component = new Function('React', 'window', `${body}\nreturn SqrtdkLab;`)(React, win) as (p: Record<string, unknown>) => El;
  return { el: Component(props), effects, state };
}

describe('every embed format opens the view of the HTML snippet', () => {
  it('offers eight formats, each with its usage text, and a file for Hugo, Jekyll and MDX', () => {
    const t = embedTarget(VIEWS[0], SITE + 'index.html', TITLE);
    expect(EMBED_FORMATS).toEqual(['html', 'element', 'hugo', 'jekyll', 'mdx', 'oembed', 'notebook', 'quarto']);
    const files = EMBED_FORMATS.map((f) => formatSnippet(f, t).file?.path ?? null);
    expect(files).toEqual([null, null, 'hugo/layouts/shortcodes/sqrtdk.html', 'jekyll/_includes/sqrtdk.html', 'mdx/src/components/SqrtdkLab.js', null, null, null]);
    expect(integrationFiles('https://x.org/lab/').every((f) => f.text.includes('https://x.org/lab/'))).toBe(true);
  });

  for (const view of VIEWS) {
    const t = embedTarget(view, SITE + 'index.html', TITLE);
    const html = formatSnippet('html', t).usage;
    const htmlSrc = attrs(html, 'iframe').src;
    const want = stateOf(htmlSrc);

    it(`${view.exp}: the HTML snippet carries the view (${view.lang})`, () => {
      expect(sameState(want, { ...view, embed: true })).toBe(true);
      expect(attrs(html, 'script').src).toBe(SITE + 'embed.js');
    });

    it(`${view.exp}: the Hugo shortcode, rendered with the post's parameters`, () => {
      const s = formatSnippet('hugo', t);
      const call = /^\{\{< sqrtdk (.*) >\}\}$/.exec(s.usage);
      expect(call).not.toBeNull();
      const out = renderHugo(s.file!.text, callParams(call![1]));
      const frame = attrs(out, 'iframe');
      expect(frame.src.startsWith(SITE + '#v=1&')).toBe(true);
      expect(sameState(stateOf(frame.src), want)).toBe(true);
      expect(Number(frame.height)).toBe(t.height);
      expect(frame.title).toBe(TITLE.replace(/"/g, "'"));
      expect('data-sqrtdk-embed' in attrs(out.replace('data-sqrtdk-embed', 'data-sqrtdk-embed=""'), 'iframe')).toBe(true);
      expect(attrs(out, 'script').src).toBe(SITE + 'embed.js');
      // the site parameter overrides the file's default address
      const moved = renderHugo(s.file!.text, { ...callParams(call![1]), site: 'https://other.example/lab/' });
      expect(attrs(moved, 'iframe').src.startsWith('https://other.example/lab/#v=1&')).toBe(true);
    });

    it(`${view.exp}: the Jekyll include, rendered with include.* parameters`, () => {
      const s = formatSnippet('jekyll', t);
      const call = /^\{% include sqrtdk\.html (.*) %\}$/.exec(s.usage);
      expect(call).not.toBeNull();
      const out = renderJekyll(s.file!.text, callParams(call![1]));
      const frame = attrs(out, 'iframe');
      expect(frame.src.startsWith(SITE + '#v=1&')).toBe(true);
      expect(sameState(stateOf(frame.src), want)).toBe(true);
      expect(Number(frame.height)).toBe(t.height);
      expect(frame.title).toBe(TITLE.replace(/"/g, "'"));
      expect(attrs(out, 'script').src).toBe(SITE + 'embed.js');
      // without the optional parameters: every part, English, the default height
      const bare = renderJekyll(s.file!.text, { exp: view.exp, state: viewParams(t.hash).state });
      const b = stateOf(attrs(bare, 'iframe').src);
      expect(b.show).toEqual(['controls', 'charts', 'formula', 'text']);
      expect(b.lang).toBe('en');
      expect(attrs(bare, 'iframe').height).toBe('860');
    });

    it(`${view.exp}: the MDX component, evaluated with its props, sizes itself only from its own frame and the lab's origin`, () => {
      const s = formatSnippet('mdx', t);
      expect(s.usage.startsWith("import SqrtdkLab from '@site/src/components/SqrtdkLab';")).toBe(true);
      const jsx = /<SqrtdkLab (.*) \/>/.exec(s.usage);
      expect(jsx).not.toBeNull();
      const props: Record<string, unknown> = callParams(jsx![1]);
      props.height = Number(props.height);
      let listener: ((ev: { source: unknown; origin: string; data: unknown }) => void) | null = null;
      const win = { addEventListener: (_t: string, f: unknown) => { listener = f as typeof listener; }, removeEventListener: () => { listener = null; }, location: { href: 'https://blog.example/post/' } };
      const { el, effects, state } = mdxRender(s.file!.text, props, win);
      expect(el.type).toBe('iframe');
      expect(sameState(stateOf(el.props.src as string), want)).toBe(true);
      expect(el.props.height).toBe(t.height);
      // mount: the ref holds the iframe; messages from another window or origin change nothing
      const contentWindow = {};
      (el.props.ref as { current: unknown }).current = { contentWindow };
      const cleanup = effects[0]() as () => void;
      expect(listener).not.toBeNull();
      listener!({ source: {}, origin: 'https://lab.example.org', data: { type: 'sqrtdk:height', height: 1234 } });
      listener!({ source: contentWindow, origin: 'https://evil.example', data: { type: 'sqrtdk:height', height: 1234 } });
      listener!({ source: contentWindow, origin: 'https://lab.example.org', data: { type: 'other', height: 1234 } });
      expect(state.h).toBeUndefined();
      listener!({ source: contentWindow, origin: 'https://lab.example.org', data: { type: 'sqrtdk:height', height: 1234.2 } });
      expect(state.h).toBe(1235);
      cleanup();
      expect(listener).toBeNull();
    });

    it(`${view.exp}: the custom element's attributes and the oEmbed link`, () => {
      const usage = elementSnippet(t);
      expect(attrs(usage, 'script').src).toBe(SITE + 'sqrtdk-lab.js');
      const a = attrs(usage, 'sqrtdk-lab');
      // as the element builds its address (web/src/embed/host/sqrtdk-lab.js): every attribute but height/title/site is a key
      const keys = Object.entries(a).filter(([k]) => !['height', 'title', 'site'].includes(k))
        .map(([k, v]) => `${ELEMENT_KEY_CASE[k] ?? k}=${encodeURIComponent(v).replace(/%2C/g, ',')}`);
      expect(Object.keys(a).every((k) => k === k.toLowerCase())).toBe(true);
      expect(sameState(stateOf(`${SITE}#v=1&${keys.join('&')}&embed=1`), want)).toBe(true);
      expect(Number(a.height)).toBe(t.height);
      const link = oembedLink(t);
      expect(link.startsWith(`${SITE}${view.lang === 'zh-CN' ? 'zh-CN/' : ''}p/${view.exp}/#v=1&`)).toBe(true);
      expect(sameState(stateOf(link), { ...want, embed: false, show: parseHash('#v=1').state.show })).toBe(true);
    });
  }

  for (const view of VIEWS) {
    const t = embedTarget(view, SITE + 'index.html', TITLE);
    const want = stateOf(attrs(formatSnippet('html', t).usage, 'iframe').src);

    it(`${view.exp}: the notebook cell's IFrame opens the view, as tall as the web component (${view.lang})`, () => {
      const cell = formatSnippet('notebook', t).usage;
      expect(cell).toContain('from IPython.display import IFrame');
      const m = /^IFrame\(("(?:[^"\\]|\\.)*"), width="100%", height=(\d+)\)$/m.exec(cell);
      expect(m, cell).not.toBeNull();
      const src = JSON.parse(m![1]) as string;
      expect(src.startsWith(SITE)).toBe(true);
      expect(sameState(stateOf(src), want)).toBe(true);
      expect(Number(m![2])).toBe(t.height);
      expect(cell.split('\n').every((l) => l === '' || l.startsWith('#') || l.startsWith('from ') || l.startsWith('IFrame('))).toBe(true);
    });

    it(`${view.exp}: the Quarto block, the HTML snippet for HTML output and the view's card elsewhere`, () => {
      const q = formatSnippet('quarto', t).usage;
      const raw = /^```\{=html\}\n([\s\S]*?)\n```$/m.exec(q);
      expect(raw).not.toBeNull();
      expect(raw![1]).toBe(formatSnippet('html', t).usage);
      const img = /::: \{\.content-visible unless-format="html"\}\n\[!\[([^\]]*)\]\(([^)]*)\)\]\(([^)]*)\)\n:::/.exec(q);
      expect(img, q).not.toBeNull();
      expect(img![2]).toBe(`${SITE}${view.lang === 'zh-CN' ? 'zh-CN/' : ''}p/${view.exp}/card.png`);
      expect(img![3]).toBe(oembedLink(t));
    });
  }

  it('the element script restores the capitals of every key that has them', () => {
    const capital = STATE_KEYS.filter((k) => k !== k.toLowerCase());
    expect(Object.fromEntries(capital.map((k) => [k.toLowerCase(), k]))).toEqual(ELEMENT_KEY_CASE);
    const script = readFileSync(new URL('../../web/src/embed/host/sqrtdk-lab.js', import.meta.url), 'utf8');
    const map = /KEY_CASE = (\{[^}]*\})/.exec(script);
    expect(map).not.toBeNull();
    expect(JSON.parse(map![1].replace(/(\w+):/g, '"$1":').replace(/'/g, '"'))).toEqual(ELEMENT_KEY_CASE);
  });

  it('escapes what it writes into HTML', () => {
    const t = embedTarget(VIEWS[0], 'https://x.example/"><script>/', 'a"<b>');
    for (const f of ['html', 'element'] as const) expect(formatSnippet(f, t).usage).not.toMatch(/"><script>|<b>/);
  });
});

describe('the notebook cell in an executed notebook', () => {
  const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const missing = spawnSync(PYTHON, ['-c', 'import nbconvert, ipykernel, IPython'], { encoding: 'utf8' });
  const why = missing.status === 0 ? null : (missing.error?.message ?? missing.stderr.trim().split('\n').pop());
  it.skipIf(why !== null)(`jupyter nbconvert --execute --to html keeps the IFrame of the view${why ? ` (skipped: ${why}; apt-get install python3-nbconvert python3-ipykernel)` : ''}`, () => {
    const view = { ...defaultState('en'), exp: 'saturation' as const, dk: 256, seed: 9, embed: true, show: ['charts' as const] };
    const t = embedTarget(view, SITE + 'index.html', TITLE);
    const cell = formatSnippet('notebook', t).usage;
    const nb = {
      nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
      cells: [{ cell_type: 'code', id: 'lab', metadata: {}, execution_count: null, outputs: [], source: cell }],
    };
    const dir = mkdtempSync(join(tmpdir(), 'sqrtdk-nb-'));
    try {
      writeFileSync(join(dir, 'lab.ipynb'), JSON.stringify(nb));
      // `jupyter nbconvert` is `python3 -m nbconvert` (Debian's python3-nbconvert; the jupyter launcher is another package)
      const r = spawnSync(PYTHON, ['-m', 'nbconvert', '--execute', '--to', 'html', join(dir, 'lab.ipynb')], { encoding: 'utf8', timeout: 120_000 });
      expect(r.status, r.stderr).toBe(0);
      const html = readFileSync(join(dir, 'lab.html'), 'utf8');
      const frame = /<iframe\s[^>]*src="([^"]*)"[^>]*>/.exec(html);
      expect(frame, 'the executed output holds an iframe').not.toBeNull();
      const src = decode(frame![1]);
      expect(src.startsWith(SITE)).toBe(true);
      expect(sameState(stateOf(src), stateOf(attrs(formatSnippet('html', t).usage, 'iframe').src))).toBe(true);
      expect(attrs(frame![0], 'iframe').height).toBe(String(t.height));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
