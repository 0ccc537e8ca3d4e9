// What moved between two cores' golden-link numbers: node scripts/golden-diff.mjs old.json new.json,
// each written by GOLDEN_DUMP=file npx vitest run --config vite.config.ts tests/web/golden-links.test.ts
// on that core. Per link and result: how many numbers moved (at 12 significant digits), the largest
// relative move, and every number whose 4 significant digits (what the page shows) changed.
import { readFileSync } from 'node:fs';

const [oldPath, newPath] = process.argv.slice(2);
if (!oldPath || !newPath) {
  console.error('usage: node scripts/golden-diff.mjs old.json new.json');
  process.exit(2);
}
const a = JSON.parse(readFileSync(oldPath, 'utf8')), b = JSON.parse(readFileSync(newPath, 'utf8'));
const shown = (s) => (Number.isFinite(Number(s)) ? Number(s).toPrecision(4) : s);
console.log(`core ${a.coreVersion} → ${b.coreVersion}`);
let same = [];
for (const link of Object.keys(b.links)) {
  for (const label of Object.keys(b.links[link])) {
    const x = a.links[link]?.[label], y = b.links[link][label];
    if (!x) { console.log(`NEW     ${link} ${label}`); continue; }
    if (x.values.length !== y.values.length) { console.log(`MOVED   ${link} ${label}: ${x.values.length} → ${y.values.length} numbers`); continue; }
    let moved = 0, worst = 0, worstAt = '';
    const digits = [];
    for (let i = 0; i < y.values.length; ++i) {
      if (x.values[i] === y.values[i]) continue;
      ++moved;
      const p = Number(x.values[i]), q = Number(y.values[i]);
      const rel = Number.isFinite(p) && Number.isFinite(q) ? Math.abs(q - p) / Math.max(Math.abs(p), 1e-300) : Infinity;
      if (rel > worst) { worst = rel; worstAt = `${y.paths[i]} ${x.values[i]} → ${y.values[i]}`; }
      if (shown(x.values[i]) !== shown(y.values[i])) digits.push(`${y.paths[i]}: ${shown(x.values[i])} → ${shown(y.values[i])} (${x.values[i]} → ${y.values[i]})`);
    }
    if (moved === 0) { same.push(`${link} ${label}`); continue; }
    console.log(`MOVED   ${link} ${label}: ${moved} of ${y.values.length} numbers, largest relative move ${worst.toPrecision(2)} (${worstAt})`);
    console.log(`        shown at 4 significant digits: ${digits.length} changed${digits.length ? ':' : ''}`);
    for (const d of digits.slice(0, 40)) console.log(`          ${d}`);
    if (digits.length > 40) console.log(`          … and ${digits.length - 40} more`);
  }
}
console.log(`same    ${same.length} results:\n${same.map((s) => `        ${s}`).join('\n')}`);
