/**
 * The one typed live client every page uses (overlay, dashboard, watch, scorer, launcher).
 *
 * - `watch(matchId, onFeed)` subscribes over Socket.IO and hands the page full snapshots in strictly
 *   increasing version order. Pushed states older than or equal to what the page has are dropped; a push
 *   that skips versions is applied (it is a full snapshot) and triggers a resync; the client also resyncs
 *   (re-subscribes with `sinceVersion`) on every (re)connect and when the page becomes visible again.
 * - Tables and events (`watchTable`, `watchEvent`) are an add-on, ./room-watch.ts `roomClient(client)`, over the
 *   client's `socket` and `onResync`, imported only by the pages that follow tables or events (so the OBS
 *   overlay's bundle does not carry it).
 * - `record(req)` emits `record` with an acknowledgement and resolves with the server's `RecordAck`; it
 *   rejects with `Error('offline')` when the socket is not connected and `Error('timeout')` when no ack comes.
 * - Every `subscribe` and `record` names this build's PROTOCOL_VERSION. A server speaking another version
 *   refuses them with `protocol-mismatch` ("reload the page"): `watch` hands that to `onError`, `record`
 *   resolves with it (the outbox keeps the step for the reloaded page).
 * - While disconnected the last good feed stays with the page: nothing is cleared, nothing is retried on a
 *   timer (socket.io's own reconnection backoff is the only clock), so an idle page runs no timers — except
 *   after the server refused the connection as full (`too-many-connections`, `server-full`), which socket.io
 *   does not retry: one timer then connects again after `retryRefusedMs` (5–15 s, random, so refused pages do
 *   not all come back at once). A page from a foreign origin (`origin-not-allowed`) stays offline.
 * - A subscription refused for a reason that passes by itself (`rate-limited`, `internal`: TRANSIENT_CODES of
 *   ./live-problem) is asked again after a back-off (2 s doubling to 30 s, ±20 % jitter so refused pages do
 *   not come back together), besides on every reconnect; `retry(matchId)` asks at once ("Retry now").
 *   Other refusals (`not-found`, `protocol-mismatch`) are asked again only on reconnect or visibility.
 *
 * Browser bundles must stay zod-free: from shared/protocol only `import type`, and values only from the
 * zod-free wire.ts (never wire-schemas.ts, steps.ts or setup.ts).
 */
import { io, type Socket } from 'socket.io-client';
import type { ApiError } from '../../../shared/protocol/errors';
import type { MatchSetup } from '../../../shared/protocol/setup';
import type { MatchState } from '../../../shared/protocol/state';
import { TRANSIENT_CODES } from './live-problem';
import {
  PROTOCOL_VERSION,
  type ClientToServerEvents,
  type MatchStats,
  type RecordAck,
  type RecordRequest,
  type ServerToClientEvents,
  type StatePush,
  type SubscribeAck,
  type SubscribeRequest,
} from '../../../shared/protocol/wire';

export type ConnectionStatus = 'connecting' | 'live' | 'offline';

/** One snapshot of a match as pages render it: set-up, state and derived stats at `version`. */
export interface MatchFeed {
  matchId: string;
  version: number;
  setup: MatchSetup;
  state: MatchState;
  stats: MatchStats;
}

export interface LiveClient {
  /** Subscribe; calls onFeed with each newer snapshot in version order; resyncs (re-subscribe with sinceVersion) on a version gap, on reconnect and when the page becomes visible. Returns an unsubscribe function. `onError` hears a refused subscription (e.g. `not-found`, or `protocol-mismatch`: the page is from another build and must be reloaded). */
  watch(matchId: string, onFeed: (f: MatchFeed) => void, onError?: (e: ApiError) => void): () => void;
  /** Emit `record` with an ack; resolves with the server's RecordAck; rejects with an Error whose message is 'offline' or 'timeout' when no ack comes. */
  record(req: Omit<RecordRequest, 'protocol'>, timeoutMs?: number): Promise<RecordAck>;
  /** Ask the server again now for a watched match whose subscription was refused or not answered ("Retry now"); no-op for a match not watched or while disconnected (the next connect asks). */
  retry(matchId: string): void;
  readonly status: ConnectionStatus;
  onStatus(cb: (s: ConnectionStatus) => void): () => void;
  /**
   * Drop the connection (it may be dead without knowing it) and connect again now, skipping socket.io's
   * reconnection back-off. Records awaiting an ack on the old connection reject with 'offline'; subscriptions
   * resync on 'connect' as usual. No-op after close().
   */
  reconnect(): void;
  close(): void;
  /** The connection, for add-on subscriptions (./room-watch.ts: tables and events); closed by close(). */
  readonly socket: ClientSocket;
  /**
   * For add-on subscriptions: `cb(connectionLost)` runs on every (re)connect (true: acks of the old connection
   * never come) and when the page becomes visible again (false), the moments `watch()` resyncs.
   */
  onResync(cb: (connectionLost: boolean) => void): void;
}

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Per-match subscription: listeners, the newest feed handed out, and a push that arrived before the set-up. */
interface Subscription {
  matchId: string;
  listeners: Set<(f: MatchFeed) => void>;
  errorListeners: Set<(e: ApiError) => void>;
  latest: MatchFeed | null;
  /** Set-up, known after the first subscribe ack. */
  setup: MatchSetup | null;
  /** Newest push received before the first ack (no set-up yet to make a feed). */
  early: StatePush | null;
  /** A subscribe request is in flight. */
  inFlight: boolean;
  /** Another resync was asked for while one was in flight. */
  again: boolean;
  /** Back-off of the next automatic retry after a transient refusal (ms; 0: none refused since the last ack). */
  retryMs: number;
  retryTimer: ReturnType<typeof setTimeout> | null;
}

