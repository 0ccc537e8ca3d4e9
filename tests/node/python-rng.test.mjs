// The Python port of the core's generator (web/public/python/sqrtdk_rng.py) draws the core's very numbers, bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../../wasm/js/core.js';
import { PYTHON, pythonHas, runPython } from './python.mjs';

const MODULE_DIR = fileURLToPath(new URL('../../web/public/python/', import.meta.url));
const numpy = pythonHas('numpy');
const skip = numpy.ok ? false : `${PYTHON} has no NumPy (${numpy.why}): apt-get install python3-numpy`;
const core = await loadCore({ kernel: 'scalar' });

test('Q and K drawn in Python are the core\'s: attention on them gives the heatmap of attentionStats bit for bit', { skip }, () => {
  const shapes = [{ heads: 1, seqLen: 16, dk: 8, seed: 0 }, { heads: 2, seqLen: 33, dk: 17, seed: 4294967295 }, { heads: 3, seqLen: 48, dk: 64, seed: 12345 }];
  const out = runPython(`
import sys, json, base64
sys.path.insert(0, ${JSON.stringify(MODULE_DIR)})
from sqrtdk_rng import draw_tensor
res = []
for s in json.loads(sys.stdin.read()):
    shape = (s['heads'], s['seqLen'], s['dk'])
    q, k = draw_tensor(s['seed'], 1, shape), draw_tensor(s['seed'], 2, shape)
    res.append([base64.b64encode(q.tobytes()).decode(), base64.b64encode(k.tobytes()).decode()])
print(json.dumps(res))
`, { stdin: JSON.stringify(shapes) });
  const drawn = JSON.parse(out);
  shapes.forEach((s, i) => {
    const f32 = (b64) => { const b = Buffer.from(b64, 'base64'); return new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4); };
    const [q, k] = drawn[i].map(f32);
    const n = s.seqLen;
    const stats = core.attentionStats({ ...s, scale: 'inv_sqrt_dk', heatmapSize: n, gradients: false });
    const att = core.attention({ q, k, v: k, heads: s.heads, seqLen: s.seqLen, dk: s.dk, scale: 'inv_sqrt_dk' });
    assert.deepEqual(Array.from(stats.heatmap), Array.from(att.weights.subarray(0, n * n)), `seed ${s.seed}: head 0's weights`);
  });
});

test('the normals in double are the core\'s: scoreVariance at d_k = 1 and 3 from the Python draws, to the last bits', { skip }, () => {
  // d_k = 1: each score is one product q·k of two doubles; the moments of 5 scores leave no room for another draw
  const params = { dks: [1, 3], samples: 5, seed: 77 };
  const r = core.scoreVariance({ ...params, bins: 4 });
  const out = runPython(`
import sys, json
sys.path.insert(0, ${JSON.stringify(MODULE_DIR)})
from sqrtdk_rng import Stream
p = json.loads(sys.stdin.read())
rows = []
for dk in p['dks']:
    z = Stream(p['seed'], dk).normals(2 * dk * p['samples']).reshape(p['samples'], 2, dk)
    scores = [sum(float(a) * float(b) for a, b in zip(z[s, 0], z[s, 1])) for s in range(p['samples'])]
    rows.append(scores)
print(json.dumps(rows))
`, { stdin: JSON.stringify(params) });
  const rows = JSON.parse(out);
  r.rows.forEach((row, i) => {
    const xs = rows[i];
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
    assert.ok(Math.abs(row.raw.mean - mean) <= 1e-14 * Math.max(1, Math.abs(mean)), `d_k ${row.dk}: mean ${row.raw.mean} vs ${mean}`);
    assert.ok(Math.abs(row.raw.variance - variance) <= 1e-13 * variance, `d_k ${row.dk}: variance ${row.raw.variance} vs ${variance}`);
  });
});
