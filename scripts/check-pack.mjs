// prepack: refuses to pack the npm package (sqrtdk-lab, whose `sqrtdk-lab/core` is the core's JS
// API) unless both wasm builds are there (npm run build:wasm) and the package's version is the
// core's (wasm/js/version.js): `files` would silently leave out what is missing.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CORE_VERSION } from '../wasm/js/version.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const missing = pkg.files.filter((f) => !existsSync(root + f));
if (missing.length > 0) {
  console.error(`npm pack: missing ${missing.join(', ')}: run npm run build:wasm first`);
  process.exit(1);
}
if (pkg.version !== CORE_VERSION) {
  console.error(`npm pack: package.json version ${pkg.version} is not the core's version ${CORE_VERSION} (wasm/js/version.js)`);
  process.exit(1);
}
