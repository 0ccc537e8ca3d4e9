#!/usr/bin/env node
// Writes the example tensor files of the "your own tensors" panel into web/public/examples/
// (Vite copies web/public/ into dist/), drawn by the built core (npm run build:wasm first). Deterministic: the same bytes every run; a unit test
// checks that the committed files match. Usage: node scripts/make-examples.mjs
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../wasm/js/core.js';
import { makeExamples } from '../web/src/tensors/examples.js';

const dir = fileURLToPath(new URL('../web/public/examples/', import.meta.url));
await mkdir(dir, { recursive: true });
for (const [name, bytes] of Object.entries(makeExamples(await loadCore()))) {
  await writeFile(dir + name, bytes);
  console.log(`web/public/examples/${name}: ${bytes.length} bytes`);
}
