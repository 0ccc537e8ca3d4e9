// No module-level mutable state in web/src (issue 26): the page's state lives in one AppState
// (web/src/app/state.ts, created at boot and passed down) and the Store; a module-level `let` or
// `var` anywhere else fails here, unless it is on the short allow-list below with its reason, and so
// does a module-level Map, Set, WeakMap or WeakSet (a `const` that still changes) that is neither typed
// read-only (a lookup table: ReadonlySet, ReadonlyMap) nor a cache declared below with its key and bound.
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const SRC = join(__dirname, '../../web/src');

/**
 * `file:name` of each module-level binding that may be reassigned, and why it has no other owner.
 * Keep it short: a new entry needs a reason a reviewer accepts.
 */
const ALLOWED: Record<string, string> = {
  'worker/cost.ts:core': 'the cost model\'s core: one per realm, given by app/core.ts (or a test) and read by every request builder of every view; threading it through each builder would add a parameter to ~40 pure functions',
};

/**
 * `file:name` of each module-level container that changes: a cache, with its key and bound (its
 * declaration's comment says the same).
 */
const CACHES: Record<string, string> = {
  'i18n/catalogue.ts:inParts': 'the parts of each language loaded: by language; 2 × the parts of PACKS',
  'i18n/catalogue.ts:loading': 'the loads under way: by language and part; 2 × the parts of PACKS, a failed one dropped',
  'share/figures.ts:memo': 'the build\'s core results: by core (weakly) and request; the cards\' requests, every view\'s once',
  'worker/cost.ts:memo': 'the core\'s estimates: by call and parameters; MEMO_ENTRIES (1024), the oldest evicted',
};

/** Every .ts/.js/.mjs source file under web/src (not declarations). */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.(ts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** `file:name` of each module-level `let` / `var` binding of a file (strings and function bodies are not looked into). */
export function moduleLets(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found: string[] = [];
  const names = (n: ts.BindingName): string[] => (ts.isIdentifier(n) ? [n.text] : n.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : names(e.name))));
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    const list = st.declarationList;
    if (list.flags & (ts.NodeFlags.Const | ts.NodeFlags.Using | ts.NodeFlags.AwaitUsing)) continue;
    for (const d of list.declarations) for (const n of names(d.name)) found.push(`${file}:${n}`);
  }
  return found;
}

/**
 * `file:name` of each module-level `const` whose initializer makes a Map, Set, WeakMap or WeakSet
 * (outside any function), unless its declared type is read-only (Readonly…).
 */
export function moduleContainers(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found: string[] = [];
  const makesOne = (n: ts.Node): boolean => {
    if (ts.isFunctionLike(n)) return false;
    if (ts.isNewExpression(n) && /^(Map|Set|WeakMap|WeakSet)$/.test(n.expression.getText(sf))) return true;
    return ts.forEachChild(n, (c) => makesOne(c) || undefined) ?? false;
  };
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || !d.initializer || /^Readonly/.test(d.type?.getText(sf) ?? '')) continue;
      if (makesOne(d.initializer)) found.push(`${file}:${d.name.text}`);
    }
  }
  return found;
}

describe('module-level mutable state', () => {
  it('finds a let and a var, and nothing inside a function or a string', () => {
    const text = "let a = 1;\nexport var b = 2, [c] = [3];\nconst d = 4;\nfunction f() { let e = 5; return e; }\nconst s = `var g = [];`;\n";
    expect(moduleLets('x.ts', text)).toEqual(['x.ts:a', 'x.ts:b', 'x.ts:c']);
  });

  it('web/src has no module-level let or var outside the allow-list', () => {
    const found = sources(SRC).flatMap((p) => moduleLets(relative(SRC, p).split('\\').join('/'), readFileSync(p, 'utf8')));
    const unexplained = found.filter((k) => !(k in ALLOWED));
    expect(unexplained, 'give each its owner: the AppState (web/src/app/state.ts), the object that uses it, or a parameter').toEqual([]);
    // an entry whose binding is gone leaves the list
    expect(Object.keys(ALLOWED).filter((k) => !found.includes(k))).toEqual([]);
  });

  it('finds a module-level Map or Set, in an object too, and not a read-only one or one made inside a function', () => {
    const text = "const a = new Map();\nexport const b = { en: new Set() };\nconst c: ReadonlySet<string> = new Set(['x']);\nconst d = () => new Map();\nconst e = [1];\n";
    expect(moduleContainers('x.ts', text)).toEqual(['x.ts:a', 'x.ts:b']);
  });

  it('web/src has no module-level Map or Set that changes, but the declared caches', () => {
    const found = sources(SRC).flatMap((p) => moduleContainers(relative(SRC, p).split('\\').join('/'), readFileSync(p, 'utf8')));
    expect(found.filter((k) => !(k in CACHES)), 'a lookup table is ReadonlySet/ReadonlyMap; a cache is declared in CACHES with its key and bound').toEqual([]);
    expect(Object.keys(CACHES).filter((k) => !found.includes(k))).toEqual([]);
  });
});
