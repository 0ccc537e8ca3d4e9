// The floors of the code (scripts/floors.json): reads every import of web/src and every #include of
// wasm/, and lists the imports from a lower floor to a higher one, the loops and the unclaimed files.
// `node scripts/floors.mjs [root] [table.json]` prints the counts (file and folder level) and every finding.
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join, relative, posix, extname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('../', import.meta.url));

/**
 * The floor table: one entry per tree, the lowest first ({ wasm, web }), each with the folders it
 * reads (scan), where quoted #includes are also looked up (includeDirs), the prefix the README
 * leaves out (strip) and its floors, bottom first: { name, what, paths }. A path ending in / is a
 * folder, one ending in * a prefix (wasm/src/kernels*), else a file; a file's floor is the one
 * with its longest matching path.
 */
export function readFloors(file = join(here, 'scripts/floors.json')) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out); else out.push(p);
  }
  return out;
}

const toPosix = (p) => p.split('\\').join('/');

// A static import or re-export at the start of a line (its clause may span lines), a bare
// `import '…'`, and a dynamic import('…') anywhere; `?worker&url` and other queries are cut off.
const STATIC = /^[ \t]*(?:import|export)\b(?:[^'";]*?\bfrom)?\s*['"]([^'"\n]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g;
const INCLUDE = /^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"/gm;

/** The specifiers a JS/TS source imports: static, type-only, re-exports, bare and dynamic. */
export function importsOf(text) {
  return [...text.matchAll(STATIC), ...text.matchAll(DYNAMIC)].map((m) => m[1]);
}

/** The headers a C++ source includes with quotes. */
export function includesOf(text) {
  return [...text.matchAll(INCLUDE)].map((m) => m[1]);
}

function resolveImport(root, from, spec) {
  if (!spec.startsWith('.')) return null;                 // a package or a virtual module
  const bare = spec.replace(/\?.*$/, '');
  const p = posix.normalize(posix.join(posix.dirname(from), bare));
  // a .js specifier with no .js file is a declaration file's (TypeScript reads x.d.ts for x.js)
  for (const c of [p, `${p}.ts`, `${p}.js`, `${p}/index.ts`, p.replace(/\.js$/, '.d.ts')]) {
    if (existsSync(join(root, c)) && statSync(join(root, c)).isFile()) return c;
  }
  return p;                                               // unresolved: kept, the check names it
}

function resolveInclude(root, from, spec, includeDirs) {
  for (const dir of [posix.dirname(from), ...includeDirs]) {
    const p = posix.normalize(posix.join(dir, spec));
    if (existsSync(join(root, p))) return p;
  }
  return null;                                            // a system or third-party header
}

/** Every import edge of web/src and of wasm/js, and every #include of wasm/: [{ from, to, how }]. */
export function readEdges(root = here, table = readFloors()) {
  const edges = [];
  const files = [];
  for (const tree of Object.values(table)) {
    for (const dir of tree.scan) {
      if (!existsSync(join(root, dir))) continue;
      for (const abs of walk(join(root, dir))) {
        const file = toPosix(relative(root, abs));
        if (tree.skip?.some((s) => file.startsWith(s))) continue;
        files.push(file);
        const ext = extname(file);
        const text = readFileSync(abs, 'utf8');
        if (['.ts', '.js', '.mjs', '.tsx'].includes(ext)) {
          for (const spec of importsOf(text)) {
            const to = resolveImport(root, file, spec);
            if (to !== null) edges.push({ from: file, to, how: spec });
          }
        } else if (['.cpp', '.hpp', '.h', '.cc'].includes(ext)) {
          for (const spec of includesOf(text)) {
            const to = resolveInclude(root, file, spec, tree.includeDirs ?? []);
            if (to !== null) edges.push({ from: file, to, how: spec });
          }
        }
      }
    }
  }
  return { files, edges };
}

/** The floor of a file: the entry of its tree with the longest matching path, or undefined. */
export function floorOf(table, file) {
  let best;
  Object.entries(table).forEach(([treeName, tree], treeIndex) => {
    tree.floors.forEach((floor, level) => {
      for (const p of floor.paths) {
        const hit = p.endsWith('/') || p.endsWith('*') ? file.startsWith(p.replace(/\*$/, '')) : file === p;
        if (hit && (!best || p.length > best.path.length)) best = { tree: treeName, treeIndex, level, name: floor.name, path: p };
      }
    });
  });
  return best;
}

/** A file's node in the folder-level graph: the folder (or the file) its floor path names; for
 *  C++, a header and its source are one unit (cost.hpp + cost.cpp include each other's as one). */
export function nodeOf(table, file) {
  const f = floorOf(table, file);
  if (!f) return file;
  if (f.path.endsWith('/')) return f.path.replace(/\/$/, '');
  return file.replace(/\.(hpp|cpp|h|cc)$/, '');
}

/** The strongly connected components with more than one member (Tarjan). */
function loopsOf(nodes, next) {
  let index = 0;
  const idx = new Map(), low = new Map(), on = new Set(), stack = [], out = [];
  const visit = (v) => {
    idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do { w = stack.pop(); on.delete(w); comp.push(w); } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of nodes) if (!idx.has(v)) visit(v);
  return out;
}

/** The findings: upward imports, loops (file and folder level) and files no floor claims. */
export function check(root = here, table = readFloors()) {
  const { files, edges } = readEdges(root, table);
  const unclaimed = files.filter((f) => !floorOf(table, f));
  const scanned = Object.values(table).flatMap((t) => t.scan);
  const missing = edges.filter((e) => !existsSync(join(root, e.to)) && scanned.some((d) => e.to.startsWith(`${d}/`)));
  const upward = [];
  for (const e of edges) {
    const a = floorOf(table, e.from), b = floorOf(table, e.to);
    if (!a || !b) continue;
    // the trees are listed bottom first (the core below the page): an import into a later tree reads up
    if (b.treeIndex > a.treeIndex || (b.treeIndex === a.treeIndex && b.level > a.level)) {
      upward.push({ ...e, fromFloor: `${a.tree} ${a.level} ${a.name}`, toFloor: `${b.tree} ${b.level} ${b.name}` });
    }
  }
  const graph = (key) => {
    const next = new Map();
    for (const e of edges) {
      const a = key(e.from), b = key(e.to);
      if (a === b) continue;
      if (!next.has(a)) next.set(a, new Set());
      next.get(a).add(b);
    }
    return next;
  };
  const fileGraph = graph((f) => f);
  const nodeGraph = graph((f) => nodeOf(table, f));
  const upwardNodes = new Set(upward.map((u) => `${nodeOf(table, u.from)} → ${nodeOf(table, u.to)}`));
  return {
    files, edges, unclaimed, missing, upward, upwardNodes: [...upwardNodes].sort(),
    fileLoops: loopsOf([...fileGraph.keys()], fileGraph),
    folderLoops: loopsOf([...nodeGraph.keys()], nodeGraph),
  };
}

/** The README's floor tables (Markdown): the page's, then the core's, each top floor first. */
export function floorTable(table = readFloors()) {
  const rows = [];
  for (const [treeName, tree] of Object.entries(table).reverse()) {
    rows.push(`| ${treeName} floor | What | Paths |`, '|---|---|---|');
    [...tree.floors.entries()].reverse().forEach(([level, f]) => {
      rows.push(`| ${level} ${f.name} | ${f.what} | ${f.paths.map((p) => `\`${p.replace(tree.strip ?? '', '')}\``).join(', ')} |`);
    });
    rows.push('');
  }
  return rows.join('\n').trim();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2] ?? here;
  const table = readFloors(process.argv[3]);
  const r = check(root, table);
  console.log(`files ${r.files.length}, import edges ${r.edges.length}`);
  console.log(`upward imports: ${r.upward.length} between files, ${r.upwardNodes.length} between folders`);
  for (const u of r.upward) console.log(`  ${u.from} (${u.fromFloor}) → ${u.to} (${u.toFloor})`);
  console.log(`folder-level upward edges:\n${r.upwardNodes.map((s) => `  ${s}`).join('\n')}`);
  console.log(`loops: ${r.fileLoops.length} between files, ${r.folderLoops.length} between folders`);
  for (const l of r.fileLoops) console.log(`  files: ${l.join(' ↔ ')}`);
  for (const l of r.folderLoops) console.log(`  folders: ${l.join(' ↔ ')}`);
  console.log(`unclaimed: ${r.unclaimed.length}`);
  for (const f of r.unclaimed) console.log(`  ${f}`);
  for (const e of r.missing) console.log(`  missing: ${e.from} → ${e.to}`);
}
