/**
 * Versioned room subscriptions of the live client beyond single matches: a table (`subscribeTable`, pushes
 * `table`) and an event (`subscribeEvent`, pushes `event` and `eventLive`), through `roomClient(client)`.
 * Per key, one subscription however many parts of the page watch it; values are handed out in strictly
 * increasing `version` order (older or equal pushes are dropped); every key is subscribed again on every
 * (re)connect and when the page becomes visible again; the last good value stays with the page while
 * disconnected. Only the pages that follow tables or events import this module (not the OBS overlay yet).
 */
import type { ApiError } from '../../../shared/protocol/errors';
import type { EventLivePush, EventView, LiveLine, TableState } from '../../../shared/protocol/event';
import { eventOfRoom, eventRoom, tableOfRoom, tableRoom } from '../../../shared/protocol/rooms';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';
import type { ClientSocket, LiveClient } from './client';

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
  };
}

/** The table and event subscriptions of one live client. */
export interface RoomClient {
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
}

const roomClients = new WeakMap<object, RoomClient>();

/** The table and event subscriptions over `client`'s connection (one set per client, made on first use). */
export function roomClient(client: Pick<LiveClient, 'socket' | 'onResync'>): RoomClient {
  let made = roomClients.get(client);
  if (!made) roomClients.set(client, (made = makeRoomClient(client)));
  return made;
}

function makeRoomClient(client: Pick<LiveClient, 'socket' | 'onResync'>): RoomClient {
  const socket: ClientSocket = client.socket;
  const rooms: RoomSocket = {
    get connected() {
      return socket.connected;
    },
    ask: (event, req, timeoutMs, done) => (socket.timeout(timeoutMs) as unknown as { emit(e: string, r: unknown, cb: typeof done): void }).emit(event, req, done),
    tell: (event, req) => (socket as unknown as { emit(e: string, r: unknown): void }).emit(event, req),
  };
  // Subscriptions are keyed by the server's room names (shared/protocol/rooms.ts).
  const split = (room: string) => {
    const [eventId, table] = tableOfRoom(room) ?? ['', ''];
    return { eventId, table };
  };
  const eventOf = (room: string) => eventOfRoom(room) ?? '';
  const tables = roomWatch<TableState>(rooms, {
    subscribe: 'subscribeTable',
    unsubscribe: 'unsubscribeTable',
    request: (key) => ({ protocol: PROTOCOL_VERSION, ...split(key) }),
    leave: split,
    fromAck: ({ ok: _ok, ...state }) => state as unknown as TableState,
  });
  const events = roomWatch<EventView>(rooms, {
    subscribe: 'subscribeEvent',
    unsubscribe: 'unsubscribeEvent',
    request: (room) => ({ protocol: PROTOCOL_VERSION, eventId: eventOf(room) }),
    leave: (room) => ({ eventId: eventOf(room) }),
    fromAck: (ack) => ack.event as EventView,
  });
  /** Live-line listeners per event, and the newest version handed out per match. */
  const liveListeners = new Map<string, Set<(l: LiveLine) => void>>();
  const liveVersions = new Map<string, number>();
  socket.on('table', (t: TableState) => tables.push(tableRoom(t.eventId, t.table), t));
  socket.on('event', (v: EventView) => events.push(eventRoom(v.id), v));
  socket.on('eventLive', ({ eventId, line }: EventLivePush) => {
    const listeners = liveListeners.get(eventId);
    if (!listeners || (liveVersions.get(line.matchId) ?? -1) >= line.version) return;
    liveVersions.set(line.matchId, line.version);
    for (const cb of [...listeners]) cb(line);
  });
  client.onResync((connectionLost) => {
    tables.resyncAll(connectionLost);
    events.resyncAll(connectionLost);
  });

  return {
    watchTable(eventId, table, onTable, onError) {
      return tables.watch(tableRoom(eventId, table), onTable, onError);
    },

    watchEvent(eventId, onEvent, onLive, onError) {
      let listeners = liveListeners.get(eventId);
      if (onLive) {
        if (!listeners) liveListeners.set(eventId, (listeners = new Set()));
        listeners.add(onLive);
      }
      const stop = events.watch(eventRoom(eventId), onEvent, onError);
      return () => {
        stop();
        if (onLive && listeners) {
          listeners.delete(onLive);
          if (listeners.size === 0) liveListeners.delete(eventId);
        }
      };
    },
  };
}
