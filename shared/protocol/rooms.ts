/**
 * Socket.IO room names, in one place for the server (which joins sockets to them and pushes to them: its
 * Socket.IO transport in server/transport/) and the pages' live client (which keys its table and event
 * subscriptions by them: web/src/lib/live-rooms.ts). Pure string functions, each name with its
 * inverse:
 * - `match:<matchId>` — viewers of a match at detail `full` (state + statistics deltas);
 * - `scorebug:<matchId>` — viewers of a match at detail `scorebug` (state only);
 * - `table:<eventId>/<table>` — pages following a table of an event (`table` pushes);
 * - `event:<eventId>` — the organiser's pages of an event (`event` and `eventLive` pushes);
 * - `draw:<eventId>` — the draw pages and the OBS draw graphics of an event (`draw` pushes).
 * Event ids and match ids hold no `/` or `:` (SAFE_ID), so every name splits back unambiguously.
 */
import type { Detail } from './wire';

/** Room of a match's viewers at `detail`: `match:<id>` (full, the default) or `scorebug:<id>`. */
export function matchRoom(matchId: string, detail: Detail = 'full'): string {
  return detail === 'full' ? `match:${matchId}` : `scorebug:${matchId}`;
}

/** The match of a `matchRoom` name (either detail), or null for another room (a socket's own room). */
export function matchOfRoom(room: string): string | null {
  if (room.startsWith('match:')) return room.slice('match:'.length);
  if (room.startsWith('scorebug:')) return room.slice('scorebug:'.length);
  return null;
}

/** Room of the pages following table `table` of event `eventId`. */
export function tableRoom(eventId: string, table: string): string {
  return `table:${eventId}/${table}`;
}

/** `[eventId, table]` of a `tableRoom` name, or null for another room. */
export function tableOfRoom(room: string): readonly [string, string] | null {
  const m = /^table:([^/]+)\/(.+)$/.exec(room);
  return m ? [m[1]!, m[2]!] : null;
}

/** Room of the organiser's pages of event `eventId`. */
export function eventRoom(eventId: string): string {
  return `event:${eventId}`;
}

/** The event id of an `eventRoom` name, or null for another room. */
export function eventOfRoom(room: string): string | null {
  return room.startsWith('event:') ? room.slice('event:'.length) : null;
}

/** Room of the pages following the draw of event `eventId` (the draw page, the OBS bracket and standings). */
export function drawRoom(eventId: string): string {
  return `draw:${eventId}`;
}

/** The event id of a `drawRoom` name, or null for another room. */
export function drawOfRoom(room: string): string | null {
  return room.startsWith('draw:') ? room.slice('draw:'.length) : null;
}
