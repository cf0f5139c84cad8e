/**
 * The live client's core: versioned subscriptions, one kind of them per topic (matches: ./live-matches.ts;
 * tables and events: ./live-rooms.ts), the same rules for all:
 * - per key (a match id, `<eventId>/<table>`, an event id), one subscription however many parts of the page
 *   watch it; the server's answer to the subscribe (its ack) sets the value, pushes move it on;
 * - newer versions only: a push at or below the version held is dropped; each listener hears values in
 *   strictly increasing version order (an ack never hands a listener a version it already heard);
 * - a push the topic cannot apply to the value held (`follow` answers null: a statistics delta from another
 *   version than the one held, i.e. a gap) asks the server again (a resync, with the version held);
 * - every key is asked again on every (re)connect and when the page becomes visible again (./live-connection.ts
 *   `onResync`); one request per key at a time, a trigger meanwhile asks again once it is answered;
 * - a push before the first answer waits (the newest one) and is applied after it;
 * - a refusal reaches the listeners' `onError`; one that passes by itself (`rate-limited`, `internal`:
 *   TRANSIENT_CODES of ./live-problem) is asked again after a back-off (2 s doubling to 30 s, ±20 % jitter so
 *   refused pages do not come back together); `resync(key)` asks at once ("Retry now");
 * - while disconnected the last good value stays with the page: nothing is cleared.
 */
import type { ApiError } from '../../../shared/protocol/errors';
import { TRANSIENT_CODES } from './live-problem';

/** A value or push that carries the version it is at. */
export interface Versioned {
  version: number;
}

/**
 * Hear the server's answer to a subscribe: `value` at its version, or (value null) the refusal `error`; neither
 * when no answer came in time.
 */
export type AnswerCallback<V> = (value: V | null, error?: ApiError) => void;

/** How long a subscribe waits for its ack before the next resync trigger may try again (ms). */
export const SUBSCRIBE_TIMEOUT_MS = 5000;
/** First and longest wait before asking again after a transient refusal (ms). */
const RETRY_FIRST_MS = 2000;
const RETRY_MAX_MS = 30_000;

/** How one kind of subscription talks to the server. `V`: the value a page gets; `P`: a push. */
export interface Topic<V extends Versioned, P extends Versioned> {
  /** Subscribe `key` (knowing `held`, the value held, null before the first answer). */
  ask(key: string, held: V | null, done: AnswerCallback<V>): void;
  /** The last listener of `key` left; `tell`: connected, so tell the server (it forgets a dropped connection's rooms itself). */
  leave(key: string, tell: boolean): void;
  /** The value after `push` (newer than `held`), or null when it does not follow from `held` (ask again). */
  follow(key: string, held: V, push: P): V | null;
}

/** What the subscriptions need of the connection (./live-connection.ts `Connection`). */
export interface Link {
  readonly port: { readonly connected: boolean };
  onResync(cb: (connectionLost: boolean) => void): void;
}

/** The subscriptions of one topic. */
export interface Subscriptions<V extends Versioned, P extends Versioned> {
  /**
   * Watch `key`: `onValue` hears `pick(value)` for each newer value that `pick` does not turn down (null), in
   * version order; a part of the page joining a watched key starts from the value held. `onError` hears a
   * refused subscribe. Returns the function that stops watching (the last one out leaves the key).
   */
  watch<W>(key: string, pick: (v: V) => W | null, onValue: (w: W) => void, onError?: (e: ApiError) => void): () => void;
  /** A push for `key` (ignored when `key` is not watched). */
  push(key: string, push: P): void;
  /** Ask the server again for `key` now (no-op when not watched or while disconnected: the next connect asks). */
  resync(key: string): void;
}

interface Listener<V> {
  hear(v: V): void;
  error: ((e: ApiError) => void) | undefined;
}

interface Sub<V, P> {
  key: string;
  listeners: Set<Listener<V>>;
  /** The newest value (null before the first answer). */
  held: V | null;
  /** The newest push received before the first answer. */
  early: P | null;
  /** A subscribe is in flight. */
  inFlight: boolean;
  /** Another resync was asked for while one was in flight. */
  again: boolean;
  /** Back-off of the next automatic retry after a transient refusal (ms; 0: none refused since the last answer). */
  retryMs: number;
  retryTimer: ReturnType<typeof setTimeout> | undefined;
}

