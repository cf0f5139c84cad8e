/**
 * Versioned room subscriptions of the live client beyond single matches: a table (`subscribeTable`, pushes
 * `table`) and an event (`subscribeEvent`, pushes `event`). Per key, one subscription however many parts of
 * the page watch it; values are handed out in strictly increasing `version` order (older or equal pushes
 * are dropped); `resyncAll` re-subscribes every key (the client calls it on every (re)connect and when the
 * page becomes visible again); the last good value stays with the page while disconnected.
 */
import type { ApiError } from '../../../shared/protocol/errors';

/** What the client's socket offers this module (emit with an ack and a timeout, plain emit, connected). */
export interface RoomSocket {
  readonly connected: boolean;
  /** Emit `event` with `req`; `done` hears the ack, or an error when none came in `timeoutMs`. */
  ask(event: string, req: unknown, timeoutMs: number, done: (err: Error | null, ack: unknown) => void): void;
  tell(event: string, req: unknown): void;
}

/** How one kind of room is subscribed. */
export interface RoomKind<T extends { version: number }> {
  subscribe: string;
  unsubscribe: string;
  /** The subscribe request for `key` (the protocol version included). */
  request(key: string): unknown;
  /** The leave request for `key`. */
  leave(key: string): unknown;
  /** The value an ok ack carries. */
  fromAck(ack: { ok: true } & Record<string, unknown>): T;
}

interface Sub<T> {
  key: string;
  listeners: Set<(v: T) => void>;
  errorListeners: Set<(e: ApiError) => void>;
  latest: T | null;
  inFlight: boolean;
  again: boolean;
}

/** How long a subscribe waits for its ack before the next resync trigger may try again (ms). */
const SUBSCRIBE_TIMEOUT_MS = 5000;

/** Subscriptions of one room kind over `socket`. */
export function roomWatch<T extends { version: number }>(socket: RoomSocket, kind: RoomKind<T>) {
  const subs = new Map<string, Sub<T>>();

  const deliver = (sub: Sub<T>, value: T) => {
    if (sub.latest && value.version <= sub.latest.version) return;
    sub.latest = value;
    for (const cb of [...sub.listeners]) cb(value);
  };

  const resync = (sub: Sub<T>) => {
    if (!socket.connected) return; // the next connect resyncs
    if (sub.inFlight) {
      sub.again = true;
      return;
    }
    sub.inFlight = true;
    sub.again = false;
    socket.ask(kind.subscribe, kind.request(sub.key), SUBSCRIBE_TIMEOUT_MS, (err, raw) => {
      sub.inFlight = false;
      if (subs.get(sub.key) !== sub) return; // left meanwhile
      const ack = raw as ({ ok: true } & Record<string, unknown>) | { ok: false; error: ApiError } | undefined;
      if (!err && ack) {
        if (ack.ok) deliver(sub, kind.fromAck(ack));
        else for (const cb of [...sub.errorListeners]) cb(ack.error);
      }
      if (sub.again) resync(sub);
    });
  };

  return {
    /** Watch `key`: `onValue` hears each newer value; returns the function that stops watching. */
    watch(key: string, onValue: (v: T) => void, onError?: (e: ApiError) => void): () => void {
      let sub = subs.get(key);
      if (!sub) {
        sub = { key, listeners: new Set(), errorListeners: new Set(), latest: null, inFlight: false, again: false };
        subs.set(key, sub);
        resync(sub);
      } else if (sub.latest) {
        // Another part of the page watches it already: boot straight into the current value.
        const current = sub.latest;
        const s = sub;
        queueMicrotask(() => {
          if (s.listeners.has(onValue) && s.latest === current) onValue(current);
        });
      }
      const s = sub;
      s.listeners.add(onValue);
      if (onError) s.errorListeners.add(onError);
      return () => {
        s.listeners.delete(onValue);
        if (onError) s.errorListeners.delete(onError);
        if (s.listeners.size === 0 && subs.get(key) === s) {
          subs.delete(key);
          if (socket.connected) socket.tell(kind.unsubscribe, kind.leave(key));
        }
      };
    },
    /** A pushed value for `key`. */
    push(key: string, value: T): void {
      const sub = subs.get(key);
      if (sub) deliver(sub, value);
    },
    /** Re-subscribe every key (after a (re)connect: `connectionLost` drops the acks of the old connection). */
    resyncAll(connectionLost = false): void {
      for (const sub of subs.values()) {
        if (connectionLost) sub.inFlight = false;
        resync(sub);
      }
    },
    clear(): void {
      subs.clear();
    },
  };
}
