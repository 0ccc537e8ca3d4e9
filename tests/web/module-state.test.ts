// No module-level mutable state in web/src (issue 26): the page's state lives in one AppState
// (web/src/app/state.ts, created at boot and passed down) and the Store; a module-level `let` or
// `var` anywhere else fails here, unless it is on the short allow-list below with its reason.
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
});
