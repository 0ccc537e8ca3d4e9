// Pure parsing and serialising of the page state (no DOM, no globals): parseHash clamps every key
// to the schema and reports what it dropped or corrected; toHash writes the canonical hash.
import { SCHEMA, VERSION, SECTIONS, PANELS, SCALES, TRAIN_VARIANTS, DRILL_QUESTIONS, SAVED_MODELS, QKCLIP_HEADS } from './schema.js';
import type { KeySpec } from './schema.js';

type Schema = typeof SCHEMA;

export type Panel = (typeof PANELS)[number];
export type Section = (typeof SECTIONS)[number];
export type ScaleName = (typeof SCALES)[number];
export type TrainVariant = (typeof TRAIN_VARIANTS)[number];
export type SavedModel = (typeof SAVED_MODELS)[number];
export type Lang = 'en' | 'zh-CN';
export type KernelChoice = 'auto' | 'simd' | 'scalar';

export interface State {
  /** the core version that made the link (CORE_VERSION once the page has read it, web/src/app/link-version.ts) */
  cv: string;
  exp: Panel;
  lang: Lang;
  theme: 'auto' | 'light' | 'dark';
  kernel: KernelChoice;
  dk: number;
  samples: number;
  seed: number;
  heads: number;
  seqLen: number;
  scale: ScaleName;
  causal: boolean;
  softcap: number;
  sscale: number;
  sink: number[];
  gq: 'jac' | 'grad';
  gap: number;
  aseed: number;
  iseed: number;
  dq: (typeof DRILL_QUESTIONS)[number];
  dseed: number;
  cseed: number;
  plogits: number[];
  pmode: 'logits' | 'random' | 'qk';
  pdk: number;
  pseqLen: number;
  pscale: ScaleName;
  pq: number;
  pk: number[];
  pkrep: number;
  pscaleat: 'scores' | 'query' | 'both';
  pblock: number;
  pacc: 'same' | 'float32';
  pmasked: 'nan' | 'zero';
  pseed: number;
  ldk: number;
  ltrain: number;
  lmsplit: number;
  lmlen: number;
  lalibi: boolean;
  salibi: boolean;
  hq: number;
  hkv: number;
  gdk: number;
  gdv: number;
  kvl: number;
  kvctx: number;
  kvdt: 'fp32' | 'bf16' | 'fp8' | 'int4';
  tex: 'structured' | 'iid' | 'own';
  tscale: 'none' | 'inv_sqrt_dk' | 'inv_dk';
  trtask: 'copy' | 'reverse' | 'sort' | 'assoc_recall';
  trvocab: number;
  trlen: number;
  trlayers: number;
  trdm: number;
  trheads: number;
  trmlp: number;
  trnorm: 'pre' | 'post';
  trinit: number;
  trlr: number;
  trwarm: number;
  trclip: number;
  trsteps: number;
  trseed: number;
  trsm: 'safe' | 'naive';
  trcap: number;
  trvar: TrainVariant[];
  trthr: number;
  rho: number;
  mpow: number;
  wlen: number;
  nsink: number;
  nlambda: number;
  ngate: number;
  qcgain: number;
  qctau: number;
  qchkv: number;
  ym: SavedModel;
  ymdh: number;
  ymsc: number;
  ymcap: number;
  trauto: boolean;
  embed: boolean;
  show: Section[];
}
export type StateKey = keyof State;
// Compile-time check that State and the schema name the same keys.
type _Check = [keyof Schema] extends [keyof State] ? ([keyof State] extends [keyof Schema] ? true : never) : never;
const _check: _Check = true;
void _check;

export const STATE_KEYS = Object.keys(SCHEMA) as StateKey[];

/** One problem found while parsing a hash: the key, the raw value, and what was done. */
export interface ParseIssue {
  key: string;
  /** the raw value from the URL (never inserted as HTML) */
  raw: string;
  /**
   * unknown: key dropped; invalid: default used; range: out of range, default used; rounded: corrected;
   * toolong: the whole hash refused unread (key '#', raw its length, used the limit)
   */
  kind: 'unknown' | 'invalid' | 'range' | 'rounded' | 'version' | 'duplicate' | 'toolong' | 'conflict' | 'incomplete';
  /** the value used instead (as it appears in the hash), or '' when the key was dropped */
  used: string;
}
export interface ParseResult {
  state: State;
  issues: ParseIssue[];
  /** keys present in the hash and accepted as they were */
  present: StateKey[];
}

