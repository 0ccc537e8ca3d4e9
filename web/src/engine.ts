// The engine's state in plain words (the device panel shows it beside the kernel choice): which
// kernel family computes, and behind the tooltip the core's version and build. One Engine object
// (a field of the app's state, handed to the views) holds the core's answer to `info`, asked once
// by app/core.ts, so every reader sees the same.
import type { CoreInfo } from '../../wasm/js/core.js';
import type { T } from './i18n/messages.ts';
import type { KernelChoice } from './state/state.ts';

export class Engine {
  private info: CoreInfo | null = null;
  private failure = '';
  private readonly listeners = new Set<() => void>();

  /** Records the core's `info` answer (or why it failed) and tells every listener. */
  set(i: CoreInfo | null, error = ''): void {
    this.info = i;
    this.failure = error;
    for (const l of [...this.listeners]) l();
  }

  /** Whether the page's workers have answered `info` (their core is loaded). */
  get ready(): boolean { return this.info !== null; }

  /** Calls `fn` on every change of the engine's info; returns the unsubscribe. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The kernel family that computes: the chosen one, or the core's own pick under auto; null before the core answered. */
  effectiveKernel(choice: KernelChoice): 'simd' | 'scalar' | null {
    if (!this.info) return null;
    return choice === 'auto' ? this.info.kernel : choice;
  }

  /** "Engine: SIMD (fast)" and the tooltip "Core 0.3.0 · build SIMD128 · kernel SIMD128 (auto)". */
  status(t: T, choice: KernelChoice): { text: string; title: string } {
    const { info, failure } = this;
    if (failure) return { text: t('app.status.failed', { message: failure }), title: '' };
    if (!info) return { text: t('app.status.loading'), title: '' };
    const kernel = choice === 'auto' ? info.kernel : choice;
    return {
      text: t('app.engine', { kernel: t(`app.engine.${kernel}`) }),
      title: t('app.status', { version: info.version, build: t(`app.build.${info.build}`), kernel: t(`app.kernel.${kernel}`) + (choice === 'auto' ? ` (${t('app.kernel.auto')})` : '') }),
    };
  }
}
