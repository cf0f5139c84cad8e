/**
 * The one typed live client every page uses (overlay, dashboard, watch, scorer, launcher).
 *
 * - `watch(matchId, onFeed)` subscribes over Socket.IO (detail `full`) and hands the page whole snapshots
 *   (state and statistics) in strictly increasing version order. The subscribe ack carries the whole
 *   statistics; each push carries only what changed since the version before (`StatsDelta`), which the
 *   client applies to the statistics it holds — only when the push is exactly the next version. Pushes older
 *   than or equal to what the page has are dropped; one that skips versions triggers a resync
 *   (re-subscribe with `sinceVersion`), as does every (re)connect and the page becoming visible again.
 * - `watchScorebug(matchId, onFeed)` is the same for pages that show the state only (the OBS overlay, match
 *   lists): detail `scorebug`, so the server never sends them the statistics; every push is a whole state,
 *   so one that skips versions is simply shown. A match watched both ways is subscribed `full`.
 * - `createClient()` opens a client with both, and `record`, `retry`, `reconnect`, `close` and the add-ons'
 *   `socket` and `onResync`; `createScorebugClient()` one with `watchScorebug` and the status only (the OBS
 *   overlay), so its bundle leaves out the code that applies statistics deltas (shared/protocol/stats-delta.ts)
 *   and the rest of `createClient`'s part (`liveExtras`).
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
 * zod-free wire.ts and stats-delta.ts (never wire-schemas.ts, steps.ts or setup.ts).
 */
import { io, type Socket } from 'socket.io-client';
import type { ApiError } from '../../../shared/protocol/errors';
import type { MatchSetup } from '../../../shared/protocol/setup';
import type { MatchState } from '../../../shared/protocol/state';
import { applyStatsDelta } from '../../../shared/protocol/stats-delta';
import { TRANSIENT_CODES } from './live-problem';
import {
  PROTOCOL_VERSION,
  type ClientToServerEvents,
  type Detail,
  type MatchStats,
  type RecordAck,
  type RecordRequest,
  type ServerToClientEvents,
  type StatePush,
  type StatsDelta,
  type SubscribeAck,
  type SubscribeRequest,
} from '../../../shared/protocol/wire';

export type ConnectionStatus = 'connecting' | 'live' | 'offline';

/** One snapshot of a match for a page that shows the state only: set-up and state at `version`. */
export interface ScorebugFeed {
  matchId: string;
  version: number;
  setup: MatchSetup;
  state: MatchState;
}

/** One snapshot of a match as pages render it: set-up, state and derived stats at `version`. */
export interface MatchFeed extends ScorebugFeed {
  stats: MatchStats;
}

/**
 * A live client for the state only (`createScorebugClient`, the OBS overlay): the connection status and
 * `watchScorebug`. Its subscriptions behave as `createClient`'s (resync on every connect and on visibility,
 * back-off retries after a transient refusal, a fresh connect after a refusal as full).
 */
export interface ScorebugClient {
  /**
   * Subscribe to the state only (detail `scorebug`: the server sends no statistics); calls onFeed with each
   * newer state in version order; resyncs on reconnect and when the page becomes visible. Returns an
   * unsubscribe function. `onError` hears a refused subscription (e.g. `not-found`, or `protocol-mismatch`:
   * the page is from another build and must be reloaded).
   */
  watchScorebug(matchId: string, onFeed: (f: ScorebugFeed) => void, onError?: (e: ApiError) => void): () => void;
  readonly status: ConnectionStatus;
  onStatus(cb: (s: ConnectionStatus) => void): () => void;
}