/** The language a browser asks for, mapped onto the catalogue (zh* → zh-CN, else en). */
export function langFromNavigator(languages: readonly string[] | undefined): Lang {
  for (const l of languages ?? []) {
    const low = l.toLowerCase();
    if (low.startsWith('zh')) return 'zh-CN';
    if (low.startsWith('en')) return 'en';
  }
  return 'en';
}

export function defaultState(lang: Lang = 'en'): State {
  const s: Record<string, unknown> = {};
  for (const [k, spec] of Object.entries(SCHEMA) as [StateKey, KeySpec][]) {
    s[k] = spec.type === 'list' || spec.type === 'nums' ? [...spec.default] : spec.default;
  }
  s.lang = lang;
  return s as unknown as State;
}

const VERSION_RE = /^\d{1,6}\.\d{1,6}\.\d{1,6}$/;
const NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Formats a value of a key as it appears in the hash. */
export function formatValue(key: StateKey, value: State[StateKey]): string {
  const spec = SCHEMA[key] as KeySpec;
  if (spec.type === 'bool') return value ? '1' : '0';
  if (spec.type === 'list') return (value as string[]).join(',');
  if (spec.type === 'nums') return (value as number[]).map((x) => (x === -Infinity ? '-inf' : String(x))).join(',');
  if (spec.type === 'num') return String(Number((value as number).toFixed(decimals(spec.step))));
  return String(value);
}

function decimals(step: number): number {
  const s = String(step);
  const i = s.indexOf('.');
  return i < 0 ? 0 : s.length - i - 1;
}

const NEG_INF_RE = /^[-−](inf|infinity|∞)$/i;

/**
 * A comma-separated list of numbers (finite; with negInf also −∞ written -inf, -Infinity, −∞ or −inf,
 * a masked key). +∞, NaN and anything else give null. Pure; the precision lab's field uses it too.
 */
export function parseNums(raw: string, negInf: boolean, separators: RegExp = /,/): number[] | null {
  const parts = raw.split(separators).map((p) => p.trim());
  const out: number[] = [];
  for (const p of parts) {
    if (negInf && NEG_INF_RE.test(p)) { out.push(-Infinity); continue; }
    if (!NUMBER_RE.test(p)) return null;
    const x = Number(p);
    if (!Number.isFinite(x)) return null;
    out.push(x);
  }
  return out;
}

type Coerced = { ok: true; value: unknown; rounded: boolean } | { ok: false; kind: 'invalid' | 'range' };

/** Reads one raw value against its spec. Pure. */
export function coerce(spec: KeySpec, raw: string): Coerced {
  switch (spec.type) {
    case 'int':
    case 'num': {
      if (!NUMBER_RE.test(raw)) return { ok: false, kind: 'invalid' };
      const x = Number(raw);
      if (!Number.isFinite(x)) return { ok: false, kind: 'invalid' };
      let v = x;
      if (spec.type === 'int') v = Math.round(x);
      else v = Number((Math.round(x / spec.step) * spec.step).toFixed(decimals(spec.step)));
      if (v < spec.min || v > spec.max) return { ok: false, kind: 'range' };
      return { ok: true, value: Object.is(v, -0) ? 0 : v, rounded: v !== x };
    }
    case 'enum': {
      if (spec.values.includes(raw)) return { ok: true, value: raw, rounded: false };
      // accept a language tag in another case (zh-cn), report it as corrected
      const hit = spec.values.find((v) => v.toLowerCase() === raw.toLowerCase());
      return hit ? { ok: true, value: hit, rounded: true } : { ok: false, kind: 'invalid' };
    }
    case 'bool': {
      // the rule of the enums: a word in another case (TRUE, False) is read and reported as corrected
      const w = raw.toLowerCase();
      if (w === '1' || w === 'true') return { ok: true, value: true, rounded: raw !== '1' };
      if (w === '0' || w === 'false') return { ok: true, value: false, rounded: raw !== '0' };
      return { ok: false, kind: 'invalid' };
    }
    case 'nums': {
      const xs = parseNums(raw, spec.negInf === true);
      if (xs === null || xs.length === 0 || xs.length > spec.maxLength) return { ok: false, kind: 'invalid' };
      if (xs.some((x) => x !== -Infinity && (x < spec.min || x > spec.max))) return { ok: false, kind: 'range' };
      return { ok: true, value: xs.map((x) => (Object.is(x, -0) ? 0 : x)), rounded: false };
    }
    case 'version':
      return VERSION_RE.test(raw) ? { ok: true, value: raw, rounded: false } : { ok: false, kind: 'invalid' };
    case 'list': {
      const parts = raw.split(',').map((p) => p.trim()).filter((p) => p !== '');
      const good = spec.values.filter((v) => parts.includes(v));
      if (good.length === 0) return { ok: false, kind: 'invalid' };
      // another order of the same parts is no correction (the value is kept in the schema's order);
      // an unknown or repeated part is
      return { ok: true, value: good, rounded: good.length !== parts.length };
    }
  }
}

