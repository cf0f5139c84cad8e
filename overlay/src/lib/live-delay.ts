/**
 * Holding live updates back to line up with a delayed video stream (`/watch/<id>?delay=<seconds>`).
 * Each feed is passed on `delayMs` after it arrived, in arrival order. The first feed passes at once
 * (the page has nothing to show yet, and the past states before joining are not on the wire).
 * A timer exists only while a feed is waiting; with nothing queued, nothing runs.
 */

/** Wrap `onFeed` so feeds reach it `delayMs` after they arrive. Returns the wrapped callback and a `cancel`. */
export function delayed<T>(onFeed: (f: T) => void, delayMs: number): { push: (f: T) => void; cancel: () => void } {
  if (!(delayMs > 0)) return { push: onFeed, cancel: () => {} };
  const queue: { due: number; feed: T }[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let first = true;

  const arm = () => {
    if (timer !== null || queue.length === 0) return;
    timer = setTimeout(flush, Math.max(0, queue[0]!.due - Date.now()));
  };
  const flush = () => {
    timer = null;
    const now = Date.now();
    while (queue.length && queue[0]!.due <= now) onFeed(queue.shift()!.feed);
    arm();
  };

  return {
    push(feed) {
      if (first) {
        first = false;
        onFeed(feed);
        return;
      }
      queue.push({ due: Date.now() + delayMs, feed });
      arm();
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      queue.length = 0;
    },
  };
}
