/**
 * The idle sweep: every `everyMs` (at most a minute), loaded matches nobody watches here (`isViewed`) and
 * nobody recorded for `idleMs` are dropped from memory (with what the store holds for them), so a long-running
 * instance keeps only live matches. Idleness is measured by the match service's clock; the timer only says
 * when to look, so a test calls `sweep()` after moving its fake clock instead of waiting.
 */
import type { MatchService } from './service';

export interface IdleSweepOptions {
  matches: Pick<MatchService, 'evictIdle'>;
  /** A loaded match untouched for this long (ms, by the service's clock) may be dropped. */
  idleMs: number;
  /** Whether match `id` has viewers here (kept whatever its idleness). */
  isViewed: (id: string) => boolean;
}

/** The sweep of one instance: `start()` looks every min(idleMs, 60 s) until `stop()`; `sweep()` looks now. */
export class IdleSweep {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: IdleSweepOptions) {}

  /** Drop the idle, unwatched matches now. */
  sweep(): void {
    this.opts.matches.evictIdle(this.opts.idleMs, this.opts.isViewed);
  }

  /** Sweep periodically (the timer does not keep the process alive). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.sweep(), Math.min(60_000, this.opts.idleMs));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
