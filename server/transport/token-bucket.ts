/**
 * The refill of a token bucket, shared by the per-connection message rate limit (./socket.ts `takeToken`) and
 * the reply budget in bytes (./backpressure.ts `replyBudgetLeft`). Each caller keeps its own two numbers in
 * `socket.data` and decides what a take costs.
 */

/**
 * What a bucket holds at `now` (ms): `left` when last touched at `at` (both undefined: never touched, so full),
 * plus `rate` a second since, at most `size`. A clock set back refills nothing and never drains it.
 */
export function bucketLevel(left: number | undefined, at: number | undefined, rate: number, size: number, now: number): number {
  return Math.min(size, (left ?? size) + (Math.max(0, now - (at ?? now)) / 1000) * rate);
}