function safeDecode(s: string): string {
  try { return decodeURIComponent(s); } catch { return s; }
}

/**
 * The longest hash (characters after the first '#') the page reads: the fullest state the page
 * writes is under 3,000 characters (64 logits of 20 digits each included), and a longer one is
 * refused at once, unread, with a notice (kind 'toolong'), so no link can keep the page busy.
 */
export const MAX_HASH_LENGTH = 8192;

/** A length as the notice writes it: 2097152 → "2,097,152". */
function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Counts the work of a parse (tests hold it linear in the hash's length). */
export interface ParseMeter { steps: number }

/**
 * Parses a location hash (with or without '#'). Pure: the same hash and default language give the
 * same state. Unknown keys are dropped; values that do not parse or lie outside the schema's range
 * are replaced by the default; integers are rounded; every such key is reported in `issues`.
 * Linear in the hash's length, whatever it repeats. A hash over MAX_HASH_LENGTH is not read: the
 * defaults, with one 'toolong' issue (and `embed` where the hash says embed=1, so an embed says so
 * in its frame). A second '#' starts a fragment the host appended (WordPress adds "#?secret=…";
 * the page writes '#' in a value as %23): its parts are reported as unknown keys, never applied.
 */
export function parseHash(hash: string, fallbackLang: Lang = 'en', meter?: ParseMeter): ParseResult {
  const state = defaultState(fallbackLang);
  const whole = hash.startsWith('#') ? hash.slice(1) : hash;
  if (whole.length > MAX_HASH_LENGTH) {
    if (meter) meter.steps += 1;
    // one scan for embed=1 (a regular expression without backtracking): an embed refuses in its own frame
    state.embed = /(?:^|[&#])embed=(?:1|true)(?:[&#]|$)/.test(whole);
    const issues: ParseIssue[] = [{ key: '#', raw: groupDigits(whole.length), kind: 'toolong', used: groupDigits(MAX_HASH_LENGTH) }];
    return { state, issues, present: [] };
  }
  const cut = whole.indexOf('#');
  const body = cut < 0 ? whole : whole.slice(0, cut);
  const hostParts = cut < 0 ? [] : whole.slice(cut + 1).split(/[&?#]/);
  // every issue in the order its key came; an issue said of an earlier value of a repeated key is
  // dropped (null) through the index of each key's one live issue, so a repeat costs O(1)
  const issues: (ParseIssue | null)[] = [];
  const liveIssue = new Map<string, number>();
  const drop = (key: string) => {
    const i = liveIssue.get(key);
    if (i !== undefined) { issues[i] = null; liveIssue.delete(key); }
  };
  const say = (issue: ParseIssue) => {
    if (issue.kind !== 'duplicate' && issue.kind !== 'unknown') liveIssue.set(issue.key, issues.length);
    issues.push(issue);
  };
  // keys accepted as they were, in the order of their last value (a Set keeps insertion order)
  const present = new Set<StateKey>();
  const seen = new Set<string>();
  if (body.trim() === '' && hostParts.length === 0) return { state, issues: [], present: [] };
  for (const part of body.split('&')) {
    if (meter) meter.steps += part.length + 1;
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = safeDecode(eq < 0 ? part : part.slice(0, eq));
    const raw = safeDecode(eq < 0 ? '' : part.slice(eq + 1));
    if (key === 'v') {
      // the last v counts, as for every key (its issue lives under the key 'v')
      drop('v');
      if (raw !== String(VERSION)) say({ key, raw, kind: 'version', used: String(VERSION) });
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(SCHEMA, key)) {
      say({ key, raw, kind: 'unknown', used: '' });
      continue;
    }
    const k = key as StateKey;
    // a repeated key: the last value counts, so what was said of the earlier ones goes (a stale
    // "not a valid value" beside a valid last one was false, and an embed refused a valid last exp)
    const repeated = seen.has(k);
    if (repeated) {
      drop(key);
      present.delete(k);
    }
    seen.add(k);
    const spec = SCHEMA[k] as KeySpec;
    const c = coerce(spec, raw);
    const s = state as unknown as Record<string, unknown>;
    if (c.ok) {
      s[k] = c.value;
      if (c.rounded) say({ key, raw, kind: 'rounded', used: formatValue(k, c.value as never) });
      else present.add(k);
    } else {
      s[k] = spec.type === 'list' || spec.type === 'nums' ? [...spec.default] : spec.default;
      if (k === 'lang') s[k] = fallbackLang;
      say({ key, raw, kind: c.kind, used: formatValue(k, s[k] as never) });
    }
    if (repeated) say({ key, raw, kind: 'duplicate', used: formatValue(k, s[k] as never) });
  }
  // what a host appended after its own '#': read as nothing, said as unknown keys
  for (const part of hostParts) {
    if (meter) meter.steps += part.length + 1;
    if (part === '') continue;
    const eq = part.indexOf('=');
    say({ key: safeDecode(eq < 0 ? part : part.slice(0, eq)), raw: safeDecode(eq < 0 ? '' : part.slice(eq + 1)), kind: 'unknown', used: '' });
  }
  const kept: ParseIssue[] = [];
  for (const i of issues) if (i !== null) kept.push(i);
  if (meter) meter.steps += issues.length;
  // keys that constrain each other: heads_kv must divide heads_q, QK-Clip's key heads its 8 query heads
  for (const [key, of] of [['hkv', state.hq], ['qchkv', QKCLIP_HEADS]] as const) {
    const d = divisorAtMost(of, state[key]);
    if (d !== state[key]) {
      kept.push({ key, raw: String(state[key]), kind: 'rounded', used: String(d) });
      state[key] = d;
      present.delete(key);
    }
  }
  // Your model: a saved config (ym) or a pasted one's d_head and scale together (ymcap optional); a half or
  // conflicting set would draw nothing, or another model than the link's author saw, without a word
  const ymKeys = (['ymdh', 'ymsc', 'ymcap'] as const).filter((k) => state[k] > 0);
  const ymUnused = (k: 'ymdh' | 'ymsc' | 'ymcap', kind: 'conflict' | 'incomplete', used: string) => {
    kept.push({ key: k, raw: formatValue(k, state[k]), kind, used });
    state[k] = SCHEMA[k].default;
    present.delete(k);
  };
  if (state.ym !== 'none') {
    for (const k of ymKeys) ymUnused(k, 'conflict', `ym=${state.ym}`);
  } else if (ymKeys.length > 0 && !(state.ymdh > 0 && state.ymsc > 0)) {
    const missing = (['ymdh', 'ymsc'] as const).filter((k) => !(state[k] > 0)).join(', ');
    for (const k of ymKeys) ymUnused(k, 'incomplete', missing);
  }
  return { state, issues: kept, present: [...present] };
}

/**
 * The issues the page's notice names: all of them, but in embed mode not the unknown keys — a host
 * may append its own (WordPress's "#?secret=…", a tracker's utm_source) and the reader of a post
 * has nothing to do about them. Pure.
 */
export function issuesToShow(parsed: ParseResult): ParseIssue[] {
  return parsed.state.embed ? parsed.issues.filter((i) => i.kind !== 'unknown') : parsed.issues;
}

/** The largest divisor of n that is at most d (at least 1): the K/V heads a GQA layout can have. */
export function divisorAtMost(n: number, d: number): number {
  for (let k = Math.min(n, Math.max(1, Math.floor(d))); k > 1; k--) if (n % k === 0) return k;
  return 1;
}

/**
 * Serialises a state to its canonical hash (with '#'): the version, then every key in schema
 * order; embed and show only in embed mode.
 */
export function toHash(state: State): string {
  return hashOf(state, STATE_KEYS);
}

function hashOf(state: State, keys: readonly StateKey[]): string {
  const parts = [`v=${VERSION}`];
  for (const k of keys) {
    if (!state.embed && (k === 'embed' || k === 'show')) continue;
    if (state.embed && k === 'show' && state.show.length === SECTIONS.length) continue;
    if (k === 'theme' && state.theme === 'auto') continue;  // a chosen scheme stays in the link; auto follows the reader
    parts.push(`${k}=${encodeURIComponent(formatValue(k, state[k]))}`.replace(/%2C/g, ','));
  }
  return '#' + parts.join('&');
}

/** The keys a panel reads (the schema's `panels` column), in schema order. */
export function panelKeys(panel: Panel): StateKey[] {
  return STATE_KEYS.filter((k) => {
    const p = (SCHEMA[k] as KeySpec).panels;
    return p.split(/,\s*/).includes(panel);
  });
}

/** The keys a link to one panel needs: exp, cv, lang and kernel where not default, and the panel's own keys. */
function panelLinkKeys(state: State, embed: boolean): StateKey[] {
  const own = panelKeys(state.exp);
  return STATE_KEYS.filter((k) => k === 'exp' || k === 'cv' || own.includes(k)
    || (embed && (k === 'embed' || k === 'show' || k === 'theme'))
    || (embed && k === 'lang')  // an embed shows the language it was made in, whatever the reader's browser asks for
    || (k === 'lang' && formatValue(k, state[k]) !== formatValue(k, (SCHEMA[k] as KeySpec).default as never))
    || (k === 'kernel' && formatValue(k, state[k]) !== formatValue(k, (SCHEMA[k] as KeySpec).default as never)));
}

/**
 * The hash of an embed of `state.exp`: only the keys that panel reads, plus exp, embed, cv (the core
 * version that made the numbers), lang, and kernel, theme and show where they differ from their
 * defaults — so a snippet stays short and still reproduces exactly what the panel shows (the keys
 * left out are read at their defaults).
 */
export function embedHash(state: State): string {
  const s = { ...state, embed: true };
  return hashOf(s, panelLinkKeys(s, true));
}

/** A short link to the panel of `state.exp` (PNG footers): the same numbers as the full link, without the other panels' keys. */
export function panelHash(state: State): string {
  const s = { ...state, embed: false };
  return hashOf(s, panelLinkKeys(s, false));
}

/**
 * The link *Copy link* gives: the version, `exp` and `cv`, then only the keys the view shown reads
 * that differ from their defaults (the schema's `panels` column), kernel and theme where not
 * default, and `lang` only when `withLang` (the reader chose a language by hand; otherwise the
 * receiver's browser language decides). Every key left out is read back at its default, so
 * parseHash(shareHash(s)) gives the view the same state as parseHash(toHash(s)); the page's own
 * address keeps the full state for Back and Forward (url.ts).
 */
export function shareHash(state: State, withLang = false): string {
  const own = panelKeys(state.exp);
  const keys = STATE_KEYS.filter((k) => k === 'exp' || k === 'cv' || k === 'theme'  // hashOf leaves theme=auto out
    || (k === 'lang' && withLang)
    || ((own.includes(k) || k === 'kernel') && formatValue(k, state[k]) !== formatValue(k, (SCHEMA[k] as KeySpec).default as never)));
  return hashOf({ ...state, embed: false }, keys);
}

/** True when two states are equal key by key. */
export function sameState(a: State, b: State): boolean {
  return STATE_KEYS.every((k) => formatValue(k, a[k]) === formatValue(k, b[k]));
}

/** Applies a patch, clamping each value to the schema (used by controls, which never send bad values). */
export function withPatch(state: State, patch: Partial<State>): State {
  const next = { ...state, ...patch };
  for (const k of Object.keys(patch) as StateKey[]) {
    const spec = SCHEMA[k] as KeySpec;
    if (spec.type === 'int' || spec.type === 'num') {
      const v = next[k] as number;
      const clamped = Math.min(spec.max, Math.max(spec.min, spec.type === 'int' ? Math.round(v) : v));
      (next as Record<string, unknown>)[k] = Number.isFinite(clamped) ? clamped : spec.default;
    }
  }
  next.hkv = divisorAtMost(next.hq, next.hkv);
  next.qchkv = divisorAtMost(QKCLIP_HEADS, next.qchkv);
  return next;
}
