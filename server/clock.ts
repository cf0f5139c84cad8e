/**
 * The server's one source of time: `now()` in ms since the epoch, injected into `createServer` and the services
 * (idle eviction, creation and step times, event timestamps, the websocket rate limit), so service-level tests
 * drive time with a fake clock instead of waiting.
 */
export interface Clock {
  /** The current time, ms since the epoch. */
  now(): number;
}

/** The wall clock (`Date.now()`). */
export const systemClock: Clock = { now: () => Date.now() };
