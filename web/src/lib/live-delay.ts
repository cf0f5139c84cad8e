/**
 * Holding live updates back to line up with a delayed video stream (`/watch/<id>?delay=<seconds>`).
 * Every feed, the first one included, is passed on `delayMs` after it arrived, in arrival order: at time t
 * the page shows the state it received at t − delay, so joining a match never shows what the delayed
 * stream has not shown yet. Until the first feed is due the page shows a "syncing" placeholder instead.
 * A timer exists only while a feed is waiting; with nothing queued, nothing runs.
 */

/** The wrapped feed callback of {@link delayed}. */
export interface Delayed<T> {
  /** Hand a feed in; it reaches `onFeed` `delayMs` later (at once when the delay is 0). */
  push: (f: T) => void;
  /** Drop every waiting feed and stop the timer. */
  cancel: () => void;
}

/**
 * Wrap `onFeed` so feeds reach it `delayMs` milliseconds after they arrive (≤ 0 or NaN: no delay).
 * `onHeld` is called once, when the first feed arrives and is being held back (only with a delay),
 * so the page can switch from "waiting for the match" to "syncing with the stream".
 */
export function delayed<T>(onFeed: (f: T) => void, delayMs: number, onHeld?: () => void): Delayed<T> {
  if (!(delayMs > 0)) return { push: onFeed, cancel: () => {} };
  const queue: { due: number; feed: T }[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let held = false;

  const arm = () => {
    if (timer !== null || queue.length === 0) return;
    timer = setTimeout(flush, Math.max(0, queue[0]!.due - performance.now()));
  };
  const flush = () => {
    timer = null;
    const now = performance.now();
    while (queue.length && queue[0]!.due <= now) onFeed(queue.shift()!.feed);
    arm();
  };

  return {
    push(feed) {
      queue.push({ due: performance.now() + delayMs, feed });
      arm();
      if (!held) {
        held = true;
        onHeld?.();
      }
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      queue.length = 0;
    },
  };
}
