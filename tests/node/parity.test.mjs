// Native and wasm builds draw the same random numbers and compute the same statistics: the JSON
// of build/native/sqrtdk_golden against the wasm module, within 1e-12 relative. (The bit-exact
// RNG golden values run in both builds in the GoogleTest suite.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../../wasm/js/core.js';
import { relDiff } from './helpers.mjs';

const golden = fileURLToPath(new URL('../../build/native/sqrtdk_golden', import.meta.url));

test('native and wasm statistics agree within 1e-12 relative', async () => {
  assert.ok(existsSync(golden), `missing ${golden}: run scripts/test-native.sh first`);
  const native = JSON.parse(execFileSync(golden, { encoding: 'utf8' }));
  for (const build of ['simd128', 'baseline']) {
    const core = await loadCore({ build, kernel: 'scalar' });
    const sv = core.scoreVariance({ dks: [1, 64, 512], samples: 5000, seed: 7, histDk: 64 });
    native.scoreVariance.forEach(([dk, mean, variance], i) => {
      assert.equal(sv.rows[i].dk, dk);
      assert.ok(relDiff(sv.rows[i].raw.mean, mean) < 1e-12, `${build} mean dk=${dk}: ${sv.rows[i].raw.mean} vs ${mean}`);
      assert.ok(relDiff(sv.rows[i].raw.variance, variance) < 1e-12, `${build} variance dk=${dk}`);
    });
    for (const [scale, expected] of Object.entries(native.attentionStats)) {
      const a = core.attentionStats({ heads: 2, seqLen: 64, dk: 32, seed: 5, scale, kernel: 'scalar' });
      for (const [key, [mean, median, p10, p90]] of Object.entries(expected)) {
        const s = a.summary[key];
        for (const [got, want, name] of [[s.mean, mean, 'mean'], [s.median, median, 'median'], [s.p10, p10, 'p10'], [s.p90, p90, 'p90']]) {
          assert.ok(relDiff(got, want) < 1e-12, `${build} ${scale} ${key}.${name}: ${got} vs ${want}`);
        }
      }
    }
  }
});
