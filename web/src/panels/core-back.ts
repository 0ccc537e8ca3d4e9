// A view whose worker keeps a core of its own (the training lab's, the interview's training run) and could not load it: tried again after each delay of the page's backoff, and at once when the page's workers have their core again (the engine's info comes) or the browser is back online — so a core back on the server is taken without a reload.
import type { Engine } from '../engine.ts';
import { START_BACKOFF_MS, backoffOverride } from '../worker/pool.ts';

export class CoreBack {
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private waiting = false;
  private readonly offEngine: () => void;
  private readonly onOnline = () => this.fire();

  /** `again`: the view's request made again (its failure calls failed(), its success ok()). */
  constructor(private readonly engine: Engine, private readonly again: () => void) {
    this.offEngine = engine.onChange(() => { if (engine.ready) this.fire(); });
  }

  /** The core did not load: the next try after the next delay (after the last one, only on the page's signals). */
  failed(): void {
    this.stopTimer();
    this.waiting = true;
    window.removeEventListener('online', this.onOnline);
    window.addEventListener('online', this.onOnline);
    const delays = backoffOverride(location.search) ?? START_BACKOFF_MS;
    if (this.attempt < delays.length) this.timer = setTimeout(() => this.fire(), delays[this.attempt++]);
  }

  /** The core loaded: the next failure starts the delays from the first. */
  ok(): void {
    this.attempt = 0;
    this.waiting = false;
    this.stopTimer();
    window.removeEventListener('online', this.onOnline);
  }

  destroy(): void {
    this.ok();
    this.offEngine();
  }

  private fire(): void {
    if (!this.waiting) return;
    this.waiting = false;
    this.stopTimer();
    this.again();
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
