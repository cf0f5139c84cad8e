/**
 * Table and event subscriptions of a live client (`roomClient(client)`), over the same core as matches
 * (./live-subscriptions.ts: newer versions only, resync on every (re)connect and when the page becomes
 * visible, back-off retries after a transient refusal, the last good value kept while disconnected):
 * a table (`subscribeTable`, pushes `table`) and an event (`subscribeEvent`, pushes `event`, and `eventLive`:
 * each recorded step's live line of one of its matches). Tables and events are pushed whole, so a push that
 * skips versions (an event's version grows with gaps) is simply shown. Only the pages that follow tables or
 * events import this module (not the one-match OBS overlay).
 */
import type { ApiError } from '../../../shared/protocol/errors';
import type { EventView, LiveLine, SubscribeTableAck, TableState } from '../../../shared/protocol/event';
import { tableOfRoom, tableRoom } from '../../../shared/protocol/rooms';
import { PROTOCOL_VERSION } from '../../../shared/protocol/wire';
import type { Connection } from './live-connection';
import { SUBSCRIBE_TIMEOUT_MS, subscriptions } from './live-subscriptions';

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
   * its matches (newer versions of that match only). Same resync rules as `watchTable`.
   */
  watchEvent(eventId: string, onEvent: (e: EventView) => void, onLive?: (l: LiveLine) => void, onError?: (e: ApiError) => void): () => void;
}

const roomClients = new WeakMap<Connection, RoomClient>();

/** The table and event subscriptions over `client`'s connection (one set per connection, made on first use). */
export function roomClient(client: { readonly connection: Connection }): RoomClient {
  let made = roomClients.get(client.connection);
  if (!made) roomClients.set(client.connection, (made = openRooms(client.connection)));
  return made;
}

/** A table's key: `<eventId>/<table>` (an event id has no `/`: SAFE_ID). */
/** A table subscription is keyed by the server's name of its room (shared/protocol/rooms.ts). */
const tableKey = tableRoom;
const splitTableKey = (key: string) => {
  const [eventId, table] = tableOfRoom(key) ?? ['', ''];
  return { eventId, table };
};
/** The table state of an ok ack (the ack without its `ok`). */
const tableOf = ({ ok: _ok, ...state }: Extract<SubscribeTableAck, { ok: true }>): TableState => state;
/** Tables and events are pushed whole: a newer push is the value. */
const whole = <T>(_key: string, _held: T, push: T): T => push;

function openRooms(connection: Connection): RoomClient {
  const port = connection.port;
  const tables = subscriptions<TableState, TableState>(connection, {
    ask(key, _held, done) {
      port
        .timeout(SUBSCRIBE_TIMEOUT_MS)
        .emit('subscribeTable', { protocol: PROTOCOL_VERSION, ...splitTableKey(key) }, (err, ack) => (ack?.ok ? done(tableOf(ack)) : done(null, ack?.error)));
    },
    leave(key, tell) {
      if (tell) port.emit('unsubscribeTable', splitTableKey(key));
    },
    follow: whole,
  });
  const events = subscriptions<EventView, EventView>(connection, {
    ask(eventId, _held, done) {
      port
        .timeout(SUBSCRIBE_TIMEOUT_MS)
        .emit('subscribeEvent', { protocol: PROTOCOL_VERSION, eventId }, (err, ack) => (ack?.ok ? done(ack.event) : done(null, ack?.error)));
    },
    leave(eventId, tell) {
      if (tell) port.emit('unsubscribeEvent', { eventId });
    },
    follow: whole,
  });
  /** Live-line listeners per event, and the newest version handed out per match. */
  const liveListeners = new Map<string, Set<(l: LiveLine) => void>>();
  const liveVersions = new Map<string, number>();
  port.on('table', (t) => tables.push(tableKey(t.eventId, t.table), t));
  port.on('event', (v) => events.push(v.id, v));
  port.on('eventLive', ({ eventId, line }) => {
    const listeners = liveListeners.get(eventId);
    if (!listeners || (liveVersions.get(line.matchId) ?? -1) >= line.version) return;
    liveVersions.set(line.matchId, line.version);
    for (const cb of [...listeners]) cb(line);
  });
  const same = <T>(v: T) => v;

  return {
    watchTable(eventId, table, onTable, onError) {
      return tables.watch(tableKey(eventId, table), same, onTable, onError);
    },

    watchEvent(eventId, onEvent, onLive, onError) {
      let listeners = liveListeners.get(eventId);
      if (onLive) {
        if (!listeners) liveListeners.set(eventId, (listeners = new Set()));
        listeners.add(onLive);
      }
      const stop = events.watch(eventId, same, onEvent, onError);
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
