/**
 * The live client every page uses (scorer, dashboard, watch, organiser, the OBS overlays), built from one core:
 * a Socket.IO socket as the typed port (./live-port.ts), its connection (./live-connection.ts: status, resync on
 * every (re)connect and on visibility), and versioned subscriptions (./live-subscriptions.ts) for matches
 * (./live-matches.ts) and, through `roomClient(client)`, tables and events (./live-rooms.ts).
 * - `createClient()`: `watch` (state and statistics), `watchScorebug` (state only), `record`, `retry`,
 *   `reconnect`, `close`, and the `connection` the table and event subscriptions share; the shot clock
 *   (./live-clock.ts): `watchShotClock`, `serverTime`, `pressClock`.
 * - `createScorebugClient()`: `watchScorebug`, `watchShotClock`, `serverTime` and the status only (the OBS overlay), so its bundle leaves out
 *   the statistics deltas (shared/protocol/stats-delta.ts), recording and the rest.
 * - `record(req)` emits `record` with an acknowledgement and resolves with the server's `RecordAck` (its state
 *   goes to the match's watchers at once; a `stale` refusal resyncs the match); it rejects with
 *   `Error('offline')` when the socket is not connected and `Error('timeout')` when no ack comes.
 * - Every `subscribe` and `record` names this build's PROTOCOL_VERSION. A server speaking another version
 *   refuses them with `protocol-mismatch` ("reload the page"): `watch` hands that to `onError`, `record`
 *   resolves with it (the outbox keeps the step for the reloaded page).
 *
 * Browser bundles must stay zod-free: nothing from server/ (its protocol/*-schemas.ts pull in zod); all of
 * shared/ is zod-free (tests/protocol/shared-pure.test.ts), and tests/pages/no-zod.test.ts checks the built pages.
 */
import { io, type Socket } from 'socket.io-client';
import type { ApiError } from '../../../shared/protocol/errors';
import { applyStatsDelta } from '../../../shared/protocol/stats-delta';
import { PROTOCOL_VERSION, type ClientToServerEvents, type RecordAck, type RecordRequest, type ServerToClientEvents } from '../../../shared/protocol/wire';
import type { ShotClockAck } from '../../../shared/protocol/shot-clock';
import type { ShotClockAction, ShotClockView } from '../../../shared/shot-clock';
import { clockSubscriptions, pressClock, watchShotClock, type ServerTime } from './live-clock';
import { openConnection, type Connection, type ConnectionOptions } from './live-connection';
import { followStats, matchSubscriptions, watchFull, watchScorebug, type MatchFeed, type MatchSubscriptions, type ScorebugFeed } from './live-matches';
import type { ConnectionStatus, LivePort } from './live-port';

export type { ConnectionStatus } from './live-port';
export type { MatchFeed, ScorebugFeed } from './live-matches';

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
  /**
   * Watch match `matchId`'s shot clock (./live-clock.ts): `onClock` hears it (null: the match has none) at every
   * change; also watches the match's state. Draw it with `tickShotClock(clock, client.serverTime, …)`.
   */
  watchShotClock(matchId: string, onClock: (clock: ShotClockView | null) => void, onError?: (e: ApiError) => void): () => void;
  /** The server's time as this page estimates it (measured over the socket on every connect). */
  readonly serverTime: ServerTime;
  readonly status: ConnectionStatus;
  onStatus(cb: (s: ConnectionStatus) => void): () => void;
}

/** The whole live client (`createClient`): the scorebug client plus statistics, recording and control. */
export interface LiveClient extends ScorebugClient {
  /** Subscribe with the statistics (detail `full`); like `watchScorebug`, and also resyncs on a version gap (the statistics move on by deltas). */
  watch(matchId: string, onFeed: (f: MatchFeed) => void, onError?: (e: ApiError) => void): () => void;
  /** Emit `record` with an ack; resolves with the server's RecordAck; rejects with an Error whose message is 'offline' or 'timeout' when no ack comes. */
  record(req: Omit<RecordRequest, 'protocol'>, timeoutMs?: number): Promise<RecordAck>;
  /**
   * Press `action` on match `matchId`'s shot clock (the connection's scorer token), meant for clock period
   * `period` (`ShotClockView.shot`); resolves with the server's answer; rejects with Error('offline'|'timeout').
   */
  pressClock(matchId: string, action: ShotClockAction, period?: number, timeoutMs?: number): Promise<ShotClockAck>;
  /** Ask the server again now for a watched match whose subscription was refused or not answered ("Retry now"); no-op for a match not watched or while disconnected (the next connect asks). */
  retry(matchId: string): void;
  /**
   * Drop the connection (it may be dead without knowing it) and connect again now, skipping socket.io's
   * reconnection back-off. Records awaiting an ack on the old connection reject with 'offline'; subscriptions
   * resync on 'connect' as usual. No-op after close().
   */
  reconnect(): void;
  close(): void;
  /** The connection, for the table and event subscriptions (./live-rooms.ts `roomClient`); closed by close(). */
  readonly connection: Connection;
}

