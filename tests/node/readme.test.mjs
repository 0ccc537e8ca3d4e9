// The README's table of URL keys is generated from the state schema: keep it in sync.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('README lists the URL keys exactly as the state schema defines them', () => {
  const table = execFileSync('node', ['scripts/url-keys.mjs'], { cwd: root, encoding: 'utf8' }).trim();
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const m = /<!-- url-keys:start -->\n([\s\S]*?)\n?<!-- url-keys:end -->/.exec(readme);
  assert.ok(m, 'README has the url-keys markers');
  assert.equal(m[1].trim(), table, 'run: node scripts/update-readme.mjs');
});
