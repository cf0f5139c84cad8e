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
 * - `record(req)` emits `record` with an acknowledgement and resolves with the server's `RecordAck`; it
 *   rejects with `Error('offline')` when the socket is not connected and `Error('timeout')` when no ack comes.
 * - Every `subscribe` and `record` names this build's PROTOCOL_VERSION. A server speaking another version
 *   refuses them with `protocol-mismatch` ("reload the page"): `watch` hands that to `onError`, `record`
 *   resolves with it (the outbox keeps the step for the reloaded page).
 * - While disconnected the last good feed stays with the page: nothing is cleared, nothing is retried on a
 *   timer (socket.io's own reconnection backoff is the only clock), so an idle page runs no timers.
 *
 * Browser bundles must stay zod-free: from shared/protocol only `import type`, and values only from the
 * zod-free wire.ts (never wire-schemas.ts, steps.ts or setup.ts).
 */
import { io, type Socket } from 'socket.io-client';
import type { ApiError } from '../../../shared/protocol/errors';
import type { MatchSetup } from '../../../shared/protocol/setup';
import type { MatchState } from '../../../shared/protocol/state';
import { applyStatsDelta } from '../../../shared/protocol/stats-delta';
import {
  PROTOCOL_VERSION,
  type ClientToServerEvents,
  type Detail,
  type MatchStats,
  type RecordAck,
  type RecordRequest,
  type ServerToClientEvents,
  type StatePush,
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

export interface LiveClient {
  /** Subscribe; calls onFeed with each newer snapshot in version order; resyncs (re-subscribe with sinceVersion) on a version gap, on reconnect and when the page becomes visible. Returns an unsubscribe function. `onError` hears a refused subscription (e.g. `not-found`, or `protocol-mismatch`: the page is from another build and must be reloaded). */
  watch(matchId: string, onFeed: (f: MatchFeed) => void, onError?: (e: ApiError) => void): () => void;
  /** Like `watch` for a page that shows the state only: the server sends no statistics (detail `scorebug`). */
  watchScorebug(matchId: string, onFeed: (f: ScorebugFeed) => void, onError?: (e: ApiError) => void): () => void;
  /** Emit `record` with an ack; resolves with the server's RecordAck; rejects with an Error whose message is 'offline' or 'timeout' when no ack comes. */
  record(req: Omit<RecordRequest, 'protocol'>, timeoutMs?: number): Promise<RecordAck>;
  readonly status: ConnectionStatus;
  onStatus(cb: (s: ConnectionStatus) => void): () => void;
  /**
   * Drop the connection (it may be dead without knowing it) and connect again now, skipping socket.io's
   * reconnection back-off. Records awaiting an ack on the old connection reject with 'offline'; subscriptions
   * resync on 'connect' as usual. No-op after close().
   */
  reconnect(): void;
  close(): void;
}

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

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
}

/** How long a subscribe waits for its ack before the next resync trigger may try again (ms). */
const SUBSCRIBE_TIMEOUT_MS = 5000;

/**
 * Open a live client. `url` defaults to the page's own origin; `token` (a scorer token) is sent as
 * Socket.IO `auth.token`. Only the WebSocket transport is used (no long-polling fallback).
 */
export function createClient(opts: { url?: string; token?: string } = {}): LiveClient {
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
        for (const cb of [...sub.errorListeners]) cb(ack.error);
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
    const stats = latest?.stats && msg.stats?.since === have ? applyStatsDelta(latest.stats, msg.stats) : null;
    if (stats) deliver(sub, { ...feed, stats });
    else resync(sub);
  };

  socket.on('state', onPush);
  socket.on('connect', () => {
    // Budget probe: the first-state paint is measured from here (see tests/pages/overlay-budget.test.ts).
    if (typeof performance !== 'undefined' && performance.getEntriesByName('cuecast:connect').length === 0) performance.mark('cuecast:connect');
    setStatus('live');
    for (const sub of subs.values()) {
      sub.inFlight = false; // acks of a dead connection never come
      resync(sub);
    }
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
  socket.on('connect_error', () => setStatus('offline'));

  /** Add a listener at `detail` to the match's subscription (creating it, or making it `full`). */
  function follow(matchId: string, detail: 'full', onFeed: (f: MatchFeed) => void, onError?: (e: ApiError) => void): () => void;
  function follow(matchId: string, detail: 'scorebug', onFeed: (f: ScorebugFeed) => void, onError?: (e: ApiError) => void): () => void;
  function follow(matchId: string, detail: Detail, onFeed: (f: MatchFeed) => void, onError?: (e: ApiError) => void): () => void {
    let sub = subs.get(matchId);
    const set = (s: Subscription) => (detail === 'full' ? s.listeners : s.scorebugListeners) as Set<(f: MatchFeed) => void>;
    if (!sub) {
      sub = { matchId, detail, listeners: new Set(), scorebugListeners: new Set(), errorListeners: new Set(), latest: null, setup: null, early: null, inFlight: false, again: false };
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
        if (socket.connected) socket.emit('unsubscribe', { matchId });
      }
    };
  }

  const onVisible = () => {
    if (document.visibilityState === 'visible') for (const sub of subs.values()) resync(sub);
  };
  const hasDocument = typeof document !== 'undefined';
  if (hasDocument) document.addEventListener('visibilitychange', onVisible);

  return {
    get status() {
      return status;
    },

    watch(matchId, onFeed, onError) {
      return follow(matchId, 'full', onFeed, onError);
    },

    watchScorebug(matchId, onFeed, onError) {
      return follow(matchId, 'scorebug', onFeed, onError);
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
          if (ack.ok) onPush({ matchId: ack.matchId, version: ack.version, state: ack.state, step: req.step, ...(ack.stats ? { stats: ack.stats } : {}) });
          else if (ack.error.code === 'stale') {
            const sub = subs.get(req.matchId);
            if (sub) resync(sub);
          }
          resolve(ack);
        });
      });
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
      if (hasDocument) document.removeEventListener('visibilitychange', onVisible);
      subs.clear();
      socket.removeAllListeners();
      socket.close();
      setStatus('offline');
    },
  };
}