/** Options of a live client. */
export interface ClientOptions extends ConnectionOptions {
  /** Server URL; default the page's own origin. */
  url?: string;
  /** Scorer token, sent as Socket.IO `auth.token`. */
  token?: string;
}

/** A Socket.IO socket to the server (WebSocket only, no long-polling fallback), as the live client's port. */
function openPort(opts: ClientOptions): LivePort {
  const options = { transports: ['websocket'], auth: opts.token ? { token: opts.token } : {} };
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(opts.url, options); // no url: the page's own origin
  return socket;
}

/** Open a live client for the state only: a page that uses only this (the OBS overlay) carries no statistics or recording code. */
export function createScorebugClient(opts: ClientOptions = {}): ScorebugClient {
  const connection = openConnection(openPort(opts), opts);
  const matches = matchSubscriptions(connection);
  const clocks = clockSubscriptions(connection);
  return {
    get status() {
      return connection.status;
    },
    onStatus: connection.onStatus,
    watchScorebug: (matchId, onFeed, onError) => watchScorebug(matches, matchId, onFeed, onError),
    watchShotClock: (matchId, onClock, onError) => watchShotClock(matches, clocks, matchId, onClock, onError),
    serverTime: clocks.time,
  };
}

/** Open the whole live client (`watch` with statistics, `record`, control). */
export function createClient(opts: ClientOptions = {}): LiveClient {
  const connection = openConnection(openPort(opts), opts);
  const matches = matchSubscriptions(connection, followStats(applyStatsDelta));
  const clocks = clockSubscriptions(connection);
  return {
    connection,
    serverTime: clocks.time,
    watchShotClock: (matchId, onClock, onError) => watchShotClock(matches, clocks, matchId, onClock, onError),
    pressClock: (matchId, action, period, timeoutMs) => pressClock(connection, clocks, matchId, action, period, timeoutMs),
    get status() {
      return connection.status;
    },
    onStatus: connection.onStatus,
    watchScorebug: (matchId, onFeed, onError) => watchScorebug(matches, matchId, onFeed, onError),
    watch: (matchId, onFeed, onError) => watchFull(matches, matchId, onFeed, onError),
    record: (req, timeoutMs = 5000) => record(connection, matches, req, timeoutMs),
    retry: (matchId) => matches.subs.resync(matchId),
    reconnect() {
      if (connection.closed) return;
      connection.port.disconnect(); // ends a dead-but-open connection or a pending back-off; pending acks fail at once
      connection.port.connect();
    },
    close: () => connection.close(),
  };
}

/** `LiveClient.record`: the state of an ok ack goes to the match's watchers; a `stale` refusal resyncs the match. */
function record(connection: Connection, matches: MatchSubscriptions, req: Omit<RecordRequest, 'protocol'>, timeoutMs: number): Promise<RecordAck> {
  return new Promise<RecordAck>((resolve, reject) => {
    const port = connection.port;
    if (!port.connected) {
      reject(new Error('offline'));
      return;
    }
    const body: RecordRequest = { protocol: PROTOCOL_VERSION, matchId: req.matchId, stepId: req.stepId, step: req.step };
    if (req.expectedVersion !== undefined) body.expectedVersion = req.expectedVersion;
    port.timeout(timeoutMs).emit('record', body, (err, ack) => {
      if (err || !ack) {
        reject(new Error(port.connected ? 'timeout' : 'offline'));
        return;
      }
      if (ack.ok) matches.subs.push(req.matchId, { matchId: ack.matchId, version: ack.version, state: ack.state, ...(ack.stats ? { stats: ack.stats } : {}) });
      else if (ack.error.code === 'stale') matches.subs.resync(req.matchId);
      resolve(ack);
    });
  });
}
