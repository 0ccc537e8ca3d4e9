// The floors of the code (scripts/floors.json, the README's "Layout"): every file of web/src and
// wasm/ has a floor, no import or #include reads from a lower floor up to a higher one, and no
// files (nor folders) import each other in a loop; and every source file opens with a comment that
// says what it holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, floorTable, importsOf, includesOf, readFloors, floorOf } from '../../scripts/floors.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const result = check(root);

test('the import reader sees every form of import', () => {
  const src = [
    "import { a } from './a.ts';",
    "import type { B } from '../b.ts';",
    'import {\n  c,\n  d,\n} from "./c.ts";',
    "export { e } from './e.ts';",
    "export * from './f.js';",
    "import './g.css';",
    "const w = await import('../h.ts');",
    "import workerUrl from './worker.ts?worker&url';",
    "// import { no } from './comment-line.ts' is not at a line start but after //",
    "const s = 'import x from nowhere';",
  ].join('\n');
  assert.deepEqual(importsOf(src).sort(), ['../b.ts', '../h.ts', './a.ts', './c.ts', './e.ts', './f.js', './g.css', './worker.ts?worker&url'].sort());
  assert.deepEqual(includesOf('#include "a.hpp"\n#include <vector>\n  # include "train/b.hpp"\n// #include "c.hpp"'), ['a.hpp', 'train/b.hpp']);
});

test('the floor table places files by their longest path', () => {
  const table = readFloors();
  assert.equal(floorOf(table, 'web/src/panels/kit.ts').name, 'panels');
  assert.equal(floorOf(table, 'wasm/src/kernels_scalar.cpp').name, 'kernels');
  assert.equal(floorOf(table, 'web/src/nowhere/x.ts'), undefined);
});

test('the reader found the code', () => {
  assert.ok(result.files.filter((f) => f.startsWith('web/src/')).length > 100, 'web/src is read');
  assert.ok(result.edges.some((e) => e.from.startsWith('wasm/src/') && e.to.endsWith('.hpp')), 'wasm #includes are read');
  assert.ok(result.edges.some((e) => e.how.includes('?worker&url')), '?worker&url imports are read');
  assert.ok(result.edges.some((e) => e.from.startsWith('web/src/') && e.to.startsWith('wasm/js/')), 'imports of wasm/js are read');
  assert.deepEqual(result.missing.map((e) => `${e.from} → ${e.to}`), [], 'every relative import names a file');
});

test('every file of web/src and wasm/ has a floor (scripts/floors.json)', () => {
  assert.deepEqual(result.unclaimed, [], 'add the file or its folder to a floor of scripts/floors.json');
});

test('no import reads up: a file imports from its own floor and lower ones only', () => {
  assert.deepEqual(result.upward.map((u) => `${u.from} (${u.fromFloor}) → ${u.to} (${u.toFloor})`), []);
});

test('no loop between files, nor between folders', () => {
  assert.deepEqual(result.fileLoops.map((l) => l.join(' ↔ ')), [], 'files that import each other');
  assert.deepEqual(result.folderLoops.map((l) => l.join(' ↔ ')), [], 'folders (or C++ units) that import each other');
});

test('README shows the floor table of scripts/floors.json', () => {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const m = /<!-- floors:start -->\n([\s\S]*?)\n?<!-- floors:end -->/.exec(readme);
  assert.ok(m, 'README has the floors markers');
  assert.equal(m[1].trim(), floorTable(), 'run: node scripts/update-readme.mjs');
});

test('every source file of web/src, wasm/src, wasm/js, wasm/bindings, wasm/bench and scripts opens with a comment line (after a shebang)', () => {
  const walk = (dir) => readdirSync(join(root, dir)).flatMap((n) => {
    const rel = `${dir}/${n}`;
    return statSync(join(root, rel)).isDirectory() ? (n === 'records' ? [] : walk(rel)) : [rel];
  });
  const code = /\.(ts|js|mjs|cjs|cpp|hpp|h|sh|py|css|html)$/;
  const files = ['web/src', 'wasm/src', 'wasm/js', 'wasm/bindings', 'wasm/bench', 'scripts'].flatMap(walk).filter((f) => code.test(f));
  assert.ok(files.length > 250, `found ${files.length} files`);
  const missing = files.filter((f) => {
    const lines = readFileSync(join(root, f), 'utf8').split('\n');
    const first = lines[0].startsWith('#!') ? lines[1] : lines[0];
    // a comment with words on its first line: //, #, /*, /*!, a docstring or <!-- and text (not a bare /**, the
    // doc of a declaration; not an #include, a #pragma or a /// directive)
    return !/^\s*(\/\/(?!\/)|#(?!include|pragma|!)|\/\*+!?|"""|<!--)\s*\S.{8,}/.test(first ?? '');
  });
  assert.deepEqual(missing, [], 'open each with a one-line comment that says what the file holds');
});
