/**
 * The protocol in one view: every message of each direction as one discriminated union (after tldraw
 * sync-core's one-union-per-direction), derived from the Socket.IO event maps of wire.ts so it cannot drift
 * from them. `type` is the Socket.IO event name, `body` what travels with it; a request that carries
 * `protocol` names PROTOCOL_VERSION (version.ts), every other version being refused with `protocol-mismatch`.
 *
 * Where each message is described: the match messages in wire.ts, the table and event messages in event.ts, the
 * shot clock's (`time`, `shotClock`, `shotClockAction`) in shot-clock.ts, the room each push goes to in rooms.ts, the step vocabulary in steps.ts, the set-up in setup.ts, the
 * shared words in vocabulary.ts; their zod schemas are the server's (server/protocol/*-schemas.ts).
 */
import type { AckedRequests, ClientToServerEvents, ServerToClientEvents } from './wire';

export { PROTOCOL_VERSION } from './version';

/**
 * Client → server, twelve messages: `subscribe`, `unsubscribe`, `record`, `subscribeTable`, `unsubscribeTable`,
 * `subscribeEvent`, `unsubscribeEvent`, `subscribeDraw`, `unsubscribeDraw`, `time`, `shotClock`, `shotClockAction`.
 */
export type ClientMessage = {
  [K in keyof ClientToServerEvents]: { type: K; body: Parameters<ClientToServerEvents[K]>[0] };
}[keyof ClientToServerEvents];

/** Server → client pushes: `state` (a match), `table`, `event`, `eventLive`, `draw` (an event's draw changed), `shotClock` and `sheetPage` (an older part of a long score sheet). */
export type ServerPush = {
  [K in keyof ServerToClientEvents]: { type: K; body: Parameters<ServerToClientEvents[K]>[0] };
}[keyof ServerToClientEvents];

/** Server → client acknowledgements: the answer to each request sent with an ack callback. */
export type ServerAck = {
  [K in keyof AckedRequests]: { type: K; body: AckedRequests[K]['ack'] };
}[keyof AckedRequests];

/** Server → client: a push or an acknowledgement. */
export type ServerMessage = ServerPush | ServerAck;

/** The Socket.IO event names of each direction. */
export type ClientMessageType = ClientMessage['type'];
export type ServerPushType = ServerPush['type'];
