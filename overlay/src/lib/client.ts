/**
 * The one typed live client every page uses (overlay, dashboard, watch, scorer, launcher).
 *
 * - `watch(matchId, onFeed)` subscribes over Socket.IO and hands the page full snapshots in strictly
 *   increasing version order. Pushed states older than or equal to what the page has are dropped; a push
 *   that skips versions is applied (it is a full snapshot) and triggers a resync; the client also resyncs
 *   (re-subscribes with `sinceVersion`) on every (re)connect and when the page becomes visible again.
 * - `watchTable(eventId, table, onTable)` follows a table of an event (its current and next match, the event's
 *   name and theme preset, the cards) and `watchEvent(eventId, onEvent, onLive)` a whole event (the
 *   organiser's page), with the same ordering and resync rules (overlay/src/lib/room-watch.ts); a
 *   table-following page `watch()`es the table's current match and switches when it changes.
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
import type { EventLivePush, EventView, LiveLine, TableState } from '../../../shared/protocol/event';
import type { MatchState } from '../../../shared/protocol/state';
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
import { roomWatch, type RoomSocket } from './room-watch';

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
  /**
   * Follow table `table` of event `eventId`: `onTable` hears its state (current and next match, event name,
   * theme preset, cards) now and after every change, in version order; resyncs on reconnect and when the
   * page becomes visible. `onError` hears a refused subscription (`not-found` naming `eventId` or `table`,
   * `protocol-mismatch`). Returns the function that stops following.
   */
  watchTable(eventId: string, table: string, onTable: (t: TableState) => void, onError?: (e: ApiError) => void): () => void;
  /**
   * Follow event `eventId` (the organiser's page): `onEvent` hears the whole event (tables, roster, matches
   * with their live lines) now and after every change; `onLive` each recorded step's live line of one of
   * its matches (newer versions only). Same resync rules as `watchTable`.
   */
  watchEvent(eventId: string, onEvent: (e: EventView) => void, onLive?: (l: LiveLine) => void, onError?: (e: ApiError) => void): () => void;
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
        for (const cb of [...sub.errorListeners]) cb(ack.error);
        return;
      }
      sub.setup = ack.setup;
      deliver(sub, { matchId: ack.matchId, version: ack.version, setup: ack.setup, state: ack.state, stats: ack.stats });
      const early = sub.early;
      sub.early = null;
      if (early) onPush(early);
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
    const have = sub.latest?.version ?? -1;
    if (msg.version <= have) return;
    const gap = sub.latest !== null && msg.version > have + 1;
    deliver(sub, { matchId: msg.matchId, version: msg.version, setup: sub.setup, state: msg.state, stats: msg.stats });
    if (gap) resync(sub);
  };

  socket.on('state', onPush);

  const rooms: RoomSocket = {
    get connected() {
      return !closed && socket.connected;
    },
    ask: (event, req, timeoutMs, done) => (socket.timeout(timeoutMs) as unknown as { emit(e: string, r: unknown, cb: typeof done): void }).emit(event, req, done),
    tell: (event, req) => (socket as unknown as { emit(e: string, r: unknown): void }).emit(event, req),
  };
  const tables = roomWatch<TableState>(rooms, {
    subscribe: 'subscribeTable',
    unsubscribe: 'unsubscribeTable',
    request: (key) => ({ protocol: PROTOCOL_VERSION, eventId: key.slice(0, key.indexOf('/')), table: key.slice(key.indexOf('/') + 1) }),
    leave: (key) => ({ eventId: key.slice(0, key.indexOf('/')), table: key.slice(key.indexOf('/') + 1) }),
    fromAck: ({ ok: _ok, ...state }) => state as unknown as TableState,
  });
  const events = roomWatch<EventView>(rooms, {
    subscribe: 'subscribeEvent',
    unsubscribe: 'unsubscribeEvent',
    request: (eventId) => ({ protocol: PROTOCOL_VERSION, eventId }),
    leave: (eventId) => ({ eventId }),
    fromAck: (ack) => ack.event as EventView,
  });
  /** Live-line listeners per event, and the newest version handed out per match. */
  const liveListeners = new Map<string, Set<(l: LiveLine) => void>>();
  const liveVersions = new Map<string, number>();
  socket.on('table', (t: TableState) => tables.push(`${t.eventId}/${t.table}`, t));
  socket.on('event', (v: EventView) => events.push(v.id, v));
  socket.on('eventLive', ({ eventId, line }: EventLivePush) => {
    const listeners = liveListeners.get(eventId);
    if (!listeners || (liveVersions.get(line.matchId) ?? -1) >= line.version) return;
    liveVersions.set(line.matchId, line.version);
    for (const cb of [...listeners]) cb(line);
  });

  socket.on('connect', () => {
    // Budget probe: the first-state paint is measured from here (see tests/pages/overlay-budget.test.ts).
    if (typeof performance !== 'undefined' && performance.getEntriesByName('cuecast:connect').length === 0) performance.mark('cuecast:connect');
    setStatus('live');
    for (const sub of subs.values()) {
      sub.inFlight = false; // acks of a dead connection never come
      resync(sub);
    }
    tables.resyncAll(true);
    events.resyncAll(true);
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

  const onVisible = () => {
    if (document.visibilityState !== 'visible') return;
    for (const sub of subs.values()) resync(sub);
    tables.resyncAll();
    events.resyncAll();
  };
  const hasDocument = typeof document !== 'undefined';
  if (hasDocument) document.addEventListener('visibilitychange', onVisible);

  return {
    get status() {
      return status;
    },

    watch(matchId, onFeed, onError) {
      let sub = subs.get(matchId);
      if (!sub) {
        sub = { matchId, listeners: new Set(), errorListeners: new Set(), latest: null, setup: null, early: null, inFlight: false, again: false };
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
          if (socket.connected) socket.emit('unsubscribe', { matchId });
        }
      };
    },

    watchTable(eventId, table, onTable, onError) {
      return tables.watch(`${eventId}/${table}`, onTable, onError);
    },

    watchEvent(eventId, onEvent, onLive, onError) {
      let listeners = liveListeners.get(eventId);
      if (onLive) {
        if (!listeners) liveListeners.set(eventId, (listeners = new Set()));
        listeners.add(onLive);
      }
      const stop = events.watch(eventId, onEvent, onError);
      return () => {
        stop();
        if (onLive && listeners) {
          listeners.delete(onLive);
          if (listeners.size === 0) liveListeners.delete(eventId);
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
      tables.clear();
      events.clear();
      liveListeners.clear();
      socket.removeAllListeners();
      socket.close();
      setStatus('offline');
    },
  };
}
