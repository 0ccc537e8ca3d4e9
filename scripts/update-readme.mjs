// Writes the generated tables of README.md between their markers: the URL keys (scripts/url-keys.mjs,
// from the state schema) and the floors of the code (scripts/floors.json). Run after changing either.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { floorTable } from './floors.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const tables = {
  'url-keys': execFileSync('node', ['scripts/url-keys.mjs'], { cwd: root, encoding: 'utf8' }).trim(),
  floors: floorTable(),
};
const path = `${root}README.md`;
let readme = readFileSync(path, 'utf8');
for (const [name, table] of Object.entries(tables)) {
  const marked = new RegExp(`<!-- ${name}:start -->[\\s\\S]*?<!-- ${name}:end -->`);
  if (!marked.test(readme)) throw new Error(`README.md has no <!-- ${name}:start --> / <!-- ${name}:end --> markers`);
  const next = readme.replace(marked, () => `<!-- ${name}:start -->\n${table}\n<!-- ${name}:end -->`);
  console.log(next === readme ? `README.md: ${name} already up to date` : `README.md: ${name} updated`);
  readme = next;
}
writeFileSync(path, readme);