/** The whole live client (`createClient`): the scorebug client plus statistics, recording and control. */
export interface LiveClient extends ScorebugClient {
  /** Subscribe with the statistics (detail `full`); like `watchScorebug`, and also resyncs on a version gap (the statistics move on by deltas). */
  watch(matchId: string, onFeed: (f: MatchFeed) => void, onError?: (e: ApiError) => void): () => void;
  /** Emit `record` with an ack; resolves with the server's RecordAck; rejects with an Error whose message is 'offline' or 'timeout' when no ack comes. */
  record(req: Omit<RecordRequest, 'protocol'>, timeoutMs?: number): Promise<RecordAck>;
  /** Ask the server again now for a watched match whose subscription was refused or not answered ("Retry now"); no-op for a match not watched or while disconnected (the next connect asks). */
  retry(matchId: string): void;
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

/** Options of a live client. */
export interface ClientOptions {
  /** Server URL; default the page's own origin. */
  url?: string;
  /** Scorer token, sent as Socket.IO `auth.token`. */
  token?: string;
  /** Wait before connecting again after the server refused the connection as full (ms); default 5–15 s, random. */
  retryRefusedMs?: () => number;
}

/** How a push's statistics delta is applied (`applyStatsDelta`; null: the delta does not fit, resync). */
type DeltaApplier = (stats: MatchStats, delta: StatsDelta) => MatchStats | null;

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Per-match subscription: listeners, the newest feed handed out, and a push that arrived before the set-up. */
interface Subscription {
  matchId: string;
  /** `full` when any listener wants the statistics. */
  detail: Detail;
  listeners: Set<(f: MatchFeed) => void>;
  scorebugListeners: Set<(f: ScorebugFeed) => void>;
  errorListeners: Set<(e: ApiError) => void>;
  /** The newest feed (with statistics when the subscription is `full`). */
  latest: (ScorebugFeed & { stats?: MatchStats }) | null;
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
 * Open a live client with `watch` and `watchScorebug`. Only the WebSocket transport is used (no long-polling
 * fallback).
 */
export function createClient(opts: ClientOptions = {}): LiveClient {
  return openClient(opts, applyStatsDelta, liveExtras);
}

/**
 * Open a live client for the state only (`watchScorebug`, status): a page that uses only this (the OBS overlay)
 * leaves the statistics-delta code and everything `createClient` adds ({@link liveExtras}) out of its bundle.
 */
export function createScorebugClient(opts: ClientOptions = {}): ScorebugClient {
  return openClient(opts, null, null);
}

/** The insides of an open client that {@link liveExtras} builds `createClient`'s part on. */
interface ClientCore {
  socket: ClientSocket;
  subs: Map<string, Subscription>;
  resyncListeners: Set<(connectionLost: boolean) => void>;
  /** True once `shut()` ran (`close()`). */
  readonly closed: boolean;
  resync(sub: Subscription): void;
  onPush(msg: StatePush): void;
  follow(matchId: string, detail: 'full', onFeed: (f: MatchFeed) => void, onError?: (e: ApiError) => void): () => void;
  /** Mark the client closed: no more retries, reconnects or visibility resyncs. */
  shut(): void;
  setStatus(s: ConnectionStatus): void;
}

/** What `createClient` adds to the scorebug client: statistics, recording, retry now, reconnect, close, add-ons. */
type LiveExtras = Omit<LiveClient, keyof ScorebugClient>;

/**
 * A live client; `extras` null (and `applyDelta` null with it): the scorebug client, without `watch` (so no
 * subscription is ever `full`), `record`, `retry`, `reconnect`, `close`, `socket` or `onResync`.
 */
function openClient(opts: ClientOptions, applyDelta: DeltaApplier, extras: (core: ClientCore) => LiveExtras): LiveClient;
function openClient(opts: ClientOptions, applyDelta: null, extras: null): ScorebugClient;
function openClient(opts: ClientOptions, applyDelta: DeltaApplier | null, extras: ((core: ClientCore) => LiveExtras) | null): ScorebugClient {
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

  /**
   * Hand a snapshot to the listeners if it is newer than what they have (or the same version with the
   * statistics the held one lacks: a subscription that became `full`).
   */
  const deliver = (sub: Subscription, feed: ScorebugFeed & { stats?: MatchStats }) => {
    const had = sub.latest;
    if (had && (feed.version < had.version || (feed.version === had.version && (had.stats || !feed.stats)))) return;
    sub.latest = feed;
    if (feed.stats) for (const cb of [...sub.listeners]) cb(feed as MatchFeed);
    if (!had || feed.version > had.version) for (const cb of [...sub.scorebugListeners]) cb(feed);
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
      ? { protocol: PROTOCOL_VERSION, matchId: sub.matchId, sinceVersion: sub.latest.version, detail: sub.detail }
      : { protocol: PROTOCOL_VERSION, matchId: sub.matchId, detail: sub.detail };
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
      if ('unchanged' in ack) {
        // In the room already and at the latest version: the pushes keep the feed current.
        if (ack.detail !== sub.detail) sub.again = true;
        if (sub.again) resync(sub);
        return;
      }
      sub.setup = ack.setup;
      const feed: ScorebugFeed = { matchId: ack.matchId, version: ack.version, setup: ack.setup, state: ack.state };
      deliver(sub, ack.detail === 'full' ? { ...feed, stats: ack.stats } : feed);
      const early = sub.early;
      sub.early = null;
      if (early) onPush(early);
      if (ack.detail !== sub.detail) sub.again = true; // the detail changed while this subscribe was in flight
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
    const latest = sub.latest;
    const have = latest?.version ?? -1;
    if (msg.version <= have) return;
    const feed: ScorebugFeed = { matchId: msg.matchId, version: msg.version, setup: sub.setup, state: msg.state };
    if (sub.detail === 'scorebug') {
      deliver(sub, feed); // a whole state: nothing to catch up
      return;
    }
    // The statistics move on only from exactly the version before; anything else resyncs.
    const stats = applyDelta && latest?.stats && msg.stats?.since === have ? applyDelta(latest.stats, msg.stats) : null;
    if (stats) deliver(sub, { ...feed, stats });
    else resync(sub);
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

  /** Add a listener at `detail` to the match's subscription (creating it, or making it `full`). */
  function follow(matchId: string, detail: 'full', onFeed: (f: MatchFeed) => void, onError?: (e: ApiError) => void): () => void;
  function follow(matchId: string, detail: 'scorebug', onFeed: (f: ScorebugFeed) => void, onError?: (e: ApiError) => void): () => void;
  function follow(matchId: string, detail: Detail, onFeed: (f: MatchFeed) => void, onError?: (e: ApiError) => void): () => void {
    let sub = subs.get(matchId);
    const set = (s: Subscription) => (detail === 'full' ? s.listeners : s.scorebugListeners) as Set<(f: MatchFeed) => void>;
    if (!sub) {
      sub = { matchId, detail, listeners: new Set(), scorebugListeners: new Set(), errorListeners: new Set(), latest: null, setup: null, early: null, inFlight: false, again: false, retryMs: 0, retryTimer: null };
      subs.set(matchId, sub);
      set(sub).add(onFeed);
      resync(sub);
    } else {
      set(sub).add(onFeed);
      if (detail === 'full' && sub.detail === 'scorebug') {
        sub.detail = 'full'; // the statistics come with the next subscribe ack
        resync(sub);
      } else if (sub.latest && (detail === 'scorebug' || sub.latest.stats)) {
        // A second page part watching the same match boots straight into the current state.
        const current = sub.latest;
        const s = sub;
        queueMicrotask(() => {
          if (set(s).has(onFeed) && s.latest === current) onFeed(current as MatchFeed);
        });
      }
    }
    const s = sub;
    if (onError) s.errorListeners.add(onError);
    return () => {
      set(s).delete(onFeed);
      if (onError) s.errorListeners.delete(onError);
      if (s.listeners.size === 0 && s.scorebugListeners.size === 0 && subs.get(matchId) === s) {
        subs.delete(matchId);
        stopRetry(s);
        if (socket.connected) socket.emit('unsubscribe', { matchId });
      }
    };
  }

  const onVisible = () => {
    if (document.visibilityState !== 'visible') return;
    for (const sub of subs.values()) resync(sub);
    for (const cb of [...resyncListeners]) cb(false);
  };
  const hasDocument = typeof document !== 'undefined';
  if (hasDocument) document.addEventListener('visibilitychange', onVisible);

  const client: ScorebugClient = {
    get status() {
      return status;
    },

    watchScorebug(matchId, onFeed, onError) {
      return follow(matchId, 'scorebug', onFeed, onError);
    },

    onStatus(cb) {
      statusListeners.add(cb);
      return () => statusListeners.delete(cb);
    },
  };
  if (!extras) return client; // createScorebugClient
  return Object.assign(client, extras({
    socket,
    subs,
    resyncListeners,
    get closed() {
      return closed;
    },
    resync,
    onPush,
    follow,
    shut() {
      closed = true;
      clearTimeout(retry);
      if (hasDocument) document.removeEventListener('visibilitychange', onVisible);
    },
    setStatus,
  }));
}

/**
 * `createClient`'s part over the core of an open client: `watch` (statistics), `record`, `retry` (now),
 * `reconnect`, `close`, and the `socket` and `onResync` of the add-on subscriptions (./room-watch.ts).
 */
function liveExtras(core: ClientCore): LiveExtras {
  const { socket, subs, resync } = core;
  return {
    socket,

    onResync(cb) {
      core.resyncListeners.add(cb);
    },

    watch(matchId, onFeed, onError) {
      return core.follow(matchId, 'full', onFeed, onError);
    },

    record(req, timeoutMs = 5000) {
      return new Promise<RecordAck>((resolve, reject) => {
        if (core.closed || !socket.connected) {
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
          if (ack.ok) core.onPush({ matchId: ack.matchId, version: ack.version, state: ack.state, step: req.step, ...(ack.stats ? { stats: ack.stats } : {}) });
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

    reconnect() {
      if (core.closed) return;
      socket.disconnect(); // ends a dead-but-open connection or a pending back-off; pending acks fail at once
      socket.connect();
    },

    close() {
      core.shut();
      for (const sub of subs.values()) stopRetry(sub);
      subs.clear();
      core.resyncListeners.clear();
      socket.removeAllListeners();
      socket.close();
      core.setStatus('offline');
    },
  };
}
