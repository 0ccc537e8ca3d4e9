// Writes the URL-key table (scripts/url-keys.mjs, generated from the state schema) between the
// url-keys markers of README.md. Run after changing web/src/state/schema.js.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const table = execFileSync('node', ['scripts/url-keys.mjs'], { cwd: root, encoding: 'utf8' }).trim();
const path = `${root}README.md`;
const readme = readFileSync(path, 'utf8');
const next = readme.replace(/<!-- url-keys:start -->[\s\S]*?<!-- url-keys:end -->/,
  `<!-- url-keys:start -->\n${table}\n<!-- url-keys:end -->`);
if (next === readme) console.log('README.md: URL keys already up to date');
else { writeFileSync(path, next); console.log('README.md: URL keys updated'); }
