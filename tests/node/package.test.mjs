// The core as an npm package: `npm pack` holds exactly what a user needs (the loader, the types,
// both wasm builds, plus the README, the licence and package.json); the tarball installs into a
// fresh temporary project fully offline (an empty npm cache, --offline: its one dependency,
// wasm-feature-detect, comes as a tarball packed from node_modules), runs the README's example
// there in this Node, and a TypeScript use of the API type-checks with the project's own tsc.
// Needs the wasm build (npm run build:wasm).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCore, CORE_VERSION } from '../../wasm/js/core.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(path.join(tmpdir(), 'sqrtdk-pack-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const npmCli = path.join(path.dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js');
/** The JSON that `npm … --json` printed (after any lifecycle script's banner). */
const json = (text) => JSON.parse(text.slice(text.search(/^[[{]/m)));
/** npm with an empty cache of its own: nothing can come from a cache filled earlier. */
function npm(args, cwd) {
  const bin = existsSync(npmCli) ? [process.execPath, npmCli] : ['npm'];
  return execFileSync(bin[0], [...bin.slice(1), ...args, '--cache', path.join(tmp, 'npm-cache'), '--no-audit', '--no-fund', '--loglevel=error', '--no-update-notifier'],
    { cwd, encoding: 'utf8', env: { ...process.env, npm_config_offline: 'true' } });
}

const EXPECTED_FILES = [
  'LICENSE', 'README.md', 'package.json',
  'wasm/dist/sqrtdk-base.mjs', 'wasm/dist/sqrtdk-base.wasm', 'wasm/dist/sqrtdk-simd-first.mjs', 'wasm/dist/sqrtdk-simd-first.wasm',
  'wasm/dist/sqrtdk-simd.mjs', 'wasm/dist/sqrtdk-simd.wasm',
  'wasm/js/checks.js', 'wasm/js/core.d.ts', 'wasm/js/core.js', 'wasm/js/experiment-types.d.ts', 'wasm/js/experiments.js',
  ...['attention-stats', 'attention', 'choices', 'common', 'long-context', 'model-scales', 'normal-draws', 'normalisers',
    'precision', 'qk-clip', 'score-variance', 'simd-peak', 'spec', 'tensor-stats', 'training'].map((f) => `wasm/js/experiments/${f}.js`),
  'wasm/js/model-config.js',
  'wasm/js/training-run.js', 'wasm/js/version.js',
];

let packed;
test('npm pack: exactly the loader, the types, both wasm builds and the SIMD128 build’s first part (and README, LICENSE, package.json)', () => {
  const out = json(npm(['pack', '--json', '--pack-destination', tmp], root));
  assert.equal(out.length, 1);
  packed = out[0];
  assert.equal(packed.name, 'sqrtdk-lab');
  assert.equal(packed.version, CORE_VERSION);
  assert.deepEqual(packed.files.map((f) => f.path).sort(), EXPECTED_FILES);
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  assert.equal(pkg.private, undefined, 'publishable');
  assert.deepEqual(Object.keys(pkg.dependencies), ['wasm-feature-detect'], 'the page\'s libraries are build-time only');
  console.log(`# ${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.files.length} files`);
});

test('the tarball installs offline into an empty project, runs the README example, type-checks with tsc', async () => {
  assert.ok(packed, 'packed by the test above');
  const app = path.join(tmp, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
  // the one dependency, as a tarball of the copy this checkout installed
  const dep = json(npm(['pack', '--json', '--pack-destination', tmp], path.join(root, 'node_modules/wasm-feature-detect')))[0];
  npm(['install', '--offline', path.join(tmp, packed.filename), path.join(tmp, dep.filename)], app);
  const installed = JSON.parse(readFileSync(path.join(app, 'node_modules/sqrtdk-lab/package.json'), 'utf8'));
  assert.equal(installed.version, CORE_VERSION);

  // the README's example, verbatim
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const m = /<!-- node-example:start -->\n```js\n([\s\S]*?)```\n<!-- node-example:end -->/.exec(readme);
  assert.ok(m, 'README has the node-example block');
  writeFileSync(path.join(app, 'check.mjs'), m[1]);
  const printed = execFileSync(process.execPath, ['check.mjs'], { cwd: app, encoding: 'utf8' });
  // the same numbers as the core of this checkout
  const core = await loadCore({ kernel: 'auto' });
  const scales = ['none', 'inv_sqrt_dk', 'inv_dk'];
  const sweep = core.saturationSweep({ dks: [512], scales, heads: 8, seqLen: 128, seed: 0, gradients: false });
  const expected = [`core ${CORE_VERSION} (simd128), ln 128 = ${Math.log(128).toFixed(4)}`,
    ...scales.map((s, i) => `${s.padEnd(12)} entropy ${sweep.points[i][0].entropy.mean.toFixed(4)}  max weight ${sweep.points[i][0].maxWeight.mean.toFixed(4)}`)];
  assert.deepEqual(printed.trim().split('\n'), expected);
  // the article's claim C4 in the printed numbers: unscaled rows collapse, 1/√d_k keeps them spread
  assert.ok(sweep.points[0][0].entropy.mean < 1 && sweep.points[1][0].entropy.mean > 3.5, printed);

  // a TypeScript user of the package: the types resolve through `exports` and are checked
  writeFileSync(path.join(app, 'use.ts'), `import { loadCore, CORE_VERSION, LIMITS } from 'sqrtdk-lab/core';
import type { Core, SaturationSweepResult, AttentionSummary } from 'sqrtdk-lab/core';
const version: string = CORE_VERSION;
const core: Core = await loadCore({ kernel: 'scalar' });
const r: SaturationSweepResult = core.saturationSweep({ dks: [64, LIMITS.dk[0]], scales: ['inv_sqrt_dk', 0.5] });
const first: AttentionSummary = r.points[0][0];
const entropy: number = first.entropy.mean;
// @ts-expect-error dks must be numbers
core.saturationSweep({ dks: ['64'] });
// @ts-expect-error no such kernel
void loadCore({ kernel: 'gpu' });
export { version, entropy };
`);
  writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], strict: true, noEmit: true, skipLibCheck: false, types: [] },
    files: ['use.ts'],
  }, null, 2));
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', app], { cwd: app, encoding: 'utf8' });
  } catch (e) {
    assert.fail(`tsc: ${e.stdout}${e.stderr}`);
  }
  // and tsc does check: a wrong use is an error
  writeFileSync(path.join(app, 'use.ts'), `import { loadCore } from 'sqrtdk-lab/core';\nconst c = await loadCore();\nconst n: string = c.info().simd;\nexport { n };\n`);
  assert.throws(() => execFileSync(process.execPath, [tsc, '-p', app], { cwd: app, encoding: 'utf8', stdio: 'pipe' }), (e) => /TS2322/.test(String(e.stdout)));
});
