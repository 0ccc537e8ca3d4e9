// The head tags of a share page (title, description, canonical, Open Graph, Twitter card, oEmbed
// discovery, the other language) and its oEmbed answer (https://oembed.com, type "rich"), as the
// build writes them (scripts/share-pages.ts). Pure, so tests/web/share.test.ts checks them.
import type { Lang, Panel } from '../state/state.ts';
import { defaultState } from '../state/state.ts';
import { embedSnippet, fallbackHeight } from '../embed/snippet.ts';
import { xmlEscape } from './svgchart.ts';
import { sharePath, rootFrom } from './url.ts';

/** The link card's size in px (the size Open Graph and X/Twitter previews show large). */
export const CARD = { width: 1200, height: 630 } as const;
export const CARD_FILE = 'card.png';
export const OEMBED_FILE = 'oembed.json';
/** The width of the iframe the oEmbed answer describes: the blog column the embed heights are measured at. */
export const OEMBED_WIDTH = 720;

const OG_LOCALE: Record<Lang, string> = { en: 'en_US', 'zh-CN': 'zh_CN' };

/**
 * One page: the view and language it opens and where it lives (relative to the site's root: ''
 * for the root index.html, else sharePath(exp, lang)), and its words.
 */
export interface PageMeta {
  exp: Panel;
  lang: Lang;
  path: string;
  /** the page's title, e.g. "Saturation — √dk Lab" */
  title: string;
  description: string;
  /** the text of the card image for those who do not see it */
  imageAlt: string;
  siteName: string;
  /** the site's absolute URL with '/' at the end (SITE_URL), or null: then every URL is relative to the page */
  site: string | null;
  /** the other languages' pages of the same view (hreflang alternates) */
  alternates: { lang: Lang; path: string }[];
}

/** A URL of a file at `target` (relative to the site's root) as the page at `from` writes it: absolute with a site, else relative. */
export function urlFor(site: string | null, from: string, target: string): string {
  if (site) return site + target;
  return rootFrom(from) + target;
}

/** The card and the oEmbed answer of a page: the share page's own (the root shares the interview page's). */
export function assetsOf(m: Pick<PageMeta, 'exp' | 'lang'>): { card: string; oembed: string } {
  const dir = sharePath(m.exp, m.lang);
  return { card: dir + CARD_FILE, oembed: dir + OEMBED_FILE };
}

/**
 * The marks of the tags a page can only write with its site's address (og:url, the card, the
 * oEmbed discovery): without SITE_URL the build writes them relative inside an HTML comment between
 * these marks, which no crawler or consumer reads (a relative og:image or oEmbed address breaks
 * wherever a card or a frame is shown), and a server that knows its origin (`npm start`,
 * scripts/site-tags.mjs) writes them out absolute.
 */
export const SITE_TAGS_OPEN = '<!--sqrtdk:site-tags';
export const SITE_TAGS_CLOSE = 'sqrtdk:site-tags-->';

