/**
 * The draw page's handlers (issue 27), rows of the Socket.IO handler table (server/transport/socket.ts runs them
 * through the same ack check, rate limit, size cap and envelope parse as every subscribe):
 * - `subscribeDraw {protocol, eventId}` → joins room `draw:<eventId>`, ack `{ok, …DrawPage}` (the whole draw with
 *   the players' names, the event's name and tables); the room then gets `draw` (a DrawPush: what changed) after
 *   every change of the draw's entries (server/fanout/viewers.ts `drawPush`);
 * - `unsubscribeDraw {eventId}` leaves (no answer).
 * Public, as `GET /api/events/<id>/draw` is. Rooms count toward the connection's subscription cap (./room-cap.ts).
 */
import type { DrawPage, SubscribeDrawAck, SubscribeDrawRequest, UnsubscribeDrawRequest } from '../../shared/protocol/draw';
import { drawRoom } from '../../shared/protocol/rooms';
import type { DrawService } from '../draws/service';
import { eventNotFound, type EventService } from '../events/service';
import type { Failure } from '../failure';
import { subscribeDrawSchema, unsubscribeDrawSchema } from '../protocol/draw-schemas';
import { handler, overRoomCap, subscribeRoom, type Handler, type IoSocket, type SocketLimits } from './socket';

/** The draw page of event `eventId`: `not-found` naming `eventId` (no event) or `draw` (no draw yet). */
export async function drawPage(draws: DrawService, events: EventService, eventId: string): Promise<DrawPage | Failure> {
  const event = await events.view(eventId);
  if (!event) return eventNotFound(eventId);
  const got = await draws.get(eventId);
  if (!got.ok) return got;
  const { draw } = got;
  const inDraw = new Set(draw.definition.players.map((p) => p.id));
  return {
    eventId,
    eventName: event.name,
    version: draw.version,
    createdAt: draw.createdAt,
    format: draw.definition.format,
    players: event.roster
      .filter((p) => inDraw.has(p.id))
      .map((p) => ({
        id: p.id,
        name: p.name,
        ...(p.short ? { short: p.short } : {}),
        ...(p.country ? { country: p.country } : {}),
        ...(p.rating !== undefined ? { rating: p.rating } : {}),
      })),
    tables: event.tables.map((t) => ({ id: t.id, name: t.name })),
    draw: draw.draw,
  };
}

/** The draw handlers over `draws` and `events`. */
export function drawHandlers(draws: DrawService, events: EventService, limits: SocketLimits): Handler<unknown, unknown>[] {
  async function subscribeDraw(socket: IoSocket, { eventId }: SubscribeDrawRequest): Promise<SubscribeDrawAck | Failure> {
    const room = drawRoom(eventId);
    const over = overRoomCap(socket, room, limits, 'eventId');
    if (over) return over;
    const page = await subscribeRoom(socket, room, limits, 'eventId', () => drawPage(draws, events, eventId));
    return 'ok' in page ? page : { ok: true, ...page };
  }
  return [
    handler({ event: 'subscribeDraw', schema: subscribeDrawSchema, acked: true, internal: 'could not read the draw; retry', handle: subscribeDraw }),
    handler({
      event: 'unsubscribeDraw',
      schema: unsubscribeDrawSchema,
      acked: false,
      internal: 'could not leave the draw',
      handle: async (socket: IoSocket, { eventId }: UnsubscribeDrawRequest) => void (await socket.leave(drawRoom(eventId))),
    }),
  ];
}
