// Shared by the tests that run Python: Debian's python3 (with python3-numpy), found once, and a batch runner.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's interpreter: /usr/bin/python3 (its python3-numpy, python3-torch), else the python3 on PATH. */
export const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** Whether `python3 -c "import <module>"` succeeds, and why not (the error's last line). */
export function pythonHas(module) {
  const r = spawnSync(PYTHON, ['-c', `import ${module}`], { encoding: 'utf8' });
  if (r.error) return { ok: false, why: `${PYTHON}: ${r.error.message}` };
  return r.status === 0 ? { ok: true, why: '' } : { ok: false, why: (r.stderr.trim().split('\n').pop() ?? '') };
}

/** Runs Python source `code` with `stdin`; returns stdout, or throws with stderr. */
export function runPython(code, { stdin = '', timeout = 120_000, cwd } = {}) {
  const r = spawnSync(PYTHON, ['-c', code], { input: stdin, encoding: 'utf8', timeout, cwd, maxBuffer: 256 * 2 ** 20 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`python exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}
