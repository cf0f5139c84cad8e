/**
 * The table and event rows of the Socket.IO handler table (server/transport/socket.ts runs them through the same ack
 * check, rate limit, size cap and envelope parse as `subscribe` and `record`):
 * - `subscribeTable {protocol, eventId, table}` → joins room `table:<eventId>/<table>`, ack `{ok, …TableState}`;
 *   the room then gets `table` (TableState) whenever the table's current or next match or its cards change;
 * - `subscribeEvent {protocol, eventId}` → joins room `event:<eventId>`, ack `{ok, event}`; the room gets
 *   `event` (EventView) after every change and `eventLive` after every recorded step of one of its matches;
 * - `unsubscribeTable {eventId, table}`, `unsubscribeEvent {eventId}` leave (no answer).
 * Rooms count toward the connection's subscription cap.
 */
import type { SubscribeEventAck, SubscribeEventRequest, SubscribeTableAck, SubscribeTableRequest, UnsubscribeEventRequest, UnsubscribeTableRequest } from '../../shared/protocol/event';
import { subscribeEventSchema, subscribeTableSchema, unsubscribeEventSchema, unsubscribeTableSchema } from '../../shared/protocol/event-schemas';
import { eventRoom, tableRoom } from '../../shared/protocol/rooms';
import { eventNotFound, type EventService } from '../events/service';
import type { Failure } from '../failure';
import { handler, overRoomCap, type Handler, type IoSocket, type SocketLimits } from './socket';

export { eventOfRoom, eventRoom, tableOfRoom, tableRoom } from '../../shared/protocol/rooms';

/** Join `room`, run `read`; leave again when it finds nothing or throws. */
async function joinAndRead<T>(socket: IoSocket, room: string, read: () => Promise<T | Failure>): Promise<T | Failure> {
  // Join before reading, so no push between the read and the join can be missed.
  socket.join(room);
  let res: T | Failure;
  try {
    res = await read();
  } catch (err) {
    socket.leave(room);
    throw err;
  }
  if (res !== null && typeof res === 'object' && 'ok' in res && res.ok === false) socket.leave(room);
  return res;
}

/** The table and event handlers over `events`. */
export function eventHandlers(events: EventService, limits: SocketLimits): Handler<unknown, unknown>[] {
  async function subscribeTable(socket: IoSocket, { eventId, table }: SubscribeTableRequest): Promise<SubscribeTableAck | Failure> {
    const room = tableRoom(eventId, table);
    const over = overRoomCap(socket, room, limits, 'table');
    if (over) return over;
    const state = await joinAndRead(socket, room, () => events.table(eventId, table));
    return 'ok' in state ? state : { ok: true, ...state };
  }

  async function subscribeEvent(socket: IoSocket, { eventId }: SubscribeEventRequest): Promise<SubscribeEventAck | Failure> {
    const room = eventRoom(eventId);
    const over = overRoomCap(socket, room, limits, 'eventId');
    if (over) return over;
    const view = await joinAndRead(socket, room, async () => (await events.view(eventId)) ?? eventNotFound(eventId));
    return 'ok' in view ? view : { ok: true, event: view };
  }

  return [
    handler({ event: 'subscribeTable', schema: subscribeTableSchema, acked: true, internal: 'could not read the table; retry', handle: subscribeTable }),
    handler({
      event: 'unsubscribeTable',
      schema: unsubscribeTableSchema,
      acked: false,
      internal: 'could not leave the table',
      handle: async (socket: IoSocket, { eventId, table }: UnsubscribeTableRequest) => void (await socket.leave(tableRoom(eventId, table))),
    }),
    handler({ event: 'subscribeEvent', schema: subscribeEventSchema, acked: true, internal: 'could not read the event; retry', handle: subscribeEvent }),
    handler({
      event: 'unsubscribeEvent',
      schema: unsubscribeEventSchema,
      acked: false,
      internal: 'could not leave the event',
      handle: async (socket: IoSocket, { eventId }: UnsubscribeEventRequest) => void (await socket.leave(eventRoom(eventId))),
    }),
  ];
}
