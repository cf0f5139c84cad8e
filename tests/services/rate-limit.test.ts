/**
 * The websocket rate limit's token bucket (server/transport/socket.ts `takeToken`) on a given clock: a burst of
 * `size` passes, the next message is refused, time refills at `rate` per second up to `size`, and a clock set
 * back refills nothing and drains nothing.
 */
import { describe, expect, it } from 'vitest';
import { takeToken } from '../../server/transport/socket';

describe('token bucket of a connection', () => {
  it('passes a burst, refuses beyond it, refills with time up to the bucket size, ignores a clock set back', () => {
    const state = {};
    const t0 = 1_000_000;
    const take = (now: number, n = 1) => Array.from({ length: n }, () => takeToken(state, 20, 60, now));
    expect(take(t0, 60).every(Boolean)).toBe(true);
    expect(take(t0)).toEqual([false]);
    // 100 ms at 20 per second: two more.
    expect(take(t0 + 100, 3)).toEqual([true, true, false]);
    // The clock set back by a minute: nothing refilled, nothing lost.
    expect(take(t0 + 100 - 60_000)).toEqual([false]);
    expect(take(t0 + 100 - 60_000 + 50)).toEqual([true]);
    // A long pause refills to the bucket size, no more.
    expect(take(t0 + 3_600_000, 61).filter(Boolean)).toHaveLength(60);
  });
});
