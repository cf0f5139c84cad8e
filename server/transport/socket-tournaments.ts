/**
 * The tournament handlers (a tournament is an "event" in the API): the table and event rows of the Socket.IO
 * handler table (server/transport/socket.ts runs them through the same ack check, rate limit, size cap and
 * envelope parse as `subscribe` and `record`):
 * - `subscribeTable {protocol, eventId, table}` → joins room `table:<eventId>/<table>`, ack `{ok, …TableState}`;
 *   the room then gets `table` (TableState) whenever the table's current or next match or its cards change;
 * - `subscribeEvent {protocol, eventId}` → joins room `event:<eventId>`, ack `{ok, event}`; the room gets
 *   `event` (EventView) after every change and `eventLive` after every recorded step of one of its matches;
 * - `unsubscribeTable {eventId, table}`, `unsubscribeEvent {eventId}` leave (no answer).
 * Rooms count toward the connection's subscription cap once their reads finished (./room-cap.ts).
 */
import type {
  SubscribeEventAck,
  SubscribeEventRequest,
  SubscribeTableAck,
  SubscribeTableRequest,
  UnsubscribeEventRequest,
  UnsubscribeTableRequest,
} from '../../shared/protocol/event';
import { subscribeEventSchema, subscribeTableSchema, unsubscribeEventSchema, unsubscribeTableSchema } from '../protocol/event-schemas';
import { eventRoom, tableRoom } from '../../shared/protocol/rooms';
import { eventNotFound, type EventService } from '../events/service';
import type { Failure } from '../failure';
import { handler, overRoomCap, subscribeRoom, type Handler, type IoSocket, type SocketLimits } from './socket';

export { eventOfRoom, eventRoom, tableOfRoom, tableRoom } from '../../shared/protocol/rooms';

/** The table and event handlers over `events`. */
export function tournamentHandlers(events: EventService, limits: SocketLimits): Handler<unknown, unknown>[] {
  async function subscribeTable(socket: IoSocket, { eventId, table }: SubscribeTableRequest): Promise<SubscribeTableAck | Failure> {
    const room = tableRoom(eventId, table);
    const over = overRoomCap(socket, room, limits, 'table');
    if (over) return over;
    const state = await subscribeRoom(socket, room, limits, 'table', () => events.table(eventId, table));
    return 'ok' in state ? state : { ok: true, ...state };
  }

  async function subscribeEvent(socket: IoSocket, { eventId }: SubscribeEventRequest): Promise<SubscribeEventAck | Failure> {
    const room = eventRoom(eventId);
    const over = overRoomCap(socket, room, limits, 'eventId');
    if (over) return over;
    const view = await subscribeRoom(socket, room, limits, 'eventId', async () => (await events.view(eventId)) ?? eventNotFound(eventId));
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