/** The tags of the page's <head> (one per line), every value escaped; the <title> included. Without a site, the tags that need its address are in a SITE_TAGS comment. */
export function headTags(m: PageMeta): string {
  const { card, oembed } = assetsOf(m);
  const url = (target: string) => urlFor(m.site, m.path, target);
  const meta = (attr: 'name' | 'property', key: string, value: string) => `<meta ${attr}="${key}" content="${xmlEscape(value)}">`;
  const versions = [{ lang: m.lang, path: m.path }, ...m.alternates];
  // written only with the site's address (SITE_TAGS_OPEN)
  const needsSite = new Set<string>();
  const site = (line: string) => { needsSite.add(line); return line; };
  const lines = [
    `<title>${xmlEscape(m.title)}</title>`,
    meta('name', 'description', m.description),
    `<link rel="canonical" href="${xmlEscape(url(m.path))}">`,
    // every language's page, this one included, and English as the default (Google's hreflang rules)
    ...versions.map((a) => `<link rel="alternate" hreflang="${a.lang}" href="${xmlEscape(url(a.path))}">`),
    ...versions.filter((a) => a.lang === 'en').map((a) => `<link rel="alternate" hreflang="x-default" href="${xmlEscape(url(a.path))}">`),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', m.siteName),
    meta('property', 'og:title', m.title),
    meta('property', 'og:description', m.description),
    site(meta('property', 'og:url', url(m.path))),
    site(meta('property', 'og:image', url(card))),
    site(meta('property', 'og:image:type', 'image/png')),
    site(meta('property', 'og:image:width', String(CARD.width))),
    site(meta('property', 'og:image:height', String(CARD.height))),
    site(meta('property', 'og:image:alt', m.imageAlt)),
    meta('property', 'og:locale', OG_LOCALE[m.lang]),
    ...m.alternates.map((a) => meta('property', 'og:locale:alternate', OG_LOCALE[a.lang])),
    site(meta('name', 'twitter:card', 'summary_large_image')),
    meta('name', 'twitter:title', m.title),
    meta('name', 'twitter:description', m.description),
    site(meta('name', 'twitter:image', url(card))),
    site(meta('name', 'twitter:image:alt', m.imageAlt)),
    site(`<link rel="alternate" type="application/json+oembed" href="${xmlEscape(url(oembed))}" title="${xmlEscape(m.title)}">`),
  ];
  if (m.site) return lines.join('\n  ');
  // a comment holds no '--': a value's '-' after another is written as its character reference
  const held = lines.filter((l) => needsSite.has(l)).map((l) => l.replace(/--/g, '-&#45;').replace(/--/g, '-&#45;'));
  return [...lines.filter((l) => !needsSite.has(l)), SITE_TAGS_OPEN, ...held, SITE_TAGS_CLOSE].join('\n  ');
}

/**
 * The site's address in what a build without SITE_URL writes for use elsewhere (its oEmbed answers,
 * the blog integrations' files): a reserved .example host that says what to replace, never a relative
 * address that only looks like a link (scripts/site-tags.mjs holds the same string).
 */
export const SITE_PLACEHOLDER = 'https://YOUR-SITE.example/sqrtdk/';

/** The oEmbed answer of a share page (oembed.com §2.3.4, type "rich"); URLs absolute (SITE_URL or SITE_PLACEHOLDER). */
export interface OEmbed {
  version: '1.0';
  type: 'rich';
  title: string;
  provider_name: string;
  provider_url: string;
  html: string;
  width: number;
  height: number;
  thumbnail_url: string;
  thumbnail_width: number;
  thumbnail_height: number;
}

/**
 * The oEmbed answer: the embed snippet of the view at its default state in the page's language
 * (web/src/embed/snippet.ts, the dialog's own code), at the iframe's fallback height, with the
 * card as thumbnail. The iframe loads the site's root (the app), which embed.js sizes. Before it, a
 * hidden <blockquote> links to the share page: WordPress, which strips the script, loads its own
 * host script (wp-embed, which sizes the frame from the embed's messages: embed/wordpress.ts) only
 * for an answer with a blockquote, and shows that link until the frame speaks.
 */
export function oembedJson(m: PageMeta, viewTitle: string): OEmbed {
  const { card, oembed } = assetsOf(m);
  const from = oembed.replace(/[^/]*$/, '');
  // an answer is read by a consumer elsewhere, so its addresses are absolute: the site's, else the
  // placeholder a build without SITE_URL names (replaced by a server that knows its origin)
  const url = (target: string) => urlFor(m.site ?? SITE_PLACEHOLDER, from, target);
  const state = { ...defaultState(m.lang), exp: m.exp };
  const root = url('');
  return {
    version: '1.0',
    type: 'rich',
    title: m.title,
    provider_name: m.siteName,
    provider_url: root,
    html: `<blockquote hidden><a href="${xmlEscape(url(from))}">${xmlEscape(m.title)}</a></blockquote>\n`
      + embedSnippet(state, root, `${m.siteName} — ${viewTitle}`),
    width: OEMBED_WIDTH,
    height: fallbackHeight({ ...state, embed: true }),
    thumbnail_url: url(card),
    thumbnail_width: CARD.width,
    thumbnail_height: CARD.height,
  };
}