/** How long a subscribe waits for its ack before the next resync trigger may try again (ms). */
const SUBSCRIBE_TIMEOUT_MS = 5000;
/** First and longest wait before asking again after a transient refusal (ms). */
const RETRY_FIRST_MS = 2000;
const RETRY_MAX_MS = 30_000;

const stopRetry = (sub: Subscription) => {
  if (sub.retryTimer !== null) clearTimeout(sub.retryTimer);
  sub.retryTimer = null;
};

/**
 * Open a live client. `url` defaults to the page's own origin; `token` (a scorer token) is sent as
 * Socket.IO `auth.token`. Only the WebSocket transport is used (no long-polling fallback).
 */
export function createClient(opts: { url?: string; token?: string; retryRefusedMs?: () => number } = {}): LiveClient {
  const options = { transports: ['websocket'], auth: opts.token ? { token: opts.token } : {} };
  const socket: ClientSocket = opts.url ? io(opts.url, options) : io(options);
  const subs = new Map<string, Subscription>();
  const statusListeners = new Set<(s: ConnectionStatus) => void>();
  let status: ConnectionStatus = 'connecting';
  let closed = false;

  const setStatus = (s: ConnectionStatus) => {
    if (s === status) return;
    status = s;
    for (const cb of [...statusListeners]) cb(s);
  };

  /** Hand a snapshot to the listeners if it is newer than what they have. */
  const deliver = (sub: Subscription, feed: MatchFeed) => {
    if (sub.latest && feed.version <= sub.latest.version) return;
    sub.latest = feed;
    for (const cb of [...sub.listeners]) cb(feed);
  };

  const resync = (sub: Subscription) => {
    if (closed || !socket.connected) return; // the next 'connect' resyncs
    if (sub.inFlight) {
      sub.again = true;
      return;
    }
    stopRetry(sub);
    sub.inFlight = true;
    sub.again = false;
    const req: SubscribeRequest = sub.latest
      ? { protocol: PROTOCOL_VERSION, matchId: sub.matchId, sinceVersion: sub.latest.version }
      : { protocol: PROTOCOL_VERSION, matchId: sub.matchId };
    socket.timeout(SUBSCRIBE_TIMEOUT_MS).emit('subscribe', req, (err: Error | null, ack: SubscribeAck) => {
      sub.inFlight = false;
      if (subs.get(sub.matchId) !== sub) return; // unsubscribed meanwhile
      if (err || !ack) {
        if (sub.again) resync(sub);
        return;
      }
      if (!ack.ok) {
        if (TRANSIENT_CODES.includes(ack.error.code)) retryLater(sub);
        for (const cb of [...sub.errorListeners]) cb(ack.error);
        if (sub.again) resync(sub); // a "Retry now" while this one was in flight
        return;
      }
      sub.retryMs = 0;
      sub.setup = ack.setup;
      deliver(sub, { matchId: ack.matchId, version: ack.version, setup: ack.setup, state: ack.state, stats: ack.stats });
      const early = sub.early;
      sub.early = null;
      if (early) onPush(early);
      if (sub.again) resync(sub);
    });
  };

  /** Ask again after the back-off (doubling, capped, jittered) while the match is still watched. */
  const retryLater = (sub: Subscription) => {
    sub.retryMs = sub.retryMs === 0 ? RETRY_FIRST_MS : Math.min(RETRY_MAX_MS, sub.retryMs * 2);
    stopRetry(sub);
    sub.retryTimer = setTimeout(() => {
      sub.retryTimer = null;
      if (subs.get(sub.matchId) === sub) resync(sub);
    }, sub.retryMs * (0.8 + Math.random() * 0.4));
  };

  const onPush = (msg: StatePush) => {
    const sub = subs.get(msg.matchId);
    if (!sub) return;
    if (!sub.setup) {
      if (!sub.early || msg.version > sub.early.version) sub.early = msg;
      return;
    }
    const have = sub.latest?.version ?? -1;
    if (msg.version <= have) return;
    const gap = sub.latest !== null && msg.version > have + 1;
    deliver(sub, { matchId: msg.matchId, version: msg.version, setup: sub.setup, state: msg.state, stats: msg.stats });
    if (gap) resync(sub);
  };

  socket.on('state', onPush);

  const resyncListeners = new Set<(connectionLost: boolean) => void>();
  socket.on('connect', () => {
    // Budget probe: the first-state paint is measured from here (see tests/pages/overlay-budget.test.ts).
    if (typeof performance !== 'undefined' && performance.getEntriesByName('cuecast:connect').length === 0) performance.mark('cuecast:connect');
    setStatus('live');
    for (const sub of subs.values()) {
      sub.inFlight = false; // acks of a dead connection never come
      resync(sub);
    }
    for (const cb of [...resyncListeners]) cb(true);
  });
  socket.on('disconnect', (reason) => {
    setStatus('offline');
    if (reason === 'io server disconnect' && !closed) {
      // socket.io does not reconnect by itself after the server closed the connection on purpose
      // (a graceful shutdown before a restart): ask once; the manager's backoff takes over from there.
      setTimeout(() => {
        if (!closed && !socket.connected) socket.connect();
      }, 1000);
    }
  });
  const retryRefusedMs = opts.retryRefusedMs ?? (() => 5000 + Math.random() * 10_000);
  let retry: ReturnType<typeof setTimeout> | undefined;
  socket.on('connect_error', (err: Error & { data?: Partial<ApiError> }) => {
    setStatus('offline');
    const code = err.data?.code;
    if ((code === 'too-many-connections' || code === 'server-full') && !closed && retry === undefined) {
      retry = setTimeout(() => {
        retry = undefined;
        if (!closed && !socket.connected && !socket.active) socket.connect();
      }, retryRefusedMs());
    }
  });

  const onVisible = () => {
    if (document.visibilityState !== 'visible') return;
    for (const sub of subs.values()) resync(sub);
    for (const cb of [...resyncListeners]) cb(false);
  };
  const hasDocument = typeof document !== 'undefined';
  if (hasDocument) document.addEventListener('visibilitychange', onVisible);

  return {
    get status() {
      return status;
    },

    socket,

    onResync(cb) {
      resyncListeners.add(cb);
    },

    watch(matchId, onFeed, onError) {
      let sub = subs.get(matchId);
      if (!sub) {
        sub = { matchId, listeners: new Set(), errorListeners: new Set(), latest: null, setup: null, early: null, inFlight: false, again: false, retryMs: 0, retryTimer: null };
        subs.set(matchId, sub);
        resync(sub);
      } else if (sub.latest) {
        // A second page part watching the same match boots straight into the current state.
        const current = sub.latest;
        queueMicrotask(() => {
          if (sub!.listeners.has(onFeed) && sub!.latest === current) onFeed(current);
        });
      }
      const s = sub;
      s.listeners.add(onFeed);
      if (onError) s.errorListeners.add(onError);
      return () => {
        s.listeners.delete(onFeed);
        if (onError) s.errorListeners.delete(onError);
        if (s.listeners.size === 0 && subs.get(matchId) === s) {
          subs.delete(matchId);
          stopRetry(s);
          if (socket.connected) socket.emit('unsubscribe', { matchId });
        }
      };
    },

    record(req, timeoutMs = 5000) {
      return new Promise<RecordAck>((resolve, reject) => {
        if (closed || !socket.connected) {
          reject(new Error('offline'));
          return;
        }
        const body: RecordRequest = { protocol: PROTOCOL_VERSION, matchId: req.matchId, eventId: req.eventId, step: req.step };
        if (req.expectedVersion !== undefined) body.expectedVersion = req.expectedVersion;
        socket.timeout(timeoutMs).emit('record', body, (err: Error | null, ack: RecordAck) => {
          if (err) {
            reject(new Error(socket.connected ? 'timeout' : 'offline'));
            return;
          }
          if (ack.ok) onPush({ matchId: ack.matchId, version: ack.version, state: ack.state, stats: ack.stats, step: req.step });
          else if (ack.error.code === 'stale') {
            const sub = subs.get(req.matchId);
            if (sub) resync(sub);
          }
          resolve(ack);
        });
      });
    },

    retry(matchId) {
      const sub = subs.get(matchId);
      if (sub) resync(sub);
    },

    onStatus(cb) {
      statusListeners.add(cb);
      return () => statusListeners.delete(cb);
    },

    reconnect() {
      if (closed) return;
      socket.disconnect(); // ends a dead-but-open connection or a pending back-off; pending acks fail at once
      socket.connect();
    },

    close() {
      closed = true;
      clearTimeout(retry);
      if (hasDocument) document.removeEventListener('visibilitychange', onVisible);
      for (const sub of subs.values()) stopRetry(sub);
      subs.clear();
      resyncListeners.clear();
      socket.removeAllListeners();
      socket.close();
      setStatus('offline');
    },
  };
}
