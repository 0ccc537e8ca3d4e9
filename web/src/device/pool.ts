// The size of the page's compute worker pool, as the device panel reports it: one worker per
// logical core, one core kept for the page, at least one worker (issue 9). The pool itself lives
// in compute.ts; this one function is the single place the panel reads its size from.
export function workerPoolSize(hardwareConcurrency: number = typeof navigator === 'undefined' ? 1 : navigator.hardwareConcurrency): number {
  const hc = Number.isFinite(hardwareConcurrency) && hardwareConcurrency >= 1 ? Math.floor(hardwareConcurrency) : 1;
  return Math.max(1, hc - 1);
}