const stopRetry = (sub: { retryTimer: ReturnType<typeof setTimeout> | undefined }) => {
  clearTimeout(sub.retryTimer);
  sub.retryTimer = undefined;
};

/** The versioned subscriptions of `topic` over `link`, asked again at the connection's resync moments. */
export function subscriptions<V extends Versioned, P extends Versioned>(link: Link, topic: Topic<V, P>): Subscriptions<V, P> {
  const subs = new Map<string, Sub<V, P>>();

  const deliver = (sub: Sub<V, P>, value: V) => {
    // Older than held, or the held value itself (an `unchanged` answer): nothing new to hear.
    if (sub.held && (value.version < sub.held.version || value === sub.held)) return;
    sub.held = value;
    for (const l of [...sub.listeners]) l.hear(value);
  };

  const resync = (sub: Sub<V, P>) => {
    if (!link.port.connected) return; // the next connect asks (never after close(): the port is disconnected)
    if (sub.inFlight) {
      sub.again = true;
      return;
    }
    stopRetry(sub);
    sub.inFlight = true;
    sub.again = false;
    topic.ask(sub.key, sub.held, (value, error) => {
      sub.inFlight = false;
      if (subs.get(sub.key) !== sub) return; // left meanwhile
      if (value) {
        sub.retryMs = 0;
        deliver(sub, value);
        const early = sub.early;
        sub.early = null;
        if (early) onPush(sub, early);
      } else if (error) {
        if (TRANSIENT_CODES.includes(error.code)) retryLater(sub);
        for (const l of [...sub.listeners]) l.error?.(error);
      }
      if (sub.again) resync(sub);
    });
  };

  /** Ask again after the back-off (doubling, capped, jittered) while the key is still watched. */
  const retryLater = (sub: Sub<V, P>) => {
    sub.retryMs = sub.retryMs === 0 ? RETRY_FIRST_MS : Math.min(RETRY_MAX_MS, sub.retryMs * 2);
    stopRetry(sub);
    sub.retryTimer = setTimeout(
      () => {
        sub.retryTimer = undefined;
        if (subs.get(sub.key) === sub) resync(sub);
      },
      sub.retryMs * (0.8 + Math.random() * 0.4),
    );
  };

  const onPush = (sub: Sub<V, P>, push: P) => {
    if (!sub.held) {
      if (!sub.early || push.version > sub.early.version) sub.early = push;
      return;
    }
    if (push.version <= sub.held.version) return;
    const next = topic.follow(sub.key, sub.held, push);
    if (next) deliver(sub, next);
    else resync(sub);
  };

  link.onResync((connectionLost) => {
    for (const sub of subs.values()) {
      if (connectionLost) sub.inFlight = false; // acks of a dead connection never come
      resync(sub);
    }
  });

  return {
    watch(key, pick, onValue, onError) {
      let last = -1;
      const listener: Listener<V> = {
        hear(v) {
          if (v.version <= last) return;
          const w = pick(v);
          if (w === null) return;
          last = v.version;
          onValue(w);
        },
        error: onError,
      };
      let sub = subs.get(key);
      if (!sub) {
        sub = { key, listeners: new Set([listener]), held: null, early: null, inFlight: false, again: false, retryMs: 0, retryTimer: undefined };
        subs.set(key, sub);
        resync(sub);
      } else {
        // Another part of the page watches it already: start from the value held.
        const s = sub;
        s.listeners.add(listener);
        queueMicrotask(() => {
          if (s.held && s.listeners.has(listener)) listener.hear(s.held);
        });
      }
      const s = sub;
      return () => {
        s.listeners.delete(listener);
        if (s.listeners.size === 0 && subs.get(key) === s) {
          subs.delete(key);
          stopRetry(s);
          topic.leave(key, link.port.connected);
        }
      };
    },

    push(key, push) {
      const sub = subs.get(key);
      if (sub) onPush(sub, push);
    },

    resync(key) {
      const sub = subs.get(key);
      if (sub) resync(sub);
    },
  };
}
